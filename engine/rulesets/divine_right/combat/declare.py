"""Declaring the Combat Phase's attacks (rulebook: Combat Phase › Which Units May
Attack?, Mixed-Type Combat, Effects of Terrain on Combat; Amphibious Attacks; Relieving
Forces at Sieges; Kingdoms › Activation of Kingdoms; Random Events Phase › Bad Omens).

`attack-declare attacks=(A, B, ...)`: every attack of the phase at once, each written
`ATTACKERS>SPACES` (units by id or by space, then the defending spaces), prefixed `fleet:`
for fleets attacking fleets or `amphibious:` for fleets (with the land units they carry)
attacking a port; numbered 1, 2, ... in the order given. The whole declaration is checked
before anything is recorded: adjacency, no attack across the navigable river, no unit
attacking or attacked twice, units inside castles only joining a relief of their own
castle, units that declared a siege, made a siege attack or broke out this turn, regulars
with Bad Omens, a newly activated kingdom attacking outside itself.

Readings (docs/divine-right.md): a stack attacks whole (its units eligible to attack);
one defending player per attack; a defending space is attacked by one land and one naval
attack at most, an amphibious attack engaging both.
"""

from __future__ import annotations

from warscribe.engine.errors import IllegalCommand, InvalidCommand

from ..arguments import hex_arg, label, path_arg
from ..data import DRData, Terrain, hex_distance
from ..events import (
    AttacksDeclared,
    DecisionAsked,
)
from ..evolving import Decision
from ..movement.fleets import aboard
from ..sections import (
    ACTIVATION_OF_KINGDOMS,
    AMPHIBIOUS_ATTACKS,
    BAD_OMENS,
    COMBAT_PHASE,
    COMBAT_TERRAIN,
    MIXED_TYPE_COMBAT,
    RELIEVING_FORCES,
    WHICH_UNITS,
)
from ..siege.declare import BREAKOUT, omened, siege_at
from ..state import Attack, Hex, State, Unit
from ..tables import Evolvers
from ..turn import playing
from ..units import (
    at,
    castle,
    castle_side,
    enemies,
    hostile_castle,
    is_army,
    is_fleet,
    is_hero,
)
from .fight import (
    AMPHIBIOUS,
    FLEET,
    LAND,
)

PORTS = frozenset({Terrain.PORT, Terrain.NON_CASTLE_PORT})


# -- declaring ---------------------------------------------------------------------------------


def declare_attacks(d: Decision) -> None:
    """Every attack of the phase, checked together: no unit attacks or is attacked twice."""
    turn = playing(d.state)
    if turn.progress.declared:
        raise IllegalCommand("the attacks of this Combat Phase are declared already", COMBAT_PHASE)
    texts = _texts(d.call.get("attacks"))
    attacks: list[Attack] = []
    for number, text in enumerate(texts, 1):
        attack = _attack(d, turn.player, number, text)
        _check_overlaps(d, turn.player, attack, attacks)
        attacks.append(attack)
    d.emit(AttacksDeclared(player=turn.player, attacks=tuple(attacks)))


def _texts(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        found = tuple(t.strip() for t in value.split(";") if t.strip())
    elif isinstance(value, tuple | list):
        found = tuple(str(t).strip() for t in value)
    else:
        found = ()
    if not found:
        raise InvalidCommand("declare at least one attack: ATTACKERS>SPACES", COMBAT_PHASE)
    return found


def _attack(d: Decision, player: str, number: int, text: str) -> Attack:
    kind, left, right = _split(text)
    where = f"attack {number} ({text})"
    units = _attacking_units(d, player, left, kind, where)
    spaces = path_arg(d.data, right, COMBAT_PHASE)
    if len(set(spaces)) != len(spaces):
        raise InvalidCommand(f"{where}: a defending space is named twice", COMBAT_PHASE)
    defender = _defender(d, player, kind, spaces, where)
    relief = _relief(d, player, spaces, defender)
    helpers = [u for u in units if u.inside]
    outside = [u for u in units if not u.inside]
    _check_helpers(d, kind, relief, helpers, outside, where)
    for unit in outside:
        _check_attacker(d, unit, kind, spaces, where, units)
    _check_stacks(d.state, player, kind, outside, where)
    return Attack(
        number=number,
        units=tuple(u.id for u in outside),
        spaces=spaces,
        defender=defender,
        kind=kind,
        relief=relief,
        helpers=tuple(u.id for u in helpers),
    )


def _split(text: str) -> tuple[str, str, str]:
    kind, body = LAND, text
    for prefix in (FLEET, AMPHIBIOUS):
        if body.startswith(prefix + ":"):
            kind, body = prefix, body[len(prefix) + 1 :]
    left, sep, right = body.partition(">")
    if not sep or not left.strip() or not right.strip():
        raise InvalidCommand(
            f"write an attack as ATTACKERS>SPACES (e.g. Muetar-A1,12,7>13,7), not {text!r}",
            COMBAT_PHASE,
        )
    return kind, left, right


def _attacking_units(d: Decision, player: str, text: str, kind: str, where: str) -> list[Unit]:
    """The units named: ids, or spaces (the player's units there of the attack's kind,
    outside any walls); an amphibious attack's fleets bring the land units aboard."""
    found: dict[str, Unit] = {}
    for token in _tokens(text):
        for unit in _units_of(d, player, token, kind, where):
            found.setdefault(unit.id, unit)
    if kind == AMPHIBIOUS:
        for fleet in [u for u in found.values() if is_fleet(u)]:
            for cargo in aboard(d.state, fleet):
                if not is_hero(cargo):
                    found.setdefault(cargo.id, cargo)
    return sorted(found.values(), key=lambda u: u.id)


def _tokens(text: str) -> list[str]:
    """Unit ids and spaces (`COL,ROW` pairs kept together)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    tokens: list[str] = []
    while parts:
        part = parts.pop(0)
        if part.isdigit() and parts and parts[0].isdigit():
            part = f"{part},{parts.pop(0)}"
        tokens.append(part)
    return tokens


def _units_of(d: Decision, player: str, token: str, kind: str, where: str) -> list[Unit]:
    if token in d.state.units:
        unit = d.state.units[token]
        if d.state.controller(unit) != player or is_hero(unit):
            raise IllegalCommand(
                f"{where}: {token} is not a combat unit of {player}'s", WHICH_UNITS
            )
        return [unit]
    hex_ = hex_arg(d.data, token, COMBAT_PHASE)
    units = [
        u
        for u in at(d.state, hex_)
        if d.state.controller(u) == player and not u.inside and _of_kind(u, kind)
    ]
    if not units:
        raise IllegalCommand(
            f"{where}: {player} has no units to attack with at {token}", WHICH_UNITS
        )
    return units


def _of_kind(unit: Unit, kind: str) -> bool:
    """Whether the unit fights in an attack of `kind` (land units aboard fleets fight only
    in amphibious attacks, where they come with their fleets)."""
    if kind == LAND:
        return is_army(unit) and unit.aboard is None
    return is_fleet(unit)


def targets(state: State, player: str, kind: str, space: Hex) -> list[Unit]:
    """The enemy units an attack of `kind` on the space engages: outside the walls; land
    units, or fleets, or (amphibious) both."""
    return [
        u
        for u in enemies(state, player, space)
        if not is_hero(u)
        and not u.inside
        and u.aboard is None
        and (kind == AMPHIBIOUS or _of_kind(u, kind))
    ]


def _defender(d: Decision, player: str, kind: str, spaces: tuple[Hex, ...], where: str) -> str:
    players: set[str] = set()
    for space in spaces:
        found = targets(d.state, player, kind, space)
        if not found and not _empty_port(d, player, kind, space):
            what = "land" if kind == LAND else "fleet" if kind == FLEET else "combat"
            raise IllegalCommand(
                f"{where}: no enemy {what} unit outside the walls at {label(d.data, space)} "
                "(lone heroes and units inside a castle are not attacked)",
                WHICH_UNITS,
            )
        players |= {str(d.state.controller(u)) for u in found}
        if not found:
            standing = castle(d.state, d.data, space)
            players.add(str(castle_side(d.state, standing)) if standing else "")
    if len(players) != 1:
        raise IllegalCommand(f"{where}: an attack is made on one player's units", COMBAT_PHASE)
    return players.pop()


def _empty_port(d: Decision, player: str, kind: str, space: Hex) -> bool:
    """An amphibious attack may land on an empty enemy castle-port to besiege it."""
    found = hostile_castle(d.state, d.data, player, space)
    return (
        kind == AMPHIBIOUS
        and found is not None
        and found.port
        and castle_side(d.state, found) is not None
    )


def _relief(d: Decision, player: str, spaces: tuple[Hex, ...], defender: str) -> str | None:
    """The castle relieved: the attack is on the besiegers of a castle of the attacker's."""
    if len(spaces) != 1:
        return None
    siege = siege_at(d.state, spaces[0])
    standing = castle(d.state, d.data, spaces[0])
    if siege is None or standing is None or siege.besieger != defender:
        return None
    return standing.name if castle_side(d.state, standing) == player else None


def _check_helpers(
    d: Decision,
    kind: str,
    relief: str | None,
    helpers: list[Unit],
    outside: list[Unit],
    where: str,
) -> None:
    """Units inside a castle join only a relieving attack on its besiegers: land units a
    land attack, fleets a naval one, either type (not both) an amphibious one; never
    after breaking out."""
    if not helpers:
        return
    if relief is None or not outside:
        raise IllegalCommand(
            f"{where}: units inside a castle attack only their besiegers, joining a relieving "
            "force (or in a breakout)",
            RELIEVING_FORCES,
        )
    types = {is_fleet(u) for u in helpers}
    if len(types) > 1 or (kind != AMPHIBIOUS and types != {kind == FLEET}):
        raise IllegalCommand(
            f"{where}: the besieged join a relief of their own type (either type, not both, "
            "in an amphibious one)",
            RELIEVING_FORCES,
        )
    assert d.state.turn is not None
    broke = [u.id for u in helpers if d.state.turn.engaged_in(u.id) == BREAKOUT]
    if broke:
        raise IllegalCommand(f"{where}: {', '.join(broke)} broke out this turn", RELIEVING_FORCES)


def _check_attacker(
    d: Decision,
    unit: Unit,
    kind: str,
    spaces: tuple[Hex, ...],
    where: str,
    units: list[Unit],
) -> None:
    assert d.state.turn is not None
    done = d.state.turn.engaged_in(unit.id)
    if done is not None:
        raise IllegalCommand(f"{where}: {unit.id} {done} this turn: it may not attack", WHICH_UNITS)
    if omened(d.state, unit):
        raise IllegalCommand(f"{where}: {unit.kingdom}'s regulars have Bad Omens", BAD_OMENS)
    _check_kind(unit, kind, units, where)
    for space in spaces:
        _check_reach(d.state, d.data, unit, kind, space, where)


def _check_kind(unit: Unit, kind: str, units: list[Unit], where: str) -> None:
    fleets = {u.id for u in units if is_fleet(u)}
    if kind == AMPHIBIOUS and (is_fleet(unit) or unit.aboard in fleets):
        return
    if kind == LAND and is_fleet(unit):
        raise IllegalCommand(
            f"{where}: {unit.id} is a fleet: fleets fight fleets (declare a fleet: attack) or "
            "make amphibious attacks",
            MIXED_TYPE_COMBAT,
        )
    if not _of_kind(unit, kind):
        raise IllegalCommand(
            f"{where}: {unit.id} cannot fight in this attack (land units aboard fleets fight "
            "only in amphibious attacks)",
            MIXED_TYPE_COMBAT,
        )


def reaches(state: State, data: DRData, unit: Unit, kind: str, space: Hex) -> bool:
    """Whether the unit may attack the space in an attack of `kind` (next to it, not across
    the navigable river by land, a port for an amphibious attack, a new ally's kingdom)."""
    try:
        _check_reach(state, data, unit, kind, space, "")
    except IllegalCommand:
        return False
    return True


def _check_reach(state: State, data: DRData, unit: Unit, kind: str, space: Hex, where: str) -> None:
    if hex_distance(unit.hex, space) != 1:
        raise IllegalCommand(f"{where}: {unit.id} is not next to {label(data, space)}", WHICH_UNITS)
    if kind == LAND and data.map.is_river_side(unit.hex, space):
        raise IllegalCommand(
            f"{where}: land units do not attack across the navigable river", COMBAT_TERRAIN
        )
    place = data.map.get(*space)
    if kind == AMPHIBIOUS and (place is None or not place.terrain & PORTS):
        raise IllegalCommand(f"{where}: amphibious attacks are made on ports", AMPHIBIOUS_ATTACKS)
    standing = state.kingdoms.get(unit.kingdom)
    new = standing is not None and standing.ally and standing.activated_on == state.number
    if new and (place is None or place.kingdom != unit.kingdom):
        raise IllegalCommand(
            f"{where}: {unit.kingdom} was activated this turn: its units attack only inside "
            f"{unit.kingdom}",
            ACTIVATION_OF_KINGDOMS,
        )


def _check_stacks(state: State, player: str, kind: str, units: list[Unit], where: str) -> None:
    """A stack that attacks attacks whole: its units of the attack's kind that may attack."""
    ids = {u.id for u in units}
    for hex_ in sorted({u.hex for u in units if u.aboard is None}):
        left = [
            u.id
            for u in at(state, hex_)
            if state.controller(u) == player
            and not u.inside
            and _of_kind(u, LAND if kind == LAND else FLEET)
            and u.id not in ids
            and _eligible(state, u)
        ]
        if left:
            raise IllegalCommand(
                f"{where}: if a stack attacks, all its units attack ({', '.join(left)} too)",
                WHICH_UNITS,
            )


def _eligible(state: State, unit: Unit) -> bool:
    assert state.turn is not None
    return state.turn.engaged_in(unit.id) is None and not omened(state, unit)


def _check_overlaps(d: Decision, player: str, attack: Attack, earlier: list[Attack]) -> None:
    used = {u for a in earlier for u in (*a.units, *a.helpers)}
    twice = sorted(used & {*attack.units, *attack.helpers})
    if twice:
        raise IllegalCommand(
            f"attack {attack.number}: {', '.join(twice)} would attack twice", WHICH_UNITS
        )
    for other in earlier:
        for space in set(other.spaces) & set(attack.spaces):
            if _overlap(other.kind, attack.kind):
                raise IllegalCommand(
                    f"attack {attack.number}: the units at {label(d.data, space)} would be "
                    "attacked twice",
                    WHICH_UNITS,
                )


def _overlap(a: str, b: str) -> bool:
    return AMPHIBIOUS in (a, b) or a == b


# -- the end of the phase -----------------------------------------------------------------------


def unresolved_attacks(state: State, data: DRData) -> list[DecisionAsked]:
    assert state.turn is not None
    left = [a.number for a in state.turn.progress.attacks if not a.resolved]
    if left:
        raise IllegalCommand(
            f"resolve the declared attacks first ({', '.join(map(str, left))}: attack resolve N)",
            COMBAT_PHASE,
        )
    return []


# -- evolve ---------------------------------------------------------------------------------------


def _attacks(state: State, event: AttacksDeclared) -> State:
    return state.with_progress(attacks=event.attacks, declared=True)


EVOLVERS: Evolvers = {
    AttacksDeclared: _attacks,
}
