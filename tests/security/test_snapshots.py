"""Snapshots were trusted blindly (issue 10, hole 6): after an edit of a stored snapshot,
`status` showed a 33-card deck while `verify` said ok. A snapshot is served only when it
has the current shape and ends at its entry's chain hash; `verify` compares every one
with the replay of the entries below it, deletes a bad one and fails naming it."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from tests.security.conftest import Table
from warscribe.engine import codec
from warscribe.engine.events import Command
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.store.app import SNAPSHOT_INTERVAL, Warscribe


def long_game(path: str) -> None:
    """A seeded game with a stored snapshot at #SNAPSHOT_INTERVAL (free rolls)."""
    app = Warscribe(path)
    spec = GameSpec("g", (PlayerSpec("alice", "Hothior"), PlayerSpec("bob", "Mivior")))
    head = app.create("divine-right", spec, "seeded:snap")
    while head.seq < SNAPSHOT_INTERVAL + 4:
        app.issue(head.game_id, Command("alice", "roll", (("dice", "1d6"),)))
        head = app.head(head.game_id)
    app.close()


def edit_snapshot(path: str, change: Callable[[Any], Any]) -> int:
    """Rewrite the stored snapshot's head in place, as someone with the store file would."""
    with sqlite3.connect(path) as db:
        version, state = db.execute(
            "SELECT originator_version, state FROM stored_snapshots"
        ).fetchone()
        body = codec.decode(state)
        game = body["state"]
        body = {**body, "state": {**game, "head": change(game["head"])}}
        db.execute("UPDATE stored_snapshots SET state = ?", (codec.encode(body),))
    return int(version)


def more_cards(head: Any) -> Any:
    return dataclasses.replace(head, state=dataclasses.replace(head.state, deck_size=33))


def another_chain(head: Any) -> Any:
    return dataclasses.replace(more_cards(head), chain=bytes(32))


def deck(table: Table) -> int:
    return int(json.loads(table.run("status", "--json").stdout)["diplomacy_deck"])


def test_verify_finds_an_edited_snapshot_deletes_it_and_names_it(table: Table) -> None:
    long_game("referee.db")
    version = edit_snapshot("referee.db", more_cards)
    error = table.run("verify", ok=False)
    assert error.exit_code == 1
    assert f"#{version}: the stored snapshot at #{version} does not match" in error.stderr
    assert deck(table) == 32, "the bad snapshot is gone: the replay is served"
    assert table.run("verify").stdout.startswith("ok: ")


@pytest.mark.parametrize("change", [another_chain], ids=["a snapshot of another position"])
def test_a_snapshot_that_does_not_end_at_its_entry_is_never_served(
    table: Table, change: Callable[[Any], Any]
) -> None:
    long_game("referee.db")
    edit_snapshot("referee.db", change)
    assert deck(table) == 32


def test_genuine_snapshots_pass(table: Table) -> None:
    long_game("referee.db")
    verified = json.loads(table.run("verify", "--json").stdout)
    assert verified["snapshots_checked"] == 1
