"""The games the conformance suite runs: every registered rule set, each played once at
random from its trial game (`NewSpec.trial`) and shared by the suite's checks."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import pytest

from warscribe.engine import rulesets
from warscribe.engine.rulebook import RuleBook
from warscribe.engine.ruleset import GameSpec, PlayerSpec

from ..engine.random_play import Game, new_game, play

GAMES = rulesets.names()
"""Every installed game (found by its entry point, the duel's package included)."""
SEED = 34
TIME_BOX = 12.0  # seconds of random play a game at most (a Divine Right game to its end
# takes minutes; the suite checks what it reached)
MOST = 1000  # commands a game at most (a whole two-player Divine Right game: about 600)
STEP = 25  # commands played between two looks at the clock


@dataclass
class Played:
    """A trial game played at random: its rule book and how far it got."""

    book: RuleBook[object]
    game: Game
    boxed: bool
    """Whether the time box (or MOST) stopped it before its end."""


def trial(book: RuleBook[object]) -> GameSpec:
    """The game the rule book declares to try its rules on, else alice and bob."""
    if book.new.trial is not None:
        return book.new.trial()
    return GameSpec("trial", (PlayerSpec("alice"), PlayerSpec("bob")))


def played_at_random(book: RuleBook[object], seed: int, seconds: float) -> Played:
    """A trial game played by `legal` until nothing is offered, or the time box ends."""
    game = new_game(book.name, trial(book), seed)
    rng, stop = random.Random(seed), time.monotonic() + seconds
    while game.commands < MOST and time.monotonic() < stop:
        before = game.commands
        play(game, rng, STEP, lambda state: None)
        if game.commands - before < STEP:
            return Played(book, game, boxed=False)
    return Played(book, game, boxed=True)


_PLAYED: dict[str, Played] = {}


@pytest.fixture(params=GAMES)
def book(request: pytest.FixtureRequest) -> RuleBook[object]:
    """The game's rule book, unplayed (the quick checks)."""
    found = rulesets.get(request.param)
    assert isinstance(found, RuleBook), f"{request.param} is not a RuleBook"
    return found


@pytest.fixture(params=GAMES)
def played(request: pytest.FixtureRequest) -> Played:
    """The game's trial, played once a session."""
    name: str = request.param
    if name not in _PLAYED:
        book = rulesets.get(name)
        assert isinstance(book, RuleBook), f"{name} is not a RuleBook"
        _PLAYED[name] = played_at_random(book, SEED, TIME_BOX)
    return _PLAYED[name]
