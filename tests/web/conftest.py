"""A referee's store and a player's (`init` with the player's key), the game a quiet one
of tests/cli/test_pbem.py (its random events ask nobody a choice), and the web app on the
player's store with Flask's test client."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import Result

from tests.cli.test_pbem import new_game, quiet_game, run
from warscribe.cli.context import Context

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
    from warscribe.web.app import make_app

    _, player = stores
    ctx = Context(f"{player}.db", None)
    app = make_app(ctx)
    with app.test_client() as browser:
        page = browser.get("/").get_data(as_text=True)
        token = page.split('name="warscribe-token" content="')[1].split('"')[0]
        yield browser, token
    ctx.close()
