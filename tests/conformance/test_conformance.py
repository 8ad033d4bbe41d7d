"""What every registered game must do, checked the same way for each (OpenSpiel's
random-simulation test): its trial game played at random by `legal` reaches its end (or
the suite's time box) with no command refused; the replayed log equals the live head,
and so does a snapshot folded on; every command `legal` offers on the way is accepted;
every example of its commands is one the CLI reads and the spec accepts; every event of
its has an evolver; its states and events survive the codec; every command has its
help. A new game passes this suite before anything else (docs/developing.md)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from itertools import islice, product
from typing import Any

import click
import pytest
from click.testing import CliRunner

from warscribe.cli.generated import parse_line
from warscribe.cli.main import cli
from warscribe.engine import codec, commands, rulesets
from warscribe.engine.codec import topic_of
from warscribe.engine.errors import RuleError
from warscribe.engine.events import Command, Event
from warscribe.engine.offers import scratch_dice
from warscribe.engine.record import fold
from warscribe.engine.rulebook import RuleBook
from warscribe.engine.ruleset import Deferred, LegalCommand

from ..engine.random_play import check_record
from .conftest import Played

LOOKS = 12  # positions whose every offer is decided again
TRIED = 30  # complete commands tried of one offer at most
SEARCHED = 3  # values tried of a deferred domain (a path finder's)


@pytest.mark.slow
def test_random_play_reaches_the_end_with_nothing_refused(played: Played) -> None:
    """Only `legal` drives the game: nothing it offers is refused, and a game with an
    end gets there unless the time box stops it first."""
    game = played.game
    assert game.commands, f"{played.book.name}: nothing was offered at the start"
    assert not game.refused, game.refused[:3]
    if not played.boxed:
        assert played.book.whose_turn(game.state) is None
        assert played.book.over(game.state) is not False, "nothing offered before the end"


@pytest.mark.slow
def test_replay_equals_the_fold_and_a_snapshot_folded_on(played: Played) -> None:
    """The log replays to the live head (sampled positions too, the logfile round trip,
    verify and audit); a position's state as a snapshot gives it back, folded on with
    the rest of the log, ends at the same head."""
    game = played.game
    check_record(game, random.Random(1))
    middle = len(game.log) // 2
    head = fold(game.log[:middle])
    snapshot = dataclasses.replace(head, state=codec.decode(codec.encode(head.state)))
    assert fold(game.log[middle:], snapshot) == game.head


def _tried(offer: LegalCommand) -> Iterator[Command]:
    """Complete commands of the offer: its first values (a deferred domain's first)."""
    values = [
        (key, list(domain[:SEARCHED]) if isinstance(domain, Deferred) else list(domain))
        for key, domain in offer.domains
    ]
    for chosen in islice(product(*(v for _, v in values)), TRIED):
        yield offer.command(**dict(zip((k for k, _ in values), chosen, strict=True)))


@pytest.mark.slow
def test_every_offer_is_accepted(played: Played) -> None:
    """Each command `legal` offers, at positions along the game, is one `decide`
    accepts whatever the dice (decided on scratch dice: nothing is recorded)."""
    book, positions = played.book, played.game.positions
    step = max(1, len(positions) // LOOKS)
    refused: list[tuple[Command, str]] = []
    for _, state in positions[::step]:
        for offer in book.legal(state):
            for command in _tried(offer):
                try:
                    book.decide(state, command, scratch_dice())
                except RuleError as error:
                    refused.append((command, str(error)))
    assert not refused, refused[:3]


def _example_command(game: str, example: str) -> Command:
    """The command an example line gives, as the player it is given `--as` (its comment
    and its entered dice left out: orders roll)."""
    words = example.partition("#")[0].split()
    player = words[words.index("--as") + 1] if "--as" in words else "alice"
    kept = [w for i, w in enumerate(words) if "--roll" not in (w, words[i - 1] if i else "")]
    return parse_line(None, game, " ".join(kept), player)


def test_every_example_is_read_by_the_cli_and_accepted_by_its_spec(book: RuleBook[object]) -> None:
    game = book.name
    refused: list[tuple[str, str]] = []
    for spec in book.commands.values():
        for example in spec.example:
            try:
                command = _example_command(game, example)
                commands.read(book.spec(command.name), command)
            except (click.UsageError, RuleError) as error:
                refused.append((example, str(error)))
    assert not refused, refused


@pytest.mark.slow
def test_every_event_has_an_evolver_or_changes_nothing(played: Played) -> None:
    prefix = next(r.prefix for r in rulesets.registered() if r.name == played.book.name)
    evolvers = played.book.evolvers
    known = set(evolvers.table) | set(evolvers.informational)
    events = {cls for cls in codec.registered(f"{prefix}.").values() if issubclass(cls, Event)}
    missing = events - known
    assert events and not missing, sorted(topic_of(cls) for cls in missing)
    seen = {type(entry.event) for entry in played.game.log}
    assert seen & set(evolvers.table), "the trial game changed no state"


def _round_trip(value: Any) -> Any:
    return codec.decode(codec.encode(value))


@pytest.mark.slow
def test_states_and_events_survive_the_codec(played: Played) -> None:
    game = played.game
    step = max(1, len(game.positions) // LOOKS)
    changed = [s for _, s in game.positions[::step] if _round_trip(s) != s]
    changed += [e.event for e in game.log if _round_trip(e.event) != e.event]
    assert not changed, changed[:1]


def test_every_command_has_its_help(book: RuleBook[object]) -> None:
    """`warscribe PREFIX COMMAND --help` for each spec (a flag of another command: that
    command's help names the flag), citing the rule it follows."""
    prefix = next(r.prefix for r in rulesets.registered() if r.name == book.name)
    unhelped: list[str] = []
    for spec in book.commands.values():
        words = spec.spelled.split()
        result = CliRunner().invoke(cli, [prefix, *words, "--help"])
        shown = " ".join(result.output.split())
        wanted = f"--{spec.flag_of[1]}" if spec.flag_of else " ".join(spec.rule.split())
        if result.exit_code != 0 or wanted not in shown:
            unhelped.append(f"{spec.name}: {result.output[-200:]}")
    assert not unhelped, unhelped[:3]


def test_the_suite_finds_every_installed_game_through_the_registry() -> None:
    """The duel is a package of its own: the suite finds it as it finds every game."""
    assert {"divine-right", "eu-pop", "duel"} <= set(rulesets.names())
