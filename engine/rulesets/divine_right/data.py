"""Divine Right (basic game) data: kingdoms, castles, the map, the card decks and the
common mercenaries.

The data are JSON files in `datafiles/` beside this module. A group whose edition differs loads
its own files with `load_files`; every file is checked when it is read (each error names
the file, the entry and the field), files are checked against one another, and each
file's SHA-256 is kept so a game records which data it was built on (`DRData.refs`).

The map is a grid of pointy-topped hexes in rows, odd rows shifted half a hex right
("odd-r"); map.json's "grid" section records how that was calibrated on the rulebook.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from fractions import Fraction
from functools import cache, cached_property
from types import MappingProxyType
from typing import TypeAlias, TypeVar

from warscribe.engine.codec import frozen

from ...codec import record, register
from ...errors import DataError
from ...events import DataRef

Coord: TypeAlias = tuple[int, int]
Side: TypeAlias = tuple[Coord, Coord]
# A data file: a path (read from disk), or its content as text or bytes.
Source: TypeAlias = str | bytes | os.PathLike[str]

E = TypeVar("E", bound=StrEnum)


# --- vocabularies -------------------------------------------------------------------------


@register("dr.data.Terrain")
class Terrain(StrEnum):
    """The terrain flags of a map hex (as in the public map transcription)."""

    FOREST = "FOREST"
    HILL = "HILL"
    MOUNTAIN = "MOUNTAIN"
    PASS = "PASS"
    SWAMP = "SWAMP"
    RIVER = "RIVER"
    LAKE = "LAKE"
    LAKESHORE = "LAKESHORE"
    SEA = "SEA"
    SEASHORE = "SEASHORE"
    CASTLE = "CASTLE"
    PORT = "PORT"
    NON_CASTLE_PORT = "NON_CASTLE_PORT"
    ROYAL = "ROYAL"
    SCENIC = "SCENIC"
    ANCIENT_BATTLEFIELD = "ANCIENT_BATTLEFIELD"
    NAVIGABLE = "NAVIGABLE"


@register("dr.data.Bonus")
class Bonus(StrEnum):
    """A special terrain bonus (rulebook: Movement Phase › Special Terrain Bonuses)."""

    FOREST = "forest"
    MOUNTAIN = "mountain"
    SWAMP = "swamp"


@register("dr.data.UnitKind")
class UnitKind(StrEnum):
    ARMY = "army"
    FLEET = "fleet"


@register("dr.data.AreaPlacement")
class AreaPlacement(StrEnum):
    """How units starting in an area share its hexes (rulebook: Special Rules for Select
    Kingdoms › Zorn)."""

    ONE_PER_HEX_NONE_ADJACENT = "one_per_hex_none_adjacent"


@register("dr.data.Direction")
class Direction(StrEnum):
    """The six neighbours of a pointy-topped hex."""

    E = "E"
    NE = "NE"
    NW = "NW"
    W = "W"
    SW = "SW"
    SE = "SE"


@register("dr.data.Attempt")
class Attempt(StrEnum):
    """The diplomacy rolls a personality effect applies to."""

    ACTIVATE = "activate"
    DEACTIVATE = "deactivate"
    ANY = "any"


@register("dr.data.BanishOn")
class BanishOn(StrEnum):
    ANY_FAILURE = "any_failure"


@register("dr.data.Trigger")
class Trigger(StrEnum):
    ALLIED_MONARCH_KILLED = "allied_monarch_killed"


@register("dr.data.CombatWho")
class CombatWho(StrEnum):
    REGULARS = "regulars"
    LED_FORCE = "led_force"


@register("dr.data.CombatCondition")
class CombatCondition(StrEnum):
    HALF_FORCE = "half_force"
    ALWAYS = "always"


@register("dr.data.MovementRule")
class MovementRule(StrEnum):
    MONARCH_MOVES_AS_REGULARS = "monarch_moves_as_regulars"
    MONARCH_STAYS_IN_ROYAL_CASTLE = "monarch_stays_in_royal_castle"
    HALF_REGULARS_STAY_HOME = "half_regulars_stay_home"
    NO_MOVEMENT_BONUS = "no_movement_bonus"


# --- the grid -----------------------------------------------------------------------------

_EVEN_ROW = {
    Direction.E: (1, 0), Direction.NE: (0, -1), Direction.NW: (-1, -1),
    Direction.W: (-1, 0), Direction.SW: (-1, 1), Direction.SE: (0, 1),
}  # fmt: skip
_ODD_ROW = {
    Direction.E: (1, 0), Direction.NE: (1, -1), Direction.NW: (0, -1),
    Direction.W: (-1, 0), Direction.SW: (0, 1), Direction.SE: (1, 1),
}  # fmt: skip


def hex_step(col: int, row: int, direction: Direction) -> Coord:
    """The coordinates one hex from (col, row) in `direction`, on or off the map."""
    dc, dr = (_ODD_ROW if row % 2 else _EVEN_ROW)[direction]
    return (col + dc, row + dr)


_ADJACENT = (
    tuple(_EVEN_ROW[direction] for direction in Direction),
    tuple(_ODD_ROW[direction] for direction in Direction),
)


def hex_adjacent(col: int, row: int) -> tuple[Coord, ...]:
    """The six coordinates around (col, row), on or off the map, in `Direction`'s order."""
    return tuple((col + dc, row + dr) for dc, dr in _ADJACENT[row % 2])


def hex_distance(a: Coord, b: Coord) -> int:
    """Hexes to step from a to b."""
    (aq, ar), (bq, br) = _axial(a), _axial(b)
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


def _axial(coord: Coord) -> Coord:
    col, row = coord
    return col - (row - (row & 1)) // 2, row


def _side(a: Coord, b: Coord) -> Side:
    return (a, b) if a <= b else (b, a)


# --- the records --------------------------------------------------------------------------


@record("dr.data.UnitSpec")
class UnitSpec:
    """A regular unit of a kingdom's force pool; `bonuses` are all it carries (its
    kingdom's and its own); `start` names a castle, a location or a start area."""

    id: str
    kingdom: str
    kind: UnitKind
    start: str
    bonuses: frozenset[Bonus]


@record("dr.data.StartArea")
class StartArea:
    """Hexes of a kingdom with any of `terrain`, where some units start (Zorn)."""

    name: str
    kingdom: str
    terrain: frozenset[Terrain]
    placement: AreaPlacement


@record("dr.data.Kingdom")
class Kingdom:
    """A kingdom of Minaria. `human`, `monarch_ma` and `regular_ma` are None only for
    kingdoms the basic game does not use; `fleet_ma` is None where no source gives it."""

    name: str
    basic: bool
    human: bool | None
    royal_castle: str
    monarch_ma: int | None
    regular_ma: int | None
    fleet_ma: int | None
    terrain_bonuses: frozenset[Bonus]
    units: tuple[UnitSpec, ...]
    start_areas: tuple[StartArea, ...]
    aliases: tuple[str, ...]


@record("dr.data.Castle")
class Castle:
    """A castle or castle-port; `basic` is False for castles absent from the basic game."""

    name: str
    hex: Coord
    defence: int
    kingdom: str | None
    royal: bool
    port: bool
    basic: bool
    aliases: tuple[str, ...]


@record("dr.data.Location")
class Location:
    """A named hex that is not a castle: a non-castle port or a start location."""

    name: str
    hex: Coord
    kingdom: str | None
    port: bool


Place: TypeAlias = Castle | Location


@record("dr.data.Hex")
class Hex:
    """A map hex. `kingdom` is its owner in the basic game; `map_kingdom` the tag the map
    prints (they differ where the basic game makes a hex unclaimed)."""

    col: int
    row: int
    terrain: frozenset[Terrain]
    name: str | None
    kingdom: str | None
    map_kingdom: str | None

    @property
    def coord(self) -> Coord:
        return (self.col, self.row)


@record("dr.data.HexMap")
class HexMap:
    """The map: its hexes, the navigable-river hexsides, and the hexes a navigable river
    runs through (fleets may enter them as well as the hexes beside a river hexside)."""

    hexes: tuple[Hex, ...]
    river_sides: frozenset[Side]
    river_hexes: frozenset[Coord]

    @cached_property
    def _by_coord(self) -> Mapping[Coord, Hex]:
        return MappingProxyType({h.coord: h for h in self.hexes})

    @cached_property
    def _by_name(self) -> Mapping[str, Hex]:
        return MappingProxyType({h.name: h for h in self.hexes if h.name})

    @cached_property
    def _navigable(self) -> frozenset[Coord]:
        return self.river_hexes.union(*self.river_sides)

    def get(self, col: int, row: int) -> Hex | None:
        return self._by_coord.get((col, row))

    def named(self, name: str) -> Hex:
        """The hex the map names `name` (KeyError if none)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no hex is named {name!r}") from None

    @cached_property
    def _near(self) -> dict[Coord, tuple[Coord, ...]]:
        """The neighbours of each hex asked about so far (worked out on first use: most
        calls touch a few dozen of the map's ~1,000 hexes)."""
        return {}

    def neighbours(self, col: int, row: int) -> tuple[Coord, ...]:
        """The hexes on the map next to (col, row)."""
        found = self._near.get((col, row))
        if found is None:
            by_coord = self._by_coord
            found = self._near[col, row] = tuple(c for c in hex_adjacent(col, row) if c in by_coord)
        return found

    def step(self, col: int, row: int, direction: Direction) -> Coord | None:
        """The hex next to (col, row) in `direction`, None off the map."""
        coord = hex_step(col, row, direction)
        return coord if coord in self._by_coord else None

    def distance(self, a: Coord, b: Coord) -> int:
        return hex_distance(a, b)

    def is_river_side(self, a: Coord, b: Coord) -> bool:
        """Whether a navigable river runs along the hexside between a and b."""
        return _side(a, b) in self.river_sides

    def is_navigable(self, col: int, row: int) -> bool:
        """Whether fleets may move along the navigable river in this hex."""
        return (col, row) in self._navigable


@record("dr.data.MercenarySpec")
class MercenarySpec:
    """A common mercenary army or fleet of the mercenary force pool (rulebook: Game
    Pieces › Mercenaries), known by the ID letter on its counter."""

    id: str
    kind: UnitKind
    movement: int


@record("dr.data.Card")
class Card:
    """A diplomatic ploy card. A failed roll with a banishing ploy banishes the
    ambassador for `bonus + 1` turns (rulebook: Diplomacy Phase › Banishing Ambassadors)."""

    id: str
    ploy: str
    bonus: int
    banishes: bool

    @property
    def banish_turns(self) -> int:
        return self.bonus + 1 if self.banishes else 0


# Personality effects: the "vocabulary" section of personalities-2024.json says what each
# kind and field means.


@record("dr.data.effect.RollModifier")
class RollModifier:
    """`value` added to the diplomacy rolls of `attempt`; only with `ploy` if one is named."""

    attempt: Attempt
    ploy: str | None
    value: int


@record("dr.data.effect.PloyNoEffect")
class PloyNoEffect:
    ploys: tuple[str, ...]


@record("dr.data.effect.Banish")
class Banish:
    on: BanishOn
    turns: int


@record("dr.data.effect.NeverBanish")
class NeverBanish:
    ploy: str


@record("dr.data.effect.DeactivatesWhen")
class DeactivatesWhen:
    trigger: Trigger


@record("dr.data.effect.JoinsDeactivator")
class JoinsDeactivator:
    pass


@record("dr.data.effect.FirstActivationOnlyBy")
class FirstActivationOnlyBy:
    ploy: str


@record("dr.data.effect.OnlyDeathDeactivates")
class OnlyDeathDeactivates:
    pass


@record("dr.data.effect.CombatModifier")
class CombatModifier:
    who: CombatWho
    value: int
    condition: CombatCondition
    siege: bool


@record("dr.data.effect.Movement")
class Movement:
    rule: MovementRule


@record("dr.data.effect.DeployFraction")
class DeployFraction:
    value: Fraction


@record("dr.data.effect.AmbassadorExecutedOnFailure")
class AmbassadorExecutedOnFailure:
    pass


@record("dr.data.effect.AllianceSizeModifier")
class AllianceSizeModifier:
    """On `attempt` rolls, the alliance with fewest kingdoms adds `smallest`, the one
    with most adds `largest`."""

    attempt: Attempt
    smallest: int
    largest: int


Effect: TypeAlias = (
    RollModifier | PloyNoEffect | Banish | NeverBanish | DeactivatesWhen | JoinsDeactivator
    | FirstActivationOnlyBy | OnlyDeathDeactivates | CombatModifier | Movement
    | DeployFraction | AmbassadorExecutedOnFailure | AllianceSizeModifier
)  # fmt: skip


@record("dr.data.Personality")
class Personality:
    number: int
    name: str
    summary: str
    effects: tuple[Effect, ...]


# --- the container ------------------------------------------------------------------------


@frozen
class DRData:
    """Everything the rule set reads from data files. Never written to a log: a game
    records `refs` (file names and digests) instead. Equal only to itself."""

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    kingdoms: Mapping[str, Kingdom]
    castles: Mapping[str, Castle]
    locations: Mapping[str, Location]
    map: HexMap
    deck: tuple[Card, ...]
    personalities: tuple[Personality, ...]
    mercenaries: tuple[MercenarySpec, ...]
    files: tuple[_File, ...]

    @cached_property
    def refs(self) -> tuple[DataRef, ...]:
        """Each file's kind, name and SHA-256: worked out when a game is created (a
        call that replays one never needs them, nor hashlib)."""
        return tuple(f.ref for f in self.files)

    @cached_property
    def _kingdom_names(self) -> Mapping[str, Kingdom]:
        return _index((name, k) for k in self.kingdoms.values() for name in (k.name, *k.aliases))

    @cached_property
    def _places(self) -> Mapping[str, Place]:
        castles = ((n, c) for c in self.castles.values() for n in (c.name, *c.aliases))
        return _index([*castles, *self.locations.items()])

    @cached_property
    def _castles_at(self) -> Mapping[Coord, Castle]:
        return _index((c.hex, c) for c in self.castles.values() if c.basic)

    @cached_property
    def _units(self) -> Mapping[str, UnitSpec]:
        return _index((u.id, u) for k in self.kingdoms.values() for u in k.units)

    @cached_property
    def _mercenaries(self) -> Mapping[str, MercenarySpec]:
        return _index((m.id, m) for m in self.mercenaries)

    def digest(self, kind: str) -> str:
        """SHA-256 (hex) of the file of `kind` (kingdoms, castles, map, deck, personalities,
        mercenaries)."""
        return _lookup({ref.kind: ref.digest for ref in self.refs}, kind, "kind of data file")

    def basic_kingdoms(self) -> tuple[Kingdom, ...]:
        return tuple(k for k in self.kingdoms.values() if k.basic)

    def kingdom(self, name: str) -> Kingdom:
        """The kingdom called `name` or one of its aliases (KeyError if none)."""
        return _lookup(self._kingdom_names, name, "kingdom")

    def place(self, name: str) -> Place:
        """The castle (by name or alias) or location called `name` (KeyError if none)."""
        return _lookup(self._places, name, "castle or location")

    def unit(self, unit_id: str) -> UnitSpec:
        return _lookup(self._units, unit_id, "unit")

    def royal_castle(self, kingdom: str | Kingdom) -> Place:
        """Where the kingdom's monarch starts (for the Trolls a location, The Face)."""
        return self.place(self._kingdom(kingdom).royal_castle)

    def player_units(self, kingdom: str | Kingdom) -> tuple[UnitSpec, ...]:
        """The regular units of the kingdom's force pool."""
        return self._kingdom(kingdom).units

    def mercenary(self, unit_id: str) -> MercenarySpec:
        """The common mercenary with ID `unit_id` (KeyError if none)."""
        return _lookup(self._mercenaries, unit_id, "common mercenary")

    def castle_at(self, col: int, row: int) -> Castle | None:
        """The castle standing on (col, row) in the basic game, if any."""
        return self._castles_at.get((col, row))

    def start_area(self, unit: UnitSpec) -> StartArea | None:
        """The area the unit is placed in at set-up, if it has no start hex of its own."""
        areas = self.kingdom(unit.kingdom).start_areas
        return next((a for a in areas if a.name == unit.start), None)

    def start_hex(self, unit: UnitSpec) -> Coord | None:
        """The hex printed on the unit's counter; None for a unit placed in a start area."""
        return None if self.start_area(unit) else self.place(unit.start).hex

    def spread_hexes(self, unit: UnitSpec) -> tuple[Coord, ...]:
        """The hexes of the unit's start area (empty for a unit with a start hex); the
        area's `placement` says how units share them."""
        area = self.start_area(unit)
        if area is None:
            return ()
        found = self._spread.get(area)
        if found is None:
            found = self._spread[area] = _area_hexes(self.map, area)
        return found

    @cached_property
    def _spread(self) -> dict[StartArea, tuple[Coord, ...]]:
        """The hexes of each start area asked about so far (`spread_hexes`: a random
        event's replacements ask them for every unit, in every branch of a dry run)."""
        return {}

    def _kingdom(self, kingdom: str | Kingdom) -> Kingdom:
        return self.kingdom(kingdom) if isinstance(kingdom, str) else kingdom


K = TypeVar("K")
V = TypeVar("V")


def _index(pairs: Iterable[tuple[K, V]]) -> Mapping[K, V]:
    return MappingProxyType(dict(pairs))


def _lookup(index: Mapping[str, V], name: str, what: str) -> V:
    try:
        return index[name]
    except KeyError:
        raise KeyError(f"unknown {what} {name!r}") from None


def _area_hexes(hexmap: HexMap, area: StartArea) -> tuple[Coord, ...]:
    return tuple(
        h.coord for h in hexmap.hexes if h.kingdom == area.kingdom and h.terrain & area.terrain
    )


class Room:
    """Whether units fit in some spaces one per space, no two adjacent (rulebook: Special
    Rules for Select Kingdoms › Zorn): an independent set of that size. Some largest set
    holds the space with the fewest free neighbours or one of those neighbours, so only
    they are tried; answers are kept for the spaces tried again."""

    def __init__(self, hexmap: HexMap) -> None:
        self.map = hexmap
        self._seen: dict[tuple[frozenset[Coord], int], bool] = {}

    def fits(self, spaces: Iterable[Coord], count: int) -> bool:
        free = frozenset(spaces)
        if count <= 0 or len(free) < count:
            return count <= 0
        key = (free, count)
        if key not in self._seen:
            degree = {h: len(free.intersection(self.map.neighbours(*h))) for h in free}
            first = min(sorted(free), key=degree.__getitem__)
            tries = [first, *sorted(free.intersection(self.map.neighbours(*first)))]
            self._seen[key] = any(self.fits(self.without(free, h), count - 1) for h in tries)
        return self._seen[key]

    def without(self, spaces: Iterable[Coord], hex_: Coord) -> frozenset[Coord]:
        """The spaces left once a unit stands on `hex_`: not it, nor its neighbours."""
        return frozenset(spaces) - {hex_, *self.map.neighbours(*hex_)}


# --- reading files ------------------------------------------------------------------------

_FILES = {
    "kingdoms": "kingdoms.json",
    "castles": "castles.json",
    "map": "map.json",
    "deck": "diplomacy-cards-2024.json",
    "personalities": "personalities-2024.json",
    "mercenaries": "mercenaries.json",
}
# beside this module (importlib.resources would import zipfile, tempfile and the compressors
# into every call that replays a game: issue 14)
_DATAFILES = os.path.join(os.path.dirname(__file__), "datafiles")
_MISSING = object()


@frozen
class _File:
    kind: str
    name: str
    raw: bytes

    @property
    def ref(self) -> DataRef:
        import hashlib

        return DataRef(self.kind, self.name, hashlib.sha256(self.raw).hexdigest())


def _error(file: str, where: str, key: str | None, problem: str) -> DataError:
    head = ", ".join(part for part in (f"file {file}", where) if part)
    field = f" field '{key}':" if key else ""
    return DataError(f"{head}:{field} {problem}", rule=f"data: {file}")


def _show(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object, refused if a key repeats (json keeps the last one silently)."""
    fields: dict[str, object] = {}
    for key, value in pairs:
        if key in fields:
            raise ValueError(f"duplicate key {key!r} in an object")
        fields[key] = value
    return fields


class _Entry:
    """A JSON object being read. Every error names the file, the entry and the field;
    `done` refuses fields nobody read (a misspelt field is an error, not a silent gap)."""

    def __init__(self, file: str, prefix: str, label: str, value: object) -> None:
        self.file = file
        self.prefix = prefix
        self.where = prefix + label
        if not isinstance(value, dict):
            raise self.error(f"must be a JSON object, got {_show(value)}")
        self._fields: dict[str, object] = value
        self._read: set[str] = set()

    def error(self, problem: str, key: str | None = None) -> DataError:
        return _error(self.file, self.where, key, problem)

    def raw(self, key: str, default: object = _MISSING) -> object:
        self._read.add(key)
        if key in self._fields:
            return self._fields[key]
        if default is _MISSING:
            raise self.error("is missing", key)
        return default

    def fields(self) -> tuple[str, ...]:
        return tuple(self._fields)

    def text(self, key: str) -> str:
        value = self.raw(key)
        if isinstance(value, str) and value:
            return value
        raise self.error(f"must be a non-empty string, got {_show(value)}", key)

    def optional_text(self, key: str) -> str | None:
        return None if self.raw(key, None) is None else self.text(key)

    def integer(self, key: str, minimum: int | None = None) -> int:
        value = self.raw(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(f"must be an integer, got {_show(value)}", key)
        if minimum is not None and value < minimum:
            raise self.error(f"must be at least {minimum}, got {value}", key)
        return value

    def optional_integer(self, key: str, minimum: int | None = None) -> int | None:
        return None if self.raw(key, None) is None else self.integer(key, minimum)

    def flag(self, key: str) -> bool:
        value = self.raw(key)
        if isinstance(value, bool):
            return value
        raise self.error(f"must be true or false, got {_show(value)}", key)

    def optional_flag(self, key: str) -> bool | None:
        return None if self.raw(key, None) is None else self.flag(key)

    def fraction(self, key: str) -> Fraction:
        value = self.raw(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and 0 < value <= 1:
            return Fraction(str(value))
        raise self.error(f"must be a number above 0 and at most 1, got {_show(value)}", key)

    def coord(self, key: str) -> Coord:
        value = self.raw(key)
        coord = _as_coord(value)
        if coord is None:
            raise self.error(f"must be [col, row], got {_show(value)}", key)
        return coord

    def texts(self, key: str, optional: bool = False) -> tuple[str, ...]:
        value = self.raw(key, [] if optional else _MISSING)
        if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
            return tuple(value)
        raise self.error(f"must be a list of strings, got {_show(value)}", key)

    def choice(self, key: str, vocabulary: type[E]) -> E:
        value = self.raw(key)
        members: dict[str, E] = _members(vocabulary)
        member = members.get(value) if isinstance(value, str) else None
        if member is None:
            raise self.error(f"{_show(value)} is not one of: {', '.join(members)}", key)
        return member

    def choices(self, key: str, vocabulary: type[E], optional: bool = False) -> frozenset[E]:
        names = self.texts(key, optional)
        members: dict[str, E] = _members(vocabulary)
        unknown = [name for name in names if name not in members]
        if unknown:
            raise self.error(f"{unknown[0]!r} is not one of: {', '.join(members)}", key)
        return frozenset(map(members.__getitem__, names))

    def child(self, key: str) -> _Entry:
        return _Entry(self.file, self._child_prefix(), key, self.raw(key))

    def entries(self, key: str, label: str, optional: bool = False) -> tuple[_Entry, ...]:
        value = self.raw(key, [] if optional else _MISSING)
        if not isinstance(value, list):
            raise self.error(f"must be a list, got {_show(value)}", key)
        prefix = self._child_prefix()
        return tuple(_Entry(self.file, prefix, f"{label} {i}", v) for i, v in enumerate(value, 1))

    def name(self, label: str) -> str:
        """Read the entry's name and let later errors call the entry by it."""
        name = self.text("name")
        self.where = f"{self.prefix}{label} {name!r}"
        return name

    def docs(self, *keys: str) -> None:
        """Documentation fields: allowed, not read."""
        self._read.update(keys)

    def done(self) -> None:
        unknown = sorted(set(self._fields) - self._read)
        if unknown:
            raise self.error(f"unknown field '{unknown[0]}'")

    def _child_prefix(self) -> str:
        return f"{self.where}, " if self.where else ""


@cache
def _members(vocabulary: type[E]) -> dict[str, E]:
    """A vocabulary's members by value, in its order (looked up for each entry of a file:
    asking the enum was a tenth of reading the data, issue 14)."""
    return {member.value: member for member in vocabulary}


def _as_coord(value: object) -> Coord | None:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        return (value[0], value[1])
    return None


_FORMATS = {kind: f"warscribe-dr-{kind}" for kind in _FILES}
_TOP_DOCS = ("title", "edition", "sources", "doubts", "note", "vocabulary")


def _open(file: _File) -> _Entry:
    try:
        value = json.loads(file.raw, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError) as exc:
        raise _error(file.name, "", None, f"is not valid JSON ({exc})") from None
    top = _Entry(file.name, "", "", value)
    if top.text("format") != _FORMATS[file.kind]:
        raise top.error(f"must be {_FORMATS[file.kind]!r} for a {file.kind} file", "format")
    if top.integer("version") != 1:
        raise top.error("only version 1 is known", "version")
    top.docs(*_TOP_DOCS)
    return top


def _read(kind: str, source: Source | None) -> _File:
    if source is None:
        with open(os.path.join(_DATAFILES, _FILES[kind]), "rb") as builtin:
            return _File(kind, _FILES[kind], builtin.read())
    if isinstance(source, os.PathLike):
        name = os.path.basename(source)
        try:
            with open(source, "rb") as given:
                return _File(kind, name, given.read())
        except OSError as exc:
            raise _error(name, "", None, f"cannot be read ({exc.strerror})") from None
    content = source.encode() if isinstance(source, str) else source
    return _File(kind, f"{kind} file given to `new`", content)


# --- kingdoms.json ------------------------------------------------------------------------


def _parse_kingdoms(top: _Entry) -> tuple[Kingdom, ...]:
    kingdoms: list[Kingdom] = []
    names: set[str] = set()
    unit_ids: set[str] = set()
    for entry in top.entries("kingdoms", "kingdom"):
        kingdom = _kingdom(entry, unit_ids)
        _claim(entry, "name", names, (kingdom.name, *kingdom.aliases))
        kingdoms.append(kingdom)
    top.done()
    return tuple(kingdoms)


def _claim(entry: _Entry, key: str, taken: set[str], names: Iterable[str]) -> None:
    for name in names:
        if name in taken:
            raise entry.error(f"{name!r} is used by another entry", key)
        taken.add(name)


def _kingdom(entry: _Entry, unit_ids: set[str]) -> Kingdom:
    name = entry.name("kingdom")
    bonuses = entry.choices("terrain_bonuses", Bonus)
    kingdom = Kingdom(
        name=name,
        basic=entry.flag("basic"),
        human=entry.optional_flag("human"),
        royal_castle=entry.text("royal_castle"),
        monarch_ma=entry.optional_integer("monarch_ma", 1),
        regular_ma=entry.optional_integer("regular_ma", 1),
        fleet_ma=entry.optional_integer("fleet_ma", 1),
        terrain_bonuses=bonuses,
        units=tuple(_unit(u, name, bonuses, unit_ids) for u in entry.entries("units", "unit")),
        start_areas=tuple(
            _area(a, name) for a in entry.entries("start_areas", "start area", optional=True)
        ),
        aliases=entry.texts("aliases", optional=True),
    )
    entry.docs("people", "doubts", "note")
    entry.done()
    _require_basic_fields(entry, kingdom)
    return kingdom


def _require_basic_fields(entry: _Entry, kingdom: Kingdom) -> None:
    if not kingdom.basic:
        return
    for key in ("human", "monarch_ma", "regular_ma"):
        if getattr(kingdom, key) is None:
            raise entry.error("is needed for a kingdom used in the basic game", key)


def _unit(
    entry: _Entry, kingdom: str, kingdom_bonuses: frozenset[Bonus], unit_ids: set[str]
) -> UnitSpec:
    unit = UnitSpec(
        id=entry.text("id"),
        kingdom=kingdom,
        kind=entry.choice("kind", UnitKind),
        start=entry.text("start"),
        bonuses=kingdom_bonuses | entry.choices("terrain_bonuses", Bonus, optional=True),
    )
    _claim(entry, "id", unit_ids, (unit.id,))
    entry.docs("note")
    entry.done()
    return unit


def _area(entry: _Entry, kingdom: str) -> StartArea:
    area = StartArea(
        name=entry.name("start area"),
        kingdom=kingdom,
        terrain=entry.choices("terrain", Terrain),
        placement=entry.choice("placement", AreaPlacement),
    )
    entry.docs("note")
    entry.done()
    return area


# --- castles.json -------------------------------------------------------------------------


def _parse_castles(top: _Entry) -> tuple[tuple[Castle, ...], tuple[Location, ...]]:
    taken: set[str] = set()
    castles = []
    for entry in top.entries("castles", "castle"):
        castle = _castle(entry)
        _claim(entry, "name", taken, (castle.name, *castle.aliases))
        castles.append(castle)
    locations = []
    for entry in top.entries("locations", "location"):
        location = _location(entry)
        _claim(entry, "name", taken, (location.name,))
        locations.append(location)
    top.done()
    return tuple(castles), tuple(locations)


def _castle(entry: _Entry) -> Castle:
    castle = Castle(
        name=entry.name("castle"),
        hex=entry.coord("hex"),
        defence=entry.integer("defence", 1),
        kingdom=entry.optional_text("kingdom"),
        royal=entry.flag("royal"),
        port=entry.flag("port"),
        basic=entry.flag("basic"),
        aliases=entry.texts("aliases", optional=True),
    )
    entry.docs("note")
    entry.done()
    return castle


def _location(entry: _Entry) -> Location:
    location = Location(
        name=entry.name("location"),
        hex=entry.coord("hex"),
        kingdom=entry.optional_text("kingdom"),
        port=entry.flag("port"),
    )
    entry.docs("note")
    entry.done()
    return location


# --- map.json -----------------------------------------------------------------------------


@frozen
class _MapFile:
    """The map and what map.json says about the basic game, kept for the cross-checks."""

    hexmap: HexMap
    unclaimed_kingdoms: tuple[str, ...]
    absent_castles: tuple[str, ...]


def _parse_map(top: _Entry) -> _MapFile:
    _check_grid(top.child("grid"))
    exclusions = top.child("exclusions")
    unclaimed_kingdoms = exclusions.texts("unclaimed_kingdoms")
    unclaimed_hexes = frozenset(_coords(exclusions, "unclaimed_hexes"))
    absent_castles = exclusions.texts("absent_castles")
    exclusions.docs("rules")
    exclusions.done()
    hexes = _hexes(top, frozenset(unclaimed_kingdoms), unclaimed_hexes)
    river = top.child("navigable_river")
    on_map = {h.coord for h in hexes}
    hexmap = HexMap(
        hexes=hexes,
        river_sides=_river_sides(river, on_map),
        river_hexes=frozenset(_on_map(river, "hexes", _coords(river, "hexes"), on_map)),
    )
    river.docs("method", "doubts")
    river.done()
    top.docs("terrain_rules")
    top.done()
    return _MapFile(hexmap, unclaimed_kingdoms, absent_castles)


def _check_grid(grid: _Entry) -> None:
    if grid.text("offset") != "odd-r":
        raise grid.error("only 'odd-r' (pointy-topped rows, odd rows shifted right)", "offset")
    grid.docs("layout", "columns", "rows", "calibration", "note")
    grid.done()


def _coords(entry: _Entry, key: str) -> list[Coord]:
    value = entry.raw(key)
    items = value if isinstance(value, list) else [value]
    coords = [c for c in map(_as_coord, items) if c is not None]
    if len(coords) != len(items):
        raise entry.error(f"must be a list of [col, row], got {_show(value)}", key)
    return coords


def _on_map(entry: _Entry, key: str, coords: list[Coord], on_map: set[Coord]) -> list[Coord]:
    for coord in coords:
        if coord not in on_map:
            raise entry.error(f"{list(coord)} is not a hex of the map", key)
    return coords


def _hexes(
    top: _Entry, unclaimed_kingdoms: frozenset[str], unclaimed_hexes: frozenset[Coord]
) -> tuple[Hex, ...]:
    rows = top.raw("hexes")
    if not isinstance(rows, list):
        raise top.error(f"must be a list, got {_show(rows)}", "hexes")
    hexes: dict[Coord, Hex] = {}
    terrains: dict[tuple[str, ...], frozenset[Terrain]] = {}
    for i, row in enumerate(rows, 1):
        col, row_, flags, name, kingdom = _hex_row(top.file, i, row)
        coord = (col, row_)
        if coord in hexes:
            raise _error(top.file, f"hex {i}", None, f"{list(coord)} is listed twice")
        terrain = terrains.get(flags)
        if terrain is None:
            terrain = terrains[flags] = _terrain(top.file, f"hex {i} {list(coord)}", flags)
        unclaimed = kingdom in unclaimed_kingdoms or coord in unclaimed_hexes
        hexes[coord] = Hex(col, row_, terrain, name, None if unclaimed else kingdom, kingdom)
    return tuple(hexes.values())


_HexRow: TypeAlias = tuple[int, int, tuple[str, ...], str | None, str | None]


def _hex_row(file: str, index: int, row: object) -> _HexRow:
    """A row of map.json's hexes, checked: (col, row, flags, name, kingdom)."""
    if type(row) is list and len(row) == 5:
        col, row_, flags, name, kingdom = row
        if (
            type(col) is int
            and type(row_) is int
            and col >= 0
            and row_ >= 0
            and type(flags) is list
            and all(type(f) is str for f in flags)
            and _optional_strings(name, kingdom)
        ):
            return col, row_, tuple(flags), name, kingdom
    shape = "must be [col, row, [flags], name or null, kingdom or null]"
    raise _error(file, f"hex {index}", None, f"{shape}, got {_show(row)}")


def _terrain(file: str, where: str, flags: tuple[str, ...]) -> frozenset[Terrain]:
    unknown = [f for f in flags if f not in _TERRAIN_NAMES]
    if unknown:
        raise _error(file, where, None, f"unknown terrain flag {_show(unknown[0])}")
    return frozenset(_TERRAIN_NAMES[f] for f in flags)


_TERRAIN_NAMES = {t.value: t for t in Terrain}  # a lookup: Terrain(name) for each of ~1,000 hexes


def _optional_strings(first: object, second: object) -> bool:
    return (first is None or (type(first) is str and first != "")) and (
        second is None or (type(second) is str and second != "")
    )


def _river_sides(river: _Entry, on_map: set[Coord]) -> frozenset[Side]:
    value = river.raw("hexsides")
    sides = set()
    for pair in value if isinstance(value, list) else [value]:
        side = _as_side(pair)
        if side is None:
            problem = f"must be a list of [[col, row], [col, row]], got {_show(pair)}"
            raise river.error(problem, "hexsides")
        if not on_map.issuperset(side) or side[1] not in hex_adjacent(*side[0]):
            problem = f"{_show([list(c) for c in side])} is not a side between two map hexes"
            raise river.error(problem, "hexsides")
        sides.add(side)
    return frozenset(sides)


def _as_side(value: object) -> Side | None:
    if not isinstance(value, list) or len(value) != 2:
        return None
    a, b = _as_coord(value[0]), _as_coord(value[1])
    return None if a is None or b is None else _side(a, b)


# --- diplomacy-cards-*.json ---------------------------------------------------------------


def _parse_deck(top: _Entry) -> tuple[tuple[Card, ...], frozenset[str]]:
    """The cards, and the names of the ploys the file declares."""
    banishing = _ploys(top.child("ploys"))
    cards: list[Card] = []
    ids: set[str] = set()
    for entry in top.entries("cards", "card"):
        card_id = entry.text("id")
        ploy = entry.text("ploy")
        if ploy not in banishing:
            raise entry.error(f"{ploy!r} is not one of the file's ploys", "ploy")
        cards.append(Card(card_id, ploy, entry.integer("bonus", 1), banishing[ploy]))
        _claim(entry, "id", ids, (card_id,))
        entry.done()
    top.done()
    return tuple(cards), frozenset(banishing)


def _ploys(ploys: _Entry) -> dict[str, bool]:
    banishing = {}
    for name in ploys.fields():
        entry = ploys.child(name)
        banishing[name] = entry.flag("banishes")
        entry.docs("note")
        entry.done()
    return banishing


# --- personalities-*.json -----------------------------------------------------------------

_EFFECTS: dict[str, Callable[[_Entry], Effect]] = {
    "roll_modifier": lambda e: RollModifier(
        e.choice("attempt", Attempt), e.optional_text("ploy"), e.integer("value")
    ),
    "ploy_no_effect": lambda e: PloyNoEffect(e.texts("ploys")),
    "banish": lambda e: Banish(e.choice("on", BanishOn), e.integer("turns", 1)),
    "never_banish": lambda e: NeverBanish(e.text("ploy")),
    "deactivates_when": lambda e: DeactivatesWhen(e.choice("trigger", Trigger)),
    "joins_deactivator": lambda e: JoinsDeactivator(),
    "first_activation_only_by": lambda e: FirstActivationOnlyBy(e.text("ploy")),
    "only_death_deactivates": lambda e: OnlyDeathDeactivates(),
    "combat_modifier": lambda e: CombatModifier(
        e.choice("who", CombatWho),
        e.integer("value"),
        e.choice("condition", CombatCondition),
        e.flag("siege"),
    ),
    "movement": lambda e: Movement(e.choice("rule", MovementRule)),
    "deploy_fraction": lambda e: DeployFraction(e.fraction("value")),
    "ambassador_executed_on_failure": lambda e: AmbassadorExecutedOnFailure(),
    "alliance_size_modifier": lambda e: AllianceSizeModifier(
        e.choice("attempt", Attempt), e.integer("smallest"), e.integer("largest")
    ),
}


def _parse_personalities(top: _Entry) -> tuple[Personality, ...]:
    cards: list[Personality] = []
    numbers: set[str] = set()
    for entry in top.entries("cards", "personality"):
        card = Personality(
            number=entry.integer("number", 1),
            name=entry.name("personality"),
            summary=entry.text("summary"),
            effects=tuple(_effect(e) for e in entry.entries("effects", "effect")),
        )
        _claim(entry, "number", numbers, (str(card.number),))
        entry.docs("note")
        entry.done()
        cards.append(card)
    top.done()
    return tuple(cards)


def _effect(entry: _Entry) -> Effect:
    kind = entry.text("kind")
    if kind not in _EFFECTS:
        raise entry.error(f"{kind!r} is not one of: {', '.join(_EFFECTS)}", "kind")
    effect = _EFFECTS[kind](entry)
    entry.docs("note")
    entry.done()
    return effect


def _effect_ploys(effect: Effect) -> tuple[str, ...]:
    if isinstance(effect, PloyNoEffect):
        return effect.ploys
    if isinstance(effect, RollModifier | NeverBanish | FirstActivationOnlyBy):
        return (effect.ploy,) if effect.ploy else ()
    return ()


# --- mercenaries.json ---------------------------------------------------------------------


def _parse_mercenaries(top: _Entry) -> tuple[MercenarySpec, ...]:
    units: list[MercenarySpec] = []
    ids: set[str] = set()
    for entry in top.entries("mercenaries", "mercenary"):
        unit = MercenarySpec(
            id=entry.text("id"),
            kind=entry.choice("kind", UnitKind),
            movement=entry.integer("movement", 1),
        )
        _claim(entry, "id", ids, (unit.id,))
        entry.docs("note")
        entry.done()
        units.append(unit)
    top.done()
    return tuple(units)


# --- cross-checks between files -----------------------------------------------------------


def _check_map_links(name: str, mapfile: _MapFile, data: DRData) -> None:
    for h in mapfile.hexmap.hexes:
        if h.map_kingdom is not None and h.map_kingdom not in data.kingdoms:
            where = f"hex {[h.col, h.row]}"
            raise _error(name, where, None, f"{h.map_kingdom!r} is not in the kingdoms file")
    outside = sorted(k.name for k in data.kingdoms.values() if not k.basic)
    if sorted(mapfile.unclaimed_kingdoms) != outside:
        problem = f"must name the kingdoms the kingdoms file marks not basic: {outside}"
        raise _error(name, "exclusions", "unclaimed_kingdoms", problem)
    absent = sorted(c.name for c in data.castles.values() if not c.basic)
    if sorted(mapfile.absent_castles) != absent:
        problem = f"must name the castles the castles file marks not basic: {absent}"
        raise _error(name, "exclusions", "absent_castles", problem)
    for castle in absent:
        place = mapfile.hexmap.get(*data.castles[castle].hex)
        flags = place.terrain & _CASTLE_FLAGS if place else None
        if flags:
            problem = (
                f"{castle} does not exist in the basic game (exclusions: absent_castles): "
                f"its hex is plain terrain, without {', '.join(sorted(flags))}"
            )
            raise _error(name, f"hex {list(data.castles[castle].hex)}", None, problem)


def _check_place(name: str, label: str, place: Place, data: DRData) -> None:
    where = f"{label} {place.name!r}"
    h = data.map.get(*place.hex)
    if h is None:
        raise _error(name, where, "hex", f"{list(place.hex)} is not a hex of the map")
    names = (place.name, *place.aliases) if isinstance(place, Castle) else (place.name,)
    if h.name not in names:
        raise _error(name, where, "name", f"the map names hex {list(place.hex)} {h.name!r}")
    if place.kingdom is not None and place.kingdom not in data.kingdoms:
        raise _error(name, where, "kingdom", f"{place.kingdom!r} is not in the kingdoms file")
    if place.kingdom != h.map_kingdom:
        problem = f"the map gives hex {list(place.hex)} to {h.map_kingdom!r}"
        raise _error(name, where, "kingdom", problem)
    for key, expected in _place_flags(place).items():
        if expected != h.terrain & _FLAGS_CHECKED[key]:
            flags = ", ".join(sorted(h.terrain)) or "none"
            problem = f"disagrees with the map, whose hex {list(place.hex)} has flags: {flags}"
            raise _error(name, where, key, problem)


_FLAGS_CHECKED = {
    "port": frozenset({Terrain.CASTLE, Terrain.PORT, Terrain.NON_CASTLE_PORT}),
    "royal": frozenset({Terrain.ROYAL}),
}
_CASTLE_FLAGS = frozenset({Terrain.CASTLE, Terrain.PORT, Terrain.ROYAL})


def _place_flags(place: Place) -> dict[str, frozenset[Terrain]]:
    """The flags the map hex must carry, by the field that says so: none for a castle
    absent from the basic game (its hex is plain terrain)."""
    if isinstance(place, Location):
        return {"port": frozenset({Terrain.NON_CASTLE_PORT} if place.port else ())}
    if not place.basic:
        return {"port": frozenset(), "royal": frozenset()}
    return {
        "port": frozenset({Terrain.PORT if place.port else Terrain.CASTLE}),
        "royal": frozenset({Terrain.ROYAL} if place.royal else ()),
    }


def _check_kingdom(name: str, kingdom: Kingdom, data: DRData) -> None:
    where = f"kingdom {kingdom.name!r}"
    royal = data._places.get(kingdom.royal_castle)
    if royal is None or royal.kingdom != kingdom.name or not _is_royal_seat(royal):
        problem = f"{kingdom.royal_castle!r} is not a royal castle or location of the kingdom"
        raise _error(name, where, "royal_castle", problem)
    for index, unit in enumerate(kingdom.units, 1):
        _check_unit_start(name, f"{where}, unit {index}", kingdom, unit, data)
    for area in kingdom.start_areas:
        placed = sum(unit.start == area.name for unit in kingdom.units)
        if not Room(data.map).fits(_area_hexes(data.map, area), placed):
            problem = (
                f"has no room on the map for the {placed} units placed in it ({area.placement})"
            )
            raise _error(name, f"{where}, start area {area.name!r}", "terrain", problem)


def _is_royal_seat(place: Place) -> bool:
    """A royal castle, or a location (the Trolls have no castle: The Face serves)."""
    return isinstance(place, Location) or place.royal


def _check_unit_start(
    name: str, where: str, kingdom: Kingdom, unit: UnitSpec, data: DRData
) -> None:
    if any(area.name == unit.start for area in kingdom.start_areas):
        if unit.kind is UnitKind.FLEET:
            raise _error(name, where, "start", "a fleet cannot start in a start area")
        return
    place = data._places.get(unit.start)
    if place is None:
        problem = f"{unit.start!r} is not a castle, location or start area"
        raise _error(name, where, "start", problem)
    if place.kingdom != kingdom.name:
        raise _error(name, where, "start", f"{unit.start!r} is not in {kingdom.name}")
    if unit.kind is UnitKind.FLEET and not place.port:
        raise _error(name, where, "start", f"a fleet cannot start at {unit.start!r}: no port")


def _check_mercenary_ids(name: str, data: DRData) -> None:
    """A mercenary's ID must not be the id of a kingdom's regular unit."""
    taken = set(data._units)
    for index, unit in enumerate(data.mercenaries, 1):
        if unit.id in taken:
            problem = f"{unit.id!r} is already the id of a kingdom's unit"
            raise _error(name, f"mercenary {index}", "id", problem)


def _check_personality_ploys(name: str, data: DRData, ploys: frozenset[str]) -> None:
    for card in data.personalities:
        for index, effect in enumerate(card.effects, 1):
            unknown = [p for p in _effect_ploys(effect) if p not in ploys]
            if unknown:
                where = f"personality {card.name!r}, effect {index}"
                raise _error(name, where, None, f"ploy {unknown[0]!r} is not one of the deck's")


# --- loading ------------------------------------------------------------------------------


def load_files(
    *,
    kingdoms: Source | None = None,
    castles: Source | None = None,
    map: Source | None = None,
    deck: Source | None = None,
    personalities: Source | None = None,
    mercenaries: Source | None = None,
) -> DRData:
    """Read, check and cross-check the data files. A file not given is the built-in one.

    Each source is a path (`os.PathLike`), or the file's content as `str` or `bytes`.
    Raises DataError naming the file, the entry and the field of the first problem.
    """
    sources = {
        "kingdoms": kingdoms, "castles": castles, "map": map,
        "deck": deck, "personalities": personalities, "mercenaries": mercenaries,
    }  # fmt: skip
    files = {kind: _read(kind, source) for kind, source in sources.items()}
    mapfile = _parse_map(_open(files["map"]))
    castle_list, location_list = _parse_castles(_open(files["castles"]))
    cards, ploys = _parse_deck(_open(files["deck"]))
    data = DRData(
        kingdoms=_index((k.name, k) for k in _parse_kingdoms(_open(files["kingdoms"]))),
        castles=_index((c.name, c) for c in castle_list),
        locations=_index((loc.name, loc) for loc in location_list),
        map=mapfile.hexmap,
        deck=cards,
        personalities=_parse_personalities(_open(files["personalities"])),
        mercenaries=_parse_mercenaries(_open(files["mercenaries"])),
        files=tuple(files.values()),
    )
    _check_links(files, mapfile, ploys, data)
    return data


def _check_links(
    files: dict[str, _File], mapfile: _MapFile, ploys: frozenset[str], data: DRData
) -> None:
    _check_map_links(files["map"].name, mapfile, data)
    for castle in data.castles.values():
        _check_place(files["castles"].name, "castle", castle, data)
    for location in data.locations.values():
        _check_place(files["castles"].name, "location", location, data)
    for kingdom in data.kingdoms.values():
        _check_kingdom(files["kingdoms"].name, kingdom, data)
    _check_personality_ploys(files["personalities"].name, data, ploys)
    _check_mercenary_ids(files["mercenaries"].name, data)


@cache
def load_builtin() -> DRData:
    """The data shipped with warscribe (read and checked once)."""
    return load_files()


CUSTOM_KINDS = ("kingdoms", "castles", "map", "deck", "personalities", "mercenaries")


@cache
def load_custom(files: tuple[tuple[str, str], ...]) -> DRData:
    """The data of a game created with a group's own files (`(kind, content)` pairs, as
    recorded in its GameCreated); the built-in file for every kind not given."""
    if not files:
        return load_builtin()
    unknown = [kind for kind, _ in files if kind not in CUSTOM_KINDS]
    if unknown:
        raise DataError(f"unknown data file kind {unknown[0]!r}; known: {', '.join(CUSTOM_KINDS)}")
    return load_files(**dict(files))
