"""Issue 32, one language: a question Divine Right recorded in the engine's words (`events
replace unit=ID [at=PLACE]`, in the `ChoiceAsked` entries of the golden logs) is shown in
the words the player types (`events replace UNIT [--at PLACE]`) by `status`, `status
--json`, the replies of `import-orders` and the referee's mails, and the dry run; the
story tells what was asked without a how-to. The stored entries keep their text, so the
golden logs replay and verify unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from warscribe.cli.generated import cli_words

from .club import Club

DATA = Path(__file__).resolve().parents[1] / "data"
ENGINE_WORDS = re.compile(r"\b[a-z_]+=[A-Za-z]")  # `unit=ID`, `kind=army|fleet`, `at=PLACE`
QUESTION = 103  # golden-three-turns: carol's Replacements / Reinforcements


@pytest.fixture
def golden(tmp_path: Path) -> Club:
    club = Club(tmp_path)
    club.ok("import", str(DATA / "golden-three-turns.wlog"))
    return club


def test_recorded_questions_are_shown_in_the_words_the_player_types(golden: Club) -> None:
    """Random Events Phase › Replacements / Reinforcements: the question as stored, and
    as `status` shows it at that position (a fork there waits on it)."""
    stored = next(e for e in golden.json("log") if e["seq"] == QUESTION)["fields"]["why"]
    assert "(events replace unit=ID [at=PLACE])" in stored  # the record keeps its text
    golden.ok("fork", "--at", f"#{QUESTION}", "--name", "asked")
    shown = golden.ok("--game", "asked", "status")
    assert "(events replace UNIT [--at PLACE])" in shown
    assert "(events reinforce --kind army|fleet --at PLACE, or --unit UNIT --at PLACE" in shown
    assert not ENGINE_WORDS.search(shown), shown
    why = golden.json("--game", "asked", "status")["pending"]["why"]
    assert not ENGINE_WORDS.search(why) and "events replace UNIT" in why
    golden.ok("verify")


def test_every_recorded_question_reads_in_cli_words_and_the_story_has_no_how_to(
    golden: Club,
) -> None:
    """Each question of the golden game (Epidemic: `events lose units=A,B,...`) reads
    without an engine `KEY=VALUE`; the story tells what was asked, not what to type."""
    asked = [e["fields"]["why"] for e in golden.json("log") if e["event"] == "ChoiceAsked"]
    assert any(ENGINE_WORDS.search(why) for why in asked)
    for why in asked:
        assert not ENGINE_WORDS.search(cli_words("divine-right", why)), why
    assert "(events lose UNIT...)" in cli_words("divine-right", asked[0])
    story = golden.ok("log", "--story")
    assert "Epidemic" in story and not ENGINE_WORDS.search(story)


def test_only_a_rule_sets_own_commands_are_rewritten() -> None:
    """A parenthesis that names no command of the rule set, or a key the command lacks,
    is left as it is; text already in the CLI's words is unchanged."""
    said = "attack 1: try to retreat before combat (retreat roll SPACE [--fleets])"
    assert cli_words("divine-right", said) == said
    assert cli_words("divine-right", "(fly away=far)") == "(fly away=far)"
    assert cli_words("divine-right", "(events lose colour=red)") == "(events lose colour=red)"
