"""4.4 Phase 4: Income & Upkeep: the steps, each line of the income statement, bankruptcy
avoidance, the corruption bands, monarch power and prestige."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.rulesets.eu_pop import RULESET, rules
from warscribe.engine.rulesets.eu_pop.events import (
    CorruptionSettled,
    IncomeStatement,
    IncomeStepClosed,
    MonarchPowerCollected,
    PrestigeScored,
)
from warscribe.engine.rulesets.eu_pop.state import Power

ADM_ADVISOR = {"name": "Coeur", "slot": "adm", "skill": 2, "upkeep": 3}
DIP_ADVISOR = {"name": "Anne", "slot": "dip", "skill": 1, "upkeep": 1}
MIL_ADVISOR = {"name": "Gaston", "slot": "mil", "skill": 1, "upkeep": 2}


def phase_4(france: dict[str, Any] | None = None, **top: Any) -> Table:
    return Table(position(france, phase="income-upkeep", **top))


def statement(table: Table, realm: str = "France") -> IncomeStatement:
    return next(s for s in table.state.statements if s.realm == realm)


# The steps, for every realm at once


def test_4_4_each_realm_records_each_step_and_it_closes_when_all_have() -> None:
    table = phase_4()
    assert table.state.step == "A" and table.state.label == "1.income-upkeep"
    table.do("alice", "income-cut-costs")
    assert table.state.step == "A" and RULESET.whose_turn(table.state) == "bob"
    assert "has recorded step A" in table.refuse("alice", "income-cut-costs").message
    assert "at step A, not C" in table.refuse("alice", "income-corruption").message
    events = table.do("bob", "income-cut-costs")
    assert [type(e).__name__ for e in events] == [
        "CostsCut",
        "IncomeStepClosed",
        "IncomeStatement",
        "IncomeStatement",
        "IncomeStepClosed",
    ]
    assert events[-1] == IncomeStepClosed(1, "B") and table.state.step == "C"
    table.step("income-corruption")
    table.step("income-monarch-power")
    commands = RULESET.legal_commands(table.state)
    assert "income-prestige" in commands and "income-monarch-power" not in commands
    table.step("income-prestige")
    assert table.state.step == "done"
    table.do("bob", "end-phase")
    assert table.state.label == "2.draw"


def test_4_4_steps_belong_to_phase_4() -> None:
    table = Table(position())
    error = table.refuse("alice", "income-cut-costs")
    assert error.rule == rules.CUT_COSTS and "belongs to Phase 4" in error.message


# B. Collect Income minus Costs: each line

TWO_ADVISORS = {"advisors": [ADM_ADVISOR, DIP_ADVISOR]}
LINES = [
    ({"tax": {"base": 9}}, {}, "base tax", 9),
    ({"tax": {"base": 8, "vassal": 3}}, {}, "vassal tax", 3),
    (TWO_ADVISORS, {}, "advisor upkeep", -4),
    (TWO_ADVISORS, {"papacy": {"controller": "France"}}, "advisor upkeep", -2),
    ({"units": {"regulars": 3}}, {}, "maintenance: regulars", -3),
    ({"units": {"mercenaries": 2}}, {}, "maintenance: mercenaries", -4),
    (
        {"units": {"ships_at_sea": 3, "ships_in_port": 4}},
        {},
        "maintenance: ships at sea",
        Fraction(-3, 2),
    ),
    ({"loans": 2}, {}, "loan interest", -2),
    ({"tax": {"base": 8, "plague": 3}}, {}, "plague", Fraction(-3, 2)),
    ({"stability": 2}, {}, "stability", 2),
    ({"stability": -1}, {}, "stability", -2),
    ({"stability": 0}, {}, "stability", 0),
    ({}, {"empire": {"emperor": "France", "imperial_authority": 4}}, "imperial authority", 4),
    ({}, {"empire": {"emperor": "Austria", "imperial_authority": 4}}, "imperial authority", 0),
    ({"idea_income": 2}, {}, "ideas", 2),
]


@pytest.mark.parametrize(("france", "top", "label", "amount"), LINES)
def test_4_4_b_each_line_of_the_income_statement(
    france: dict[str, Any], top: dict[str, Any], label: str, amount: Fraction
) -> None:
    """4.4 › B: base and vassal tax; advisor upkeep (papal controller 1 less each); 1 per
    regular, 2 per mercenary, ½ per ship at sea; 1 per loan; ½ per plague tax; ±2 for
    stability; the Emperor's imperial authority; ideas."""
    table = phase_4(france, **top)
    table.step("income-cut-costs")
    found = statement(table)
    assert dict(found.lines)[label] == amount
    assert found.total == sum(value for _, value in found.lines)
    assert found.closing == found.opening + found.total == table.realm("France").ducats


def test_4_4_b_a_statement_reads_like_a_bank_statement() -> None:
    """9 + 2 - (3-1 + 1-1) - 3 - 2×2 - 3×½ - 2 - 3×½ + 2 + 4 + 1 = 4; 10 + 4 = 14."""
    france = {
        "tax": {"base": 9, "vassal": 2, "plague": 3},
        "units": {"regulars": 3, "mercenaries": 2, "ships_at_sea": 3},
        "loans": 2,
        "stability": 2,
        "idea_income": 1,
        **TWO_ADVISORS,
    }
    table = phase_4(
        france,
        papacy={"controller": "France"},
        empire={"emperor": "France", "imperial_authority": 4},
    )
    table.step("income-cut-costs")
    shown = table.project("income-statement")["1"]["France"]
    assert shown["lines"] == [
        ["base tax", 9],
        ["vassal tax", 2],
        ["advisor upkeep", -2],
        ["maintenance: regulars", -3],
        ["maintenance: mercenaries", -4],
        ["maintenance: ships at sea", -1.5],
        ["loan interest", -2],
        ["plague", -1.5],
        ["stability", 2],
        ["imperial authority", 4],
        ["ideas", 1],
    ]
    assert (shown["total"], shown["opening"], shown["closing"], shown["shortfall"]) == (
        4,
        10,
        14,
        0,
    )


# A. Cut Costs, and bankruptcy avoidance


def test_4_4_a_cut_costs_fires_disbands_and_recalls() -> None:
    """4.4 › A: fire advisors; disband units (regulars back to available manpower); recall
    ships at sea."""
    units = {"regulars": 2, "mercenaries": 2, "ships_at_sea": 3, "ships_in_port": 1}
    table = phase_4({"advisors": [ADM_ADVISOR], "units": units})
    assert isinstance(table.refuse("alice", "income-cut-costs", fire="dip"), InvalidCommand)
    assert isinstance(table.refuse("alice", "income-cut-costs", disband_regulars=3), InvalidCommand)
    assert isinstance(
        table.refuse("alice", "income-cut-costs", disband_ships=2, recall=2), InvalidCommand
    )
    table.do(
        "alice",
        "income-cut-costs",
        fire="adm",
        disband_regulars=1,
        disband_mercenaries=1,
        disband_ships=1,
        recall=2,
    )
    france = table.realm("France")
    assert france.advisors == () and (france.regulars, france.manpower) == (1, 5)
    assert (france.mercenaries, france.ships_at_sea, france.ships_in_port) == (1, 0, 3)


def test_4_4_a_costs_must_be_cut_to_avoid_bankruptcy_in_step_b() -> None:
    """4.4 › A: players must cut costs if needed to avoid bankruptcy in step B.
    0 ducats, tax 2, five regulars: 2 - 5 = -3; disbanding 2 leaves -1; 3 leaves 0."""
    table = phase_4({"ducats": 0, "tax": {"base": 2}, "units": {"regulars": 5}})
    error = table.refuse("alice", "income-cut-costs")
    assert isinstance(error, IllegalCommand) and error.rule == rules.CUT_COSTS
    assert "3 ducats short" in error.message
    assert "1 ducats short" in table.refuse("alice", "income-cut-costs", disband_regulars=2).message
    table.do("alice", "income-cut-costs", disband_regulars=3)
    table.do("bob", "income-cut-costs")
    assert statement(table).closing == 0 and table.realm("France").manpower == 4 + 3


def test_4_4_a_a_loan_taken_first_also_avoids_bankruptcy() -> None:
    """4.4: loans may be taken in Phase 4. 0 + 5 ducats; 2 - 5 - 1 interest = -4; 5 - 4 = 1."""
    table = phase_4({"ducats": 0, "tax": {"base": 2}, "units": {"regulars": 5}})
    table.do("alice", "take-loan")
    table.step("income-cut-costs")
    assert statement(table).closing == 1


def test_4_4_b_bankruptcy_when_nothing_is_left_to_cut() -> None:
    """No tax, five interest tokens, nothing to cut: the shortfall of 5 is recorded."""
    table = phase_4({"ducats": 0, "tax": {"base": 0}, "loans": 5})
    table.step("income-cut-costs")
    found = statement(table)
    assert (found.total, found.closing, found.shortfall) == (Fraction(-5), Fraction(0), Fraction(5))


# C. Corruption


def at_step_c(**france: Any) -> Table:
    """Phase 4 at step C; step B has added France's base tax of 8."""
    table = phase_4(france)
    table.step("income-cut-costs")
    return table


@pytest.mark.parametrize(
    ("ducats", "owed"),
    [
        (49, 0),
        (Fraction(99, 2), 0),
        (50, 1),
        (Fraction(119, 2), 1),
        (60, 2),
        (69, 2),
        (70, 3),
        (85, 4),
    ],
)
def test_4_4_c_corruption_bands(ducats: Fraction, owed: int) -> None:
    """4.4 › C: 0-49 free; 50-59 one administrative power; 60-69 two; 70-79 three; etc."""
    table = at_step_c(ducats=float(ducats - 8), monarch_power={"adm": 9, "dip": 3, "mil": 3})
    assert table.realm("France").ducats == ducats
    events = table.do("alice", "income-corruption")
    assert events == [CorruptionSettled("France", 1, Fraction(0), owed, owed, 0)]
    assert table.realm("France").power.adm == 9 - owed


def test_4_4_c_each_unpaid_administrative_power_is_an_interest_token() -> None:
    table = at_step_c(ducats=54)
    table.do("alice", "income-corruption", pay=1)
    france = table.realm("France")
    assert (france.ducats, france.power.adm, france.loans) == (Fraction(62), 2, 1)


def test_4_4_c_a_player_may_keep_fewer_ducats() -> None:
    table = at_step_c(ducats=54)
    events = table.do("alice", "income-corruption", keep="49.5")
    assert events == [CorruptionSettled("France", 1, Fraction(25, 2), 0, 0, 0)]
    assert table.realm("France").ducats == Fraction(99, 2)


def test_4_4_c_refusals() -> None:
    table = at_step_c(ducats=54, monarch_power={"adm": 1, "dip": 3, "mil": 3})
    assert "owes 2 administrative power" in table.refuse("alice", "income-corruption").message
    assert isinstance(table.refuse("alice", "income-corruption", pay=3), InvalidCommand)
    assert table.refuse("alice", "income-corruption", keep=70).rule == rules.CORRUPTION
    table.do("alice", "income-corruption", pay=1)


# D. Collect Monarch Power


def at_step_d(france: dict[str, Any] | None = None, **top: Any) -> Table:
    table = phase_4(france, **top)
    table.step("income-cut-costs")
    table.step("income-corruption")
    return table


def collect(table: Table, **args: Any) -> MonarchPowerCollected:
    event = table.do("alice", "income-monarch-power", **args)[0]
    assert isinstance(event, MonarchPowerCollected)
    return event


def test_4_4_d_ruler_skill_plus_advisor_of_each_type() -> None:
    table = at_step_d({"advisors": [ADM_ADVISOR, MIL_ADVISOR]})
    event = collect(table)
    assert dict(event.lines)["ruler"] == Power(2, 2, 2)
    assert dict(event.lines)["advisors"] == Power(2, 0, 1)
    assert event.total == Power(4, 2, 3) and table.realm("France").power == Power(7, 5, 6)


@pytest.mark.parametrize("ruler", [None, {"name": "Interregnum", "adm": 0, "dip": 0, "mil": 0}])
def test_4_4_d_a_realm_in_interregnum_has_a_base_skill_of_1(ruler: dict[str, Any] | None) -> None:
    table = at_step_d({"ruler": ruler, "advisors": [DIP_ADVISOR]})
    event = collect(table)
    assert dict(event.lines)["interregnum"] == Power(1, 1, 1) and event.total == Power(1, 2, 1)


def test_4_4_d_plus_3_stability_gives_2_more_of_the_types_chosen() -> None:
    table = at_step_d({"stability": 3})
    assert table.refuse("alice", "income-monarch-power").rule == rules.MONARCH_POWER
    assert isinstance(table.refuse("alice", "income-monarch-power", gain="adm"), InvalidCommand)
    assert isinstance(
        table.refuse("alice", "income-monarch-power", gain="adm,gold"), InvalidCommand
    )
    assert collect(table, gain="adm,adm").total == Power(4, 2, 2)


def test_4_4_d_minus_3_stability_gives_1_fewer_of_a_type_chosen() -> None:
    table = at_step_d({"stability": -3})
    assert isinstance(table.refuse("alice", "income-monarch-power", gain="adm,dip"), InvalidCommand)
    assert collect(table, lose="mil").total == Power(2, 2, 1)


def test_4_4_d_no_type_below_nothing() -> None:
    table = at_step_d({"stability": -3, "ruler": {"name": "Weak", "adm": 1, "dip": 1, "mil": 0}})
    assert "fewer than 0" in table.refuse("alice", "income-monarch-power", lose="mil").message


def test_4_4_d_minus_3_stability_when_nothing_is_collected_takes_nothing() -> None:
    """4.4 › D. Collect Monarch Power: "1d fewer, of any type chosen" stops at 0. A ruler
    0/0/0 with no advisor at -3 stability names a type and collects 0 of it (issue #18)."""
    table = at_step_d({"stability": -3, "ruler": {"name": "Idle", "adm": 0, "dip": 0, "mil": 0}})
    assert isinstance(table.refuse("alice", "income-monarch-power"), InvalidCommand)
    event = collect(table, lose="dip")
    assert dict(event.lines)["stability"] == Power() and event.total == Power()
    assert table.realm("France").power == Power(3, 3, 3)


def test_4_4_d_minus_3_stability_takes_the_1_fewer_from_a_type_collected() -> None:
    """4.4 › D: while the realm collects something, the type named must be one it collects."""
    table = at_step_d({"stability": -3, "ruler": {"name": "Clerk", "adm": 1, "dip": 0, "mil": 0}})
    assert table.refuse("alice", "income-monarch-power", lose="dip").rule == rules.MONARCH_POWER
    assert collect(table, lose="adm").total == Power()


def test_4_4_d_the_papal_controller_receives_1_diplomatic_power() -> None:
    table = at_step_d(papacy={"controller": "France"})
    assert collect(table).total == Power(2, 3, 2)


def test_4_4_d_emperor_and_ideas_as_entered() -> None:
    table = at_step_d(empire={"emperor": "France", "imperial_authority": 3})
    assert collect(table, emperor="adm=1", ideas="mil=1").total == Power(3, 2, 3)
    error = table.refuse("bob", "income-monarch-power", emperor="dip=1")
    assert "only the Emperor" in error.message
    assert isinstance(table.refuse("bob", "income-monarch-power", ideas="gold=1"), InvalidCommand)


# E. Score Prestige

PRESTIGE = [
    ({}, {"papacy": {"controller": "France", "catholic_prs": 3}}, {}, "papal controller", 2),
    ({}, {"papacy": {"controller": "France", "catholic_prs": 6}}, {}, "papal controller", 3),
    ({}, {"papacy": {"controller": "France", "catholic_prs": 1}}, {}, "papal controller", 0),
    (
        {},
        {"papacy": {"controller": "France", "catholic_prs": 3, "contested": True}},
        {},
        "papal controller",
        0,
    ),
    ({}, {"empire": {"emperor": "France", "imperial_authority": 6}}, {}, "emperor", 1),
    ({}, {"empire": {"emperor": "France", "imperial_authority": 5}}, {}, "emperor", 0),
    ({"ideas": ["Absolute Monarchy"], "stability": 1}, {}, {}, "absolute monarchy", 1),
    ({"ideas": ["Absolute Monarchy"], "stability": 0}, {}, {}, "absolute monarchy", 0),
    ({}, {}, {"crusade": 2}, "crusade", 2),
    ({}, {}, {"power_struggle": -1}, "power struggle", -1),
]


@pytest.mark.parametrize(("france", "top", "args", "label", "points"), PRESTIGE)
def test_4_4_e_each_source_of_prestige(
    france: dict[str, Any], top: dict[str, Any], args: dict[str, Any], label: str, points: int
) -> None:
    """4.4 › E: uncontested papal controller (Catholic PRs - 1, at most 3); Emperor at
    imperial authority 6; Absolute Monarchy with positive stability; crusades and power
    struggles as entered."""
    table = at_step_d(france, **top)
    table.step("income-monarch-power")
    event = table.do("alice", "income-prestige", **args)[0]
    assert isinstance(event, PrestigeScored)
    assert dict(event.lines)[label] == points == event.total
    assert table.realm("France").prestige == points
    assert table.project("prestige")["France"]["rounds"]["1"]["total"] == points
