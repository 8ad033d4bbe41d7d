"""Where a kingdom's pieces are set up (Game Setup; Kingdoms › Activation of Kingdoms), and
the spaces of a start area its units may be deployed in (Special Rules for Select Kingdoms
› Zorn: "only one may be placed per space, and no two may be deployed in adjacent spaces.
This rule must be followed both when setting up and when bringing in replacements").

Reading: a unit deployed in a start area may not go where a unit of its kingdom already
stands, nor next to one (wherever that unit has moved since); while several units are
deployed together, each space offered leaves room for as many of those still to come as
can be placed.
"""

from __future__ import annotations

from collections.abc import Collection

from warscribe.engine.events import Event

from ..data import Coord, DRData, Room, UnitSpec
from ..events import Placement, UnitsAwaitPlacement
from ..state import State

MONARCH = "monarch"


def monarch_id(kingdom: str) -> str:
    return f"{kingdom}-monarch"


def deployment(
    data: DRData, kingdom: str, units: tuple[str, ...] | None = None
) -> tuple[tuple[Placement, ...], tuple[str, ...]]:
    """The monarch in the royal castle and each unit (all, or those named) at the start
    location on its counter; and the units spread over a start area (Zorn's goblins on
    Nithmere's mountains and passes), which the kingdom's controller places one by one."""
    royal = data.royal_castle(kingdom).hex
    placements = [Placement(unit=monarch_id(kingdom), kind=MONARCH, hex=royal)]
    spread = []
    for unit in data.player_units(kingdom):
        if units is not None and unit.id not in units:
            continue
        hex_ = data.start_hex(unit)
        if hex_ is None:
            spread.append(unit.id)
        else:
            placements.append(Placement(unit=unit.id, kind=str(unit.kind), hex=hex_))
    return tuple(placements), tuple(spread)


def awaiting(kingdom: str, units: tuple[str, ...]) -> list[Event]:
    """The event saying which units the kingdom's controller is to place, if any."""
    return [UnitsAwaitPlacement(kingdom=kingdom, units=units)] if units else []


def spread_spaces(
    data: DRData,
    unit: UnitSpec,
    kin: Collection[Coord],
    barred: Collection[Coord] = (),
    to_come: int = 0,
) -> list[Coord]:
    """The spaces of the unit's start area it may be deployed in: none where a unit of its
    kingdom stands (`kin`: their spaces) or next to one, none `barred` (held by enemies,
    besieged), and each leaving room for `to_come` more units deployed after it."""
    blocked = set(kin).union(barred, *(data.map.neighbours(*h) for h in kin))
    free = [h for h in data.spread_hexes(unit) if h not in blocked]
    room = Room(data.map)
    return [h for h in free if room.fits(room.without(free, h), to_come)]


def kin_spaces(state: State, kingdom: str) -> list[Coord]:
    """The spaces of the kingdom's regulars on the map (its monarch is not one of them)."""
    return [u.hex for u in state.units_of(kingdom) if u.kind != MONARCH]


def spread_refusal(
    data: DRData, unit: UnitSpec, hex_: Coord, kin: Collection[Coord], barred: Collection[Coord]
) -> str:
    """Why the unit may not be deployed at `hex_` (for a refusal's message)."""
    area = data.start_area(unit)
    if area is None or hex_ not in data.spread_hexes(unit):
        terrain = " or ".join(sorted(t.value.lower() for t in area.terrain)) if area else "start"
        return f"it is not a {terrain} space of {unit.kingdom}"
    if hex_ in kin:
        return f"a unit of {unit.kingdom} is already there: only one may be placed per space"
    if set(kin) & set(data.map.neighbours(*hex_)):
        return f"a unit of {unit.kingdom} is next to it: no two may be in adjacent spaces"
    if hex_ in barred:
        return "it is held by the enemy"
    return f"it would leave no room for the other units of {unit.kingdom} still to be placed"
