"""4.4 Phase 4: Income & Upkeep: a step closes itself for a realm with no choice in it.

In a game made with `close_steps` (new games' default), A closes itself for a realm with
nothing to cut that step B leaves solvent, C for one keeping under 50 ducats, D for one
at stability other than +3 or -3 with no Emperor's or ideas' power to enter, E for one
holding no Crusade or power struggle token. Each is recorded as `StepClosedItself` (the
realm, the step, why, the rule), then the step's own events. Games recorded before the
option (it is absent) re-decide as they always did: every step a command.
"""

from __future__ import annotations

from typing import Any

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.events import Event
from warscribe.engine.rulesets.eu_pop import RULESET, rules
from warscribe.engine.rulesets.eu_pop.events import (
    CorruptionSettled,
    CostsCut,
    PrestigeScored,
    StepClosedItself,
)

REGULARS = {"units": {"regulars": 2}}


def steps(events: list[Event]) -> list[tuple[str, str, str]]:
    """Each event as (its class, its realm, its step), "" where it has none."""
    return [
        (type(event).__name__, getattr(event, "realm", ""), getattr(event, "step", ""))
        for event in events
    ]


def closing(
    france: dict[str, Any] | None = None, austria: dict[str, Any] | None = None, **top: Any
) -> Table:
    """A game with `close_steps`, in round 1's Action phase."""
    return Table(position(france, austria, **top), close_steps=True)


def test_4_4_a_round_where_france_has_no_choice_and_austria_has_some() -> None:
    """4.4 A, C, D, E: France (no units, no advisor, 10 ducats, stability 0) records no
    step; Austria (2 regulars, 55 ducats, stability +3) chooses in A, C and D."""
    austria = {**REGULARS, "ducats": 55, "stability": 3}
    table = closing(austria=austria)
    table.both_pass()
    table.do("alice", "end-phase")  # to 1.peace
    # Phase 4 opens: A closes itself for France (nothing to cut; B leaves it solvent).
    events = table.do("alice", "end-phase")
    assert steps(events)[1:] == [
        ("StepClosedItself", "France", "A"),
        ("CostsCut", "France", ""),
    ]
    assert events[1] == StepClosedItself(
        "France",
        1,
        "A",
        "no advisor to fire, no unit to disband, no ship at sea, and step B leaves it solvent",
        rules.CUT_COSTS,
    )
    assert events[2] == CostsCut("France", 1, (), 0, 0, 0, 0)
    assert RULESET.whose_turn(table.state) == "bob"
    # Austria keeps its regulars: A closes, B is drawn up (France 10 + 8 = 18; Austria
    # 55 + 8 - 2 regulars + 2 for positive stability = 63), C closes itself for France.
    events = table.do("bob", "income-cut-costs")
    reason = "keeping its 18 ducats costs nothing (0-49)"
    assert events[-2:] == [
        StepClosedItself("France", 1, "C", reason, rules.CORRUPTION),
        CorruptionSettled("France", 1, 0, 0, 0, 0),
    ]
    # Austria keeps 63 ducats for 2 adm: C closes, D closes itself for France.
    events = table.do("bob", "income-corruption")
    reason = "stability +0 chooses no power type, and it has no Emperor's or ideas' power to enter"
    assert events[-2] == StepClosedItself("France", 1, "D", reason, rules.MONARCH_POWER)
    assert steps(events)[-1] == ("MonarchPowerCollected", "France", "")
    # Austria at +3 names two types: D closes; E closes itself for both (no tokens).
    events = table.do("bob", "income-monarch-power", gain="adm,mil")
    assert steps(events)[-6:] == [
        ("IncomeStepClosed", "", "D"),
        ("StepClosedItself", "France", "E"),
        ("PrestigeScored", "France", ""),
        ("StepClosedItself", "Austria", "E"),
        ("PrestigeScored", "Austria", ""),
        ("IncomeStepClosed", "", "E"),
    ]
    assert table.state.step == "done"
    table.do("bob", "end-phase")
    assert table.state.label == "2.draw"


def test_4_4_every_step_closes_itself_when_no_realm_has_a_choice() -> None:
    """4.4: a game set up at Phase 4 whose realms have no choice at all is done at once."""
    table = closing(phase="income-upkeep")
    assert table.state.step == "done"
    closed = [e for e in table.entries if isinstance(e.event, StepClosedItself)]
    assert [(e.event.realm, e.event.step) for e in closed] == [
        (realm, step) for step in "ACDE" for realm in ("France", "Austria")
    ]


def test_4_4_a_a_realm_short_in_step_b_waits_to_take_a_loan_first() -> None:
    """4.4 A: nothing to cut, but step B would leave France 2 ducats short (no tax, two
    interest tokens): it may still take a loan before B, so A waits for it."""
    table = closing(france={"ducats": 0, "loans": 2, "tax": {"base": 0}}, phase="income-upkeep")
    assert table.state.step == "A" and RULESET.whose_turn(table.state) == "alice"
    # France borrows 5 ducats: B leaves it solvent, so A (and every later step) closes.
    events = table.do("alice", "take-loan")
    assert steps(events)[:3] == [
        ("LoanTaken", "France", ""),
        ("StepClosedItself", "France", "A"),
        ("CostsCut", "France", ""),
    ]
    assert table.state.step == "done"


def test_4_4_c_corruption_from_50_ducats_waits_for_the_realm() -> None:
    """4.4 C: 50-59 ducats cost 1 adm (or an interest token): France chooses."""
    table = closing(france={"ducats": 50}, phase="income-upkeep")
    assert table.state.step == "C" and RULESET.whose_turn(table.state) == "alice"


def test_4_4_d_waits_at_stability_minus_3_with_ideas_and_for_the_emperor() -> None:
    """4.4 D: -3 stability chooses the type lost; ideas and the Emperor's authority may
    give power entered by hand. Each of these realms records D itself."""
    for france, top in (
        ({"stability": -3}, {}),
        ({"ideas": ["Bureaucracy"]}, {}),
        ({}, {"empire": {"emperor": "France", "imperial_authority": 2}}),
    ):
        table = closing(france=france, phase="income-upkeep", **top)
        assert table.state.step == "D", (france, top)
        assert RULESET.whose_turn(table.state) == "alice"


def test_4_4_e_a_crusade_token_makes_e_wait_and_scoring_removes_it() -> None:
    """4.4 E: Score any active Crusade ... and remove the Crusade token. France holds one
    (set by adjustment): E waits for France to enter its prestige, then the token is gone."""
    table = closing()
    table.do("alice", "adjust", reason="Crusade declared", crusade_token=True)
    assert table.realm("France").crusade
    table.both_pass()
    table.end_phase("income-upkeep")
    assert table.state.step == "E" and RULESET.whose_turn(table.state) == "alice"
    events = table.do("alice", "income-prestige", crusade=2)
    assert events[0] == PrestigeScored(
        "France",
        1,
        (
            ("papal controller", 0),
            ("emperor", 0),
            ("absolute monarchy", 0),
            ("crusade", 2),
            ("power struggle", 0),
        ),
        2,
    )
    assert not table.realm("France").crusade and table.state.step == "done"


def test_4_4_without_the_option_every_realm_records_every_step() -> None:
    """4.4, as games recorded before `close_steps` (the option absent) and games made with
    it false: nothing closes itself, so old logs re-decide exactly as before."""
    for close_steps in (None, False):
        table = Table(position(phase="income-upkeep"), close_steps=close_steps)
        assert table.state.step == "A" and not table.state.closing
        table.step("income-cut-costs")
        table.step("income-corruption")
        table.step("income-monarch-power")
        table.step("income-prestige")
        assert table.state.step == "done"
        assert not any(isinstance(e.event, StepClosedItself) for e in table.entries)
