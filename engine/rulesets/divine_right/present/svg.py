"""The Divine Right board as an SVG picture, drawn from the rule set's map data and a state.

Only public things are drawn (Movement Phase › Stacking: any player may examine any stack):
the map, the castles with their defence, the stacks with their counts, the sieges and what
changed since the previous phase. No card, hand or unrevealed personality is ever read, so
a picture made for one player is the same as the referee's.

Every text taken from the data or the log is escaped twice over: control characters shown
as escapes (`engine.presenter.escaped`), then XML-escaped.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..data import Castle, DRData, Terrain, load_custom
from ..data import Hex as MapHex
from ..movement.terrain import all_sea
from ..state import Hex, State
from . import marks
from .geometry import MARGIN, SIZE, WIDTH, castle_box, centre, line, points, side, text

LEGEND = 2.4 * SIZE  # room below the map for the legend of players

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

STYLE = """
.hex{stroke:#8a8a7a;stroke-width:.6}
.coast{stroke:#1d3f66;stroke-width:2.5;stroke-linecap:round}
.border{stroke:#6a0f0f;stroke-width:2.6;stroke-dasharray:6 3;stroke-linecap:round}
.navigable{stroke:#1f5fbf;stroke-width:5;stroke-linecap:round}
.river{stroke:#2f6fdf;stroke-width:2.4;stroke-linecap:round;fill:none}
text{paint-order:stroke;stroke:#fff;stroke-linejoin:round}
.kingdom-name{font:bold 12px sans-serif;fill:#5a1010;stroke-width:3;text-anchor:middle}
.coord{font:10px sans-serif;fill:#444;stroke-width:0;text-anchor:middle}
.castle rect{fill:#fff;stroke:#222;stroke-width:1.2}
.castle text{font:bold 9px sans-serif;stroke-width:2;text-anchor:middle}
text.castle-name{font:7.5px sans-serif;text-anchor:start}
#bare-castles text{stroke:#000;stroke-width:4}
.plundered{stroke:#900;stroke-width:2.5;fill:none}
.counter rect{stroke:#111;stroke-width:.8}
.counter.inside rect{stroke:#000;stroke-width:2.4}
.counter.aboard rect{stroke-dasharray:2 1}
.counter text{font:bold 7.5px sans-serif;fill:#fff;stroke-width:0;text-anchor:middle}
.siege{fill:none;stroke:#d00;stroke-width:2.4;stroke-dasharray:4 2}
.moved{fill:#ffd400;fill-opacity:.4;mask:url(#bare-castles)}
.reach{fill:#1fbf5f;fill-opacity:.35;stroke:#0a6b30;stroke-width:1}
.fought{fill:#ff2a00;fill-opacity:.35;mask:url(#bare-castles)}
.move{stroke:#c07000;stroke-width:2;marker-end:url(#arrow);mask:url(#bare-castles)}
.event{font:bold 9px sans-serif;fill:#000;stroke-width:3;text-anchor:middle}
.event.battle{fill:#b00000}
.event.siege-news{fill:#b00000}
.event.move-news{fill:#7a4500;font-weight:normal;mask:url(#bare-castles)}
.legend text{font:11px sans-serif;stroke-width:0}
.legend .player{font-weight:bold}
"""


def _terrain_colour(place: MapHex) -> str:
    return next((colour for flag, colour in TERRAIN_COLOURS if flag in place.terrain), CLEAR)


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
            f'<polygon class="reach" data-hex="{col},{row}" points="{points((col, row))}">'
            f"<title>{text(f'{col},{row}: cost {cost}: {command}')}</title></polygon>\n"
        )


def size(data: DRData) -> tuple[int, int, float]:
    """The picture's width and height, and where the legend below the map begins."""
    cols = 1 + max(h.col for h in data.map.hexes)
    rows = 1 + max(h.row for h in data.map.hexes)
    bottom = MARGIN * 2 + 1.5 * SIZE * (rows - 1) + SIZE
    return round(MARGIN * 2 + WIDTH * (cols + 0.5)), round(bottom + LEGEND), bottom


def base(data: DRData, title: str = "") -> str:
    """What never changes in a game: the map, its rivers, coasts, borders, kingdom names
    coordinates and castles, with `EMPTY` where the position goes. The viewBox scales: a
    page may draw it at any width."""
    width, height, bottom = size(data)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="board" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
        f"<title>{text(title or 'Divine Right')}</title>",
        f"<style>{STYLE}</style>",
        '<defs><marker id="arrow" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="5" '
        'markerHeight="5" orient="auto"><path d="M0,0L6,3L0,6z" fill="#c07000"/></marker>',
        *_bare_castles(data, width, height),
        "</defs>",
        *_hexes(data),
        *_rivers(data),
        *_edges(data),
        *_coordinates(data, width, bottom),
        *_castles(data),
        *_kingdom_names(data),
        EMPTY,
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def overlay(state: State, before: State | None = None) -> str:
    """What the position shows on the map: castles plundered, sieges, the moves and
    battles since `before` (marked in words), the stacks and the legend of players."""
    data = load_custom(state.custom_data)
    return marks.overlay(data, state, before, size(data)[2])


def _hexes(data: DRData) -> Iterator[str]:
    for place in data.map.hexes:
        label = f"{place.name + ' ' if place.name else ''}({place.col},{place.row})"
        kingdom = f", {place.kingdom}" if place.kingdom else ""
        terrain = ", ".join(sorted(t.lower() for t in place.terrain)) or "clear"
        yield (
            f'<polygon class="hex" data-hex="{place.col},{place.row}" '
            f'points="{points(place.coord)}" fill="{_terrain_colour(place)}">'
            f"<title>{text(label + kingdom + ': ' + terrain)}</title></polygon>"
        )


def _pairs(data: DRData) -> Iterator[tuple[MapHex, MapHex]]:
    """Each pair of neighbouring map hexes, once."""
    for place in data.map.hexes:
        for coord in data.map.neighbours(place.col, place.row):
            if place.coord < coord:
                other = data.map.get(*coord)
                assert other is not None
                yield place, other


def river_course(data: DRData) -> list[tuple[Hex, Hex]]:
    """Minor rivers run through hexes (Movement Phase › Rivers), flagged per hex: each
    river is drawn as a tree through its hexes' centres, joining a hex to one river hex
    already reached, so a band of river hexes makes no mesh of triangles."""
    river = {p.coord for p in data.map.hexes if Terrain.RIVER in p.terrain}
    reached: set[Hex] = set()
    course: list[tuple[Hex, Hex]] = []
    for start in sorted(river):
        if start in reached:
            continue
        reached.add(start)
        queue = [start]
        for here in queue:
            for there in sorted(set(data.map.neighbours(*here)) & river - reached):
                reached.add(there)
                queue.append(there)
                course.append((here, there))
    return course


def _rivers(data: DRData) -> Iterator[str]:
    """Minor rivers through their hexes (a dot for a lone one); the navigable river: its
    hexsides, and a thick dot in the hexes it runs through."""
    course = river_course(data)
    for a, b in course:
        yield line((centre(a), centre(b)), "river")
    joined = {c for pair in course for c in pair}
    for place in data.map.hexes:
        if Terrain.RIVER in place.terrain and place.coord not in joined:
            x, y = centre(place.coord)
            yield f'<circle class="river" cx="{x:.2f}" cy="{y:.2f}" r="3"/>'
    for one, other in sorted(data.map.river_sides):
        yield line(side(one, other), "navigable")
    for coord in sorted(data.map.river_hexes):
        x, y = centre(coord)
        yield f'<circle class="navigable" cx="{x:.2f}" cy="{y:.2f}" r="2.5"/>'


def _edges(data: DRData) -> Iterator[str]:
    """Coasts (land beside open water) and kingdom borders (land beside another's land)."""
    for a, b in _pairs(data):
        if all_sea(a) != all_sea(b):
            yield line(side(a.coord, b.coord), "coast")
        elif not all_sea(a) and a.kingdom != b.kingdom:
            yield line(side(a.coord, b.coord), "border")


def label_hex(data: DRData, coords: list[Hex]) -> Hex:
    """Where a kingdom's name goes: the hex nearest its middle with no castle in it or
    beside it in its row (a castle's square and name take the upper half of a hex)."""
    castles = {c.hex for c in data.castles.values() if c.basic}
    xs, ys = zip(*(centre(c) for c in coords), strict=True)
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    free = [c for c in coords if not {c, (c[0] - 1, c[1]), (c[0] + 1, c[1])} & castles]
    clear = free or [c for c in coords if c not in castles] or coords

    def distance(c: Hex) -> float:
        x, y = centre(c)
        return float((x - mx) ** 2 + (y - my) ** 2)

    return min(clear, key=distance)


def _kingdom_names(data: DRData) -> Iterator[str]:
    spaces: dict[str, list[Hex]] = {}
    for place in data.map.hexes:
        if place.kingdom and not all_sea(place):
            spaces.setdefault(place.kingdom, []).append(place.coord)
    for kingdom, coords in sorted(spaces.items()):
        coord = label_hex(data, coords)
        x, y = centre(coord)
        yield (
            f'<text class="kingdom-name" data-hex="{coord[0]},{coord[1]}" x="{x:.1f}" '
            f'y="{y - 0.3 * SIZE:.1f}">{text(kingdom)}</text>'
        )


def _coordinates(data: DRData, width: float, bottom: float) -> Iterator[str]:
    """Column numbers above and below the map, row numbers left and right of it."""
    cols = 1 + max(h.col for h in data.map.hexes)
    rows = 1 + max(h.row for h in data.map.hexes)
    for col in range(cols):
        x = MARGIN + WIDTH * col
        for y in (MARGIN * 0.35, bottom - MARGIN * 0.2):
            yield f'<text class="coord" x="{x:.1f}" y="{y:.1f}">{col}</text>'
    for row in range(rows):
        y = MARGIN + 1.5 * SIZE * row + 3
        for x in (MARGIN * 0.35, width - MARGIN * 0.35):
            yield f'<text class="coord" x="{x:.1f}" y="{y:.1f}">{row}</text>'


def _bare_castles(data: DRData, width: int, height: int) -> Iterator[str]:
    """The mask that keeps a space's tint (moved here, fought here), the arrows of moves
    and their words off every castle's square and name: the square and its defence stay as
    printed, the name reads as if drawn above them on a halo (its letters, thickened)."""
    yield (
        f'<mask id="bare-castles" maskUnits="userSpaceOnUse" x="0" y="0" width="{width}" '
        f'height="{height}"><rect width="{width}" height="{height}" fill="#fff"/>'
    )
    for castle in sorted(data.castles.values(), key=lambda c: c.hex):
        if castle.basic:
            x, y, edge, _ = castle_box(castle.hex)
            yield f'<rect x="{x:.1f}" y="{y:.1f}" width="{edge:.1f}" height="{edge:.1f}"/>'
            yield _castle_name(castle)
    yield "</mask>"


def _castle_name(castle: Castle) -> str:
    """A castle's name, beside its square: on the map, and as a hole in `bare-castles`."""
    x, y, edge, _ = castle_box(castle.hex)
    return (
        f'<text class="castle-name" x="{x + edge * 1.32:.1f}" y="{y + edge * 0.72:.1f}">'
        f"{text(castle.name)}</text>"
    )


def _castles(data: DRData) -> Iterator[str]:
    """Each castle of the basic game: its defence in a square at the upper left of its
    hex, its name beside it."""
    for castle in sorted(data.castles.values(), key=lambda c: c.hex):
        if not castle.basic:
            continue
        x, y, edge, _ = castle_box(castle.hex)
        kind = "castle-port" if castle.port else "castle"
        yield (
            f'<g class="castle" data-hex="{castle.hex[0]},{castle.hex[1]}" '
            f'data-defence="{castle.defence}"><title>{text(castle.name)} ({kind}, defence '
            f"{castle.defence})</title>"
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{edge:.1f}" height="{edge:.1f}"/>'
            f'<text x="{x + edge / 2:.1f}" y="{y + edge * 0.78:.1f}">{castle.defence}</text>'
            f"{_castle_name(castle)}</g>"
        )
