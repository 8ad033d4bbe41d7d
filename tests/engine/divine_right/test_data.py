"""The Divine Right data files and their loader (engine/rulesets/divine_right/data.py)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter, deque
from collections.abc import Callable
from fractions import Fraction
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from warscribe.engine.codec import decode, encode
from warscribe.engine.errors import DataError
from warscribe.engine.rulesets.divine_right.data import (
    Bonus,
    Castle,
    Coord,
    DeployFraction,
    Direction,
    DRData,
    Location,
    Room,
    Terrain,
    UnitKind,
    hex_distance,
    load_builtin,
    load_files,
)
from warscribe.engine.rulesets.divine_right.movement.terrain import Cost, land_cost

FILES = {
    "kingdoms": "kingdoms.json",
    "castles": "castles.json",
    "map": "map.json",
    "deck": "diplomacy-cards-2024.json",
    "personalities": "personalities-2024.json",
}
COASTAL = {Terrain.SEASHORE, Terrain.SEA, Terrain.PORT, Terrain.NON_CASTLE_PORT}


@pytest.fixture(scope="module")
def data() -> DRData:
    return load_builtin()


def builtin_bytes(kind: str) -> bytes:
    package = resources.files("warscribe.engine.rulesets.divine_right")
    return (package / "datafiles" / FILES[kind]).read_bytes()


def is_coastal(data: DRData, coord: Coord | None) -> bool:
    assert coord is not None
    h = data.map.get(*coord)
    return h is not None and bool(h.terrain & COASTAL)


def at(data: DRData, name: str) -> Coord:
    return data.place(name).hex


# --- the built-in data --------------------------------------------------------------------


def test_builtin_data_loads(data: DRData) -> None:
    assert len(data.kingdoms) == 13
    assert len(data.castles) == 34
    assert len(data.map.hexes) == 1070
    assert len(data.deck) == 32
    assert [p.number for p in data.personalities] == list(range(1, 21))


def test_builtin_data_is_read_once() -> None:
    assert load_builtin() is load_builtin()


def test_each_file_has_its_digest(data: DRData) -> None:
    for kind, name in FILES.items():
        digest = hashlib.sha256(builtin_bytes(kind)).hexdigest()
        assert data.digest(kind) == digest
        assert (kind, name, digest) in [(r.kind, r.name, r.digest) for r in data.refs]


def test_records_survive_the_codec(data: DRData) -> None:
    for value in (data.kingdom("Zorn"), data.personalities[13], data.map, data.deck[0]):
        assert decode(encode(value)) == value


# --- kingdoms -----------------------------------------------------------------------------


def test_eleven_kingdoms_in_the_basic_game(data: DRData) -> None:
    assert {k.name for k in data.basic_kingdoms()} == {
        "Ghem", "Hothior", "Immer", "Mivior", "Muetar", "Neuth",
        "Pon", "Rombune", "Shucassam", "Trolls", "Zorn",
    }  # fmt: skip


def test_eaters_of_wisdom_and_black_hand_are_not_basic(data: DRData) -> None:
    # Kingdoms: "the Eaters of Wisdom and the Black Hand are not used in the basic game;
    # the hexes of these kingdoms are considered unclaimed territory".
    for name in ("Eaters of Wisdom", "Black Hand"):
        kingdom = data.kingdom(name)
        assert not kingdom.basic
        assert kingdom.units == ()
        tagged = [h for h in data.map.hexes if h.map_kingdom == name]
        assert tagged
        assert all(h.kingdom is None for h in tagged)


def test_the_obelisk_is_not_shucassams(data: DRData) -> None:
    # Special Rules for Select Kingdoms › Shucassam: the Obelisk is a wasteland space.
    obelisk = data.map.named("The Obelisk")
    assert obelisk.map_kingdom == "Shucassam"
    assert obelisk.kingdom is None


@pytest.mark.parametrize(
    ("kingdom", "armies", "fleets"),
    [
        ("Hothior", 7, 2), ("Immer", 9, 0), ("Mivior", 9, 4), ("Muetar", 13, 0),
        ("Pon", 7, 1), ("Rombune", 6, 4), ("Shucassam", 11, 3), ("Neuth", 6, 0),
        ("Ghem", 8, 0), ("Zorn", 11, 0), ("Trolls", 8, 0),
    ],
)  # fmt: skip
def test_force_pools(data: DRData, kingdom: str, armies: int, fleets: int) -> None:
    units = data.player_units(kingdom)
    assert sum(u.kind is UnitKind.ARMY for u in units) == armies
    assert sum(u.kind is UnitKind.FLEET for u in units) == fleets


def test_fleets_start_in_ports(data: DRData) -> None:
    fleets = [u for k in data.basic_kingdoms() for u in k.units if u.kind is UnitKind.FLEET]
    assert fleets
    assert all(data.place(u.start).port for u in fleets)
    assert data.unit("Pon-F1").start == "Grugongi"  # Marzarbol is no port


def test_terrain_bonuses_of_units(data: DRData) -> None:
    units = data.player_units("Immer") + data.player_units("Pon")
    bonuses = {u.start: u.bonuses for u in units if u.kind is UnitKind.ARMY}
    assert bonuses["Gorpin"] == {Bonus.FOREST}
    assert bonuses["Grugongi"] == {Bonus.MOUNTAIN}
    assert bonuses["Crow's Nest"] == {Bonus.FOREST}
    assert bonuses["Marzarbol"] == frozenset()
    assert all(u.bonuses == {Bonus.FOREST, Bonus.MOUNTAIN} for u in data.player_units("Zorn"))


def test_non_humans_are_those_of_the_retreat_table(data: DRData) -> None:
    # Combat Phase › Retreat Before Combat: "Non-Human (Neuth, Ghem, Nithmere, Trolls)".
    non_human = {k.name for k in data.basic_kingdoms() if not k.human}
    assert non_human == {"Neuth", "Ghem", "Zorn", "Trolls"}


def test_royal_castles(data: DRData) -> None:
    pennol = data.royal_castle("Muetar")
    assert isinstance(pennol, Castle) and pennol.royal and pennol.hex == (19, 11)
    # Special Rules for Select Kingdoms › The Trolls: no royal castle; "use the scenic
    # space of the Face as a Royal Castle".
    face = data.royal_castle(data.kingdom("Trolls"))
    assert isinstance(face, Location) and face.hex == (6, 13)


def test_start_hexes(data: DRData) -> None:
    assert data.start_hex(data.unit("Hothior-A7")) == at(data, "Farnot")
    assert data.start_hex(data.unit("Ghem-A7")) == (33, 14)
    trolls = Counter(data.start_hex(u) for u in data.player_units("Trolls"))
    spaces = ("The Face", "The Crag", "The Digs", "The Shunned Vale")
    assert trolls == {at(data, name): 2 for name in spaces}


def test_zorn_units_spread_over_nithmere(data: DRData) -> None:
    # Special Rules for Select Kingdoms › Zorn: "Their units must be deployed on the
    # mountain and pass spaces of Zorn; only one may be placed per space, and no two may be
    # deployed in adjacent spaces": all 11 (none left in The Pits, a castle).
    units = data.player_units("Zorn")
    assert len(units) == 11 and all(data.start_hex(u) is None for u in units)
    hexes = data.spread_hexes(units[0])
    places = [data.map.get(*h) for h in hexes]
    assert {p.kingdom for p in places if p} == {"Zorn"} and len(places) == 34
    assert all(p and p.terrain & {Terrain.MOUNTAIN, Terrain.PASS} for p in places)
    assert at(data, "The Pits") not in hexes
    # the map has room for 15 goblins so placed, not 16
    assert Room(data.map).fits(hexes, 15) and not Room(data.map).fits(hexes, 16)
    assert data.spread_hexes(data.unit("Trolls-A1")) == ()


def test_kingdoms_by_alias(data: DRData) -> None:
    assert data.kingdom("Shuccasam") is data.kingdom("Shucassam")
    assert data.place("Lapspell") is data.place("Castle Lapspell")
    with pytest.raises(KeyError, match="Atlantis"):
        data.kingdom("Atlantis")


# --- castles ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("castle", "defence"), [("Aws Alzak", 4), ("Parros", 3), ("The Keep", 2), ("Zefnar", 3)]
)
def test_map_errata_defence_values(data: DRData, castle: str, defence: int) -> None:
    # The Game Map › MAP ERRATA: "Aws Alzak - 4, Parros - 3, The Keep - 2, Zefnar - 3".
    assert data.castles[castle].defence == defence


def test_castles_that_do_not_exist_in_the_basic_game(data: DRData) -> None:
    # Victory: "the Invisible School, the Tower of Zards, and the Keep" do not exist.
    absent = {c.name for c in data.castles.values() if not c.basic}
    assert absent == {"Invisible School", "Tower of Zards", "The Keep"}
    for name in absent:
        assert data.castle_at(*data.castles[name].hex) is None
    assert data.castle_at(9, 17) is data.castles["Port Lork"]


@pytest.mark.parametrize("name", ["The Keep", "Invisible School", "Tower of Zards"])
def test_absent_castles_are_clear_terrain_in_the_basic_game(data: DRData, name: str) -> None:
    # Victory: "In the Basic Game, the following castles do not exist and cannot be
    # plundered: the Invisible School, the Tower of Zards, and the Keep." Their hexes are
    # plain clear terrain (docs/divine-right.md says why): no castle flag, and movement
    # charges clear terrain, not a castle.
    place = data.map.named(name)
    assert place.terrain == frozenset() and data.castle_at(*place.coord) is None
    assert land_cost(place.terrain, frozenset()) == Cost(1, "clear terrain")


def test_the_four_troll_spaces_are_scenic(data: DRData) -> None:
    # Special Rules for Select Kingdoms › The Trolls: "the four scenic spaces of the Troll
    # kingdom"; Movement Phase › Scenic Spaces: clear terrain in the basic game.
    scenic = {
        h.name for h in data.map.hexes if h.kingdom == "Trolls" and Terrain.SCENIC in h.terrain
    }
    assert scenic == {"The Face", "The Crag", "The Digs", "The Shunned Vale"}
    assert land_cost(data.map.named("The Crag").terrain, frozenset()) == Cost(1, "scenic space")


def test_castle_ports(data: DRData) -> None:
    # Movement Phase › Castle-Ports: "Pennol, Muetar's royal castle, is not a port.
    # Adeese, Schucassam's royal castle, is a castle-port."
    assert not data.castles["Pennol"].port
    assert data.castles["Adeese"].port
    # Movement Phase › Non-Castle Ports: "Bartertown and Freeport are non-castle ports."
    assert data.locations["Freeport"].port and data.locations["Bartertown"].port


# --- the map: calibration on the rulebook's geography ---------------------------------------


def test_hex_southeast_of_addat_is_coastal(data: DRData) -> None:
    # Movement Phase › Navigable Rivers: "The hex southeast of Addat is a coastal hex."
    assert is_coastal(data, data.map.step(*at(data, "Addat"), Direction.SE))


def test_the_boom_is_the_coastal_space_next_to_port_lork(data: DRData) -> None:
    # Special Rules for Select Kingdoms › Hothior: The Boom "is located in the scenic
    # coastal space next to Port Lork".
    boom = data.map.named("The Boom")
    assert boom.coord in data.map.neighbours(*at(data, "Port Lork"))
    assert Terrain.SEASHORE in boom.terrain


def test_fleets_reach_port_lork_only_through_the_boom(data: DRData) -> None:
    # Special Rules for Select Kingdoms › Hothior: the Boom forces "enemy fleets to stop
    # in the Boom space for one turn before entering the space of Port Lork".
    coastal = [c for c in data.map.neighbours(*at(data, "Port Lork")) if is_coastal(data, c)]
    assert coastal == [data.map.named("The Boom").coord]


def test_lake_carth_lies_west_of_pennol(data: DRData) -> None:
    # Movement Phase › Navigable Rivers: "Lake Carth, to the west of Pennol, is a small sea."
    assert is_coastal(data, data.map.step(*at(data, "Pennol"), Direction.W))


def test_hex_northeast_of_adeese_is_coastal(data: DRData) -> None:
    # Movement Phase › Navigable Rivers: "The hex to the northeast of Adeese is a coastal
    # hex."
    assert is_coastal(data, data.map.step(*at(data, "Adeese"), Direction.NE))


def test_hex_southeast_of_castle_lapspell_is_coastal(data: DRData) -> None:
    # Movement Phase › Navigable Rivers: "The hex southeast of Castle Lapspell is a
    # coastal hex, the Deep river commences east of that hex".
    coast = data.map.step(*at(data, "Castle Lapspell"), Direction.SE)
    assert coast is not None and is_coastal(data, coast)
    east = data.map.step(*coast, Direction.E)
    assert east is not None and data.map.is_navigable(*east)


def test_the_deep_reaches_inland_southwest_of_pennol(data: DRData) -> None:
    # Movement Phase › Navigable Rivers: the Deep runs "to its furthest inland hexes
    # southwest of Pennol".
    southwest = data.map.step(*at(data, "Pennol"), Direction.SW)
    assert southwest is not None
    inland = data.map.step(*southwest, Direction.SW)
    assert inland is not None and data.map.is_navigable(*inland)


def test_parros_is_an_island_of_coastal_hexes(data: DRData) -> None:
    # Movement Phase › Navigable Rivers: "Parros ... is an island surrounded by coastal
    # hexes."
    around = data.map.neighbours(*at(data, "Parros"))
    assert len(around) == 6
    assert all(is_coastal(data, c) for c in around)


# --- the map: geometry and the navigable river --------------------------------------------


def test_neighbours_are_symmetric(data: DRData) -> None:
    for h in data.map.hexes:
        around = data.map.neighbours(h.col, h.row)
        assert len(set(around)) == len(around) <= 6
        for col, row in around:
            assert h.coord in data.map.neighbours(col, row)
            assert data.map.distance(h.coord, (col, row)) == 1


def test_distance_counts_steps(data: DRData) -> None:
    start = at(data, "Pennol")
    steps = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in data.map.neighbours(*here):
            if there not in steps:
                steps[there] = steps[here] + 1
                queue.append(there)
    assert len(steps) == len(data.map.hexes)
    assert all(hex_distance(start, c) == n for c, n in steps.items())


def test_navigable_river_runs_from_castle_lapspell_to_pennol(data: DRData) -> None:
    sides = data.map.river_sides
    assert len(sides) == 18
    mouth = data.map.step(*at(data, "Castle Lapspell"), Direction.SE)
    head = data.map.step(*at(data, "Pennol"), Direction.SW)
    assert mouth is not None and head is not None
    banks = {c for side in sides for c in side}
    assert data.map.step(*mouth, Direction.E) in banks
    assert data.map.step(*head, Direction.SW) in banks
    assert data.map.is_river_side((14, 19), (14, 18))
    assert all(hex_distance(a, b) == 1 for a, b in sides)
    assert _connected(sides)


def _connected(sides: frozenset[tuple[Coord, Coord]]) -> bool:
    """Whether the sides join into one chain."""
    todo = set(sides)
    reached = [todo.pop()]
    while reached:
        side = reached.pop()
        joined = {s for s in todo if _meet(side, s)}
        todo -= joined
        reached.extend(joined)
    return not todo


def _meet(x: tuple[Coord, Coord], y: tuple[Coord, Coord]) -> bool:
    """Two sides meet at a corner when their three hexes are all next to one another."""
    hexes = {*x, *y}
    return len(hexes) == 3 and all(hex_distance(p, q) == 1 for p, q in combinations(hexes, 2))


def test_first_hex_of_the_river_waning_is_navigable(data: DRData) -> None:
    # Movement Phase › Navigable Rivers: "the River Deep and the first hex of the River Waning".
    assert data.map.river_hexes == {(20, 15)}
    assert data.map.is_navigable(20, 15)


# --- cards --------------------------------------------------------------------------------


def test_diplomacy_deck(data: DRData) -> None:
    assert len({card.id for card in data.deck}) == 32
    banishing = {card.ploy for card in data.deck if card.banishes}
    # Diplomacy Phase › Banishing Ambassadors: "Black Magic, Threats, Blackmail, and Crass
    # Bribes".
    assert banishing == {"Black Magic", "Threats", "Blackmail", "Crass Bribe"}
    threat = next(c for c in data.deck if c.id == "threats+1#1")
    assert threat.banish_turns == 2


def test_personality_effects(data: DRData) -> None:
    mad = data.personalities[13]
    assert mad.name == "Mad"
    assert DeployFraction(Fraction(1, 2)) in mad.effects


# --- refused files ------------------------------------------------------------------------


def builtin_doc(kind: str) -> Any:
    return json.loads(builtin_bytes(kind))


def set_unit_start(doc: Any) -> None:
    doc["kingdoms"][1]["units"][2]["start"] = "Nowhere"


def set_unit_start_abroad(doc: Any) -> None:
    doc["kingdoms"][1]["units"][2]["start"] = "Pennol"


def set_fleet_inland(doc: Any) -> None:
    doc["kingdoms"][1]["units"][7]["start"] = "Tadafat"


def repeat_unit_id(doc: Any) -> None:
    doc["kingdoms"][1]["units"][1]["id"] = "Hothior-A1"


def misspell_field(doc: Any) -> None:
    doc["kingdoms"][1]["monarch_MA"] = doc["kingdoms"][1].pop("monarch_ma")


def spell_out_number(doc: Any) -> None:
    doc["kingdoms"][1]["regular_ma"] = "five"


def drop_regular_ma(doc: Any) -> None:
    doc["kingdoms"][1]["regular_ma"] = None


def unknown_bonus(doc: Any) -> None:
    doc["kingdoms"][0]["terrain_bonuses"] = ["tunnels"]


def royal_castle_not_royal(doc: Any) -> None:
    doc["kingdoms"][1]["royal_castle"] = "Tadafat"


def zero_defence(doc: Any) -> None:
    doc["castles"][1]["defence"] = 0


def castle_on_wrong_hex(doc: Any) -> None:
    doc["castles"][1]["hex"] = [10, 15]


def castle_not_a_port(doc: Any) -> None:
    doc["castles"][0]["port"] = False


def castle_not_royal(doc: Any) -> None:
    doc["castles"][0]["royal"] = False


def castle_off_the_map(doc: Any) -> None:
    doc["castles"][1]["hex"] = [40, 2]


def location_in_wrong_kingdom(doc: Any) -> None:
    doc["locations"][0]["kingdom"] = "Hothior"


def unknown_flag(doc: Any) -> None:
    doc["hexes"][0][2] = ["FORREST"]


def short_hex_row(doc: Any) -> None:
    doc["hexes"][0] = [0, 0, []]


def flag_not_a_string(doc: Any) -> None:
    doc["hexes"][0][2] = [["FOREST"]]  # unhashable: once a TypeError, not a DataError


def coordinate_a_boolean(doc: Any) -> None:
    doc["hexes"][0][0] = True


def hex_twice(doc: Any) -> None:
    doc["hexes"][1] = doc["hexes"][0]


def river_side_apart(doc: Any) -> None:
    doc["navigable_river"]["hexsides"][0] = [[14, 18], [20, 20]]


def flat_topped_grid(doc: Any) -> None:
    doc["grid"]["offset"] = "odd-q"


def unknown_kingdom_on_map(doc: Any) -> None:
    doc["hexes"][0][4] = "Atlantis"


def keep_printed_as_castle(doc: Any) -> None:
    row = next(r for r in doc["hexes"] if r[3] == "The Keep")
    row[2] = ["CASTLE"]


def zorn_crowded(doc: Any) -> None:
    zorn = next(k for k in doc["kingdoms"] if k["name"] == "Zorn")
    zorn["units"] += [
        {"id": f"Zorn-A{n}", "kind": "army", "start": "Nithmere mountains"} for n in range(12, 17)
    ]


def keep_exists(doc: Any) -> None:
    doc["exclusions"]["absent_castles"] = ["Invisible School", "Tower of Zards"]


def unknown_ploy(doc: Any) -> None:
    doc["cards"][2]["ploy"] = "Flattery"


def repeat_card_id(doc: Any) -> None:
    doc["cards"][2]["id"] = "long-oration+1#1"


def zero_bonus(doc: Any) -> None:
    doc["cards"][2]["bonus"] = 0


def unknown_effect(doc: Any) -> None:
    doc["cards"][1]["effects"][1]["kind"] = "sulks"


def bad_attempt(doc: Any) -> None:
    doc["cards"][1]["effects"][0]["attempt"] = "sometimes"


def effect_ploy_not_in_deck(doc: Any) -> None:
    doc["cards"][1]["effects"][0]["ploy"] = "Threat"


def repeat_card_number(doc: Any) -> None:
    doc["cards"][1]["number"] = 1


def wrong_format(doc: Any) -> None:
    doc["format"] = "warscribe-dr-map"


Case = tuple[str, Callable[[Any], None], tuple[str, ...]]
CASES: list[Case] = [
    ("kingdoms", set_unit_start,
     ("kingdom 'Hothior', unit 3:", "field 'start'", "'Nowhere' is not a castle, location")),
    ("kingdoms", set_unit_start_abroad, ("kingdom 'Hothior', unit 3:", "field 'start'", "Pennol")),
    ("kingdoms", set_fleet_inland, ("kingdom 'Hothior', unit 8:", "field 'start'", "no port")),
    ("kingdoms", repeat_unit_id, ("kingdom 'Hothior', unit 2:", "field 'id'", "Hothior-A1")),
    ("kingdoms", misspell_field, ("kingdom 'Hothior':", "unknown field 'monarch_MA'")),
    ("kingdoms", spell_out_number, ("kingdom 'Hothior':", "field 'regular_ma'", "integer")),
    ("kingdoms", drop_regular_ma, ("kingdom 'Hothior':", "field 'regular_ma'", "basic game")),
    ("kingdoms", unknown_bonus, ("kingdom 'Ghem':", "field 'terrain_bonuses'", "'tunnels'")),
    ("kingdoms", royal_castle_not_royal, ("kingdom 'Hothior':", "field 'royal_castle'", "Tadafat")),
    ("castles", zero_defence, ("castle 'Tadafat':", "field 'defence'", "at least 1")),
    ("castles", castle_on_wrong_hex, ("castle 'Tadafat':", "field 'name'", "[10, 15]")),
    ("castles", castle_not_a_port, ("castle 'Port Lork':", "field 'port'", "PORT")),
    ("castles", castle_not_royal, ("castle 'Port Lork':", "field 'royal'", "ROYAL")),
    ("castles", castle_off_the_map, ("castle 'Tadafat':", "field 'hex'", "not a hex of the map")),
    ("castles", location_in_wrong_kingdom, ("location 'Freeport':", "field 'kingdom'", "None")),
    ("map", unknown_flag, ("hex 1 [0, 0]:", "FORREST")),
    ("map", short_hex_row, ("hex 1:", "must be [col, row")),
    ("map", flag_not_a_string, ("hex 1:", "must be [col, row")),
    ("map", coordinate_a_boolean, ("hex 1:", "must be [col, row")),
    ("map", hex_twice, ("hex 2:", "listed twice")),
    ("map", river_side_apart, ("navigable_river:", "field 'hexsides'", "not a side")),
    ("map", flat_topped_grid, ("grid:", "field 'offset'", "odd-r")),
    ("map", unknown_kingdom_on_map, ("hex [0, 0]:", "Atlantis")),
    ("map", keep_exists, ("exclusions:", "field 'absent_castles'", "The Keep")),
    ("map", keep_printed_as_castle, ("hex [20, 18]:", "The Keep does not exist", "CASTLE")),
    ("kingdoms", zorn_crowded,
     ("kingdom 'Zorn', start area 'Nithmere mountains':", "no room", "16 units")),
    ("deck", unknown_ploy, ("card 3:", "field 'ploy'", "Flattery")),
    ("deck", repeat_card_id, ("card 3:", "field 'id'", "long-oration+1#1")),
    ("deck", zero_bonus, ("card 3:", "field 'bonus'", "at least 1")),
    ("personalities", unknown_effect, ("personality 'Cowardly', effect 2:", "field 'kind'")),
    ("personalities", bad_attempt, ("personality 'Cowardly', effect 1:", "field 'attempt'")),
    ("personalities", effect_ploy_not_in_deck, ("personality 'Cowardly', effect 1:", "Threat")),
    ("personalities", repeat_card_number, ("personality 'Cowardly':", "field 'number'")),
    ("castles", wrong_format, ("field 'format'", "'warscribe-dr-castles'")),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "spoil", "expected"), CASES, ids=[c[1].__name__ for c in CASES])
def test_bad_data_file_is_refused(
    tmp_path: Path, kind: str, spoil: Callable[[Any], None], expected: tuple[str, ...]
) -> None:
    doc = builtin_doc(kind)
    spoil(doc)
    path = tmp_path / f"my-{FILES[kind]}"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError) as raised:
        load_files(**{kind: path})
    message = str(raised.value)
    assert message.startswith(f"file {path.name}"), message
    for fragment in expected:
        assert fragment in message, message
    assert raised.value.rule == f"data: {path.name}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("{", "is not valid JSON"), ('{"format": 1, "format": 2}', "duplicate key 'format'")],
)
def test_unreadable_json_is_refused(text: str, expected: str) -> None:
    with pytest.raises(DataError, match=expected) as raised:
        load_files(deck=text)
    assert str(raised.value).startswith("file deck file given to `new`:")


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"file absent\.json: cannot be read"):
        load_files(map=tmp_path / "absent.json")


def test_a_group_loads_its_own_deck(tmp_path: Path) -> None:
    doc = builtin_doc("deck")
    doc["cards"] = doc["cards"][:10]
    path = tmp_path / "deck-1979.json"
    path.write_bytes(json.dumps(doc).encode())
    data = load_files(deck=path)
    assert len(data.deck) == 10
    assert data.digest("deck") == hashlib.sha256(path.read_bytes()).hexdigest()
    assert data.digest("map") == load_builtin().digest("map")
