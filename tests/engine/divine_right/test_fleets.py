"""Movement Phase (fleets): fleet movement, the navigable river (upriver, control of its
hexsides), transporting troops, and the special waters of Hothior's Boom and
Rombune's canals. Each test names its rulebook section."""

from __future__ import annotations

import pytest

from warscribe.engine.codec import replace, sorted_map
from warscribe.engine.errors import IllegalCommand
from warscribe.engine.rulesets.divine_right import special_kingdoms
from warscribe.engine.rulesets.divine_right.events import (
    DecisionAsked,
    StackMoved,
    UnitsDebarked,
    UnitsEmbarked,
)
from warscribe.engine.rulesets.divine_right.siege import declare as siege
from warscribe.engine.rulesets.divine_right.state import Hex, State, Unit

from .board import DATA, ally, hire, movement, put, spent, where
from .play import Table, of

ME = "carol"


@pytest.fixture
def table() -> Table:
    game = Table()
    movement(game, ME)
    return game


def test_fleets_pay_one_a_space_and_two_upriver(table: Table) -> None:
    """Movement Phase › Fleet Movement; Terrain Effects Chart, Navigable River: 2 points
    moving upriver, 1 downriver."""
    hire(table, "K", (12, 19), ME)
    moved = of(table.do("move", units="K", path="13,19,14,19,14,18"), StackMoved)[0]
    assert moved.spent == (("K", 4),)
    table.do("move", units="K", path="14,19")
    assert spent(table, "K") == 5


def test_fleets_keep_to_water_and_follow_the_river(table: Table) -> None:
    """Movement Phase › Movement Restrictions: fleets do not cross land; Fleets and
    Navigable Rivers: along the river's banks."""
    hire(table, "K", (13, 19), ME)
    table.refuse_move("K", "14,20", r"step 1 \(14,20\): fleets may not enter land")
    hire(table, "L", (3, 24), ME)
    table.refuse_move(
        "L", "Isle of Fright", "fleets enter the Isle of Fright only to rescue a hero"
    )


def test_fleets_may_pass_but_not_stop_among_enemy_land_units(table: Table) -> None:
    """Movement Phase › Enemy Units and Movement: fleets enter spaces with enemy land units
    but may not stop there, nor enter spaces with enemy fleets."""
    hire(table, "K", (12, 19), ME)
    put(table, "Hothior-A1", (13, 19))
    table.refuse_move("K", "13,19", "fleets may not stop at 13,19")
    table.do("move", units="K", path="13,19,Freeport")
    put(table, "Hothior-F1", (12, 19))
    table.refuse_move("K", "12,19", "enemy fleets hold 12,19")


def test_river_control_makes_enemy_fleets_stop_space_by_space() -> None:
    """Movement Phase › Fleets and Navigable Rivers, EXAMPLE: a fleet in B controls the river
    hexsides between B and E and between B and F; an enemy fleet moving up the river stops
    in E, next turn in F, and the turn after proceeds freely."""
    table = Table()
    put(table, "Hothior-F1", (14, 18))  # B
    hire(table, "K", (12, 19), ME)
    movement(table, ME)
    table.refuse_move(
        "K",
        "13,19,14,19,15,18",
        (
            r"step 2 \(14,19\): 14,19 shares a river hexside controlled "
            "by an enemy fleet: fleets stop on entering it"
        ),
    )
    table.do("move", units="K", path="13,19,14,19")  # E
    table.to_phase(2, ME, "movement")
    table.refuse_move("K", "15,18,15,17", r"step 1 \(15,18\)")
    table.do("move", units="K", path="15,18")  # F
    table.to_phase(3, ME, "movement")
    table.do("move", units="K", path="15,17,16,16")
    assert where(table, "K") == (16, 16)


def test_a_fleet_carries_one_combat_unit_and_any_heroes(table: Table) -> None:
    """Movement Phase › Transporting Troops: one combat unit and any number of heroes per
    fleet; embarking and debarking cost the fleet nothing; units transported by sea may not
    move further that turn."""
    hire(table, "K", (19, 12), ME)
    for unit in ("Muetar-A1", "Muetar-A2", "Muetar-monarch"):
        put(table, unit, (19, 12))
    table.refuse(
        IllegalCommand,
        "K may carry one combat unit",
        "embark",
        fleet="K",
        units="Muetar-A1,Muetar-A2",
    )
    embarked = of(table.do("embark", fleet="K", units="Muetar-A1,Muetar-monarch"), UnitsEmbarked)
    assert embarked[0].units == ("Muetar-A1", "Muetar-monarch")
    moved = of(table.do("move", units="K", path="18,12,18,11"), StackMoved)[0]
    assert moved.carried == ("Muetar-A1", "Muetar-monarch")
    assert where(table, "Muetar-A1") == (18, 11)
    debarked = of(table.do("debark", fleet="K"), UnitsDebarked)[0]
    assert debarked.units == ("Muetar-A1", "Muetar-monarch") and spent(table, "K") == 2
    table.refuse_move("Muetar-A1", "18,10", "transported by sea this turn")
    table.refuse(
        IllegalCommand, "transported by sea this turn", "embark", fleet="K", units="Muetar-A1"
    )


def test_no_embarking_on_a_coast_with_mountains(table: Table) -> None:
    """Movement Phase › Transporting Troops: not in a coastal space that contains
    mountains."""
    hire(table, "K", (6, 14), ME)
    put(table, "Muetar-A1", (6, 14))
    table.refuse(
        IllegalCommand, "coastal space with mountains", "embark", fleet="K", units="Muetar-A1"
    )


def test_no_debarking_into_an_enemy_castle_port_without_a_siege(table: Table) -> None:
    """Movement Phase › Transporting Troops: not in an enemy castle-port unless the units
    meet the requirements to besiege it."""
    hire(table, "K", (13, 19), ME)
    put(table, "Muetar-A1", (13, 19), aboard="K")
    table.refuse_move("K", "Castle Lapspell", "unbesieged enemy or neutral castle")


def test_the_boom_stops_enemy_fleets_before_port_lork(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Special Rules for Select Kingdoms › Hothior: in enemy turns the Boom is closed:
    enemy fleets stop in it for a turn before entering Port Lork; it is open when Port
    Lork is besieged or enemy-occupied."""
    monkeypatch.setattr(siege, "may_besiege", lambda *args: True)
    for unit in ("Hothior-A1", "Hothior-A2"):
        put(table, unit, (9, 16))
    for unit in ("Hothior-F1", "Hothior-F2"):
        put(table, unit, (9, 20))
    hire(table, "K", (8, 19), ME)
    table.refuse_move(
        "K", "The Boom,Port Lork", "the Boom is closed in enemy turns: enemy fleets stop in it"
    )
    table.do("move", units="K", path="The Boom")
    table.refuse_move("K", "Port Lork", "enter Port Lork only from the Boom, after stopping there")
    table.to_phase(2, ME, "movement")
    table.do("move", units="K", path="Port Lork")
    assert where(table, "K") == (9, 17)


def test_the_boom_is_open_when_port_lork_is_besieged(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Special Rules for Select Kingdoms › Hothior: open if Port Lork is under siege."""
    lork = (9, 17)
    monkeypatch.setattr(siege, "besieged", lambda state, hex_: hex_ == lork)
    monkeypatch.setattr(siege, "besieger", lambda state, hex_: ME if hex_ == lork else None)
    for unit in ("Hothior-A1", "Hothior-A2"):
        put(table, unit, (9, 16))
    for unit in ("Hothior-F1", "Hothior-F2"):
        put(table, unit, (9, 20))
    hire(table, "K", (8, 19), ME)
    table.do("move", units="K", path="The Boom,Port Lork")
    assert where(table, "K") == lork


def test_crossing_the_canals_of_parros_costs_two_more_unless_it_is_friendly(
    table: Table,
) -> None:
    """Special Rules for Select Kingdoms › Rombune: +2 to cross the canal hexsides of
    Parros, unless Parros is a friendly castle."""
    table.set_state(table.state.replace(plundered=frozenset({"Parros"})))
    put(table, "Muetar-A1", (10, 28))
    moved = of(table.do("move", units="Muetar-A1", path="Parros"), StackMoved)[0]
    assert moved.spent == (("Muetar-A1", 3),)
    put(table, "Muetar-A2", (10, 28))
    assert of(table.do("move", units="Muetar-A2", path="Parros"), StackMoved)[0].spent == (
        ("Muetar-A2", 1),
    )


def test_the_canals_cost_nothing_more_when_parros_is_friendly(table: Table) -> None:
    """Special Rules for Select Kingdoms › Rombune."""
    ally(table, "Rombune", ME)
    put(table, "Muetar-A1", (10, 28))
    moved = of(table.do("move", units="Muetar-A1", path="Parros,10,29"), StackMoved)[0]
    assert moved.spent == (("Muetar-A1", 3),)


def test_the_canals_help_the_defender_outside_parros_unless_fleets_support() -> None:
    """Special Rules for Select Kingdoms › Rombune: +2 to the combat roll of the stack
    defending outside Parros, unless the invader has fleets enough to carry his attackers
    (a seam for the combat rules)."""
    parros = DATA.place("Parros").hex
    assert special_kingdoms.canal_defence(DATA, parros, land_attackers=3, fleets=2) == 2
    assert special_kingdoms.canal_defence(DATA, parros, land_attackers=3, fleets=3) == 0
    assert special_kingdoms.canal_defence(DATA, (10, 28), land_attackers=3, fleets=0) == 0


def test_land_units_take_a_non_castle_port_and_its_enemy_fleets_are_displaced(
    table: Table,
) -> None:
    """Movement Phase › Non-Castle Ports: "Land combat units may freely enter a non-castle
    port occupied solely by enemy fleets ... The enemy fleet is displaced from the space at
    the end of the Movement Phase" (its owner choosing where)."""
    hire(table, "K", "Freeport", "bob")
    put(table, "Muetar-A1", (14, 20))
    table.do("move", units="Muetar-A1", path="Freeport")
    events = table.do("end-phase")
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind) == ("bob", "port-displacement")
    assert asked.options == ("K at 13,19", "K at 12,19", "K at 12,20")
    assert table.phase() == "movement"
    table.refuse(IllegalCommand, "bob must first decide", "end-phase")
    table.refuse(IllegalCommand, "choose one of", "place", by="bob", at="14,20")
    table.do("place", by="bob", at="12,19")
    assert where(table, "K") == (12, 19)
    table.do("end-phase")
    assert table.phase() == "combat"


def test_fleets_sharing_a_space_with_enemy_land_units_must_leave_it(table: Table) -> None:
    """Combat Phase › Mixed-Type Combat: "Fleets which find themselves in the same hex as
    enemy land units must leave as soon as possible"; Movement Phase › Enemy Units and
    Movement: "the enemy fleet must leave during its next movement phase"."""
    hire(table, "K", (13, 19), "bob")
    put(table, "Muetar-A1", (13, 19))
    assert table.state.turn is not None
    order = table.state.turn.order
    table.to_phase(1 if order.index("bob") > order.index(ME) else 2, "bob", "movement")
    table.refuse(IllegalCommand, "K shares a space with enemy land units", "end-phase")
    table.do("move", units="K", path="12,19")
    table.do("end-phase")
    assert table.phase() == "combat"


def test_what_is_aboard_a_fleet_goes_where_it_goes_from_any_state() -> None:
    """Transporting troops: a fleet moved carries what is aboard it. The state knows what
    the units of the last map it made are aboard (issue 14: a move need not look at every
    unit); a state branched off an earlier one, or with units taken away, still carries
    exactly what is aboard."""
    ashore = State(
        players=(),
        kingdoms={},
        units=sorted_map(
            {
                "A": Unit("A", "Hothior", "army", (1, 1)),
                "B": Unit("B", "Hothior", "army", (1, 1)),
                "F": Unit("F", "Hothior", "fleet", (1, 1)),
            }
        ),
    )

    def sail(state: State, to: Hex) -> State:
        return state.with_units([replace(state.units["F"], hex=to)])

    def board(state: State, *units: str, fleet: str | None = "F") -> State:
        return state.with_units([replace(state.units[u], aboard=fleet) for u in units])

    assert sail(ashore, (2, 2)).units["A"].hex == (1, 1)
    embarked = board(board(ashore, "A"), "B")
    sailed = sail(embarked, (2, 2))
    assert {u.id: u.hex for u in sailed.units.values()} == {"A": (2, 2), "B": (2, 2), "F": (2, 2)}
    fewer = sailed.without_units(["A"])
    moved = sail(fewer, (3, 3))
    assert moved.units["B"].hex == (3, 3)
    landed = board(moved, "B", fleet=None)
    assert sail(landed, (4, 4)).units["B"].hex == (3, 3)
    assert sail(board(ashore, "A"), (5, 5)).units["B"].hex == (1, 1)  # a branch: B ashore
    assert sail(embarked, (6, 6)).units["B"].hex == (6, 6)
    mercenary = landed.with_units([Unit("C", "mercenary", "army", (9, 9))])
    assert list(mercenary.units) == ["B", "C", "F"]  # a unit entering play, in its place
