"""Divine Right's queries as terminal text: the board with its legend, and the stacks
(the engine answers what is where: `board` and `stacks` projections)."""

from __future__ import annotations

from typing import Any


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
