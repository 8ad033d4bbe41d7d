"""Retreat before combat (rulebook: Combat Phase › Retreat Before Combat): the defender,
asked before the combat dice, rolls for the land units (or the fleets) of a defending
space, `retreat-roll space=HEX [fleets=true] [groups=...]` (the group with the least
chance is tested first: humans and every fleet 4-6, non-humans 3-6), takes the groups the
roll let go to one adjacent space, `retreat-to to=HEX [groups=...] [heroes=...]` (the
heroes riding away with them), and lets the rest stand and fight, `retreat-stand`. Units
that retreated still next to their attackers may be attacked all the same: the attacker
answers `pursue [units=...]` or `pursue-none`; they retreat no more.

Readings (docs/divine-right.md): after a failed roll only groups with a better chance
than one that failed roll once more; by default heroes ride away with a retreat that
leaves no combat unit of theirs behind; a unit retreats once a phase.
"""

from __future__ import annotations

import dataclasses

from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand, InvalidCommand

from ..arguments import hex_arg, label, names
from ..data import DRData
from ..events import (
    DefendersStood,
    RetreatedAttacked,
    RetreatRolled,
    UnitsRetreated,
)
from ..evolving import Decision
from ..movement.fleets import first_turn_limit
from ..movement.terrain import all_sea, geography, is_isle
from ..sections import RETREAT_BEFORE_COMBAT
from ..siege.declare import besieger
from ..state import MERCENARY, Fight, Hex, Pending, RetreatTry, State, Unit
from ..tables import Answer, Evolvers
from ..turn import asked_now, offered_units
from ..units import (
    at,
    enemies,
    hostile_castle,
    is_fleet,
    is_hero,
)
from .arithmetic import retreat_needs, retreating_groups
from .declare import reaches
from .fight import (
    BEFORE,
    RETREAT,
    answer_units,
    attackers_left,
    close_pending,
    defenders_left,
    fight,
    fight_now,
    living,
    the_fight,
)

HUMANS = "humans"
PURSUE = "pursue"


# -- may the defender retreat? -----------------------------------------------------------------


def before_battle(d: Decision) -> None:
    current_fight = fight_now(d.state)
    if _may_retreat(d, current_fight):
        why = (
            f"attack {current_fight.number}: try to retreat before combat "
            "(retreat roll SPACE [--fleets]), or stand (retreat stand)"
        )
        d.ask(RETREAT, current_fight.defender, (), count=0, why=why)
        return
    fight(d)


def _may_retreat(d: Decision, current_fight: Fight) -> bool:
    for space in current_fight.spaces:
        for fleets in (False, True):
            units = _retreaters(d.state, current_fight, space, fleets)
            if units and _destinations(d, current_fight, units, space):
                return True
    return False


def _retreaters(state: State, current_fight: Fight, space: Hex, fleets: bool) -> list[Unit]:
    """The defenders of the space of one type that may still retreat (none retreats twice
    in a phase)."""
    return [
        u
        for u in defenders_left(state, current_fight)
        if u.hex == space and is_fleet(u) == fleets and u.id not in _once(state)
    ]


def _once(state: State) -> set[str]:
    """Units that already retreated, or were attacked after retreating, this phase."""
    return set(state.turn.progress.retreated) if state.turn else set()


def _destinations(d: Decision, current_fight: Fight, units: list[Unit], start: Hex) -> list[Hex]:
    return [
        h
        for h in d.data.map.neighbours(*start)
        if _retreat_problem(d.state, d.data, current_fight, units, start, h) is None
    ]


def _retreat_problem(
    state: State, data: DRData, current_fight: Fight, units: list[Unit], start: Hex, to: Hex
) -> str | None:
    """Why the units may not retreat from `start` to `to` (None: they may)."""
    player = current_fight.defender
    geo = geography(data)
    place = geo.place(to)
    if place is None or to not in data.map.neighbours(*start) or is_isle(place):
        return f"{label(data, to)} is not a space next to {label(data, start)} to retreat into"
    fleets = any(is_fleet(u) for u in units)
    if fleets and not geo.floats(place):
        return "fleets retreat only onto water"
    if not fleets and (all_sea(place) or data.map.is_river_side(start, to)):
        return "land units retreat neither onto open water nor across the navigable river"
    if any(not is_hero(u) for u in enemies(state, player, to)):
        return "enemy combat units are there"
    if hostile_castle(state, data, player, to) and besieger(state, to) != player:
        return "it is an enemy or neutral castle not besieged by the retreating side"
    if _awaiting(state, current_fight, to):
        return "friendly units there are awaiting an attack"
    limited = first_turn(state, data, units, to)
    return limited


def _awaiting(state: State, current_fight: Fight, hex_: Hex) -> bool:
    assert state.turn is not None
    return any(
        hex_ in a.spaces
        for a in state.turn.progress.attacks
        if not a.resolved and a.number != current_fight.number
    )


def first_turn(state: State, data: DRData, units: list[Unit], hex_: Hex) -> str | None:
    limited = first_turn_limit(state, data, units, hex_)
    return f"{limited}'s kingdom was activated this turn" if limited else None


# -- retreat before combat ---------------------------------------------------------------------


def retreat_roll(d: Decision) -> None:
    """One die for the land units (or fleets) of a defending space: the group with the
    least chance (humans 4+, non-humans 3+) is tested first; each group the roll meets
    may retreat. After a failure, groups with a better chance may roll once more."""
    pending = asked_now(d.state)
    current_fight = fight_now(d.state)
    space = _space(d, current_fight, d.call.get("space"))
    fleets = d.call.flag("fleets")
    units = _retreaters(d.state, current_fight, space, fleets)
    groups = _groups(d.data, units)
    tested = _tested(d.call, current_fight, space, fleets, groups)
    moving = [u for u in units if _group(d.data, u) in tested]
    if not _destinations(d, current_fight, moving, space):
        raise IllegalCommand(
            f"no space next to {label(d.data, space)} to retreat into", RETREAT_BEFORE_COMBAT
        )
    rolled = d.dice.roll(f"retreat before combat from {label(d.data, space)}")
    allowed = retreating_groups({g: groups[g] for g in tested}, rolled.values[0])
    d.emit(
        rolled,
        RetreatRolled(
            player=pending.player,
            space=space,
            fleets=fleets,
            groups=tuple((g, retreat_needs(groups[g])) for g in tested),
            roll=rolled.values[0],
            allowed=allowed,
        ),
    )


def _space(d: Decision, current_fight: Fight, value: object) -> Hex:
    if value is None:
        if len(current_fight.spaces) == 1:
            return current_fight.spaces[0]
        raise InvalidCommand("name the defending space (space=HEX)", RETREAT_BEFORE_COMBAT)
    hex_ = hex_arg(d.data, str(value), RETREAT_BEFORE_COMBAT)
    if hex_ not in current_fight.spaces:
        raise IllegalCommand(f"{label(d.data, hex_)} is not attacked now", RETREAT_BEFORE_COMBAT)
    return hex_


def _group(data: DRData, unit: Unit) -> str:
    """Humans (most kingdoms, mercenaries, every fleet), or the non-human kingdom."""
    if is_fleet(unit) or unit.kingdom == MERCENARY or data.kingdom(unit.kingdom).human:
        return HUMANS
    return unit.kingdom


def _groups(data: DRData, units: list[Unit]) -> dict[str, bool]:
    """Each group of the units: name -> human?"""
    return {g: g == HUMANS for g in sorted({_group(data, u) for u in units})}


def _tested(
    command: Call, current_fight: Fight, space: Hex, fleets: bool, groups: dict[str, bool]
) -> tuple[str, ...]:
    """The groups this roll tests: those named (default: all present), after checking a
    second roll is made only by groups with a better chance than one that failed."""
    named = command.get("groups")
    tested = names(named, RETREAT_BEFORE_COMBAT, "group") if named else tuple(groups)
    unknown = [g for g in tested if g not in groups]
    if unknown:
        present = ", ".join(groups) or "none"
        raise IllegalCommand(
            f"no group {', '.join(unknown)} here (groups: {present})", RETREAT_BEFORE_COMBAT
        )
    tries = [t for t in current_fight.tries if t.space == space and t.fleets == fleets]
    if not tries:
        return tested
    failed = tries[0].failed
    worst = max((retreat_needs(g == HUMANS) for g in failed), default=0)
    better = {g for g in failed if retreat_needs(g == HUMANS) < worst}
    if len(tries) > 1 or not set(tested) <= better:
        raise IllegalCommand(
            "no further retreat roll: only groups with a better chance than one that failed "
            "may roll once more",
            RETREAT_BEFORE_COMBAT,
        )
    return tested


def retreat_to(d: Decision) -> None:
    """The groups a roll let go (all, or those named) retreat to one adjacent space."""
    pending = asked_now(d.state)
    current_fight = fight_now(d.state)
    space = _space(d, current_fight, d.call.get("space"))
    fleets = d.call.flag("fleets")
    chance = _open_try(current_fight, space, fleets)
    named = d.call.get("groups")
    groups = names(named, RETREAT_BEFORE_COMBAT, "group") if named else chance.allowed
    if not set(groups) <= set(chance.allowed):
        raise IllegalCommand(
            f"the roll let only {', '.join(chance.allowed)} go", RETREAT_BEFORE_COMBAT
        )
    units = [
        u for u in _retreaters(d.state, current_fight, space, fleets) if _group(d.data, u) in groups
    ]
    to: Hex = d.call.value("to")
    problem = _retreat_problem(d.state, d.data, current_fight, units, space, to)
    if problem is not None:
        raise IllegalCommand(f"no retreat to {label(d.data, to)}: {problem}", RETREAT_BEFORE_COMBAT)
    ids = [u.id for u in units] + _riders(d.state, current_fight, units, space, d.call)
    d.emit(UnitsRetreated(player=pending.player, units=tuple(ids), start=space, hex=to))
    if not defenders_left(d.state, fight_now(d.state)):
        _pursue_or_fight(d)


def _open_try(current_fight: Fight, space: Hex, fleets: bool) -> RetreatTry:
    tries = [
        t
        for t in current_fight.tries
        if t.space == space and t.fleets == fleets and t.allowed and not t.gone
    ]
    if not tries:
        raise IllegalCommand("no retreat roll has let any group go", RETREAT_BEFORE_COMBAT)
    return tries[-1]


def _riders(
    state: State, current_fight: Fight, units: list[Unit], space: Hex, command: Call
) -> list[str]:
    """The defender's heroes in the space that ride away with the retreating combat units:
    those named (`heroes=A,B` or `none`); by default all of them when no combat unit of
    his is left behind, else none."""
    going = {u.id for u in units}
    side = current_fight.defender
    here = [u for u in at(state, space) if state.controller(u) == side and not u.inside]
    heroes = [u.id for u in here if is_hero(u) and u.aboard is None]
    named = command.get("heroes")
    if named is not None:
        chosen = () if str(named).lower() == "none" else names(named, RETREAT_BEFORE_COMBAT, "hero")
        wrong = [h for h in chosen if h not in heroes]
        if wrong:
            raise IllegalCommand(
                f"{', '.join(wrong)}: not a hero of {side}'s in the space to ride away "
                f"(heroes there: {', '.join(heroes) or 'none'})",
                RETREAT_BEFORE_COMBAT,
            )
        return list(chosen)
    if any(not is_hero(u) and u.id not in going and u.aboard is None for u in here):
        return []
    return heroes


def retreat_stand(d: Decision) -> None:
    """The defenders still there stand: the attack is fought."""
    pending = asked_now(d.state)
    d.emit(DefendersStood(player=pending.player, number=fight_now(d.state).number))
    _pursue_or_fight(d)


# -- retreated, and still next to the attackers ---------------------------------------------------


def _pursue_or_fight(d: Decision) -> None:
    """Units that retreated from this attack and are still next to its attackers may be
    attacked all the same (the attacker is asked); else the attack is fought (or, with
    no defender left, it is over)."""
    current_fight = fight_now(d.state)
    within = pursuable(d.state, d.data, current_fight)
    if not within:
        fight(d)
        return
    why = (
        f"attack {current_fight.number}: {', '.join(within)} retreated but are still next to "
        "your attackers: attack them too (pursue [UNIT...]), or not (pursue --none)"
    )
    d.ask(PURSUE, current_fight.attacker, tuple(within), count=0, why=why)


def pursuable(state: State, data: DRData, current_fight: Fight) -> list[str]:
    """The combat units that retreated from the attack next to every one of its attackers
    (that could attack their new space)."""
    attackers = attackers_left(state, current_fight, helpers=False)
    return [
        u.id
        for u in living(state, current_fight.retreated)
        if not is_hero(u)
        and attackers
        and all(reaches(state, data, a, current_fight.kind, u.hex) for a in attackers)
    ]


def pursue(d: Decision) -> None:
    """The attacker attacks the retreated units named (all of them by default) with the
    defenders still there; they may not retreat again."""
    return answer_units(d, _PURSUE_ASKED, RetreatedAttacked, fight)


def pursue_none(d: Decision) -> None:
    """The retreated units are let go."""
    return answer_units(d, _PURSUE_ASKED, RetreatedAttacked, fight, none=True)


_PURSUE_ASKED = (RETREAT_BEFORE_COMBAT, "may not be attacked now")


def _retreat_stands(state: State, pending: Pending) -> bool:
    """The defender is asked to retreat or stand while the attack is still before its
    battle and defenders are left."""
    current_fight = the_fight(state)
    return (
        current_fight is not None
        and current_fight.stage == BEFORE
        and current_fight.defender == pending.player
        and bool(defenders_left(state, current_fight))
    )


def _pursuit_stands(state: State, pending: Pending) -> bool:
    return the_fight(state) is not None and offered_units(state, pending)


# -- evolve ---------------------------------------------------------------------------------------


def _attacked_after_all(state: State, event: RetreatedAttacked) -> State:
    state = close_pending(state, PURSUE)
    current_fight = fight_now(state)
    spaces = {state.units[u].hex for u in event.units} - set(current_fight.spaces)
    updated = dataclasses.replace(
        current_fight,
        retreated=tuple(u for u in current_fight.retreated if u not in event.units),
        spaces=(*current_fight.spaces, *sorted(spaces)),
    )
    return state.with_progress(fight=updated)


def _rolled(state: State, event: RetreatRolled) -> State:
    current_fight = fight_now(state)
    failed = tuple(g for g, _ in event.groups if g not in event.allowed)
    chance = RetreatTry(
        space=event.space, fleets=event.fleets, allowed=event.allowed, failed=failed
    )
    updated = dataclasses.replace(current_fight, tries=(*current_fight.tries, chance))
    return state.with_progress(fight=updated)


DECISIONS: dict[str, Answer] = {
    RETREAT: Answer(_retreat_stands),
    PURSUE: Answer(_pursuit_stands),
}


EVOLVERS: Evolvers = {
    RetreatedAttacked: _attacked_after_all,
    RetreatRolled: _rolled,
}
