"""What holds of every Divine Right position, whatever was played to reach it: checked
after every command of the scenario tests (`play.Table.do`) and reusable by any test that
plays a game, random play included (`check_invariants(state)`).

- Cargo travels with its fleet and dies with it (Movement Phase › Transporting Troops;
  Combat Phase › Making Attacks: "Land units aboard eliminated fleets are also
  eliminated"): whatever is aboard a fleet is in its space, the fleet is on the map, it
  carries one combat unit at most, and it is of the same side as its fleet (Random Events
  Phase › Replacements/Reinforcements: nobody steals a fleet transporting enemy troops).
- Only the castle's own side's combat units stand within its walls (Siege Phase ›
  "Inside" and "Outside" of Castles: hostile units enter a castle only by besieging it,
  lone heroes excepted; Inactive Kingdoms: units of others within the walls of a
  castle gone neutral stand outside them).
- Every decision asked or queued is still to be made: what it asks about stands and its
  player is in the game (The Game Turn: `turn.withdrawals` finds none).
- Every unit is in one place only: on the map (aboard or inside there), in the
  mercenary pool, eliminated from its kingdom, or still to be placed.
- No player's victory points are below 0 (Victory: points are won; a forfeit on re-entry
  takes back only what was won), no timer (ambassador's return, Confusion, Forced Peace)
  is below 0, and the player whose turn it is holds no more than four cards once his
  Diplomacy Phase is over (Diplomacy Phase › Diplomacy Cards).

Not an invariant: hostile units outside an enemy or neutral castle besiege it. Units of
a kingdom's former ally may stand outside its castle once it went neutral ("Active combat
units within a kingdom that has been deactivated have their next Movement Phase to
leave the kingdom").
"""

from __future__ import annotations

from warscribe.engine.rulesets.divine_right.data import DRData
from warscribe.engine.rulesets.divine_right.kingdoms import totals
from warscribe.engine.rulesets.divine_right.ruleset import data_of
from warscribe.engine.rulesets.divine_right.state import State, Unit
from warscribe.engine.rulesets.divine_right.turn import HAND_LIMIT, withdrawals
from warscribe.engine.rulesets.divine_right.units import (
    castle,
    castle_side,
    is_fleet,
    is_hero,
)


def check_invariants(state: State) -> None:
    """Raise AssertionError naming every invariant the position breaks."""
    data = data_of(state)
    broken = [
        *_cargo(state),
        *(_walls(state, data, u) for u in state.units.values()),
        *(f"{w.player} is still asked {w.kind}: {w.why}" for w in withdrawals(state)),
        *_one_place(state),
        *_counts(state),
    ]
    problems = [p for p in broken if p]
    assert not problems, "; ".join(problems)


def _cargo(state: State) -> list[str]:
    problems = []
    combat_aboard: dict[str, list[str]] = {}
    for unit in state.units.values():
        if unit.aboard is None:
            continue
        fleet = state.units.get(unit.aboard)
        if fleet is None or not is_fleet(fleet):
            problems.append(f"{unit.id} is aboard {unit.aboard}, which is no fleet on the map")
            continue
        if unit.hex != fleet.hex:
            problems.append(f"{unit.id} at {unit.hex} is aboard {fleet.id} at {fleet.hex}")
        if is_fleet(unit):
            problems.append(f"{unit.id} is a fleet aboard {fleet.id}")
        if state.controller(unit) != state.controller(fleet):
            problems.append(
                f"{unit.id} ({state.controller(unit)}'s) is aboard {fleet.id} "
                f"({state.controller(fleet)}'s)"
            )
        if not is_hero(unit):
            combat_aboard.setdefault(fleet.id, []).append(unit.id)
    problems += [
        f"{fleet} carries {len(units)} combat units ({', '.join(units)})"
        for fleet, units in combat_aboard.items()
        if len(units) > 1
    ]
    return problems


def _walls(state: State, data: DRData, unit: Unit) -> str:
    """A combat unit within walls is within its own side's."""
    if is_hero(unit) or not unit.inside:
        return ""
    found = castle(state, data, unit.hex)
    side, owner = (castle_side(state, found) if found else None), state.controller(unit)
    if found is None or owner is None or side == owner:
        return ""
    if unit.inside:
        return f"{unit.id} ({owner}'s) is within the walls of {found.name} ({side or 'neutral'})"
    return ""


def _one_place(state: State) -> list[str]:
    places: dict[str, list[str]] = {}
    for key, unit in state.units.items():
        places.setdefault(key, []).append("the map" if key == unit.id else f"map as {unit.id}")
    for unit in state.mercenary_pool:
        places.setdefault(unit, []).append("the mercenary pool")
    for kingdom in state.kingdoms.values():
        for unit in kingdom.eliminated:
            places.setdefault(unit, []).append(f"{kingdom.name}'s eliminated")
        for unit in kingdom.unplaced:
            places.setdefault(unit, []).append(f"{kingdom.name}'s units to place")
    return [
        f"{unit} is in {' and '.join(where)}" for unit, where in places.items() if len(where) > 1
    ]


def _counts(state: State) -> list[str]:
    problems = [
        f"{p} has {points} victory points" for p, points in totals(state).items() if points < 0
    ]
    for player in state.players:
        if player.ambassador_back < 0:
            problems.append(f"{player.name}'s ambassador returns on turn {player.ambassador_back}")
    for kingdom in state.kingdoms.values():
        for timer in ("confusion_until", "peace_until"):
            value = getattr(kingdom, timer)
            if value is not None and value < 0:
                problems.append(f"{kingdom.name}'s {timer} is {value}")
    turn = state.turn
    if turn is not None and turn.phase in ("siege", "movement", "combat"):
        held = len(state.player(turn.player).hand)
        if held > HAND_LIMIT:
            problems.append(f"{turn.player} holds {held} cards after his Diplomacy Phase")
    return problems
