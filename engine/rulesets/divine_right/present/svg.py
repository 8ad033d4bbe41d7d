"""The Divine Right board as an SVG picture, drawn from the rule set's map data and a state.

Only public things are drawn (Movement Phase › Stacking: any player may examine any stack):
the map, the castles with their defence, the stacks with their counts, the sieges and what
changed since the previous phase. No card, hand or unrevealed personality is ever read, so
a picture made for one player is the same as the referee's.

Every text taken from the data or the log is escaped twice over: control characters shown
as escapes (`engine.presenter.escaped`), then XML-escaped.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Iterator

from warscribe.engine.codec import frozen
from warscribe.engine.presenter import escaped

from ..data import DRData, Terrain, load_custom
from ..data import Hex as MapHex
from ..movement.terrain import all_sea
from ..state import MERCENARY, Hex, State, Unit
from ..units import is_fleet, is_hero

SIZE = 14.0  # hex radius in SVG units
WIDTH = math.sqrt(3) * SIZE
MARGIN = 2.2 * SIZE

# terrain colours, the first flag a hex has wins; clear terrain otherwise
TERRAIN_COLOURS = (
    (Terrain.LAKE, "#7fb2d9"),
    (Terrain.SEA, "#6fa3cf"),
    (Terrain.MOUNTAIN, "#a38f7a"),
    (Terrain.PASS, "#c2ae92"),
    (Terrain.HILL, "#cfc08a"),
    (Terrain.SWAMP, "#9fae7c"),
    (Terrain.FOREST, "#7fae6c"),
)
CLEAR = "#e9e4c9"
MERCENARY_COLOUR = "#777777"

STYLE = """
.hex{stroke:#8a8a7a;stroke-width:.5}
.coast{stroke:#1d3f66;stroke-width:2;stroke-linecap:round}
.border{stroke:#7a1f1f;stroke-width:1.6;stroke-dasharray:3 2;stroke-linecap:round}
.navigable{stroke:#1f5fbf;stroke-width:3.5;stroke-linecap:round}
.river{stroke:#3f7fdf;stroke-width:1.6;stroke-linecap:round;fill:none}
.kingdom-name{font:bold 11px sans-serif;fill:#5a1010;fill-opacity:.55;text-anchor:middle}
.coord{font:8px sans-serif;fill:#444;text-anchor:middle}
.castle rect{fill:#fff;stroke:#222;stroke-width:1}
.castle text{font:bold 8px sans-serif;text-anchor:middle}
.plundered{stroke:#900;stroke-width:2;fill:none}
.counter rect{stroke:#111;stroke-width:.8}
.counter.inside rect{stroke:#000;stroke-width:2.2}
.counter.aboard rect{stroke-dasharray:2 1}
.counter text{font:bold 8px sans-serif;fill:#fff;text-anchor:middle}
.siege{fill:none;stroke:#d00;stroke-width:2.2;stroke-dasharray:4 2}
.moved{fill:#ffd400;fill-opacity:.45}
.reach{fill:#1fbf5f;fill-opacity:.35;stroke:#0a6b30;stroke-width:1}
.fought{fill:#ff2a00;fill-opacity:.4}
.move{stroke:#d08000;stroke-width:1.5;marker-end:url(#arrow)}
"""


def text(value: object) -> str:
    """A value as XML text: control characters shown as escapes, then markup escaped."""
    return html.escape(escaped(str(value)), quote=True)


def kingdom_colour(data: DRData, kingdom: str) -> str:
    """A kingdom's counter colour: hues spread by the golden angle in the data's order."""
    names = list(data.kingdoms)
    if kingdom not in names:
        return MERCENARY_COLOUR
    hue = (names.index(kingdom) * 137.508) % 360
    return f"hsl({hue:.0f},60%,38%)"


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


def _side(a: Hex, b: Hex) -> tuple[tuple[float, float], ...]:
    """The two corners hexes a and b share (none when they are not neighbours)."""
    theirs = set(corners(b))
    return tuple(p for p in corners(a) if p in theirs)


def _line(points: tuple[tuple[float, float], ...], cls: str) -> str:
    (x1, y1), (x2, y2) = points
    return f'<line class="{cls}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>'


def _terrain_colour(place: MapHex) -> str:
    return next((colour for flag, colour in TERRAIN_COLOURS if flag in place.terrain), CLEAR)


@frozen
class Changes:
    """What happened between two positions: units that moved (from, to) and the spaces
    where units were lost."""

    moves: tuple[tuple[Hex, Hex], ...]
    moved_to: frozenset[Hex]
    fought: frozenset[Hex]


def changes(before: State | None, after: State) -> Changes:
    """The moves and the losses between `before` and `after` (nothing without `before`)."""
    if before is None:
        return Changes((), frozenset(), frozenset())
    moves = {
        (old.hex, after.units[uid].hex)
        for uid, old in before.units.items()
        if uid in after.units and after.units[uid].hex != old.hex
    }
    lost = {old.hex for uid, old in before.units.items() if uid not in after.units}
    return Changes(tuple(sorted(moves)), frozenset(to for _, to in moves), frozenset(lost))


EMPTY = '<g id="overlay"></g>'  # where `base` leaves room for the position


Reach = tuple[tuple[Hex, int, str], ...]
"""Spaces a stack can reach (the `reach` query): each space, its cost and the command."""


def render(state: State, before: State | None = None, title: str = "", reach: Reach = ()) -> str:
    """The board at `state`, highlighting what changed since `before` and, when given,
    the spaces a stack can reach (each titled with its cost and the command to type)."""
    drawn = f'<g id="overlay">{"".join(_reach(reach))}{overlay(state, before)}</g>'
    return base(load_custom(state.custom_data), title).replace(EMPTY, drawn)


def _reach(reach: Reach) -> Iterator[str]:
    for (col, row), cost, command in reach:
        yield (
            f'<polygon class="reach" data-hex="{col},{row}" points="{_points((col, row))}">'
            f"<title>{text(f'{col},{row}: cost {cost}: {command}')}</title></polygon>\n"
        )


def base(data: DRData, title: str = "") -> str:
    """What never changes in a game: the map, its rivers, coasts, borders, kingdom names
    coordinates and castles, with `EMPTY` where the position goes."""
    hexes = data.map.hexes
    cols = 1 + max(h.col for h in hexes)
    rows = 1 + max(h.row for h in hexes)
    width = MARGIN * 2 + WIDTH * (cols + 0.5)
    height = MARGIN * 2 + 1.5 * SIZE * (rows - 1) + SIZE
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="board" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}">',
        f"<title>{text(title or 'Divine Right')}</title>",
        f"<style>{STYLE}</style>",
        '<defs><marker id="arrow" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="5" '
        'markerHeight="5" orient="auto"><path d="M0,0L6,3L0,6z" fill="#d08000"/></marker></defs>',
        *_hexes(data),
        *_rivers(data),
        *_edges(data),
        *_kingdom_names(data),
        *_coordinates(cols, rows, width, height),
        *_castles(data),
        EMPTY,
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def overlay(state: State, before: State | None = None) -> str:
    """What the position shows on the map: castles plundered, sieges, the moves
    and losses since `before`, and the stacks."""
    data = load_custom(state.custom_data)
    found = changes(before, state)
    return "\n".join(
        [
            *_highlights(found),
            *_plundered(data, state),
            *_sieges(state),
            *(_line((centre(a), centre(b)), "move") for a, b in found.moves),
            *_counters(data, state),
        ]
    )


def _points(coord: Hex) -> str:
    return " ".join(f"{x},{y}" for x, y in corners(coord))


def _hexes(data: DRData) -> Iterator[str]:
    for place in data.map.hexes:
        label = f"{place.name + ' ' if place.name else ''}({place.col},{place.row})"
        kingdom = f", {place.kingdom}" if place.kingdom else ""
        terrain = ", ".join(sorted(t.lower() for t in place.terrain)) or "clear"
        yield (
            f'<polygon class="hex" data-hex="{place.col},{place.row}" '
            f'points="{_points(place.coord)}" fill="{_terrain_colour(place)}">'
            f"<title>{text(label + kingdom + ': ' + terrain)}</title></polygon>"
        )


def _highlights(found: Changes) -> Iterator[str]:
    for cls, coords in (("fought", found.fought), ("moved", found.moved_to)):
        for col, row in sorted(coords):
            points = _points((col, row))
            yield f'<polygon class="{cls}" data-hex="{col},{row}" points="{points}"/>'


def _pairs(data: DRData) -> Iterator[tuple[MapHex, MapHex]]:
    """Each pair of neighbouring map hexes, once."""
    for place in data.map.hexes:
        for coord in data.map.neighbours(place.col, place.row):
            if place.coord < coord:
                other = data.map.get(*coord)
                assert other is not None
                yield place, other


def _rivers(data: DRData) -> Iterator[str]:
    """Minor rivers: a line between neighbouring river hexes (a dot for a lone one); the
    navigable river: its hexsides, and a thick dot in the hexes it runs through."""
    joined: set[Hex] = set()
    for a, b in _pairs(data):
        if Terrain.RIVER in a.terrain and Terrain.RIVER in b.terrain:
            joined |= {a.coord, b.coord}
            yield _line((centre(a.coord), centre(b.coord)), "river")
    for place in data.map.hexes:
        if Terrain.RIVER in place.terrain and place.coord not in joined:
            x, y = centre(place.coord)
            yield f'<circle class="river" cx="{x:.2f}" cy="{y:.2f}" r="3"/>'
    for one, other in sorted(data.map.river_sides):
        yield _line(_side(one, other), "navigable")
    for coord in sorted(data.map.river_hexes):
        x, y = centre(coord)
        yield f'<circle class="navigable" cx="{x:.2f}" cy="{y:.2f}" r="2"/>'


def _edges(data: DRData) -> Iterator[str]:
    """Coasts (land beside open water) and kingdom borders (land beside another's land)."""
    for a, b in _pairs(data):
        if all_sea(a) != all_sea(b):
            yield _line(_side(a.coord, b.coord), "coast")
        elif not all_sea(a) and a.kingdom != b.kingdom:
            yield _line(_side(a.coord, b.coord), "border")


def _kingdom_names(data: DRData) -> Iterator[str]:
    spaces: dict[str, list[Hex]] = {}
    for place in data.map.hexes:
        if place.kingdom and not all_sea(place):
            spaces.setdefault(place.kingdom, []).append(place.coord)
    for kingdom, coords in sorted(spaces.items()):
        xs, ys = zip(*(centre(c) for c in coords), strict=True)
        x, y = sum(xs) / len(xs), sum(ys) / len(ys)
        yield f'<text class="kingdom-name" x="{x:.1f}" y="{y:.1f}">{text(kingdom)}</text>'


def _coordinates(cols: int, rows: int, width: float, height: float) -> Iterator[str]:
    """Column numbers above and below the map, row numbers left and right of it."""
    for col in range(cols):
        x = MARGIN + WIDTH * col
        for y in (MARGIN * 0.45, height - MARGIN * 0.25):
            yield f'<text class="coord" x="{x:.1f}" y="{y:.1f}">{col}</text>'
    for row in range(rows):
        y = MARGIN + 1.5 * SIZE * row + 3
        for x in (MARGIN * 0.4, width - MARGIN * 0.4):
            yield f'<text class="coord" x="{x:.1f}" y="{y:.1f}">{row}</text>'


def _castles(data: DRData) -> Iterator[str]:
    """Each castle of the basic game, with its defence value and its name."""
    for castle in sorted(data.castles.values(), key=lambda c: c.hex):
        if not castle.basic:
            continue
        x, y = centre(castle.hex)
        kind = "castle-port" if castle.port else "castle"
        yield (
            f'<g class="castle" data-hex="{castle.hex[0]},{castle.hex[1]}" '
            f'data-defence="{castle.defence}"><title>{text(castle.name)} ({kind}, defence '
            f"{castle.defence})</title>"
            f'<rect x="{x - 11:.1f}" y="{y - 12:.1f}" width="8" height="9"/>'
            f'<text x="{x - 7:.1f}" y="{y - 4.5:.1f}">{castle.defence}</text></g>'
        )


def _plundered(data: DRData, state: State) -> Iterator[str]:
    """A cross over each castle plundered (Victory: it ceases to exist)."""
    for name in sorted(state.plundered):
        x, y = centre(data.castles[name].hex)
        yield (
            f'<path class="plundered" d="M{x - 12:.1f},{y - 13:.1f}l10,11m0,-11l-10,11">'
            f"<title>{text(name)} plundered</title></path>"
        )


def _sieges(state: State) -> Iterator[str]:
    for siege in state.sieges:
        x, y = centre(siege.hex)
        yield (
            f'<circle class="siege" data-hex="{siege.hex[0]},{siege.hex[1]}" cx="{x:.2f}" '
            f'cy="{y:.2f}" r="{SIZE * 0.8:.1f}"><title>siege of {text(siege.castle)} by '
            f"{text(siege.besieger)}</title></circle>"
        )


def _where(unit: Unit) -> str:
    return "inside" if unit.inside else "aboard" if unit.aboard else "field"


def _groups(units: Iterable[Unit]) -> list[tuple[tuple[str, str], list[Unit]]]:
    """The units of a space by kingdom and by where they are (in the field, inside the
    walls, aboard a fleet)."""
    out: dict[tuple[str, str], list[Unit]] = {}
    for unit in sorted(units, key=lambda u: u.id):
        out.setdefault((unit.kingdom, _where(unit)), []).append(unit)
    return sorted(out.items())


def _counters(data: DRData, state: State) -> Iterator[str]:
    by_hex: dict[Hex, list[Unit]] = {}
    for unit in state.units.values():
        by_hex.setdefault(unit.hex, []).append(unit)
    for coord, units in sorted(by_hex.items()):
        x, y = centre(coord)
        for i, ((kingdom, where), group) in enumerate(_groups(units)):
            yield _counter(
                data, state, coord, (x - 4 + 4 * i, y - 2 + 4 * i), kingdom, where, group
            )


def _counter(
    data: DRData,
    state: State,
    coord: Hex,
    at: tuple[float, float],
    kingdom: str,
    where: str,
    units: list[Unit],
) -> str:
    x, y = at
    heroes = [u for u in units if is_hero(u)]
    combat = len(units) - len(heroes)
    marks = "".join(
        "\u265a" if u.id.endswith("-monarch") else "\u2605" for u in heroes
    )  # ♚ monarch, ★ hero
    fleets = sum(1 for u in units if is_fleet(u))
    label = f"{combat or ''}{marks}"
    who = ", ".join(f"{u.id} ({state.controller(u) or '-'})" for u in units)
    name = "mercenaries" if kingdom == MERCENARY else kingdom
    return (
        f'<g class="counter {where}" data-hex="{coord[0]},{coord[1]}" data-kingdom="{text(name)}" '
        f'data-count="{combat}" data-units="{text(" ".join(u.id for u in units))}">'
        f"<title>{text(name)} {where}{f', {fleets} fleet(s)' if fleets else ''}: "
        f"{text(who)}</title>"
        f'<rect x="{x - 7:.1f}" y="{y - 6:.1f}" width="14" height="11" rx="1.5" '
        f'fill="{kingdom_colour(data, kingdom)}"/>'
        f'<text x="{x:.1f}" y="{y + 2.5:.1f}">{text(label)}</text></g>'
    )
