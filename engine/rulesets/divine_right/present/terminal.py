"""Divine Right on a terminal: the text map with row and column numbers (in colour when
asked), and the victory points per turn as a chart of Unicode blocks (`vp --chart`)."""

from __future__ import annotations

from typing import Any

from ..state import State
from .text import board_text

BLOCKS = " ▁▂▃▄▅▆▇█"
CHART_ROWS = 4  # lines of blocks per player


def per_turn(state: State) -> dict[str, list[int]]:
    """Each player's running total at the end of each game turn so far (Victory: the
    ledger of deeds, summed turn by turn)."""
    last = max([state.number, *(d.turn for d in state.ledger)], default=1)
    out = {p.name: [0] * max(last, 1) for p in state.players}
    for deed in state.ledger:
        for turn in range(deed.turn, last + 1):
            out[deed.player][turn - 1] += deed.points
    return out


def chart_text(points: dict[str, list[int]]) -> str:
    """One block chart per player, a column per game turn, scaled to the highest total;
    while nobody has scored, each player's total on a line under a sentence saying so
    (a chart of nothing would be empty boxes)."""
    turns = len(next(iter(points.values()), []))
    width = max((len(name) for name in points), default=0)
    if not any(v > 0 for series in points.values() for v in series):
        totals = [
            f"{name:>{width}}: {series[-1] if series else 0} VP" for name, series in points.items()
        ]
        return "\n".join([f"nobody has victory points yet (turns 1..{turns})", *totals])
    top = max(abs(v) for series in points.values() for v in series)
    lines = []
    for name, series in points.items():
        levels = [round(max(v, 0) * CHART_ROWS * 8 / top) for v in series]
        for row in range(CHART_ROWS - 1, -1, -1):
            cells = "".join(BLOCKS[min(max(level - row * 8, 0), 8)] for level in levels)
            label = name if row == CHART_ROWS - 1 else ""
            lines.append(f"{label:>{width}} │{cells}│")
        lines.append(f"{'':>{width}} └{'─' * len(series)}┘ {series[-1] if series else 0} VP")
    lines.append(f"{'':>{width}}  turns 1..{turns}")
    return "\n".join(lines)


# ANSI colours of the text map's characters: players' stacks bold, terrain by kind
PLAYER_COLOURS = ("31", "34", "32", "35", "36", "33")
TERRAIN_COLOURS = {"~": "34", "M": "90", "=": "90", "h": "33", "f": "32", "s": "32", "r": "36"}


def text_map(view: dict[str, Any], colour: bool) -> str:
    """The text map with column numbers above it (tens, then units) and row numbers on
    both sides, so a space can be named as COL,ROW; coloured when `colour`."""
    rows: list[str] = view["rows"]
    cols = max((len(r.split(" ")) for r in rows), default=0)
    pad = "    "
    tens = pad + " ".join(str(c // 10) if c >= 10 else " " for c in range(cols))
    units = pad + " ".join(str(c % 10) for c in range(cols))
    body = [
        f"{n:>3} {_paint(line, colour)}{' ' * (2 * cols - len(line))}{n:>3}"
        for n, line in enumerate(rows)
    ]
    numbered = {**view, "rows": [tens.rstrip(), units, *body, units]}
    return board_text(numbered)


def _paint(line: str, colour: bool) -> str:
    if not colour:
        return line
    return "".join(_paint_char(char) for char in line)


def _paint_char(char: str) -> str:
    if char.isdigit() or char == "*":
        code = "1;" + PLAYER_COLOURS[(int(char) - 1) % 6 if char.isdigit() else 0]
    elif char in TERRAIN_COLOURS:
        code = TERRAIN_COLOURS[char]
    elif char in "CPp":
        code = "1"
    else:
        return char
    return f"\x1b[{code}m{char}\x1b[0m"
