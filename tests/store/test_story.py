"""The story a person reads (issue 32): each event a sentence in the rulebook's words,
written by its rule set (`sentence`) or, for the record's own events, by the core; cards
and units named as the game's tables name them; no line over `WIDTH`, nothing cut."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from warscribe.cli.main import cli
from warscribe.engine import rulesets
from warscribe.engine.events import GameForked, HostActed, Note, OrdersReceived
from warscribe.engine.rulesets.divine_right import events as dr
from warscribe.engine.rulesets.divine_right.data import load_builtin
from warscribe.engine.rulesets.divine_right.state import Fight, State
from warscribe.engine.rulesets.eu_pop import events as eu
from warscribe.engine.rulesets.eu_pop.state import EuState
from warscribe.store.story import WIDTH, fallback, story, told, wrapped

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden-three-turns.wlog"
DUMP = re.compile(r"\w=\S")  # `name=value`, as the field dumps read


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """`log --story` of the golden three-turn game."""
    store = str(tmp_path_factory.mktemp("golden") / "w.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--store", store, "import", str(GOLDEN)]).exit_code == 0
    result = runner.invoke(cli, ["--store", store, "log", "--story"])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_the_golden_story_has_short_whole_lines_and_no_field_dumps(golden: list[str]) -> None:
    assert max(len(line) for line in golden) <= WIDTH
    assert not [line for line in golden if DUMP.search(line) or "..." in line]
    assert not [line for line in golden if line.startswith("the record")]
    assert "bob ended the Random Events Phase" in golden


def test_the_golden_story_names_cards_as_the_tables_do(golden: list[str]) -> None:
    """Personality cards by the personality file's names, diplomacy cards by ploy and
    bonus as the deck file gives them (card 11 of the golden game is Ghem's)."""
    data = load_builtin()
    name = next(p.name for p in data.personalities if p.number == 11)
    assert f"Ghem's personality card was turned face up: personality card 11 ({name})" in golden
    assert "bob drew a diplomacy card: Black Magic +2" in golden
    assert not [line for line in golden if "#1" in line or "black-magic" in line]


def test_a_long_sentence_is_wrapped_between_words() -> None:
    sentence = " ".join(f"word{i}" for i in range(80))
    lines = wrapped(sentence)
    assert len(lines) > 1 and all(len(line) <= WIDTH for line in lines)
    assert all(line.startswith("    ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == sentence


def _golden_state() -> State:
    from warscribe.engine.record import fold
    from warscribe.store import logfile

    head = fold(logfile.read(GOLDEN.read_bytes()).entries)
    assert isinstance(head.state, State)
    return head.state


def test_divine_right_tells_a_battle() -> None:
    """Combat Phase › Making Attacks: who attacked whom where, the odds, each side's roll
    and modifiers, and the losses."""
    state = _golden_state()
    fight = Fight(1, "land", "carol", "alice", ("Muetar-A1",), ("Hothior-A1",), ((9, 3),), "battle")
    battle = dr.BattleFought(
        1, "land", "carol", "alice", 4, 2, 3, 5,
        (("odds 2 to 1 (4 against 2)", 2),), (("castle", 1),), 5, 6, 1, 0,
    )  # fmt: skip
    assert battle.rule_section() == "Combat Phase › Making Attacks"
    sentence = rulesets.get("divine-right").sentence(battle, state.with_progress(fight=fight))
    assert sentence == (
        "battle 1: carol attacked alice at 9,3 with 4 against 2 (2 to 1): "
        "3+2=5 against 5+1 (castle)=6; carol loses 1"
    )


def test_divine_right_tells_a_personality_card_by_its_name() -> None:
    """Diplomacy Phase › Activation Attempts: a card turned face up is named as its file
    names it."""
    state = _golden_state()
    name = next(p.name for p in load_builtin().personalities if p.number == 5)
    sentence = rulesets.get("divine-right").sentence(dr.PersonalityRevealed("Shucassam", 5), state)
    assert (
        sentence == f"Shucassam's personality card was turned face up: personality card 5 ({name})"
    )


def test_eu_pop_tells_an_income_statement() -> None:
    """4.4 Phase 4: Income & Upkeep, step B: the statement's lines, total and treasury."""
    statement = eu.IncomeStatement(
        "France", 1, (("base tax", Fraction(5)), ("upkeep", Fraction(-3, 2))),
        Fraction(7, 2), Fraction(10), Fraction(27, 2), Fraction(0),
    )  # fmt: skip
    state: EuState | None = None
    sentence = rulesets.get("eu-pop").sentence(statement, state)
    assert sentence == (
        "France's income for round 1: base tax +5 ducats; upkeep -1.50 ducats; "
        "total +3.50 ducats, treasury 10 ducats to 13.50 ducats"
    )


def test_the_core_tells_the_records_own_events() -> None:
    """Notes and rulings, orders received, the host's acts and forks: the record's words,
    never a dump of their fields."""
    ruling = Note("ref", "the river is fordable", 3, 5, "1.1.movement", ruling=True)
    lines = {
        ruling: "ref ruled on 1.1.movement: the river is fordable",
        OrdersReceived("bob", b"o", b"s", 2): "the signed orders of bob were received",
        HostActed("alice", "no orders"): "the host for alice (no orders)",
        GameForked(UUID(int=2), "what-if", UUID(int=1), 40, "2.1.siege"): (
            f"what-if was forked from {UUID(int=1)} at #40 (2.1.siege)"
        ),
    }
    from warscribe.store import story as core

    for event, sentence in lines.items():
        assert core._sentence(event, None, rulesets.get("divine-right")) == sentence


def test_an_event_without_words_reads_as_a_sentence() -> None:
    """The fallback: the event's name in words and its values, no field names."""
    told = fallback(dr.SiegeKept("carol", "Immer", "deactivation"))
    assert told == "siege kept: carol, Immer, deactivation"
    assert not DUMP.search(told)


def test_the_story_and_the_told_entries_agree() -> None:
    """`story` is `told` grouped by decision: every line it prints is a sentence `told`
    gives (or part of one, wrapped)."""
    from warscribe.store import logfile

    entries = list(logfile.read(GOLDEN.read_bytes()).entries)
    sentences = {t.text for t in told(entries)}
    lines = [line for line in story(entries) if not line.startswith(("== ", "    "))]
    assert all(any(s.startswith(line) for s in sentences) for line in lines)
