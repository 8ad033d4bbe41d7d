"""Movement Phase: where a stack can go (the `reach` query). Every space it lists is
played through the movement decide on the position (scratch dice, nothing recorded) and
must be accepted, end in that space and cost what it says; its costs are the Terrain
Effects Chart's; it finds what `legal` offers (one path finder). Each test names its
rulebook section.

In play.Table's game carol (Muetar) moves first on turn 1.
"""

from __future__ import annotations

import pytest

from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right.events import StackMoved
from warscribe.engine.rulesets.divine_right.evolving import scratch_dice
from warscribe.engine.rulesets.divine_right.movement.reach import Reached, reach

from .board import DATA, hire, movement, put
from .play import Table, of

ME = "carol"
RULES = get("divine-right")


@pytest.fixture
def table() -> Table:
    game = Table()
    movement(game, ME)
    return game


def played(table: Table, reached: Reached) -> int:
    """The movement points `move` charges for the reached space's command (the most any
    unit pays), after checking it is accepted and the stack ends there."""
    events = RULES.decide(table.state, reached.command, scratch_dice())
    moves = of(events, StackMoved)
    assert moves and moves[-1].path[-1] == reached.space, reached
    paid: dict[str, int] = {}
    for moved in moves:
        for unit, points in moved.spent:
            paid[unit] = paid.get(unit, 0) + points
    return max(paid.values())


def all_accepted(table: Table, stack: str) -> list[Reached]:
    """What `reach` lists for the stack, each checked by the movement decide."""
    found = reach(table.state, DATA, stack)
    assert found
    for reached in found:
        assert played(table, reached) == reached.route.cost, reached
    return found


def test_movement_and_terrain_every_space_reached_is_a_move_accepted_at_its_cost(
    table: Table,
) -> None:
    """Movement Phase › Movement and Terrain; Rivers: a regular (5 points) beside a minor
    river and Muetar's royal castle; every space listed, cheapest first."""
    put(table, "Muetar-A1", (20, 11))
    found = all_accepted(table, "Muetar-A1")
    costs = [r.route.cost for r in found]
    assert costs == sorted(costs) and max(costs) <= 5
    assert all(r.command.name == "move" for r in found)


def test_terrain_effects_chart_costs_clear_1_forest_2_minor_river_plus_1(table: Table) -> None:
    """Movement Phase › Movement and Terrain, Terrain Effects Chart: clear 1, forest 2,
    mountain 4; Rivers: +1 entering a minor river's valley."""
    put(table, "Muetar-A1", (12, 25))
    one_step = {r.space: r.route.cost for r in reach(table.state, DATA, "Muetar-A1")}
    assert one_step[(12, 26)] == 1  # clear
    assert one_step[(11, 25)] == 1  # a scenic space is treated as clear
    assert one_step[(12, 24)] == 2  # forest
    put(table, "Muetar-A1", (20, 11))
    assert {r.space: r.route.cost for r in reach(table.state, DATA, "Muetar-A1")}[(21, 10)] == 2
    put(table, "Muetar-A1", (22, 8))
    found = {r.space: r.route for r in all_accepted(table, "Muetar-A1")}
    assert found[(22, 7)].cost == 3  # forest, leaving the river valley +1
    assert found[(21, 7)].cost == 5 and found[(21, 7)].path == ((21, 7),)  # mountain 4, +1


def test_navigable_rivers_are_crossed_only_from_the_start_for_plus_2(table: Table) -> None:
    """Movement Phase › Navigable Rivers: a crossing costs +2 and only from the space the
    unit began the phase in: the far bank is listed at the crossing's cost, never as a
    crossing after a first step."""
    found = {r.space: r for r in all_accepted(table, "Muetar-A13")}
    assert found[(18, 15)].route.path == ((18, 15),) and found[(18, 15)].route.cost == 3


def test_fleet_movement_a_fleet_reaches_water_at_1_a_space(table: Table) -> None:
    """Movement Phase › Fleet Movement: fleets pay 1 a space (2 upriver) and keep to
    water; every space listed is a move of the fleet accepted at its cost."""
    hire(table, "K", (12, 19), ME)
    found = all_accepted(table, "K")
    assert {(r.space, r.route.cost) for r in found if len(r.route.path) == 1} >= {
        ((13, 19), 1),
        ((11, 19), 1),
    }
    assert (14, 20) not in {r.space for r in found}  # land


def test_ferrying_a_land_stack_reaches_the_far_bank_over_a_river_fleet(table: Table) -> None:
    """Movement Phase › Ferrying (Fleets and Navigable Rivers): a stack that could not
    cross after a first step is ferried over its friendly fleet, with no +2; `ferry`
    commands only for the spaces walking does not reach."""
    hire(table, "K", (18, 15), ME)
    put(table, "Muetar-A12", (20, 16))
    found = {r.space: r for r in all_accepted(table, "Muetar-A12")}
    over = found[(18, 15)]
    assert over.command.name == "ferry" and dict(over.command.args)["fleet"] == "K"
    assert len(over.route.path) == 2 and over.route.cost == 2  # clear 1 + bank 1, no +2
    walking = reach(table.state, DATA, "Muetar-A12")
    assert all(r.command.name == "move" for r in walking if r.space == (19, 16))


def test_hero_movement_bonus_a_monarch_leads_his_stack_farther(table: Table) -> None:
    """Heroes › Hero Movement Bonus and Terrain Bonus: a regular led by its monarch moves
    at his 7, so the stack reaches spaces its 5 do not; each listed with `--leader`."""
    for unit in ("Muetar-monarch", "Muetar-A1"):
        put(table, unit, (12, 25))
    found = all_accepted(table, "Muetar-monarch,Muetar-A1")
    led = [r for r in found if dict(r.command.args).get("leader") == "Muetar-monarch"]
    assert led and all(r.route.cost > 5 for r in led)


def test_legal_offers_the_paths_reach_lists(table: Table) -> None:
    """The Movement Phase's moves `legal` offers a stack end in the spaces `reach` lists."""
    offer = next(
        o
        for o in RULES.legal(table.state)
        if o.name == "move" and o.args == (("units", ("Muetar-A13",)),)
    )
    offered = {path[-1] for path in dict(offer.domains)["path"]}
    assert offered == {r.space for r in reach(table.state, DATA, "Muetar-A13")}


def test_reach_before_the_movement_phase_is_the_coming_ones_and_refused_after_it() -> None:
    """Movement Phase: stacks move only in their player's Movement Phase. Earlier in that
    player's turn `reach` answers for the coming one as the board stands (so a whole turn
    fits in one mail); after it, it is refused naming the phase the game is in."""
    table = Table()
    table.to_phase(1, ME, "diplomacy")
    early = reach(table.state, DATA, "Muetar-A13")
    table.to_phase(1, ME, "movement")
    assert early and early == reach(table.state, DATA, "Muetar-A13")
    table.do("end-phase")
    with pytest.raises(IllegalCommand, match=r"Combat Phase") as refused:
        reach(table.state, DATA, "Muetar-A13")
    assert refused.value.rule == "Movement Phase"


def test_reach_is_refused_for_a_stack_its_player_may_not_move(table: Table) -> None:
    """Movement Phase; Transporting Troops: another player's units, units aboard a
    fleet (the fleet moves them), units in several spaces."""
    with pytest.raises(IllegalCommand, match="not one of carol's forces"):
        reach(table.state, DATA, "Hothior-A1")
    with pytest.raises(IllegalCommand, match="not in one space"):
        reach(table.state, DATA, "Muetar-A1,Muetar-A13")
    with pytest.raises(InvalidCommand, match="no unit"):
        reach(table.state, DATA, "Nobody-A1")
    hire(table, "K", (12, 19), ME)
    put(table, "Muetar-A1", (12, 19))
    table.do("embark", fleet="K", units="Muetar-A1")
    with pytest.raises(IllegalCommand, match="aboard K: move the fleet"):
        reach(table.state, DATA, "Muetar-A1")
    carried = all_accepted(table, "K")
    assert all(dict(r.command.args)["units"] == ("K",) for r in carried)
