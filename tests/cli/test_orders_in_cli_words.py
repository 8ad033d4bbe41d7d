"""Orders in the CLI's own words (issue 13, item 2): `status` shows what a player may type
now as command lines with their choices, `orders` takes those same lines (read by the
same click commands as the command line), and the referee records the commands they
give. Played here with eu-pop; the duel (tests/duel/test_duel_cli.py) is played the same
way, with no code of its own."""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner, Result

from warscribe.cli.generated import command_line, parse_line
from warscribe.cli.main import cli
from warscribe.engine.dice import seeded_key
from warscribe.engine.events import Command
from warscribe.engine.record import fold, open_game, record_command
from warscribe.engine.ruleset import GameSpec, PlayerSpec, draw
from warscribe.engine.rulesets import get
from warscribe.store.app import Warscribe

Run = Callable[..., Result]


def filled(hint: dict[str, Any]) -> str:
    """A hint of `status` made a command line: each template given its first choice (an
    option's after it, a positional one's in its place), optional flags left out."""
    words = shlex.split(hint["command"])
    first = {name: str(values[0]) for name, values in hint["choices"].items()}
    out: list[str] = []
    for index, word in enumerate(words):
        before = words[index - 1] if index else ""
        if before.startswith("--") and before in first:
            out.append(first[before])
        elif not word.startswith("[") and not word.startswith("--") and word in first:
            out.append(first[word])
        elif not word.startswith("["):
            out.append(word)
    return shlex.join(out)


def may_type(run: Run, player: str) -> list[dict[str, Any]]:
    status = json.loads(run("status", "--as", player, "--json").stdout)
    typed: list[dict[str, Any]] = status["may_type"]
    return typed


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(cli, ["--store", "game.db", *args])
        assert result.exit_code == 0 or not ok, (args, result.output, result.exception)
        return result

    return invoke


@pytest.fixture
def eu(run: Run) -> Run:
    """An eu-pop game of alice (France) and bob (Austria) with their keys, in its Action
    phase (5 The Action Phase)."""
    sample = resources.files("warscribe.engine.rulesets.eu_pop") / "datafiles/example-start.json"
    Path("start.json").write_bytes(sample.read_bytes())
    for player in ("alice", "bob"):
        run("keys", "new", player)
    run(
        "new", "eu-pop", "--player", "alice=France", "--player", "bob=Austria",
        "--start", "start.json", "--dice", "seeded:1", "--key", "alice=alice.pub",
        "--key", "bob=bob.pub",
    )  # fmt: skip
    run("end-phase", "--as", "alice", "--host-act", "the set-up is done")
    return run


def test_status_shows_what_the_player_may_type_with_the_choices(eu: Run) -> None:
    """5.2 Minor Actions: France on turn may take a loan, choosing how many; Austria,
    not on turn, waits for France."""
    mine = eu("status", "--as", "alice").stdout
    assert "alice: your move" in mine and "alice may type:" in mine
    assert "  take-loan --count N  (one of: 1 | 2 | 3 | 4 | 5)" in mine
    assert "  end-turn" in mine
    assert "bob: waiting for alice" in eu("status", "--as", "bob").stdout
    loan = next(h for h in may_type(eu, "alice") if h["command"].startswith("take-loan"))
    assert loan == {
        "command": "take-loan --count N",
        "choices": {"--count": [1, 2, 3, 4, 5]},
        "text": "take-loan --count N  (one of: 1 | 2 | 3 | 4 | 5)",
    }
    assert len(mine.splitlines()) < 30, "short, not a dump"


def test_every_line_status_shows_is_a_line_orders_take(eu: Run) -> None:
    """The hints and the orders are one syntax: each hint, its choices filled, reads."""
    for hint in may_type(eu, "alice"):
        line = filled(hint)
        signed = eu("orders", "--as", "alice", "--key", "alice.key", "--unchecked", line, ok=False)
        assert signed.exit_code == 0, (line, signed.output)


def test_orders_in_cli_words_are_signed_and_recorded(eu: Run) -> None:
    """5.2 Minor Actions › Take/Repay Loan, then the turn ends: written as typed."""
    eu(
        "orders",
        "--as",
        "alice",
        "--key",
        "alice.key",
        "-o",
        "o.txt",
        "take-loan --count 2",
        "end-turn",
    )
    recorded = eu("import-orders", "o.txt").stdout
    assert "alice: take-loan count=2" in recorded and "alice: end-turn" in recorded
    assert "now: bob to play" in recorded
    assert eu("verify").exit_code == 0


def test_a_refused_batch_returns_the_lines_as_written(eu: Run) -> None:
    """Recorded up to the command refused; the rest comes back in the player's words."""
    eu(
        "orders", "--as", "alice", "--key", "alice.key", "-o", "o.txt", "--unchecked",
        "take-loan --count 1", "take-loan --count 9", "end-turn",
    )  # fmt: skip
    result = eu("import-orders", "o.txt", ok=False)
    assert result.exit_code == 1
    assert "command 2 (`take-loan --count 9`) was refused" in result.stderr
    assert "Returned unrecorded: take-loan --count 9; end-turn" in result.stderr


def test_a_pending_question_is_shown_and_answered_in_the_same_words(run: Run) -> None:
    """Special Rules for Select Kingdoms › Trolls: the set-up asks alice where the Trollish
    monarch enters; status shows the question and the line answering it, with the spaces
    she may choose, and that line, as orders, answers it."""
    for player in ("alice", "bob"):
        run("keys", "new", player)
    run(
        "new", "divine-right", "--player", "alice=Trolls", "--player", "bob=Mivior",
        "--dice", "seeded:a", "--key", "alice=alice.pub", "--key", "bob=bob.pub",
    )  # fmt: skip
    shown = run("status", "--as", "bob").stdout
    assert "bob: waiting for alice (troll-monarch)" in shown
    assert "alice must answer troll-monarch: the Trollish monarch enters play" in shown
    theirs = run("status", "--as", "alice").stdout
    assert "alice may type:\n  place Trolls-monarch --at PLACE  (one of: 'The Crag' |" in theirs
    [hint] = may_type(run, "alice")
    line = filled(hint)
    assert line == "place Trolls-monarch --at 'The Crag'"
    run("orders", "--as", "alice", "--key", "alice.key", "-o", "o.txt", line)
    assert "alice: place units=Trolls-monarch at=The Crag" in run("import-orders", "o.txt").stdout


def _text(value: Any) -> str:
    """A value as the rules read it from the command line (lists and spaces as commas)."""
    if isinstance(value, (tuple, list)):
        return ",".join(_text(item) for item in value)
    return "true" if value is True else str(value)


def _round_trip(ruleset: str, command: Command) -> None:
    line = command_line(ruleset, command)
    read = parse_line(None, ruleset, line, command.actor)
    given = {key: _text(value) for key, value in command.args if value not in (None, False)}
    back = {key: _text(value) for key, value in read.args if value not in (None, False)}
    assert (read.name, back) == (command.name, given), line


def test_every_command_legal_offers_reads_back_from_its_line() -> None:
    """One syntax, both ways, over a random Divine Right game (The Game Turn): each
    command drawn from `legal`, written as a command line, reads back as itself."""
    ruleset = get("divine-right")
    players = (("alice", "Hothior"), ("bob", "Mivior"), ("carol", "Muetar"))
    spec = GameSpec("t", tuple(PlayerSpec(*p) for p in players))
    key = seeded_key("lines")
    head = fold(open_game(ruleset, spec, UUID(int=13), "seeded:lines", key, ()))
    rng = random.Random(13)
    seen = set()
    for _ in range(200):
        command = draw(ruleset.legal(head.state), rng)
        if command is None:
            break
        seen.add(command.name)
        _round_trip("divine-right", command)
        head = fold(record_command(head, command, key), head)
    assert {"move", "events-roll", "diplomacy-draw", "place"} <= seen, seen


def test_every_eu_pop_offer_reads_back_from_its_line(eu: Run) -> None:
    """5 The Action Phase: every command offered to either realm, its choices the first
    of each domain, written as a command line, reads back as itself."""
    app = Warscribe("game.db")
    try:
        state = app.head(app.find(None).game_id).state
    finally:
        app.close()
    for offer in get("eu-pop").legal(state):
        _round_trip("eu-pop", offer.command(**{k: values[0] for k, values in offer.domains}))
