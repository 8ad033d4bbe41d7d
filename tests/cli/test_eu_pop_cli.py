"""The eu-pop command line: `new eu-pop`, the generated commands, the economy's queries.

Games start from the example start file shipped with the engine: France (alice) and
Austria (bob). Its figures, which the hand-worked sums below use:

    France:  12 ducats, adm 3 / dip 2 / mil 3, manpower 6 available / 3 exhausted,
             stability +1, prestige 0, no loans; ruler Charles VII 2/1/2; advisor Jacques
             Coeur (adm, skill 1, upkeep 2); 4 regulars, 1 mercenary, 1 ship at sea;
             base tax 9, vassal tax 1, no plague. Papal controller (3 Catholic PRs).
    Austria: 10 ducats, adm 2 / dip 3 / mil 2, manpower 5 / 2, stability 0, prestige 1;
             ruler Frederick III 1/2/1; advisor Ulrich von Cilli (dip, skill 1, upkeep 1);
             3 regulars; base tax 7, vassal tax 2, plague tax 2. Emperor, authority 2.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from tests.engine.eu_pop.table import treasury_row
from warscribe.cli.generated import add_face
from warscribe.cli.main import cli, face
from warscribe.engine.rulesets.eu_pop import COMMANDS, RULESET
from warscribe.engine.rulesets.eu_pop import present as eu_pop

Run = Callable[..., Result]
PLAYERS = ("--player", "alice=France", "--player", "bob=Austria")


@pytest.fixture
def run(cli_folder: Path) -> Run:
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(cli, ["--store", str(cli_folder / "game.db"), *args])

    return invoke


@pytest.fixture
def start(tmp_path: Path) -> Path:
    """The example start file, copied out of the installed engine package."""
    sample = resources.files("warscribe.engine.rulesets.eu_pop") / "datafiles/example-start.json"
    path = tmp_path / "start.json"
    path.write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    return path


@pytest.fixture
def game(run: Run, start: Path) -> Run:
    """`run`, on a new eu-pop game in its Action phase (France's turn)."""
    ok(run("new", "eu-pop", *PLAYERS, "--start", str(start), "--dice", "seeded:1"))
    ok(run("end-phase"))
    return run


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def data(result: Result) -> Any:
    return json.loads(ok(result).stdout)


def refused(result: Result, *words: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: "), result.output
    for word in words:
        assert word in result.output


def snapshot(run: Run) -> tuple[Any, Any]:
    return data(run("status", "--json"))["seq"], data(run("treasury", "--json"))


# Creating a game


def test_new_eu_pop_records_the_realms_of_the_start_file(run: Run, start: Path) -> None:
    created = data(run("new", "eu-pop", *PLAYERS, "--start", str(start), "--name", "ex", "--json"))
    assert (created["ruleset"], created["name"], created["position"]) == ("eu-pop", "ex", "1.draw")
    treasury = data(run("treasury", "--json"))
    assert treasury["position"] == "1.draw"
    assert treasury["realms"]["France"] == treasury_row("alice", 12, 0, (3, 2, 3), (6, 3), 1, 0)
    assert treasury["realms"]["Austria"]["player"] == "bob"


def test_new_eu_pop_needs_a_readable_start_file_and_players_with_realms(
    run: Run, start: Path, tmp_path: Path
) -> None:
    assert run("new", "eu-pop", *PLAYERS).exit_code == 2, "--start is required"
    assert run("new", "eu-pop", *PLAYERS, "--start", "missing.json").exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"realms": {}, "colour": "red"}', encoding="utf-8")
    refused(run("new", "eu-pop", *PLAYERS, "--start", str(bad)))
    refused(run("new", "eu-pop", "--player", "alice=Spain", "--start", str(start)), "Spain")
    assert data(run("games", "--json")) == [], "nothing was created"


# Commands


def test_minor_actions_are_recorded_with_their_arguments(game: Run) -> None:
    # France: 12 ducats - 6 for the advisor = 6; mil 3 - 1 for replenishing 3 units = 2,
    # manpower 6 + 3 = 9 available, 3 - 3 = 0 exhausted.
    recorded = ok(
        game(
            "appoint-advisor",
            *("--slot", "mil", "--name", "Jean Bureau", "--skill", "2"),
            *("--cost", "6", "--upkeep", "2"),
        )
    )
    assert "AdvisorAppointed" in recorded.output and "alice: appoint-advisor" in recorded.output
    ok(game("replenish-manpower", "--units", "3"))
    france = data(game("treasury", "--json"))["realms"]["France"]
    assert france["ducats"] == 6 and france["monarch_power"]["mil"] == 2
    assert france["manpower"] == {"available": 9, "exhausted": 0}


def test_negative_and_half_deltas_and_dashed_options_reach_the_engine(game: Run) -> None:
    ok(game("adjust", "--reason", "Recruit", "--ducats", "-2.5", "--regulars", "1"))
    ok(game("adjust", "--reason", "War", "--ally", "Savoy", "--ally-at-peace", "false"))
    assert data(game("treasury", "--json"))["realms"]["France"]["ducats"] == 9.5
    assert "9½" in ok(game("treasury")).stdout


def test_adjust_set_corrects_a_slip_outright(game: Run) -> None:
    """Adjustments (issue 13): a slip of +3 ducats is corrected by giving the value the
    table counts, recorded as the delta that makes it."""
    ok(game("adjust", "--reason", "card", "--ducats", "3"))  # the slip: France 12 + 3 = 15
    shown = ok(game("adjust", "--reason", "recount", "--set", "--ducats", "9.5")).stdout
    assert "deltas=[['ducats', '-11/2']]" in shown, shown  # 15 - 5½ = 9½
    assert data(game("treasury", "--json"))["realms"]["France"]["ducats"] == 9.5


def test_a_ruler_appointed_as_a_reaction(game: Run) -> None:
    # On France's turn, Austria's event card kills France's ruler (an adjustment). Once the
    # turn has passed to Austria, France may appoint a new ruler only as a Reaction.
    death = ("--realm", "France", "--reason", "Event: death", "--discard", "Charles VII")
    ok(game("adjust", *death, "--as", "bob"))
    ok(game("end-turn", "--action", "Diplomacy"))
    ruler = ("--name", "Louis XI", "--adm", "2", "--dip", "2", "--mil", "1", "--as", "alice")
    refused(game("appoint-ruler", *ruler), "Austria")
    assert "RulerAppointed" in ok(game("appoint-ruler", *ruler, "--reaction")).stdout


def test_a_refused_command_leaves_the_store_unchanged(game: Run) -> None:
    before = snapshot(game)
    refused(game("appoint-advisor", "--slot", "mil", "--name", "X", "--cost", "1", "--as", "bob"))
    refused(game("repay-loan", "--count", "1"), "Take/Repay Loan")
    refused(game("take-loan", "--count", "many"), "whole number")
    assert snapshot(game) == before


def test_a_refused_loan_names_the_interest_tokens_held_now(run: Run, start: Path) -> None:
    """5.2 Take/Repay Loan, no loan at 5 or more tokens (issue 12's wording): through the
    generated options, and through `borrow` with a cost, France at 4 tokens is told it holds
    4, never the 5 of a loan it may not take."""
    position = json.loads(start.read_text(encoding="utf-8"))
    position["realms"]["France"]["loans"] = 4
    start.write_text(json.dumps(position), encoding="utf-8")
    ok(run("new", "eu-pop", *PLAYERS, "--start", str(start), "--dice", "seeded:1"))
    ok(run("end-phase"))
    # France (12 ducats) asks for two loans: one is left before the fifth token.
    told = "France holds 4 interest tokens: it may take 1 more, not 2 (no loan at 5 or more)"
    refused(run("take-loan", "--count", "2"), told)
    # A cost of 20 ducats lacks 8: two loans again, refused the same way.
    refused(run("adjust", "--reason", "card", "--ducats", "-20", "--borrow", "2"), told)
    assert "holds 5" not in run("take-loan", "--count", "2").output


def test_repaying_more_loans_than_held_says_how_many_there_are(run: Run, start: Path) -> None:
    """5.2 Take/Repay Loan (issue 32): France, holding 2 loans, asks to repay 3 and is told
    it has 2 and cannot repay 3, not that it has no loan; the store is unchanged."""
    position = json.loads(start.read_text(encoding="utf-8"))
    position["realms"]["France"]["loans"] = 2
    start.write_text(json.dumps(position), encoding="utf-8")
    ok(run("new", "eu-pop", *PLAYERS, "--start", str(start), "--dice", "seeded:1"))
    ok(run("end-phase"))
    before = snapshot(run)
    refused(run("repay-loan", "--count", "3"), "France has 2 loans: it cannot repay 3")
    assert snapshot(run) == before


def test_usage_errors_exit_2(game: Run) -> None:
    before = snapshot(game)
    assert game("take-loan", "--bogus", "1").exit_code == 2
    assert game("pass", "--reaction").exit_code == 2, "pass takes no reaction"
    assert game("income-statement", "--round", "0").exit_code == 2
    assert game("treasury", "extra").exit_code == 2
    assert snapshot(game) == before


def test_every_engine_command_is_a_cli_command_with_its_arguments() -> None:
    """Generated from its spec: an option per argument, a bare flag for a flag."""
    group = face("eu-pop")
    for name, spec in COMMANDS.items():
        options = {opt for param in group.commands[name].params for opt in param.opts}
        expected = {f"--{arg.replace('_', '-')}" for arg in spec.arg_names}
        assert options == expected | {"--as", "--host-act"}, name
        flags = {p.name for p in group.commands[name].params if getattr(p, "is_flag", False)}
        assert flags == {arg.name for arg in spec.args if arg.kind.flag}, name


def test_every_eu_pop_example_parses(game: Run) -> None:
    """The examples in the help name real options: run each, expecting no usage error."""
    for name in [*COMMANDS, *eu_pop.QUERIES]:
        text = ok(game(name, "--help")).stdout
        examples = text.split("Example:")[1].split("Options:")[0].strip().splitlines()
        for example in examples:
            words = shlex.split(example)
            assert words[:2] == ["warscribe", name], example
            assert game(*words[1:]).exit_code in (0, 1), example


def test_a_name_clash_is_found_at_registration() -> None:
    group = click.Group("eu", commands=[click.Command("pass")])
    with pytest.raises(RuntimeError, match="'pass' is defined twice"):
        add_face(group, "eu-pop", RULESET)


def test_eu_pop_commands_and_queries_refuse_a_divine_right_game(game: Run) -> None:
    ok(game("new", "divine-right", "--player", "a", "--player", "b", "--dice", "seeded:1"))
    for args in (("pass",), ("adjust", "--reason", "r", "--ducats", "1"), ("treasury",)):
        refused(game(*args), "eu-pop", "divine-right")
    first = data(game("games", "--json"))[0]["name"]
    ok(game("--game", first, "pass"))


# A round, through Phase 4


def play_round_1(run: Run) -> None:
    """Round 1 from the Action phase to the next round's draw phase."""
    # Action phase. France: advisor (-6) and a loan (+5, an interest token): 12 - 6 + 5 = 11.
    ok(run("appoint-advisor", "--slot", "mil", "--name", "Jean Bureau", "--skill", "2",
           "--cost", "6", "--upkeep", "2"))  # fmt: skip
    ok(run("take-loan", "--count", "1"))
    ok(run("end-turn", "--action", "Recruit"))
    # Austria: replenishes 2 units for 1 mil (a part of 3 costs a whole point): mil 2 - 1 = 1;
    # manpower 5 + 2 = 7, exhausted 2 - 2 = 0.
    ok(run("replenish-manpower", "--units", "2"))
    ok(run("end-turn"))
    ok(run("pass", "--ducats", "1"))  # France: 11 + 1 = 12
    ok(run("pass"))
    # Austria's crusade is on the board: its token makes step E wait for Austria.
    ok(run("adjust", "--reason", "Crusade declared", "--crusade-token", "true", "--as", "bob"))
    ok(run("end-phase"))  # to 1.peace
    ok(run("end-phase"))  # to 1.income-upkeep
    # A. Both have units they may disband, so both choose: France cuts nothing; Austria
    #    disbands a regular: 2 regulars, manpower 7 + 1 = 8.
    ok(run("income-cut-costs", "--as", "alice"))
    closed = ok(run("income-cut-costs", "--disband-regulars", "1", "--as", "bob")).stdout
    # B is drawn up by the record (see test_a_round_through_phase_4 for the sums).
    # C closes itself for both: they keep under 50 ducats (14½ and 17), no corruption.
    for realm, ducats in (("France", "14½"), ("Austria", "17")):
        assert (
            f"StepClosedItself: realm={realm} round=1 step=C reason=keeping its {ducats} ducats "
            "costs nothing (0-49) rule=4.4 › C. Corruption"
        ) in closed, closed
    # D. France: ruler 2/1/2 + advisors adm 1, mil 2 + papal controller dip 1 = 3/2/4,
    #    so 3/2/3 becomes 6/4/7; at stability +1, with no ideas, not the Emperor, it has no
    #    choice: D closes itself for France. Austria, the Emperor, records it (no imperial
    #    power entered): ruler 1/2/1 + advisor dip 1 = 1/3/1, so 2/3/1 becomes 3/6/2.
    assert "StepClosedItself: realm=France round=1 step=D" in closed
    assert "realm=Austria round=1 step=D" not in closed
    closed = ok(run("income-monarch-power", "--as", "bob")).stdout
    # E. France, uncontested papal controller, holds no crusade token: E closes itself and
    #    scores 3 Catholic PRs - 1 = 2 prestige. Austria enters its crusade: emperor at
    #    authority 2 (< 6) scores 0, the crusade +1, so 1 + 1 = 2; its token is removed.
    assert "StepClosedItself: realm=France round=1 step=E" in closed
    ok(run("income-prestige", "--crusade", "1", "--as", "bob"))
    ok(run("end-phase"))  # to 2.draw


def test_a_round_through_phase_4(game: Run) -> None:
    play_round_1(game)
    # Step B, France (opening 12):
    #   base tax +9, vassal tax +1,
    #   advisor upkeep: papal controller pays 1 less for each: (2 - 1) + (2 - 1) = -2,
    #   regulars 4 x 1 = -4, mercenaries 1 x 2 = -2, ships at sea 1 x 1/2 = -1/2,
    #   loan interest 1 token = -1, plague 0, stability +1 is positive: +2,
    #   not the emperor: 0, ideas 0.
    #   Total 9 + 1 - 2 - 4 - 2 - 1/2 - 1 + 2 = 2 1/2; closing 12 + 2 1/2 = 14 1/2.
    # Step B, Austria (opening 10):
    #   base tax +7, vassal tax +2, advisor upkeep -1, regulars 2 (after the cut) = -2,
    #   plague 1/2 of 2 = -1, stability 0: 0, emperor: imperial authority +2.
    #   Total 7 + 2 - 1 - 2 - 1 + 2 = 7; closing 10 + 7 = 17.
    statement = data(game("income-statement", "--round", "1", "--json"))
    assert statement == {
        "1": {
            "France": {
                "lines": [
                    ["base tax", 9],
                    ["vassal tax", 1],
                    ["advisor upkeep", -2],
                    ["maintenance: regulars", -4],
                    ["maintenance: mercenaries", -2],
                    ["maintenance: ships at sea", -0.5],
                    ["loan interest", -1],
                    ["plague", 0],
                    ["stability", 2],
                    ["imperial authority", 0],
                    ["ideas", 0],
                ],
                "total": 2.5,
                "opening": 12,
                "closing": 14.5,
                "shortfall": 0,
            },
            "Austria": {
                "lines": [
                    ["base tax", 7],
                    ["vassal tax", 2],
                    ["advisor upkeep", -1],
                    ["maintenance: regulars", -2],
                    ["maintenance: mercenaries", 0],
                    ["maintenance: ships at sea", 0],
                    ["loan interest", 0],
                    ["plague", -1],
                    ["stability", 0],
                    ["imperial authority", 2],
                    ["ideas", 0],
                ],
                "total": 7,
                "opening": 10,
                "closing": 17,
                "shortfall": 0,
            },
        }
    }
    # Steps C to E as worked out in play_round_1.
    treasury = data(game("treasury", "--json"))
    assert treasury == {
        "position": "2.draw",
        "realms": {
            "France": treasury_row("alice", 14.5, 1, (6, 4, 7), (6, 3), 1, 2),
            "Austria": treasury_row("bob", 17, 0, (3, 6, 2), (8, 0), 0, 2),
        },
    }
    prestige = data(game("prestige", "--json"))
    assert prestige["France"]["rounds"]["1"]["lines"][0] == ["papal controller", 2]
    collected = data(game("monarch-power", "--json"))["1"]["France"]["total"]
    assert collected == {"adm": 3, "dip": 2, "mil": 4}


def test_the_income_statement_reads_like_a_bank_statement(game: Run) -> None:
    play_round_1(game)
    text = ok(game("income-statement")).stdout
    assert text.startswith("Round 1: income statement")
    france = text.split("France")[1].split("Austria")[0]
    assert [line.split()[0] for line in france.strip().splitlines()][:2] == ["opening", "base"]
    assert re.search(r"maintenance: ships at sea +-½\n", france)
    assert re.search(r"total +\+2½\n +closing balance +14½\n", france)
    refused(game("income-statement", "--round", "2"), "round 2")


def test_queries_at_an_earlier_position(game: Run) -> None:
    play_round_1(game)
    # As Phase 4 began: France 12 ducats (after advisor, loan and passing), Austria 10.
    at_income = data(game("treasury", "--at", "1.income-upkeep", "--json"))
    assert at_income["position"] == "1.income-upkeep"
    assert [r["ducats"] for r in at_income["realms"].values()] == [12, 10]
    assert data(game("income-statement", "--at", "1.income-upkeep", "--json")) == {}
    assert data(game("treasury", "--at", "1.action", "--json"))["realms"]["France"]["ducats"] == 12
    refused(game("treasury", "--at", "5.action"), "not reached")
    phases = "its phases are draw, action, peace, income-upkeep"
    refused(game("treasury", "--at", "1.banana"), "eu-pop has no phase 'banana'", phases)
    assert "treasury at 1.income-upkeep" in ok(game("treasury", "--at", "1.income-upkeep")).stdout


def test_log_story_tells_each_decision_with_its_rule(game: Run) -> None:
    """`log --story`: the position as a heading, a sentence per thing that happened in
    eu-pop's words (Adjustments, docs/eu-pop.md)."""
    ok(game("adjust", "--reason", "recount", "--set", "--ducats", "13", "--as", "alice"))
    story = ok(game("log", "--story")).stdout.splitlines()
    assert story[0].startswith("the game ") and "of eu-pop began" in story[0]
    assert any(line.startswith("== ") and line.endswith(" ==") for line in story)
    assert story[-1].startswith("France was adjusted (recount): ducats "), story[-1]


# Phase 4 steps that close themselves, and the logs recorded before they did

DATA = Path(__file__).resolve().parent.parent / "data"


def test_a_log_of_every_step_as_a_command_imports_and_audits_unchanged(run: Run) -> None:
    """4.4: tests/data/eu-pop-explicit-steps.wlog was recorded before steps closed
    themselves: round 1 as play_round_1 plays it, with every realm's C, D and E given as
    commands. Its GameCreated has no `close_steps`, so import and audit re-decide each
    command as it was decided (none refused as already closed) and the treasury is the
    one recorded with it."""
    ok(run("import", str(DATA / "eu-pop-explicit-steps.wlog")))
    audit = data(run("audit", "--json"))
    assert (audit["ok"], audit["decisions"], audit["findings"]) == (True, 19, [])
    expected = json.loads((DATA / "eu-pop-explicit-steps.treasury.json").read_text())
    assert data(run("treasury", "--json")) == expected
    assert "StepClosedItself" not in ok(run("log")).stdout


def test_new_with_close_steps_false_waits_for_every_step(run: Run, start: Path) -> None:
    """4.4, `new eu-pop --close-steps false`: both realms keep under 50 ducats, yet step C
    waits for each to record it, as every game did before the option."""
    new = ("new", "eu-pop", *PLAYERS, "--start", str(start), "--close-steps", "false")
    ok(run(*new))
    for command in ("end-phase", "pass", "pass", "end-phase", "end-phase"):
        ok(run(command))  # to 1.action, both pass, to 1.peace, to 1.income-upkeep
    ok(run("income-cut-costs", "--as", "alice"))
    ok(run("income-cut-costs", "--as", "bob"))
    status = data(run("status", "--json"))
    assert (status["step"], status["waiting"]) == ("C", ["France", "Austria"])
    assert "StepClosedItself" not in ok(run("income-corruption", "--as", "alice")).stdout
