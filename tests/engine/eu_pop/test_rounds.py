"""The round: phases, turns, passing, positions, status; and adjustments."""

from __future__ import annotations

from fractions import Fraction

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.errors import IllegalCommand, InvalidCommand, NotYourTurn
from warscribe.engine.rulesets.eu_pop import RULESET, rules
from warscribe.engine.rulesets.eu_pop.events import CardDiscarded, Passed, RealmAdjusted, TurnEnded
from warscribe.engine.rulesets.eu_pop.state import Ally, World

# Turns and passing (round sequence; 5.2 Minor Actions on passing)


def test_realms_act_in_turn_order_and_end_turn_passes_it_on() -> None:
    table = Table(position())
    assert table.state.turn == "France" and RULESET.whose_turn(table.state) == "alice"
    assert table.do("alice", "end-turn", action="Recruit") == [
        TurnEnded("France", "Recruit", "Austria")
    ]
    assert isinstance(table.refuse("alice", "end-turn"), NotYourTurn)
    table.do("bob", "end-turn")
    assert table.state.turn == "France"


def test_a_realm_that_passed_is_skipped() -> None:
    table = Table(position())
    assert table.do("alice", "pass", ducats=2) == [Passed("France", Fraction(2), "Austria")]
    assert table.realm("France").ducats == 12
    table.do("bob", "end-turn")
    assert table.state.turn == "Austria"
    assert table.do("bob", "pass") == [Passed("Austria", Fraction(0), None)]
    assert table.state.turn is None and RULESET.whose_turn(table.state) == "alice"


def test_passing_twice_is_refused() -> None:
    table = Table(position())
    table.do("alice", "pass")
    table.do("bob", "end-turn")
    assert table.refuse("alice", "pass").rule == rules.MINOR
    assert isinstance(table.refuse("bob", "pass", ducats=-1), InvalidCommand)


def test_the_action_phase_ends_when_every_realm_has_passed() -> None:
    table = Table(position())
    table.do("alice", "pass")
    error = table.refuse("alice", "end-phase")
    assert isinstance(error, IllegalCommand) and "not yet: Austria" in error.message
    table.do("bob", "pass")
    table.do("bob", "end-phase")
    assert table.state.label == "1.peace"


def test_phase_4_ends_when_step_e_has_closed() -> None:
    table = Table(position(phase="income-upkeep"))
    error = table.refuse("alice", "end-phase")
    assert error.rule == rules.INCOME and "step A" in error.message


def test_end_phase_may_set_the_turn_order() -> None:
    table = Table(position(phase="draw"))
    assert isinstance(table.refuse("alice", "end-phase", order="Austria"), InvalidCommand)
    table.do("alice", "end-phase", order="Austria,France")
    assert table.state.turn == "Austria" and table.state.order == ("Austria", "France")


def test_positions_are_round_and_phase_and_mark_the_log() -> None:
    table = Table(position(phase="draw"))
    labels = []
    for _ in range(4):
        labels.append(RULESET.position(table.state))
        if table.state.phase == "action":
            table.both_pass()
        if table.state.phase == "income-upkeep":
            for step in (
                "income-cut-costs",
                "income-corruption",
                "income-monarch-power",
                "income-prestige",
            ):
                table.step(step)
        table.do("alice", "end-phase")
    assert labels == ["1.draw", "1.action", "1.peace", "1.income-upkeep"]
    assert RULESET.position(table.state) == "2.draw"
    assert list(table.head.marks) == labels


def test_status_shows_what_the_phase_waits_for() -> None:
    table = Table(position())
    table.do("alice", "pass")
    assert RULESET.summary(table.state) == {
        "position": "1.action",
        "round": 1,
        "phase": "action",
        "turn": "Austria",
        "step": None,
        "passed": ["France"],
        "waiting": ["Austria"],
    }
    assert "pass" in RULESET.legal_commands(table.state)
    table.do("bob", "pass")
    commands = RULESET.legal_commands(table.state)
    assert "end-phase" in commands and "adjust" in commands and "pass" not in commands


def test_unknown_commands_arguments_and_players_are_refused() -> None:
    table = Table(position())
    assert "has no command" in table.refuse("alice", "build-castle").message
    assert "takes no argument colour" in table.refuse("alice", "end-turn", colour="red").message
    assert "'carol' is not a player" in table.refuse("carol", "end-turn").message


# Adjustments


def test_adjust_changes_figures_by_delta_with_its_reason() -> None:
    table = Table(position())
    events = table.do(
        "bob", "adjust", reason="Recruit 2 regulars", ducats="-2.5", regulars=2, manpower=-2
    )
    assert events == [
        RealmAdjusted(
            "Austria",
            "Recruit 2 regulars",
            (("ducats", Fraction(-5, 2)), ("manpower", -2), ("regulars", 2)),
        )
    ]
    austria = table.realm("Austria")
    assert (austria.ducats, austria.regulars, austria.manpower) == (Fraction(15, 2), 2, 2)


def test_adjust_set_gives_values_now_recorded_as_the_deltas_that_make_them() -> None:
    """Adjustments (issue 13): a slip is corrected outright. Austria holds 10 ducats,
    stability 0 and 4 available manpower; the table counts 7½ ducats, stability -1 and 4
    manpower: the record holds -2½ and -1 (manpower unchanged is no change)."""
    table = Table(position())
    events = table.do(
        "bob", "adjust", reason="recount", set=True, ducats="7.5", stability=-1, manpower=4
    )
    deltas = (("ducats", Fraction(-5, 2)), ("stability", -1))
    assert events == [RealmAdjusted("Austria", "recount", deltas)]
    austria = table.realm("Austria")
    assert (austria.ducats, austria.stability, austria.manpower) == (Fraction(15, 2), -1, 4)
    # The values already held change nothing; a value outside a figure's limits is refused.
    assert "changes nothing" in table.refuse("bob", "adjust", reason="r", set=True, dip=3).message
    assert (
        "stability would be 4"
        in table.refuse("bob", "adjust", reason="r", set=True, stability=4).message
    )
    # set without a figure says what it needs.
    assert "set: give the figures" in table.refuse("bob", "adjust", reason="r", set=True).message


def test_adjust_set_gives_imperial_authority_its_value() -> None:
    """Adjustments: imperial authority is a delta, or with `set` its value now."""
    table = Table(position(empire={"emperor": "Austria", "imperial_authority": 2}))
    table.do("bob", "adjust", reason="Reform", imperial_authority=1)
    assert table.state.world.imperial_authority == 3
    table.do("bob", "adjust", reason="recount", set=True, imperial_authority=5)
    assert table.state.world.imperial_authority == 5


def test_adjust_keeps_each_figure_within_its_limits() -> None:
    table = Table(position())
    assert table.refuse("alice", "adjust", reason="r", stability=4).rule == rules.ADJUST
    assert "mil would be -1" in table.refuse("alice", "adjust", reason="r", mil=-4).message
    assert "would be -1" in table.refuse("alice", "adjust", reason="r", regulars=-1).message
    assert isinstance(table.refuse("alice", "adjust", reason="r", ducats="1.25"), InvalidCommand)
    assert isinstance(table.refuse("alice", "adjust", reason="r", fame=1), InvalidCommand)


def test_adjust_keeps_plague_tax_within_the_tax_income() -> None:
    """4.4 › B. Collect Income minus Costs: the plague line counts tax income from areas
    with plague, so it cannot exceed base plus vassal tax (issue #18)."""
    table = Table(position(france={"tax": {"base": 3, "vassal": 1}}))
    error = table.refuse("alice", "adjust", reason="Plague in Paris", plague_tax=5)
    assert isinstance(error, InvalidCommand) and error.rule == rules.INCOME_STATEMENT
    error = table.refuse("alice", "adjust", reason="Paris lost", plague_tax=4, base_tax=-1)
    assert "plague_tax 4 is more than its tax income 3" in error.message
    table.do("alice", "adjust", reason="Plague in Paris", plague_tax=4)
    assert table.realm("France").plague_tax == 4


def test_adjust_needs_a_reason_and_a_change() -> None:
    table = Table(position())
    assert isinstance(table.refuse("alice", "adjust", ducats=1), InvalidCommand)
    assert "changes nothing" in table.refuse("alice", "adjust", reason="nothing").message
    assert isinstance(
        table.refuse("alice", "adjust", reason="r", realm="Spain", ducats=1), InvalidCommand
    )


def test_adjust_discards_a_card() -> None:
    table = Table(
        position(france={"advisors": [{"name": "Coeur", "slot": "adm", "skill": 1, "upkeep": 1}]})
    )
    assert table.do("bob", "adjust", realm="France", reason="Event", discard="Coeur") == [
        CardDiscarded("France", "Coeur", "advisor", "Event")
    ]
    assert table.realm("France").advisors == ()
    assert isinstance(table.refuse("alice", "adjust", reason="r", discard="Nobody"), InvalidCommand)


def test_adjust_sets_ideas_alliances_and_the_world() -> None:
    table = Table(position(france={"ideas": ["Bureaucracy"]}))
    table.do(
        "alice", "adjust", reason="Ideas", gain_idea="Absolute Monarchy", lose_idea="bureaucracy"
    )
    assert table.realm("France").ideas == ("Absolute Monarchy",)
    assert (
        table.refuse("alice", "adjust", reason="r", gain_idea="Absolute Monarchy").rule
        == rules.ADJUST
    )
    table.do(
        "alice",
        "adjust",
        reason="Alliance",
        ally="Savoy",
        ally_kind="npr",
        ally_tax_value=4,
        ally_adjacent=True,
    )
    assert table.realm("France").allies == (Ally("Savoy", "npr", 4, 0, True, True, False),)
    table.do("alice", "adjust", reason="War", ally="Savoy", ally_at_peace=False)
    assert table.realm("France").allies[0].at_peace is False
    assert isinstance(table.refuse("alice", "adjust", reason="r", ally="Genoa"), InvalidCommand)
    assert isinstance(table.refuse("alice", "adjust", reason="r", ally_tax_value=2), InvalidCommand)
    table.do("alice", "adjust", reason="Annexed", drop_ally="Savoy")
    assert table.realm("France").allies == ()
    table.do(
        "bob",
        "adjust",
        reason="Election",
        emperor="Austria",
        imperial_authority=2,
        papal_controller="France",
    )
    assert table.state.world == World("France", False, 0, "Austria", 2)
    table.do(
        "bob",
        "adjust",
        reason="Schism",
        papal_controller="none",
        papal_contested=True,
        catholic_prs=2,
    )
    assert table.state.world == World(None, True, 2, "Austria", 2)
    assert table.refuse("bob", "adjust", reason="r", imperial_authority=-3).rule == rules.ADJUST
