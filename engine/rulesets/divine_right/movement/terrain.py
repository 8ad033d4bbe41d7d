"""The map read for movement: the Terrain Effects Chart, the kinds of space (land, all-sea,
shore, river), the navigable river's flow, and the bodies of open water.

Readings (docs/divine-right.md):
- Terrain costs add up; a terrain bonus makes its terrain clear, a mountain bonus makes a
  mountain cost 3; a space whose terrain is all made clear costs 1 (a hill-forest costs a
  Zorn unit 1).
- Castles, castle-ports, non-castle ports and scenic spaces cost 1 whatever else the
  space shows ("treated as clear terrain"); so does a plundered castle.
- A minor river: +1 entering a river hex from a hex without one, or leaving it for a hex
  without one; along the valley (river hex to river hex) nothing. Hexes on the banks of
  the navigable river are not minor-river hexes.
- Land may meet land across any hexside and fleets may pass between any two spaces with
  water (the map file has no coastline by hexside); between two river-bank spaces a
  fleet must follow the river.
- The river flows to the end of its chain of hexsides nearer the open sea; a fleet pays 2
  moving to a river hex farther from that mouth.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property

from warscribe.engine.codec import frozen

from ..data import Bonus, Coord, DRData, HexMap, Side, Terrain, hex_adjacent
from ..data import Hex as MapHex

ALL_SEA = frozenset({Terrain.SEA, Terrain.LAKE})
SHORE = frozenset({Terrain.SEASHORE, Terrain.LAKESHORE, Terrain.PORT, Terrain.NON_CASTLE_PORT})
CLEAR_SPACES = {
    Terrain.CASTLE: "castle",
    Terrain.PORT: "castle-port",
    Terrain.NON_CASTLE_PORT: "port",
    Terrain.SCENIC: "scenic space",
}
# terrain, its name, its cost, the bonus that lightens it and the cost with that bonus
ROUGH = (
    (Terrain.FOREST, "forest", 2, Bonus.FOREST, 0),
    (Terrain.HILL, "hills", 2, Bonus.MOUNTAIN, 0),
    (Terrain.MOUNTAIN, "mountain", 4, Bonus.MOUNTAIN, 3),
    (Terrain.PASS, "mountain pass", 2, None, 2),
    (Terrain.SWAMP, "swamp", 2, Bonus.SWAMP, 0),
)
ISLE = "Isle of Fright"


@frozen
class Cost:
    """Movement points to enter a space, and what they are for."""

    points: int
    what: str


def land_cost(terrain: frozenset[Terrain], bonuses: frozenset[Bonus]) -> Cost:
    """The Terrain Effects Chart for a land unit with `bonuses` entering a space."""
    for flag, name in CLEAR_SPACES.items():
        if flag in terrain:
            return Cost(1, name)
    parts = [
        (name, lighter if bonus in bonuses else cost)
        for flag, name, cost, bonus, lighter in ROUGH
        if flag in terrain
    ]
    what = "-".join(name for name, _ in parts) or "clear terrain"
    return Cost(sum(cost for _, cost in parts) or 1, what)


def is_minor_river(place: MapHex) -> bool:
    return Terrain.RIVER in place.terrain and Terrain.NAVIGABLE not in place.terrain


def all_sea(place: MapHex) -> bool:
    return bool(place.terrain & ALL_SEA)


def is_isle(place: MapHex) -> bool:
    return place.name == ISLE


def mountain_coast(place: MapHex) -> bool:
    """A coastal space with mountains: no embarking or debarking (Transporting Troops)."""
    return Terrain.MOUNTAIN in place.terrain


class Geography:
    """What the movement rules read off one map, worked out once."""

    def __init__(self, hexmap: HexMap) -> None:
        self.map = hexmap

    def place(self, hex_: Coord) -> MapHex | None:
        return self.map.get(*hex_)

    def floats(self, place: MapHex) -> bool:
        """Whether fleets may be in the space: open water, shore, ports, river banks."""
        water = place.terrain & (ALL_SEA | SHORE)
        return bool(water) or self.map.is_navigable(*place.coord) or is_isle(place)

    def on_river(self, hex_: Coord) -> bool:
        return hex_ in self.flow

    def along_river(self, a: Coord, b: Coord) -> bool:
        """Whether a fleet passing from a to b (both beside the navigable river) follows
        it: across the river, or along a hexside meeting it at a corner of both."""
        if self.map.is_river_side(a, b) or a in self.map.river_hexes or b in self.map.river_hexes:
            return True
        common = set(hex_adjacent(*a)) & set(hex_adjacent(*b))
        return any(self.map.is_river_side(a, c) or self.map.is_river_side(b, c) for c in common)

    def river_sides_of(self, hex_: Coord) -> tuple[Side, ...]:
        return tuple(side for side in self.map.river_sides if hex_ in side)

    @cached_property
    def flow(self) -> Mapping[Coord, int]:
        """Each river hex's place along the navigable river, counted from its mouth."""
        order = _chain(self.map)
        positions: dict[Coord, int] = {}
        for index, side in enumerate(order):
            for hex_ in side:
                positions[hex_] = max(positions.get(hex_, -1), index)
        for hex_ in self.map.river_hexes:
            banks = [positions[c] for c in hex_adjacent(*hex_) if c in positions]
            positions[hex_] = max(banks, default=len(order)) + 1
        return positions

    def upriver(self, a: Coord, b: Coord) -> bool:
        return a in self.flow and b in self.flow and self.flow[b] > self.flow[a]

    @cached_property
    def isle(self) -> Coord | None:
        found = [h.coord for h in self.map.hexes if is_isle(h)]
        return found[0] if found else None

    @cached_property
    def bodies(self) -> Mapping[Coord, int]:
        """Each all-sea space's body of water (spaces joined by all-sea neighbours)."""
        found: dict[Coord, int] = {}
        bodies = 0
        for h in self.map.hexes:
            if all_sea(h) and h.coord not in found:
                self._flood(h.coord, bodies, found)
                bodies += 1
        return found

    def _flood(self, start: Coord, body: int, found: dict[Coord, int]) -> None:
        todo = [start]
        while todo:
            hex_ = todo.pop()
            if hex_ in found:
                continue
            found[hex_] = body
            todo += [c for c in self.map.neighbours(*hex_) if _is_all_sea(self.map, c)]

    def open_sea(self, hex_: Coord) -> bool:
        """Whether the all-sea space is of the body of water around the Isle of Fright."""
        if self.isle is None or hex_ not in self.bodies:
            return False
        body = self.bodies[hex_]
        return any(self.bodies.get(c) == body for c in self.map.neighbours(*self.isle))

    def shores(self, hex_: Coord) -> list[Coord]:
        """The non-port river, lake-shore and coastal spaces of the body of water of an
        all-sea space."""
        body = self.bodies.get(hex_)
        water = [c for c, b in self.bodies.items() if b == body]
        found = {
            c
            for w in water
            for c in self.map.neighbours(*w)
            if not _is_all_sea(self.map, c) and _landing(self.map, c)
        }
        return sorted(found)


def _is_all_sea(hexmap: HexMap, hex_: Coord) -> bool:
    place = hexmap.get(*hex_)
    return place is not None and all_sea(place)


def _landing(hexmap: HexMap, hex_: Coord) -> bool:
    place = hexmap.get(*hex_)
    if place is None or is_isle(place):
        return False
    ports = {Terrain.PORT, Terrain.NON_CASTLE_PORT}
    return not place.terrain & ports and bool(place.terrain & SHORE or hexmap.is_navigable(*hex_))


def _chain(hexmap: HexMap) -> list[Side]:
    """The navigable river's hexsides in order from its mouth: sides meeting at a corner
    follow one another; the mouth is the end nearer an all-sea space."""
    sides = sorted(hexmap.river_sides)
    links = {s: [t for t in sides if t != s and _corner(s, t)] for s in sides}
    ends = [s for s in sides if len(links[s]) <= 1] or sides[:1]
    sea = [h.coord for h in hexmap.hexes if all_sea(h)]
    mouth = min(ends, key=lambda s: min((hexmap.distance(h, w) for h in s for w in sea), default=0))
    order, todo = [], [mouth]
    while todo:
        side = todo.pop(0)
        if side not in order:
            order.append(side)
            todo += [t for t in links[side] if t not in order]
    return order


def _corner(s: Side, t: Side) -> bool:
    """Whether two hexsides meet at a corner: their three hexes are mutually adjacent."""
    hexes = set(s) | set(t)
    if len(hexes) != 3:
        return False
    return all(b in hex_adjacent(*a) for a in hexes for b in hexes if a != b)


_GEOGRAPHY: dict[int, Geography] = {}


def geography(data: DRData) -> Geography:
    """The geography of the data's map (worked out once per map)."""
    found = _GEOGRAPHY.get(id(data.map))
    if found is None or found.map is not data.map:
        found = _GEOGRAPHY[id(data.map)] = Geography(data.map)
    return found
