"""A referee's store and a player's (`init` with the player's key), the game a quiet one
of tests/cli/test_pbem.py (its random events ask nobody a choice), and the web app on the
player's store with Flask's test client."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from click.testing import Result

from tests.cli.test_pbem import new_game, quiet_game, run
from warscribe.cli.context import Context
from warscribe.store.mailbox import SmtpServer

__all__ = ["run"]  # the fixture, for this folder's tests


@pytest.fixture
def stores(run: Callable[..., Result]) -> tuple[Callable[..., Result], str]:
    """The referee's store (referee.db) and the store of the player to act (PLAYER.db,
    owned by them, with their key): the runner and that player."""
    seed, steps = quiet_game()
    new_game(run, seed)
    player = steps[0][0]
    run("init", "--as", player, "--key", f"{player}.key", store=f"{player}.db")
    return run, player


@pytest.fixture
def client(stores: tuple[Callable[..., Result], str]) -> Iterator[Any]:
    """The test client of the app on the player's store, its page loaded (the session's
    token given): (client, token)."""
    with opened(f"{stores[1]}.db") as browser:
        yield browser


@contextmanager
def opened(store: str, smtp: SmtpServer | None = None) -> Iterator[tuple[Any, str]]:
    """The test client of the app on `store` (sending through `smtp`), its page loaded:
    (client, the session's token)."""
    from warscribe.web.app import make_app

    ctx = Context(store, None)
    app = make_app(ctx, smtp)
    with app.test_client() as browser:
        page = browser.get("/").get_data(as_text=True)
        token = page.split('name="warscribe-token" content="')[1].split('"')[0]
        yield browser, token
    ctx.close()


BATTLE_SEED = "3"
"""Ghem (alice) and Neuth (bob), seeded: both play a quiet first turn with standing
answers; bob, first in turn 2, holds a card and reaches alice's stack at 2,1 (found by
playing the game through the record: `tests/web/test_serve.py`'s battle test)."""
ANSWERS = "answer retreat=stand losses=cheapest advance=none pursue=none"


@pytest.fixture
def battle(run: Callable[..., Result]) -> tuple[Callable[..., Result], str]:
    """The referee's store and bob's (owned by him, with his key) in turn 2 of a game where
    bob holds a card and his stack can reach alice's and attack it: the runner and bob."""
    from tests.cli.test_pbem import QUIET_TURN, send_orders, sync

    players = ("--player", "alice=Ghem", "--player", "bob=Neuth")
    keys = ("--key", "alice=alice.pub", "--key", "bob=bob.pub")
    run("new", "divine-right", *players, *keys, "--dice", f"seeded:{BATTLE_SEED}", "--name", "pbem")
    sync(run)
    for player in ("alice", "bob"):
        sent = send_orders(run, player, (*QUIET_TURN, ANSWERS))
        assert sent.exit_code == 0, sent.output
        sync(run)
    run("init", "--as", "bob", "--key", "bob.key", store="bob.db")
    status = json.loads(run("status", "--json", store="bob.db").stdout)
    assert (status["player"], status["position"]) == ("bob", "2.1.random-events"), status
    return run, "bob"
