"""The catalog index's PostgreSQL side (see `index`): eventsourcing's recorders writing the
index rows in the transaction of what they insert, and a factory that opens a store with
no DDL and no type introspection. Imported only for a PostgreSQL store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)

from .index import INSERT_ROW, SET_KEPT, index_changes, statement


class _LazyTypes:
    """A PostgreSQL recorder that fetches its composite row type before its first insert
    (see `Factory`): before, not while, it holds the insert's connection, which then gets
    the type's adapter from the pool as every connection does."""

    datastore: PostgresDatastore

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Any:
        PostgresDatastore.register_type_adapters(self.datastore)  # once; then a no-op
        return super().insert_events(stored_events, **kwargs)  # type: ignore[misc]


class _Datastore(PostgresDatastore):
    """eventsourcing's datastore, whose recorders fetch their composite type when they
    first insert rather than when the store is opened (a read-only call never needs it)."""

    def register_type_adapters(self) -> None:
        """Deferred: see `_LazyTypes`."""


class SnapshotRecorder(_LazyTypes, PostgresAggregateRecorder):
    """eventsourcing's PostgreSQL recorder of snapshots, with its type fetched lazily."""


class IndexedPostgresRecorder(_LazyTypes, PostgresApplicationRecorder):
    """eventsourcing's PostgreSQL recorder, writing the index rows of what it inserts
    (in the same transaction), without the table lock and NOTIFY of its notification log."""

    def _insert_events(self, curs: Any, stored_events: Sequence[StoredEvent], **_: Any) -> None:
        rows, kept = index_changes(stored_events)
        if rows:
            curs.executemany(statement(self, INSERT_ROW), rows)
        if kept:
            curs.execute(statement(self, SET_KEPT), (1,))

    def _insert_stored_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        PostgresAggregateRecorder._insert_stored_events(self, curs, stored_events, **kwargs)


class Factory(PostgresFactory):
    """eventsourcing's PostgreSQL factory with the recorders above: opening a store runs
    no DDL and no type introspection (`app.Warscribe._open_tables` makes missing tables)."""

    aggregate_recorder_class = SnapshotRecorder
    application_recorder_class = IndexedPostgresRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.datastore.__class__ = _Datastore
