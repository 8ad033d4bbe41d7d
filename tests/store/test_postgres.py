"""The PostgreSQL store's own machinery (what SQLite has no counterpart of)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.conftest import drop_pg_schema, fresh_pg_url, require_postgres, three_players
from warscribe.store.app import Warscribe


def test_a_fresh_stores_first_write_inserts_with_the_composite_type_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """eventsourcing inserts events as an array of a composite row type whose adapter is
    fetched on a pooled connection. Fetched lazily in the middle of the first insert, it
    reached the pool's other connections but not the one holding the insert's pipeline,
    which then sent rows of a type it did not know (a benchmark's import once hung
    there, the server waiting for the rest of the message)."""
    require_postgres()
    from warscribe.store import index_postgres

    seen: list[bool] = []
    insert = index_postgres.IndexedPostgresRecorder._insert_stored_events

    def spy(self: Any, curs: Any, stored_events: Sequence[Any], **kwargs: Any) -> None:
        types = self.datastore.psycopg_type_adapters.values()
        seen.append(bool(types) and all(curs.connection.adapters.types.get(t.oid) for t in types))
        insert(self, curs, stored_events, **kwargs)

    monkeypatch.setattr(index_postgres.IndexedPostgresRecorder, "_insert_stored_events", spy)
    url = fresh_pg_url()
    try:
        app = Warscribe(url)
        app.create("divine-right", three_players(), "seeded:3")
        app.close()
    finally:
        drop_pg_schema(url)
    assert seen and all(seen)
