"""eventsourcing's PostgreSQL factory as the store opens it: no DDL and no type
introspection at an open, the snapshot recorder's composite type fetched before its first
insert. (A write's events go to the database directly: `writing`.) Imported only for a
PostgreSQL store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore, PostgresFactory


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


class Factory(PostgresFactory):
    """eventsourcing's PostgreSQL factory with the recorders above: opening a store runs
    no DDL and no type introspection (`app.Warscribe._open_tables` makes missing tables)."""

    aggregate_recorder_class = SnapshotRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.datastore.__class__ = _Datastore
