"""A write on SQLite: its own connection, and nothing left half done (store/writing.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import three_players
from warscribe.engine.events import Command
from warscribe.store.app import Warscribe


def _roll() -> Command:
    return Command("referee", "roll", (("dice", "2d6"), ("purpose", "test")))


class _CommitInterrupted:
    """The writer's connection, with its next COMMIT interrupted (Ctrl-C at the worst
    moment: the rows are inserted, the transaction is open)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)

    def commit(self) -> None:
        raise KeyboardInterrupt


def test_an_interrupted_write_leaves_nothing_and_the_next_write_goes_through(
    tmp_path: Path,
) -> None:
    store = str(tmp_path / "club.db")
    app = Warscribe(store)
    game_id = app.create("divine-right", three_players(), "seeded:8").game_id
    before = app.head(game_id)
    writer: Any = app._writer
    real = writer._connection()
    writer._conn = _CommitInterrupted(real)
    with pytest.raises(KeyboardInterrupt):
        app.issue(game_id, _roll())
    writer._conn = real
    assert not real.in_transaction, "rolled back: the store's write lock is not held"
    other = Warscribe(store, cache=False)
    assert other.head(game_id) == before, "nothing of the interrupted write is stored"
    other.issue(game_id, _roll())  # another process's writer is not blocked
    app.issue(game_id, _roll())  # and this one writes on after the new head
    assert app.head(game_id).seq == before.seq + 4
    other.close()
    app.close()


def test_a_stored_entry_is_the_codecs_bytes_of_its_map(tmp_path: Path) -> None:
    """A row's bytes are joined from its entry's and its time's (no map made): they are
    the codec's bytes of {"entry": ENTRY, "timestamp": TIME}, whether the time has
    microseconds (32 characters, the row's usual end) or none (25)."""
    from datetime import UTC, datetime

    from warscribe.engine import codec
    from warscribe.store import writing
    from warscribe.store.aggregates import Game

    app = Warscribe(str(tmp_path / "club.db"))
    game_id = app.create("divine-right", three_players(), "seeded:9").game_id
    entry = app.entry(game_id, 1)
    assert entry is not None
    for when in (datetime(2026, 12, 1, 9, 5, 7, 1234, UTC), datetime(2026, 12, 1, tzinfo=UTC)):
        event = Game.Recorded(
            originator_id=game_id, originator_version=1, timestamp=when, entry=entry
        )
        (row,) = writing.stored_events([event], app.mapper.to_stored_event)
        assert row.state == codec.encode({"timestamp": when, "entry": entry})
    app.close()


def test_a_store_first_opened_without_snapshots_has_their_table_for_the_next_open(
    store_url: str,
) -> None:
    """A store made by a process that takes no snapshots (`Warscribe(..., snapshots=False)`)
    still gets the snapshots table: a later open that takes them records and reads as on
    any store, where it failed on a missing table."""
    plain = Warscribe(store_url, snapshots=False)
    game_id = plain.create("divine-right", three_players(), "seeded:5").game_id
    plain.close()
    app = Warscribe(store_url)
    for _ in range(60):  # past a snapshot's interval
        app.issue(game_id, _roll())
    reader = Warscribe(store_url, cache=False)
    assert reader.head(game_id) == app.head(game_id)
    assert reader.head(game_id, 50).seq == 50
    reader.close()
    app.close()
