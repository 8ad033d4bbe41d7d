"""Movement Phase (land movement): terrain, rivers, the navigable river and ferrying,
hero-led stacks, enemy units and castles, the diplomatic penalty and its grace, and the
first-turn limits of a newly activated kingdom. Each test names its rulebook section;
every refused move leaves the record unchanged (`Table.refuse`).

In play.Table's game carol (Muetar) moves first on turn 1.
"""

from __future__ import annotations

import pytest

from warscribe.engine.errors import IllegalCommand, InvalidCommand, NotYourTurn
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right.data import Bonus, Terrain
from warscribe.engine.rulesets.divine_right.events import (
    FerryUsed,
    MonarchDied,
    PenaltyIncurred,
    SiegeDeclared,
    StackMoved,
)
from warscribe.engine.rulesets.divine_right.kingdoms import deactivate
from warscribe.engine.rulesets.divine_right.mapview import board
from warscribe.engine.rulesets.divine_right.movement.terrain import land_cost
from warscribe.engine.rulesets.divine_right.sections import MOVEMENT_PHASE
from warscribe.engine.rulesets.divine_right.state import Unit
from warscribe.engine.rulesets.divine_right.units import bonuses

from .board import DATA, ally, deciding, hire, movement, put, spent, where
from .play import Table, of

ME = "carol"
HILLS = ((9, 13), (10, 12), (9, 11), (10, 10), (11, 10), (11, 9), (10, 9), (10, 8), (10, 7))
CLEAR = ((12, 25), (13, 25), (14, 25), (15, 25), (16, 25), (17, 25), (18, 24), (17, 23))


def path(*hexes: tuple[int, int]) -> str:
    return ",".join(f"{c},{r}" for c, r in hexes)


@pytest.fixture
def table() -> Table:
    game = Table()
    movement(game, ME)
    return game


# -- terrain -------------------------------------------------------------------------------


def test_terrain_effects_chart_costs_add_up_and_bonuses_lighten_them() -> None:
    """Movement Phase › Movement and Terrain, Special Terrain Bonuses, Terrain Effects
    Chart: forested mountain 6; a hill-forest costs a Zorn unit (forest and mountain
    bonuses) 1; mountain 3 with the mountain bonus; castles and scenic spaces 1."""
    forest_mountain = frozenset({Terrain.FOREST, Terrain.MOUNTAIN})
    hill_forest = frozenset({Terrain.HILL, Terrain.FOREST})
    zorn = DATA.unit("Zorn-A4").bonuses
    assert zorn == {Bonus.FOREST, Bonus.MOUNTAIN}
    assert land_cost(forest_mountain, frozenset()).points == 6
    assert land_cost(hill_forest, frozenset()).points == 4
    assert land_cost(hill_forest, zorn).points == 1
    assert land_cost(frozenset({Terrain.MOUNTAIN}), frozenset({Bonus.MOUNTAIN})).points == 3
    assert land_cost(forest_mountain, frozenset({Bonus.MOUNTAIN})).points == 5
    assert land_cost(frozenset({Terrain.SWAMP}), frozenset({Bonus.SWAMP})).points == 1
    assert land_cost(frozenset({Terrain.PASS}), zorn).points == 2
    assert land_cost(frozenset({Terrain.CASTLE}), frozenset()).points == 1
    assert land_cost(frozenset({Terrain.SCENIC, Terrain.MOUNTAIN}), frozenset()).points == 1


def test_a_mercenary_led_by_the_monarch_of_zorn_crosses_a_hill_forest_for_1() -> None:
    """Special Terrain Bonuses, B: a unit led by a hero with the bonus symbols (the monarch
    of Zorn has the forest and mountain bonuses) outside Zorn."""
    monarch = Unit("Zorn-monarch", "Zorn", "monarch", (10, 12))
    lent = bonuses(DATA, monarch, (10, 12))
    assert land_cost(frozenset({Terrain.HILL, Terrain.FOREST}), lent).points == 1


def test_entering_a_forested_mountain_costs_six(table: Table) -> None:
    """Movement Phase › Movement and Terrain: forested mountain = 2 + 4. The monarch of
    Muetar (7) may enter; a regular (5) is refused and nothing is recorded."""
    put(table, "Muetar-A1", (22, 4))
    put(table, "Muetar-monarch", (22, 4))
    table.refuse_move(
        "Muetar-A1",
        "22,5",
        (
            r"step 1 \(22,5\): entering forest-mountain costs 6, Muetar-A1 has only 5 movement "
            r"points left \(Movement Phase › Movement and Terrain\)"
        ),
    )
    moved = of(table.do("move", units="Muetar-monarch", path="22,5"), StackMoved)[0]
    assert moved.spent == (("Muetar-monarch", 6),)
    assert where(table, "Muetar-monarch") == (22, 5)


def test_the_keep_is_no_castle_in_the_basic_game(table: Table) -> None:
    """Victory: "In the Basic Game, the following castles do not exist and cannot be
    plundered: the Invisible School, the Tower of Zards, and the Keep": a stack marches
    through The Keep as through clear terrain (1 point; no siege, no castle to stop at),
    and the text map draws it as clear terrain."""
    put(table, "Muetar-A1", (19, 18))
    events = table.do("move", units="Muetar-A1", path="The Keep,21,18")
    assert of(events, StackMoved)[0].spent == (("Muetar-A1", 3),)  # 1 + forest 2
    assert not of(events, SiegeDeclared) and table.state.sieges == ()
    rows = board(table.state)["rows"]
    for name in ("The Keep", "Invisible School", "Tower of Zards"):
        col, row = DATA.map.named(name).coord
        assert rows[row][(row % 2) + 2 * col] == "."


def test_a_zorn_unit_crosses_its_forested_mountain_for_three(table: Table) -> None:
    """Special Terrain Bonuses, C: all terrain bonuses inside the home kingdom."""
    ally(table, "Zorn", ME)
    put(table, "Zorn-A4", (22, 4))
    table.do("move", units="Zorn-A4", path="22,5")
    assert spent(table, "Zorn-A4") == 3


def test_a_refused_step_names_the_step_the_cost_and_the_points_left(table: Table) -> None:
    """Movement Phase › Movement and Terrain: no unit enters a space without the points;
    points cannot be saved or moved between units."""
    put(table, "Muetar-A1", (20, 11))
    table.do("move", units="Muetar-A1", path="20,10,19,10")
    assert spent(table, "Muetar-A1") == 2
    table.refuse_move(
        "Muetar-A1",
        "18,10,18,9,17,9",
        r"step 3 \(17,9\): entering clear terrain costs 1, Muetar-A1 has only 0 movement",
    )


def test_a_minor_river_costs_one_more_to_enter_or_leave_its_valley(table: Table) -> None:
    """Movement Phase › Rivers: +1 entering or leaving the valley, not along it."""
    put(table, "Muetar-A1", (20, 11))
    moved = of(table.do("move", units="Muetar-A1", path="21,10,22,10,21,11"), StackMoved)[0]
    assert moved.spent == (("Muetar-A1", 5),)


def test_paths_must_run_through_neighbouring_land_spaces(table: Table) -> None:
    """Movement Phase › Movement Restrictions: contiguous spaces; land units not at sea."""
    put(table, "Muetar-A1", (20, 11))
    table.refuse_move(
        "Muetar-A1", "22,11", r"step 1 \(22,11\): not a space next to", InvalidCommand
    )
    put(table, "Muetar-A2", (4, 24))
    table.refuse_move("Muetar-A2", "3,24", "land units may not enter open water")
    table.refuse_move("Hothior-A1", "10,16", "it is carol's turn", NotYourTurn, by="alice")
    table.refuse_move("Hothior-A1", "10,16", "not one of carol's forces")


def test_stacks_move_together_from_one_space(table: Table) -> None:
    """Movement Phase: a stack moves together; the units named share a space, or the
    stack is named by its space."""
    table.refuse_move("Muetar-A1,Muetar-A9", "18,11", "not in one space")
    moved = of(table.do("move", units="Plibba", path="16,13"), StackMoved)[0]
    assert set(moved.units) == {"Muetar-A9", "Muetar-A10"}


# -- the navigable river -------------------------------------------------------------------


def test_crossing_the_navigable_river_from_where_the_move_began_costs_two(table: Table) -> None:
    """Movement Phase › Navigable Rivers: only from the space beside the hexside the unit
    began the phase in (it stops to prepare the crossing), for +2."""
    moved = of(table.do("move", units="Muetar-A13", path="18,15"), StackMoved)[0]
    assert moved.spent == (("Muetar-A13", 3),)
    put(table, "Muetar-A12", (20, 16))
    table.refuse_move(
        "Muetar-A12",
        "19,16,18,15",
        (
            r"step 2 \(18,15\): land units cross a navigable river only from the space they "
            r"began the Movement Phase in"
        ),
    )


def test_land_units_may_not_cross_a_river_hexside_an_enemy_fleet_controls(table: Table) -> None:
    """Movement Phase › Fleets and Navigable Rivers: a fleet controls the river hexsides
    of its space; enemy land units may not cross them."""
    put(table, "Hothior-F1", (18, 15))
    table.refuse_move("Muetar-A13", "18,15", "an enemy fleet controls the river hexside")


def test_a_ferried_stacks_path_naming_no_space_is_refused_under_the_movement_phase(
    table: Table,
) -> None:
    """A path is read as hexes of the map for `ferry` as for `move`: a name the map does
    not know is refused under the Movement Phase, whose paths they are."""
    hire(table, "K", (18, 15), ME)
    put(table, "Muetar-A1", (20, 16))
    with pytest.raises(InvalidCommand, match="no place or hex 'Atlantis'") as refused:
        table.do("ferry", units="Muetar-A1", fleet="K", path="19,16,Atlantis")
    assert refused.value.rule == MOVEMENT_PHASE


def test_a_fleet_with_allowance_8_ferries_8_combat_units_not_9(table: Table) -> None:
    """Movement Phase › Fleets and Navigable Rivers, EXAMPLE: a fleet with a movement
    allowance of 8 negates the river for up to 8 combat units crossing over it; heroes
    cross free; no stop and no +2."""
    hire(table, "K", (18, 15), ME)
    crossing = [f"Muetar-A{n}" for n in range(1, 10)]
    for unit in (*crossing, "Muetar-monarch"):
        put(table, unit, (20, 16))
    stack = ",".join(crossing)
    table.refuse(
        IllegalCommand,
        "K can ferry only 8 more combat unit",
        "ferry",
        units=stack,
        fleet="K",
        path="19,16,18,15",
    )
    eight = ",".join([*crossing[:8], "Muetar-monarch"])
    events = table.do("ferry", units=eight, fleet="K", path="19,16,18,15", leader=None)
    assert of(events, FerryUsed)[0].points == 8
    assert spent(table, "Muetar-A1") == 2 and where(table, "Muetar-A1") == (18, 15)
    assert spent(table, "K") == 8
    put(table, "Muetar-A9", (19, 16))
    table.refuse(
        IllegalCommand,
        "K can ferry only 0 more",
        "ferry",
        units="Muetar-A9",
        fleet="K",
        path="18,15",
    )


def test_a_fleet_that_moved_ferries_only_its_unspent_allowance(table: Table) -> None:
    """Movement Phase › Fleets and Navigable Rivers: a fleet that had to move to its ferry
    position ferries as many combat units as it has points left (upriver costs it 2)."""
    hire(table, "K", (17, 15), ME)
    table.do("move", units="K", path="18,15")
    for n in range(1, 9):
        put(table, f"Muetar-A{n}", (19, 16))
    table.refuse(
        IllegalCommand,
        "K can ferry only 6 more",
        "ferry",
        units=",".join(f"Muetar-A{n}" for n in range(1, 9)),
        fleet="K",
        path="18,15",
    )


# -- heroes leading stacks -------------------------------------------------------------------


def test_a_stack_led_by_the_monarch_of_its_regulars_moves_at_his_7() -> None:
    """Heroes › Hero Movement Bonus and Terrain Bonus, first EXAMPLE: a regular and a
    mercenary (5 each) led by the monarch of the regulars' kingdom move 7."""
    table = Table()
    movement(table, ME)
    for unit in ("Muetar-monarch", "Muetar-A1"):
        put(table, unit, CLEAR[0])
    hire(table, "A", CLEAR[0], ME)
    stack = "Muetar-monarch,Muetar-A1,A"
    table.refuse_move(
        "Muetar-A1,A", path(*CLEAR[1:]), r"step 6 .* Muetar-A1 has only 0 movement points"
    )
    moved = of(
        table.do("move", units=stack, path=path(*CLEAR[1:]), leader="Muetar-monarch"), StackMoved
    )[0]
    assert dict(moved.spent) == {"Muetar-monarch": 7, "Muetar-A1": 7, "A": 7}
    assert moved.leader == "Muetar-monarch"


def test_the_ghem_monarch_leads_his_dwarves_and_muetars_king_through_hills() -> None:
    """Heroes › Hero Movement Bonus and Terrain Bonus, EXAMPLE: the monarch of Ghem with
    one unit and the monarch of Muetar with two move through hills: the Ghem unit and the
    king of Muetar go with the Ghem monarch through 8 spaces; the Muetar units, on their
    own (5), through just 2 hill spaces."""
    table = Table({"alice": "Hothior", "bob": "Mivior", "carol": "Ghem"})
    ally(table, "Muetar", ME)
    movement(table, ME)
    for unit in ("Ghem-monarch", "Ghem-A1", "Muetar-monarch", "Muetar-A1", "Muetar-A2"):
        put(table, unit, HILLS[0])
    table.refuse_move(
        "Ghem-monarch,Muetar-A1",
        path(HILLS[1]),
        "Muetar-A1 is a regular of Muetar: the monarch of Ghem may not lead it",
        leader="Ghem-monarch",
    )
    table.refuse_move(
        "Muetar-A1,Muetar-A2",
        path(*HILLS[1:4]),
        (
            r"step 3 \(10,10\): entering hills costs 2, Muetar-A1 has "
            "only 1 movement point left"
        ),
    )
    table.do("move", units="Muetar-A1,Muetar-A2", path=path(*HILLS[1:3]))
    assert spent(table, "Muetar-A1") == 4
    led = "Ghem-monarch,Ghem-A1,Muetar-monarch"
    moved = of(
        table.do("move", units=led, path=path(*HILLS[1:]), leader="Ghem-monarch"), StackMoved
    )[0]
    assert len(moved.path) == 8 and dict(moved.spent)["Muetar-monarch"] == 8


def test_units_led_by_a_hero_may_not_split_off(table: Table) -> None:
    """Heroes › Hero Movement Bonus and Terrain Bonus: units that begin moving with a hero
    may stop before him but move no further on their own."""
    for unit in ("Muetar-monarch", "Muetar-A1"):
        put(table, unit, CLEAR[0])
    table.do("move", units="Muetar-monarch,Muetar-A1", path=path(CLEAR[1]), leader="Muetar-monarch")
    table.refuse_move(
        "Muetar-A1", path(CLEAR[2]), "began moving with Muetar-monarch: it may not split off"
    )
    table.do("move", units="Muetar-monarch", path=path(CLEAR[2], CLEAR[1]))
    table.refuse_move(
        "Muetar-monarch,Muetar-A1",
        path(CLEAR[3]),
        "has moved without Muetar-monarch",
        leader="Muetar-monarch",
    )


# -- enemy units and castles -----------------------------------------------------------------


def test_combat_units_may_not_enter_a_space_held_by_enemy_land_units(table: Table) -> None:
    """Movement Phase › Enemy Units and Movement: not with enemy units of the same type."""
    put(table, "Muetar-A1", (20, 11))
    put(table, "Hothior-A1", (21, 11))
    table.refuse_move("Muetar-A1", "21,11", "enemy land combat units hold")


def test_hostile_units_enter_an_unbesieged_castle_only_to_besiege_it(table: Table) -> None:
    """Movement Phase › Castles: enemy or neutral castles are entered only to initiate a
    siege (the siege rules decide that: none yet)."""
    put(table, "Muetar-A1", (13, 17))
    table.refuse_move(
        "Muetar-A1", "Castle Lapspell", "Castle Lapspell is an unbesieged enemy or neutral castle"
    )
    put(table, "Muetar-A2", (19, 22))
    table.refuse_move("Muetar-A2", "Kuzdol", "Kuzdol is an unbesieged enemy or neutral castle")
    table.do("move", units="Muetar-A3", path="20,11,Pennol")


# -- inactive kingdoms -----------------------------------------------------------------------


def test_entering_an_inactive_kingdom_costs_a_diplomatic_penalty_once(table: Table) -> None:
    """Inactive Kingdoms: a Diplomatic Penalty with the neutral kingdom, once per player."""
    put(table, "Muetar-A1", (13, 23))
    events = table.do("move", units="Muetar-A1", path="14,22,13,23")
    assert [(p.player, p.kingdom) for p in of(events, PenaltyIncurred)] == [(ME, "Shucassam")]
    assert "Shucassam" in table.state.player(ME).penalties
    put(table, "Muetar-A2", (13, 23))
    assert not of(table.do("move", units="Muetar-A2", path="14,22"), PenaltyIncurred)


def test_units_in_a_kingdom_that_deactivated_have_one_movement_phase_to_leave() -> None:
    """Inactive Kingdoms; Kingdoms › Forced Peace: active units inside a kingdom that
    deactivates have their next Movement Phase to leave it without penalty."""
    table = Table()
    ally(table, "Shucassam", "bob")
    put(table, "Muetar-A1", (14, 22))
    put(table, "Muetar-A2", (15, 22))
    table.to_phase(1, ME, "diplomacy")
    out = deciding(table.state)
    deactivate(out, "Shucassam", "test")
    table.set_state(out.state)
    movement(table, ME)
    moved = table.do("move", units="Muetar-A1", path="15,22,14,22,13,23")
    assert not of(moved, PenaltyIncurred)
    assert not of(table.do("move", units="Muetar-A2", path="14,22"), PenaltyIncurred)
    lingering = of(table.do("end-phase"), PenaltyIncurred)
    assert [(p.player, p.kingdom) for p in lingering] == [(ME, "Shucassam")]


def test_units_of_a_kingdom_activated_this_turn_keep_to_home_sea_and_wasteland() -> None:
    """Kingdoms › Activation of Kingdoms: on the turn of deployment, units of a newly
    activated ally move only within their kingdom, sea spaces and unclaimed spaces."""
    table = Table()
    ally(table, "Neuth", ME, fresh=True)
    movement(table, ME)
    put(table, "Neuth-A1", (2, 0))
    table.refuse_move("Neuth-A1", "3,0", "Neuth-A1's kingdom was activated this turn")
    table.do("move", units="Neuth-A1", path="1,0")
    table.set_kingdom("Neuth", activated_on=0)
    table.do("move", units="Neuth-A2", path="3,5")


def test_a_monarch_who_may_not_leave_his_royal_castle_stays(table: Table) -> None:
    """Personality Cards (Invalid): the monarch cannot leave his royal castle."""
    ally(table, "Neuth", ME)
    table.set_kingdom("Neuth", personality=17)
    table.refuse_move("Neuth-monarch", "3,5", "may not leave his royal castle")


def test_units_aboard_move_with_their_fleet_only(table: Table) -> None:
    """Movement Phase › Transporting Troops: a unit aboard moves with its fleet."""
    hire(table, "K", (13, 19), ME)
    put(table, "Muetar-A1", (13, 19), aboard="K")
    table.refuse_move("Muetar-A1", "14,20", "Muetar-A1 is aboard K: move the fleet")


def test_a_move_records_the_stacks_movement_only(table: Table) -> None:
    """Movement Phase: no dice unless a hero is at risk."""
    events = table.do("move", units="Muetar-A9", path="16,13")
    assert [type(e).__name__ for e in events] == ["StackMoved"]


def test_units_go_inside_a_friendly_castles_walls_and_come_out(table: Table) -> None:
    """Siege Phase › "Inside" and "Outside" of Castles: in the owner's Movement Phase, at no
    cost; Movement Phase › Castles: a castle of the player's alliance."""
    table.do("inside", units="Muetar-A1,Muetar-A2")
    assert table.state.units["Muetar-A1"].inside and table.state.units["Muetar-A2"].inside
    table.do("outside", units="Muetar-A1")
    assert not table.state.units["Muetar-A1"].inside
    table.do("move", units="Muetar-A2", path="20,11")
    assert not table.state.units["Muetar-A2"].inside
    table.refuse(IllegalCommand, "no standing castle at Yando", "inside", units="Muetar-A13")


def test_units_and_allied_monarchs_may_be_disbanded_a_players_monarch_not(
    table: Table,
) -> None:
    """Inactive Kingdoms: "Units that are unable to leave in time may be voluntarily
    eliminated to avoid the penalty"; a non-player monarch so eliminated dies (Heroes ›
    Death of a Monarch: Confusion, no victory points); a player's own monarch may not be
    (his loss would put his player out)."""
    table.do("disband", units="Muetar-A13")
    assert "Muetar-A13" in table.state.kingdoms["Muetar"].eliminated
    table.refuse(IllegalCommand, "a player's monarch", "disband", units="Muetar-monarch")
    ally(table, "Neuth", ME)
    events = table.do("disband", 3, units="Neuth-monarch")
    assert of(events, MonarchDied)[0].kingdom == "Neuth"
    assert "Neuth-monarch" not in table.state.units
    assert table.state.kingdoms["Neuth"].status == "confusion"
    assert not table.state.ledger


def test_the_movement_phase_offers_the_movement_commands(table: Table) -> None:
    """The Game Turn: what the player may do in the Movement Phase, as `status` shows it
    (read off `legal`): carol's armies move, go inside her castles, disband; nothing is
    aboard a fleet or outside the walls, no lone hero is there to search for."""
    assert get("divine-right").legal_commands(table.state) == (
        "move",
        "inside",
        "disband",
        "end-phase",
    )
