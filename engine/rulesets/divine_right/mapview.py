"""Who is where: the stacks on the map (any player may examine any stack: Movement Phase ›
Stacking), and a text view of the map with them."""

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


def board_text(view: dict[str, Any]) -> str:
    """The text map, its legend, and one line per stack."""
    key = ", ".join(f"{k} {v}" for k, v in view["legend"].items())
    terrain = (
        "C castle, P castle-port, p port, M mountain, = pass, h hills, f forest, "
        "s swamp, r river, ~ sea, i Isle of Fright"
    )
    rows = [*view["rows"], "", f"players: {key}", f"terrain: {terrain}", ""]
    return "\n".join(rows) + "\n" + stacks_text(view["stacks"])


def stacks_text(rows: list[dict[str, Any]]) -> str:
    """One line per stack: the space and its units."""
    lines = []
    for row in rows:
        units = ", ".join(_unit_text(u) for u in row["units"])
        lines.append(f"{row['place']:<18} {units}")
    return "\n".join(lines)


def _unit_text(unit: dict[str, Any]) -> str:
    notes = []
    if unit["inside"]:
        notes.append("inside")
    if unit["aboard"]:
        notes.append(f"aboard {unit['aboard']}")
    extra = f" [{'; '.join(notes)}]" if notes else ""
    return f"{unit['unit']} ({unit['player'] or '-'}){extra}"
