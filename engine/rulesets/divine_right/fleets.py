"""Fleets carrying troops and heroes (Movement Phase › Transporting Troops): embarking and
debarking, what a fleet carries, the river hexsides enemy fleets control, and the
rescue of castaways from the Isle of Fright.

Each fleet carries one land combat unit and any number of heroes; nobody embarks or
debarks in a coastal space with mountains; units the fleet carried while it moved may
not move again that turn once ashore (read for river transport as for sea transport).
"""

from __future__ import annotations

import dataclasses

from warscribe.engine.dice import Dice
from warscribe.engine.errors import IllegalCommand
from warscribe.engine.events import Command

from . import sieges
from .data import DRData
from .diplomacy import penalty
from .events import HeroRescued, UnitsDebarked, UnitsEmbarked
from .evolving import Outcome, handles
from .forces import (
    enemy_fleets,
    enemy_land,
    hostile_castle,
    is_fleet,
    is_hero,
    lone_heroes,
    moved,
)
from .heroes import fate
from .places import label, names
from .sections import CHART, ENEMY, FIRST_TURN, PHASE, TRANSPORT
from .stacks import own
from .state import Hex, State, Unit
from .terrain import all_sea, geography, is_isle, mountain_coast
from .turn import current

CARRIES = 1


def aboard(state: State, fleet: Unit) -> tuple[Unit, ...]:
    """The land units and heroes `fleet` carries."""
    return tuple(sorted((u for u in state.units.values() if u.aboard == fleet.id), key=_id))


def _id(unit: Unit) -> str:
    return unit.id


def side_controller(state: State, player: str, a: Hex, b: Hex) -> Unit | None:
    """An enemy fleet controlling the river hexside between a and b (a fleet controls
    every navigable-river hexside of its space), if any."""
    found = enemy_fleets(state, player, a) + enemy_fleets(state, player, b)
    return found[0] if found else None


def first_turn_limit(state: State, data: DRData, units: list[Unit], hex_: Hex) -> str | None:
    """The unit of a kingdom activated this turn that may not be in `hex_` (outside its
    kingdom, the sea and unclaimed land), if any."""
    place = data.map.get(*hex_)
    if place is None or all_sea(place) or place.kingdom is None:
        return None
    for unit in units:
        standing = state.kingdoms.get(unit.kingdom)
        new = standing is not None and standing.ally and standing.activated_on == state.number
        if new and place.kingdom != unit.kingdom:
            return unit.id
    return None


def embark(state: State, command: Command, data: DRData, dice: Dice) -> Outcome:
    """Land units and heroes in the fleet's space go aboard (no movement point cost)."""
    player = current(state, command, PHASE).player
    fleet = _fleet(state, command, player)
    units = [own(state, u, player, TRANSPORT) for u in names(command.arg("units"), TRANSPORT)]
    for unit in units:
        _check_boarding(state, fleet, unit)
    place = geography(data).place(fleet.hex)
    if place is not None and mountain_coast(place):
        raise IllegalCommand(
            f"{label(data, fleet.hex)} is a coastal space with mountains: nobody embarks there",
            TRANSPORT,
        )
    combat = [u for u in (*aboard(state, fleet), *units) if not is_hero(u)]
    if len(combat) > CARRIES:
        raise IllegalCommand(
            f"{fleet.id} may carry one combat unit (and any heroes), not {len(combat)}", TRANSPORT
        )
    out = Outcome(state)
    out.add(UnitsEmbarked(fleet=fleet.id, units=tuple(u.id for u in units)))
    return out


def _fleet(state: State, command: Command, player: str) -> Unit:
    fleet = own(state, str(command.arg("fleet", "")), player, TRANSPORT)
    if not is_fleet(fleet):
        raise IllegalCommand(f"{fleet.id} is not a fleet", TRANSPORT)
    return fleet


def _check_boarding(state: State, fleet: Unit, unit: Unit) -> None:
    if is_fleet(unit):
        raise IllegalCommand(f"{unit.id} is a fleet: fleets carry land units", TRANSPORT)
    if unit.hex != fleet.hex:
        raise IllegalCommand(f"{unit.id} is not in {fleet.id}'s space", TRANSPORT)
    if unit.aboard is not None:
        raise IllegalCommand(f"{unit.id} is already aboard {unit.aboard}", TRANSPORT)
    record = moved(state, unit.id)
    if record is not None and record.done:
        raise IllegalCommand(
            f"{unit.id} was transported by sea this turn: it may not move further", TRANSPORT
        )


def debark(state: State, command: Command, data: DRData, dice: Dice) -> Outcome:
    """Units aboard leave the fleet into its space (all of them unless named)."""
    player = current(state, command, PHASE).player
    fleet = _fleet(state, command, player)
    cargo = aboard(state, fleet)
    chosen = command.arg("units")
    units = list(cargo) if chosen is None else [own(state, u, player) for u in names(chosen, "")]
    for unit in units:
        if unit.aboard != fleet.id:
            raise IllegalCommand(f"{unit.id} is not aboard {fleet.id}", TRANSPORT)
    if not units:
        raise IllegalCommand(f"{fleet.id} carries nobody", TRANSPORT)
    _check_landing(state, data, player, fleet, units)
    out = Outcome(state)
    ids = tuple(u.id for u in units)
    out.add(UnitsDebarked(fleet=fleet.id, units=ids, hex=fleet.hex, inside=fleet.inside))
    kingdom = data.map.get(*fleet.hex)
    if kingdom is not None and kingdom.kingdom:
        why = f"{', '.join(u.id for u in units)} landed at {label(data, fleet.hex)}"
        out.add(*penalty(out.state, player, kingdom.kingdom, why))
    if any(not is_hero(u) for u in units):
        if hostile_castle(out.state, data, player, fleet.hex) and not sieges.besieged(
            out.state, fleet.hex
        ):
            sieges.declare(out, data, dice, player, fleet.hex, "landing")
        for hero in lone_heroes(out.state, player, fleet.hex):
            fate(out, data, dice, hero.id, 3, player)
    return out


def _check_landing(state: State, data: DRData, player: str, fleet: Unit, units: list[Unit]) -> None:
    hex_ = fleet.hex
    place = geography(data).place(hex_)
    assert place is not None
    where = label(data, hex_)
    combat = [u for u in units if not is_hero(u)]
    if all_sea(place):
        raise IllegalCommand(f"{where} is open water: debark on a coast or in a port", TRANSPORT)
    if is_isle(place) and combat:
        raise IllegalCommand("fleets may not unload combat units on the Isle of Fright", CHART)
    if mountain_coast(place):
        raise IllegalCommand(
            f"{where} is a coastal space with mountains: nobody debarks there", TRANSPORT
        )
    hostile = combat and hostile_castle(state, data, player, hex_)
    if hostile and not sieges.may_besiege(state, data, player, hex_, combat):
        refused = sieges.refusal(state, data, player, hex_, combat)
        raise IllegalCommand(
            f"{where} is an enemy castle-port: units debark there only to besiege it, and "
            f"{refused}",
            TRANSPORT,
        )
    relief = fleet.inside and sieges.relieving(state, data, player, hex_)
    if combat and enemy_land(state, player, hex_) and not relief:
        raise IllegalCommand(f"enemy land units hold {where}", ENEMY)
    limited = first_turn_limit(state, data, units, hex_)
    if limited is not None:
        raise IllegalCommand(
            f"{limited}'s kingdom was activated this turn: it may not land outside its kingdom",
            FIRST_TURN,
        )


def rescue(out: Outcome, fleets: list[Unit], player: str) -> None:
    """Castaways of the player's picked up by his fleet entering the Isle of Fright."""
    if not fleets:
        return
    here = fleets[0].hex
    castaways = tuple(
        sorted(
            u.id
            for u in out.state.units.values()
            if u.hex == here
            and is_hero(u)
            and u.aboard is None
            and out.state.controller(u) == player
        )
    )
    if castaways:
        out.add(HeroRescued(fleet=fleets[0].id, heroes=castaways))


def can_rescue(state: State, player: str, hex_: Hex) -> bool:
    return any(
        u.hex == hex_ and is_hero(u) and u.aboard is None and state.controller(u) == player
        for u in state.units.values()
    )


# -- evolve --------------------------------------------------------------------------------


@handles(UnitsEmbarked)
def _embarked(state: State, event: UnitsEmbarked) -> State:
    units = [
        dataclasses.replace(state.units[u], aboard=event.fleet, inside=False) for u in event.units
    ]
    return state.with_units(units)


@handles(UnitsDebarked)
def _debarked(state: State, event: UnitsDebarked) -> State:
    units = [
        dataclasses.replace(state.units[u], aboard=None, hex=event.hex, inside=event.inside)
        for u in event.units
    ]
    return state.with_units(units)


@handles(HeroRescued)
def _rescued(state: State, event: HeroRescued) -> State:
    units = [dataclasses.replace(state.units[u], aboard=event.fleet) for u in event.heroes]
    return state.with_units(units)
