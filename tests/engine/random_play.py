"""Random games driven only by a rule set's `legal`: a command drawn at random among the
ones offered is recorded through the record (authority, decide, chain, fold), and the
game is checked as it goes and once it ends.

Checked: nothing but the rules' own errors is raised; a refused command is counted
(`legal` offers only what `decide` accepts: the refusal rate should be near 0); the
position after each command holds the rule set's invariants; at the end the fold of the
log equals the live head, sampled earlier positions equal the fold of their prefix, the
log survives a logfile write/read round trip, `verify` passes and `audit` finds no
difference; the game moves on (`check_progress`: no position held for more than a bound
of commands, and a game with an end reaches it within a bound). Used by
tests/engine/test_random_play.py and tools/random_play.py.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any
from uuid import UUID

from warscribe.engine import codec
from warscribe.engine.audit import audit
from warscribe.engine.dice import seeded_key
from warscribe.engine.errors import RuleError
from warscribe.engine.events import Command, GameCreated
from warscribe.engine.record import Entry, Head, fold, open_game, record_command, verify
from warscribe.engine.ruleset import GameSpec, draw
from warscribe.engine.rulesets import get
from warscribe.store import logfile

Check = Callable[[Any], None]
SAMPLES = 5
SNAPSHOT_EVERY = 3  # every third command is decided again on its state from a snapshot


@dataclass
class Game:
    """A game being played at random: its head, its log, the positions it went through."""

    ruleset: str
    key: bytes
    head: Head
    log: list[Entry]
    base: Head | None = None
    created: GameCreated | None = None
    earlier: tuple[Entry, ...] = ()
    positions: list[tuple[int, Any]] = field(default_factory=list)
    commands: int = 0
    refused: list[tuple[Command, RuleError]] = field(default_factory=list)

    @property
    def state(self) -> Any:
        return self.head.state

    @property
    def over(self) -> bool:
        return not get(self.ruleset).legal(self.state)


def new_game(ruleset: str, spec: GameSpec, seed: int) -> Game:
    """A game opened with seeded dice (every roll reproducible from `seed`)."""
    key = seeded_key(f"random-play-{seed}")
    entries = open_game(get(ruleset), spec, UUID(int=seed), f"seeded:random-play-{seed}", key)
    head = fold(entries)
    return Game(ruleset, key, head, list(entries), positions=[(len(entries), head.state)])


def arranged(ruleset: str, key: bytes, head: Head, earlier: list[Entry]) -> Game:
    """A game from an arranged position (a test's board, `head`, after the `earlier`
    entries of its log): its log is what is played from there, replayed from that head
    (no audit: it re-decides from the start)."""
    created = earlier[0].event
    assert isinstance(created, GameCreated)
    return Game(ruleset, key, head, [], base=head, created=created, earlier=tuple(earlier))


def play(game: Game, rng: random.Random, commands: int, check: Check) -> Game:
    """Up to `commands` commands drawn from `legal`, or until nothing is offered (the game
    is over: nobody's turn)."""
    ruleset = get(game.ruleset)
    for _ in range(commands):
        command = draw(ruleset.legal(game.state), rng)
        if command is None:
            stuck = ruleset.whose_turn(game.state)
            assert stuck is None, f"nothing is offered, yet it is {stuck}'s turn"
            break
        game.commands += 1
        try:
            entries = record_command(game.head, command, game.key)
        except RuleError as refused:
            game.refused.append((command, refused))
            continue
        if game.commands % SNAPSHOT_EVERY == 0:
            check_as_from_a_snapshot(game, command, entries)
        game.head = fold(entries, game.head)
        game.log += entries
        game.positions.append((len(game.log), game.state))
        check(game.state)
    return game


def check_as_from_a_snapshot(game: Game, command: Command, entries: list[Entry]) -> None:
    """The command decided on the state as a snapshot gives it back (encoded, then decoded:
    maps come back in the codec's order, not in the order they were filled) records the
    same entries: a decision that depended on the order a map was filled in would differ
    between the referee's copy and a player's, and the player's import would refuse it."""
    stored = dataclasses.replace(game.head, state=codec.decode(codec.encode(game.state)))
    again = record_command(stored, command, game.key)
    assert again == entries, f"{command} decides otherwise from a snapshot of its state"


def check_record(game: Game, rng: random.Random) -> None:
    """Replay, sampled positions, logfile round trip, verify and audit of a played game."""
    if not game.log:
        return
    assert fold(game.log, game.base) == game.head, "the replayed log differs from the live head"
    for length, state in rng.sample(game.positions, min(SAMPLES, len(game.positions))):
        replayed = fold(game.log[:length], game.base).state
        assert codec.encode(replayed) == codec.encode(state), f"position after {length} differs"
    data = logfile.write(game.head.game_id, "random", game.ruleset, game.head.players, game.log)
    assert list(logfile.read(data).entries) == game.log, "the logfile round trip differs"
    earlier = {entry.seq: entry for entry in game.earlier}
    verify(game.log, base=game.base, created=game.created, key=game.key, earlier=earlier.get)
    if game.base is None:
        report = audit(game.log)
        assert not report.differences, report.differences[:3]


def check_progress(game: Game, most: int) -> None:
    """The game moves on: no position (a phase, a round's step) is held for more than
    `most` commands in a row."""
    position = get(game.ruleset).position
    held = [len(list(run)) for _, run in groupby(position(state) for _, state in game.positions)]
    assert max(held, default=0) <= most, f"a position held for {max(held)} commands"


def refusal_rate(games: list[Game]) -> float:
    drawn = sum(g.commands for g in games)
    return sum(len(g.refused) for g in games) / drawn if drawn else 0.0
