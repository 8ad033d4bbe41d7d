"""`warscribe serve` on a PostgreSQL store, "the same way" as on SQLite (issue 33): the
referee's page on a host's store in PostgreSQL shows the game and takes a player's signed
orders handed to it, recorded in PostgreSQL; the player's page on the copy the referee
mailed offers the next lines. Skipped with the reason when no server answers, never with
CI=true (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from tests.cli.test_pbem import PLAYERS, quiet_game, write_orders
from tests.conftest import drop_pg_schema, fresh_pg_url, require_postgres

from .conftest import opened
from .test_referee import taken


@pytest.fixture
def host(run: Callable[..., Result]) -> Iterator[str]:
    """A host's store in a PostgreSQL schema of its own, holding a quiet game; alice's copy
    imported into her SQLite store (owned by her, with her key): the host store's URL."""
    require_postgres()
    url = fresh_pg_url()
    try:
        players = [a for name, kingdom in PLAYERS for a in ("--player", f"{name}={kingdom}")]
        keys = [a for name, _ in PLAYERS for a in ("--key", f"{name}={name}.pub")]
        dice = ("--dice", f"seeded:{quiet_game()[0]}")
        run("new", "divine-right", *players, *keys, *dice, "--name", "pbem", store=url)
        run("export", "--for", "alice", "--armor", "-o", "to-alice.txt", store=url)
        run("import", "to-alice.txt", store="alice.db")
        run("init", "--as", "alice", "--key", "alice.key", store="alice.db")
        yield url
    finally:
        drop_pg_schema(url)


def test_the_referees_page_on_postgresql_records_the_orders_handed_to_it(
    run: Callable[..., Result], host: str
) -> None:
    with opened("alice.db") as alice:
        offered = [o["text"] for o in alice[0].get("/api/state").get_json()["offers"]]
        assert "events roll" in offered, offered
    write_orders(run, "alice", "events roll", "end-phase")
    with opened(host) as referee:
        before = referee[0].get("/api/state").get_json()
        assert before["position"] == "1.1.random-events" and before["player"] is None
        said = taken(referee, Path("orders.txt").read_bytes())
        assert [m["ok"] for m in said["mails"]] == [True], said["mails"]
        assert said["mailbox"]["now"] == "now: alice to play (1.1.diplomacy)"
    assert "OrdersReceived" in run("log", store=host).stdout
