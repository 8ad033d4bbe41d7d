"""Where things go on the Divine Right board picture: the hex grid (pointy-topped, odd rows
shifted right), and the places within a hex kept for each mark so that none hides another:
the upper half for the castle (its defence square and name) and the kingdom's name, the
lower half for the counters."""

from __future__ import annotations

import html
import math

from warscribe.engine.presenter import escaped

from ..state import Hex

SIZE = 24.0  # hex radius in SVG units
WIDTH = math.sqrt(3) * SIZE
INNER = WIDTH / 2  # from a hex's centre to the middle of a side
MARGIN = 1.6 * SIZE
LINE = 10.5  # from a line of an event's words to the next (9px bold)
NEUTRAL_COLOUR = "#6b6b6b"

Box = tuple[float, float, float, float]
"""A rectangle: left, top, width, height."""


def text(value: object) -> str:
    """A value as XML text: control characters shown as escapes, then markup escaped."""
    return html.escape(escaped(str(value)), quote=True)


PLAYER_COLOURS = ("#1f4fbf", "#c0262d", "#7b2fa8", "#c05a00", "#007a7a", "#a0206f")
"""Counter colours, one per player in seat order, apart from each other and the terrain."""


def player_colour(players: tuple[str, ...], player: str | None) -> str:
    """A player's counter colour (units of no player's alliance, and strangers, in grey)."""
    if player not in players:
        return NEUTRAL_COLOUR
    return PLAYER_COLOURS[players.index(player) % len(PLAYER_COLOURS)]


def centre(coord: Hex) -> tuple[float, float]:
    col, row = coord
    return (MARGIN + WIDTH * (col + 0.5 * (row & 1)), MARGIN + 1.5 * SIZE * row)


def corners(coord: Hex) -> list[tuple[float, float]]:
    x, y = centre(coord)
    return [
        (
            round(x + SIZE * math.cos(math.radians(60 * i - 30)), 2),
            round(y + SIZE * math.sin(math.radians(60 * i - 30)), 2),
        )
        for i in range(6)
    ]


def points(coord: Hex) -> str:
    return " ".join(f"{x},{y}" for x, y in corners(coord))


def side(a: Hex, b: Hex) -> tuple[tuple[float, float], ...]:
    """The two corners hexes a and b share (none when they are not neighbours)."""
    theirs = set(corners(b))
    return tuple(p for p in corners(a) if p in theirs)


def line(ends: tuple[tuple[float, float], ...], cls: str) -> str:
    (x1, y1), (x2, y2) = ends
    return f'<line class="{cls}" x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}"/>'


def arrow(start: Hex, end: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
    """A move's arrow: from the centre of `start` to the middle of the side of `end` that
    faces it, so that its head lies outside the space's counters, castle square and name."""
    (xa, ya), (x, y) = centre(start), centre(end)
    sides = [
        (x + INNER * math.cos(math.radians(60 * i)), y + INNER * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]
    return (xa, ya), min(sides, key=lambda p: math.hypot(p[0] - xa, p[1] - ya))


def castle_box(coord: Hex) -> Box:
    """The castle's defence square: upper left of its hex."""
    x, y = centre(coord)
    return (x - 0.66 * SIZE, y - 0.62 * SIZE, 0.42 * SIZE, 0.42 * SIZE)


def counter_boxes(coord: Hex, count: int) -> list[Box]:
    """Where `count` counters go in a hex: in its lower half, below the castle's square
    and the kingdom's name; side by side, two rows at most (three to a row past four)."""
    x, y = centre(coord)
    per_row = 1 if count == 1 else 2 if count <= 4 else 3
    width = 0.78 * SIZE if per_row <= 2 else 0.52 * SIZE
    height = 0.42 * SIZE if count <= 2 else 0.34 * SIZE
    return [
        (
            x - per_row * width / 2 - (per_row - 1) + (i % per_row) * (width + 2),
            y - 0.06 * SIZE + (i // per_row) * (height + 0.02 * SIZE),
            width,
            height,
        )
        for i in range(count)
    ]


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]
