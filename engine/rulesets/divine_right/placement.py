"""Where a kingdom's pieces are set up (Game Setup; Kingdoms › Activation of Kingdoms)."""

from __future__ import annotations

from warscribe.engine.dice import Dice
from warscribe.engine.errors import DataError
from warscribe.engine.events import Event

from .data import DRData
from .events import Placement
from .state import Hex

NITHMERE = "Zorn deployment (mountain/pass hexes of Zorn, one per hex, none adjacent)"


def monarch_id(kingdom: str) -> str:
    return f"{kingdom}-monarch"


def deployment(
    data: DRData, kingdom: str, dice: Dice, units: tuple[str, ...] | None = None
) -> tuple[list[Event], tuple[Placement, ...]]:
    """The monarch in the royal castle and each unit (all, or those named) at the start
    location on its counter: the dice drawn, and the placements.

    Units whose start is spread over terrain (Zorn's goblins on Nithmere's mountains and
    passes) are placed by derived random picks among the hexes still allowed.
    """
    events: list[Event] = []
    royal = data.royal_castle(kingdom).hex
    placements = [Placement(unit=monarch_id(kingdom), kind="monarch", hex=royal)]
    spread = []
    for unit in data.player_units(kingdom):
        if units is not None and unit.id not in units:
            continue
        hex_ = data.start_hex(unit)
        if hex_ is None:
            spread.append(unit)
        else:
            placements.append(Placement(unit=unit.id, kind=str(unit.kind), hex=hex_))
    taken: set[Hex] = set()
    for unit in spread:
        allowed = [
            h
            for h in data.spread_hexes(unit)
            if h not in taken and not taken & set(data.map.neighbours(*h))
        ]
        if not allowed:
            raise DataError(f"no hex left to deploy {unit.id}", NITHMERE)
        rolled, chosen = dice.pick(f"{unit.id} deployment", allowed)
        events.append(rolled)
        taken.add(chosen)
        placements.append(Placement(unit=unit.id, kind=str(unit.kind), hex=chosen))
    return events, tuple(placements)
