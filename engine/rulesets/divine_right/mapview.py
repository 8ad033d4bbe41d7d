"""Who is where: the stacks on the map (any player may examine any stack: Movement Phase ›
Stacking), and the board: a character a space, its most telling terrain or the player
whose units hold it, with the stacks (the CLI renders both as text)."""

from __future__ import annotations

from typing import Any

from .arguments import label
from .data import DRData, Terrain, load_custom
from .movement.terrain import all_sea, is_isle
from .state import Hex, State, Unit

# one character per hex, by its most telling terrain
SYMBOLS = (
    (Terrain.CASTLE, "C"),
    (Terrain.PORT, "P"),
    (Terrain.NON_CASTLE_PORT, "p"),
    (Terrain.MOUNTAIN, "M"),
    (Terrain.PASS, "="),
    (Terrain.HILL, "h"),
    (Terrain.FOREST, "f"),
    (Terrain.SWAMP, "s"),
    (Terrain.NAVIGABLE, "r"),
    (Terrain.RIVER, "r"),
)


def stacks(state: State) -> list[dict[str, Any]]:
    """Each occupied space: its units, whose they are, inside the walls or aboard."""
    data = load_custom(state.custom_data)
    by_hex: dict[Hex, list[Unit]] = {}
    for unit in state.units.values():
        by_hex.setdefault(unit.hex, []).append(unit)
    return [_stack(state, data, hex_, units) for hex_, units in sorted(by_hex.items())]


def _stack(state: State, data: DRData, hex_: Hex, units: list[Unit]) -> dict[str, Any]:
    place = data.map.get(*hex_)
    return {
        "hex": list(hex_),
        "place": label(data, hex_),
        "kingdom": place.kingdom if place else None,
        "players": sorted({state.controller(u) or "-" for u in units}),
        "units": [
            {
                "unit": u.id,
                "kind": u.kind,
                "player": state.controller(u),
                "inside": u.inside,
                "aboard": u.aboard,
            }
            for u in sorted(units, key=lambda u: u.id)
        ],
    }


def board(state: State) -> dict[str, Any]:
    """The map as text rows (odd rows shifted half a hex) with a legend, and the stacks."""
    data = load_custom(state.custom_data)
    marks = _marks(state)
    cols = 1 + max(h.col for h in data.map.hexes)
    rows = 1 + max(h.row for h in data.map.hexes)
    lines = []
    for row in range(rows):
        cells = [_cell(data, (col, row), marks) for col in range(cols)]
        lines.append((" " if row % 2 else "") + " ".join(cells))
    legend = {str(i): p.name for i, p in enumerate(state.players, 1)}
    legend["*"] = "several players"
    return {"rows": lines, "legend": legend, "stacks": stacks(state)}


def _marks(state: State) -> dict[Hex, str]:
    numbers = {p.name: str(i) for i, p in enumerate(state.players, 1)}
    found: dict[Hex, set[str]] = {}
    for unit in state.units.values():
        found.setdefault(unit.hex, set()).add(numbers.get(state.controller(unit) or "", "?"))
    return {h: (players.pop() if len(players) == 1 else "*") for h, players in found.items()}


def _cell(data: DRData, hex_: Hex, marks: dict[Hex, str]) -> str:
    if hex_ in marks:
        return marks[hex_]
    place = data.map.get(*hex_)
    if place is None:
        return " "
    if all_sea(place):
        return "~"
    if is_isle(place):
        return "i"
    return next((char for flag, char in SYMBOLS if flag in place.terrain), ".")
