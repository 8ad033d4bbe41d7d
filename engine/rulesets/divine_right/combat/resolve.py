"""Resolving the Combat Phase's attacks (rulebook: Combat Phase, Making Attacks,
Advance After Combat, Amphibious Attacks, Relieving Forces at Sieges; Siege Phase ›
Non-siege Attacks by Besiegers).

- `attack-resolve number=N [retreated=true]`: resolve declared attack N now (any order);
  the defender is first asked whether to retreat (see `retreat`); with `retreated`,
  units that retreated this phase next to its attackers are attacked too. The battle
  itself, the losses each owner chooses (`losses`) and heroes' fates: see `fight`.
- the defender's `sortie [units=...]` or `sortie-none`, asked first when an amphibious
  attack falls on his castle-port: its fleets within the walls come out to defend it
  (and stay out after the battle).
- the attacker's `advance-into to=HEX [units=...] [inside=true]` or `advance-none`: into a
  vacated space (declaring a siege of an enemy castle space), or into a relieved castle.

Readings (docs/divine-right.md): an attack whose defenders have all gone (a kingdom
deactivated) is cancelled, except an amphibious attack on a castle-port; the units a
relieving fleet carries land within the walls with it.
"""

from __future__ import annotations

import dataclasses

from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand

from ..arguments import label, names
from ..data import hex_distance
from ..events import (
    AdvanceDeclined,
    AttackBegun,
    AttackEnded,
    FleetsCameOut,
    UnitsAdvanced,
)
from ..evolving import Decision
from ..heroes import fate
from ..movement.fleets import aboard
from ..sections import (
    ACTIVATION_OF_KINGDOMS,
    ADVANCE_AFTER_COMBAT,
    AMPHIBIOUS_ATTACKS,
    COMBAT_PHASE,
    COMBAT_TERRAIN,
    DECLARING_A_SIEGE,
)
from ..siege.declare import besieger, declare, refusal
from ..state import Attack, Fight, Hex, Pending, State, Unit
from ..tables import Answer, Evolvers
from ..turn import asked_now, offered_units, playing
from ..units import (
    at,
    castle,
    castle_side,
    hostile_castle,
    is_fleet,
    is_hero,
    lone_heroes,
)
from .declare import targets
from .fight import (
    ADVANCE,
    AMPHIBIOUS,
    answer_units,
    attackers_left,
    close_pending,
    fight_now,
    the_fight,
    vacated,
)
from .retreat import (
    before_battle,
    first_turn,
)

SORTIE = "sortie"


# -- resolving ---------------------------------------------------------------------------------


def resolve(d: Decision) -> None:
    """Resolve a declared attack: the defender may first try to retreat."""
    turn = playing(d.state)
    attack = _declared(d.state, d.call.number("number"))
    attackers = [u.id for u in attackers_of(d.state, attack)]
    defenders = [u.id for s in attack.spaces for u in targets(d.state, turn.player, attack.kind, s)]
    if d.call.flag("retreated"):
        defenders += _retreated_nearby(d.state, attack, attackers, defenders)
    if not attackers or (not defenders and attack.kind != AMPHIBIOUS):
        why = "cancelled: its attackers are gone" if not attackers else "cancelled: no defender"
        d.emit(AttackEnded(number=attack.number, why=why))
        return
    d.emit(
        AttackBegun(
            number=attack.number,
            kind=attack.kind,
            attacker=turn.player,
            defender=attack.defender,
            attackers=tuple(attackers),
            defenders=tuple(defenders),
            spaces=attack.spaces,
            relief=attack.relief,
            helpers=tuple(u for u in attack.helpers if u in d.state.units),
        )
    )
    fleets = _in_port(d, attack) if attack.kind == AMPHIBIOUS else []
    if fleets:
        why = (
            f"attack {attack.number}: your fleets within the walls may come out to defend "
            "against the amphibious attack (sortie [FLEET...]), or stay in (sortie --none)"
        )
        d.ask(SORTIE, attack.defender, tuple(fleets), count=0, why=why)
        return
    before_battle(d)


def _in_port(d: Decision, attack: Attack) -> list[str]:
    """The defender's fleets within the walls of his castle-ports under attack."""
    found = []
    for space in attack.spaces:
        standing = castle(d.state, d.data, space)
        if (
            standing is None
            or not standing.port
            or castle_side(d.state, standing) != attack.defender
        ):
            continue
        found += [
            u.id
            for u in at(d.state, space)
            if is_fleet(u) and u.inside and d.state.controller(u) == attack.defender
        ]
    return sorted(found)


def sortie(d: Decision) -> None:
    """The defender's fleets named (all of them by default) come out of the port to defend
    against the amphibious attack; they stay outside after it."""
    return answer_units(d, _SORTIE_ASKED, FleetsCameOut, before_battle)


def sortie_none(d: Decision) -> None:
    """The fleets stay within the walls."""
    return answer_units(d, _SORTIE_ASKED, FleetsCameOut, before_battle, none=True)


_SORTIE_ASKED = (AMPHIBIOUS_ATTACKS, "is not a fleet of yours within the walls here")


def attackers_of(state: State, attack: Attack) -> list[Unit]:
    return [state.units[u] for u in attack.units if u in state.units]


def _declared(state: State, number: int) -> Attack:
    assert state.turn is not None
    progress = state.turn.progress
    if progress.fight is not None:
        raise IllegalCommand(f"attack {progress.fight.number} is being resolved", COMBAT_PHASE)
    attack = next((a for a in progress.attacks if a.number == number), None)
    if attack is None:
        raise IllegalCommand(f"no attack {number} was declared this phase", COMBAT_PHASE)
    if attack.resolved:
        raise IllegalCommand(f"attack {number} is resolved already", COMBAT_PHASE)
    return attack


def _retreated_nearby(
    state: State, attack: Attack, attackers: list[str], defenders: list[str]
) -> list[str]:
    """Units that retreated this phase next to every attacker of this attack (not those
    attacked already after retreating)."""
    assert state.turn is not None
    fought = set(state.turn.progress.fought)
    return [
        u
        for u in state.turn.progress.retreated
        if u in state.units
        and u not in fought
        and u not in defenders
        and state.controller(state.units[u]) == attack.defender
        and not is_hero(state.units[u])
        and all(hex_distance(state.units[u].hex, state.units[a].hex) == 1 for a in attackers)
    ]


# -- advance after combat -----------------------------------------------------------------------


def advance_into(d: Decision) -> None:
    """Attacking units advance into a vacated space (besieging it if it is an enemy
    castle), or a relieving force enters the castle it relieved."""
    pending = asked_now(d.state)
    current_fight = fight_now(d.state)
    to: Hex = d.call.value("to")
    if label(d.data, to) not in pending.options and not _relieved(d, current_fight, to):
        raise IllegalCommand(
            f"advance into {' or '.join(pending.options)}, not {label(d.data, to)}",
            ADVANCE_AFTER_COMBAT,
        )
    units = _advancing(d.state, d.call, current_fight)
    inside = _inside(d, current_fight, to, d.call.flag("inside"))
    _check_advance(d, pending.player, units, to, inside)
    carried = [c.id for u in units if is_fleet(u) for c in aboard(d.state, u)]
    landed = inside or current_fight.kind == AMPHIBIOUS
    d.emit(
        UnitsAdvanced(
            player=pending.player,
            units=tuple(u.id for u in units),
            start=units[0].hex,
            hex=to,
            inside=inside,
            carried=tuple(carried),
            landed=landed,
        )
    )
    _arrive(d, pending.player, to)
    d.emit(AttackEnded(number=current_fight.number, why="resolved"))


def _relieved(d: Decision, current_fight: Fight, to: Hex) -> bool:
    return current_fight.relief is not None and d.data.place(current_fight.relief).hex == to


def _advancing(state: State, command: Call, current_fight: Fight) -> list[Unit]:
    survivors = attackers_left(state, current_fight, helpers=False)
    named = command.get("units")
    if named is None:
        return [u for u in survivors if u.aboard is None]
    ids = names(named, ADVANCE_AFTER_COMBAT)
    alive = {u.id: u for u in survivors}
    wrong = [u for u in ids if u not in alive]
    if wrong:
        raise IllegalCommand(
            f"{', '.join(wrong)} did not attack in attack {current_fight.number} (or is lost)",
            ADVANCE_AFTER_COMBAT,
        )
    return [alive[u] for u in ids]


def _inside(d: Decision, current_fight: Fight, to: Hex, wanted: bool) -> bool:
    """Relieving units go within the walls (they may choose once the besiegers are all
    gone); elsewhere only into a castle of their own side, if they wish."""
    if _relieved(d, current_fight, to) and not vacated(d.state, current_fight, to):
        return True
    if not wanted:
        return False
    standing = castle(d.state, d.data, to)
    if standing is None or castle_side(d.state, standing) != current_fight.attacker:
        raise IllegalCommand(
            "units go inside only the walls of their own castle", ADVANCE_AFTER_COMBAT
        )
    return True


def _check_advance(d: Decision, player: str, units: list[Unit], to: Hex, inside: bool) -> None:
    for unit in units:
        if not is_fleet(unit) and d.data.map.is_river_side(unit.hex, to):
            raise IllegalCommand(
                f"{unit.id} may not advance across the navigable river", COMBAT_TERRAIN
            )
    limited = first_turn(d.state, d.data, units, to)
    if limited is not None:
        raise IllegalCommand(
            f"no advance into {label(d.data, to)}: {limited}", ACTIVATION_OF_KINGDOMS
        )
    if (
        not inside
        and hostile_castle(d.state, d.data, player, to)
        and besieger(d.state, to) != player
    ):
        refused = refusal(d.state, d.data, player, to, units)
        if refused is not None:
            raise IllegalCommand(
                f"advancing into {label(d.data, to)} would have to declare a siege, and {refused}",
                DECLARING_A_SIEGE,
            )


def _arrive(d: Decision, player: str, to: Hex) -> None:
    """Entering an enemy castle space declares its siege; lone enemy heroes there roll."""
    if hostile_castle(d.state, d.data, player, to) and besieger(d.state, to) != player:
        declare(d, player, to, "advance after combat")
    for hero in lone_heroes(d.state, player, to):
        fate(d, hero.id, 3, player)


def advance_none(d: Decision) -> None:
    pending = asked_now(d.state)
    current_fight = fight_now(d.state)
    d.emit(AdvanceDeclined(player=pending.player, number=current_fight.number))
    d.emit(AttackEnded(number=current_fight.number, why="resolved"))


def _advance_stands(state: State, pending: Pending) -> bool:
    """The attacker is asked to advance while his attack goes on and attackers are left."""
    current_fight = the_fight(state)
    return (
        current_fight is not None
        and current_fight.attacker == pending.player
        and bool(attackers_left(state, current_fight, helpers=False))
    )


def _sortie_stands(state: State, pending: Pending) -> bool:
    return the_fight(state) is not None and offered_units(state, pending)


def _came_out(state: State, event: FleetsCameOut) -> State:
    """The fleets (and what they carry) are outside the walls, among the defenders."""
    gone = set(event.units)
    moved = [
        dataclasses.replace(u, inside=False)
        for u in state.units.values()
        if u.id in gone or u.aboard in gone
    ]
    state = close_pending(state.with_units(moved), SORTIE)
    current_fight = fight_now(state)
    defenders = (*current_fight.defenders, *event.units)
    return state.with_progress(fight=dataclasses.replace(current_fight, defenders=defenders))


DECISIONS: dict[str, Answer] = {
    ADVANCE: Answer(_advance_stands),
    SORTIE: Answer(_sortie_stands),
}


EVOLVERS: Evolvers = {
    FleetsCameOut: _came_out,
}
