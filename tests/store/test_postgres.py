"""The PostgreSQL store's own machinery (what SQLite has no counterpart of)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.conftest import drop_pg_schema, fresh_pg_url, require_postgres, three_players
from warscribe.engine.events import Command
from warscribe.store.app import Warscribe


def test_a_fresh_stores_first_snapshot_is_inserted_with_the_composite_type_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """eventsourcing inserts snapshots as an array of a composite row type whose adapter
    is fetched on a pooled connection. Fetched lazily in the middle of the first insert,
    it reached the pool's other connections but not the one holding the insert's
    pipeline, which then sent rows of a type it did not know (a benchmark's import once
    hung there, the server waiting for the rest of the message)."""
    require_postgres()
    from warscribe.store import postgres
    from warscribe.store.aggregates import Catalog, Game

    seen: list[bool] = []
    insert = postgres.SnapshotRecorder._insert_stored_events

    def spy(self: Any, curs: Any, stored_events: Sequence[Any], **kwargs: Any) -> None:
        types = self.datastore.psycopg_type_adapters.values()
        seen.append(bool(types) and all(curs.connection.adapters.types.get(t.oid) for t in types))
        insert(self, curs, stored_events, **kwargs)

    monkeypatch.setattr(postgres.SnapshotRecorder, "_insert_stored_events", spy)
    monkeypatch.setattr(Warscribe, "snapshotting_intervals", {Game: 2, Catalog: 10})
    url = fresh_pg_url()
    try:
        app = Warscribe(url)
        app.create("divine-right", three_players(), "seeded:3")
        app.close()
    finally:
        drop_pg_schema(url)
    assert seen and all(seen)


def test_a_write_that_lost_its_race_lets_the_turn_go_and_leaves_its_connection_sound() -> None:
    """A write takes its turn's connection: its inserts, COMMIT and the release of the
    advisory lock go in one round trip, and a write that fails there (another writer took
    the versions, so the insert aborts the transaction and the release after it is not
    run) must roll back and let the lock go before the command is decided again."""
    require_postgres()
    import psycopg

    from tests.conftest import PG_URL

    url = fresh_pg_url()
    try:
        first, second = Warscribe(url), Warscribe(url)
        game_id = first.create("divine-right", three_players(), "seeded:5").game_id
        first.issue(game_id, _roll())  # first keeps the head it wrote
        second.issue(game_id, _roll())  # the game moves on behind first's back
        written = first.issue(game_id, _roll())  # lost on the kept head, then decided again
        assert written[0].seq == second.head(game_id).seq - 1
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            lock = first.turn_lock(game_id)
            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (lock,)).fetchone()
            assert row == (True,), "the turn was let go"
            conn.execute("SELECT pg_advisory_unlock(%s)", (lock,))
        first.issue(game_id, _roll())  # the pool's connections are fit to write again
        assert first.head(game_id).seq == second.head(game_id).seq
        first.close()
        second.close()
    finally:
        drop_pg_schema(url)


def _roll() -> Command:
    return Command("referee", "roll", (("dice", "2d6"), ("purpose", "test")))
