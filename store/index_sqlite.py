"""The catalog index's SQLite side (see `index`): eventsourcing's recorder writing the index
rows in the transaction of what it inserts (apart, so that the index's queries import no
eventsourcing)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder

from .index import INSERT_ROW, SET_KEPT, index_changes, statement


class IndexedSQLiteRecorder(SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, writing the index rows of what it inserts."""

    def _insert_events(
        self, c: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = super()._insert_events(c, stored_events, **kwargs)
        rows, kept = index_changes(stored_events)
        if rows:
            c.executemany(statement(self, INSERT_ROW), rows)
        if kept:
            c.execute(statement(self, SET_KEPT), (1,))
        return ids
