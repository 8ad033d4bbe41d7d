"""eventsourcing's PostgreSQL factory as a PostgreSQL store opens it (`postgresql.PostgreSQL
.eventsourcing_env`): no DDL and no type introspection at an open, the snapshot recorder's
composite type fetched before its first insert, and connections made when asked for
instead of by a pool's threads. Apart from the backend's module, which a read-only call
imports: this one imports eventsourcing, which such a call never needs."""

from __future__ import annotations

import select
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing import persistence
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)
from psycopg.pq import TransactionStatus
from psycopg.types.composite import register_composite

IDLE_KEPT = 4  # connections a store keeps open between uses (more may be in use at once)
CHECK_AFTER = 30.0  # seconds: a connection idle longer is checked before it is used again

# psycopg's errors as eventsourcing's, most specific first (the store catches the latter)
_ERRORS: tuple[tuple[type[psycopg.Error], type[Exception]], ...] = (
    (psycopg.InterfaceError, persistence.InterfaceError),
    (psycopg.OperationalError, persistence.OperationalError),
    (psycopg.DataError, persistence.DataError),
    (psycopg.IntegrityError, persistence.IntegrityError),
    (psycopg.InternalError, persistence.InternalError),
    (psycopg.ProgrammingError, persistence.ProgrammingError),
    (psycopg.NotSupportedError, persistence.NotSupportedError),
    (psycopg.DatabaseError, persistence.DatabaseError),
    (psycopg.Error, persistence.PersistenceError),
)


class _LazyTypes:
    """A PostgreSQL recorder that fetches its composite row type before its first insert
    (see `Factory`): before, not while, it holds the insert's connection, which then gets
    the type's adapter as every connection does."""

    datastore: PostgresDatastore

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Any:
        PostgresDatastore.register_type_adapters(self.datastore)  # once; then a no-op
        return super().insert_events(stored_events, **kwargs)  # type: ignore[misc]


class _Datastore(PostgresDatastore):
    """eventsourcing's datastore, whose recorders fetch their composite type when they
    first insert rather than when the store is opened (a read-only call never needs it),
    and whose connections are made in the calling thread when one is asked for and none
    is idle. eventsourcing's pool opened five connections from three worker threads at
    the first use, and joined the threads at the close: three quarters of the cost of
    opening a store and reading a head, where a CLI call needs one connection."""

    _idle: list[tuple[float, float, psycopg.Connection[Any]]]
    _idle_lock: threading.Lock
    _held: threading.local  # .conn: the connection a thread's turn holds, if any

    def register_type_adapters(self) -> None:
        """Deferred: see `_LazyTypes`."""

    def keep_connections(self) -> None:
        """Start with no connection (called once the datastore is made)."""
        self._idle = []
        self._idle_lock = threading.Lock()
        self._held = threading.local()

    @contextmanager
    def holding(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection that this thread's other uses of the datastore share until the
        block ends: a writer's turn holds its advisory lock on it, and reads the head and
        writes on it, on one connection instead of two."""
        with self.get_connection() as conn:
            self._held.conn = conn
            try:
                yield conn
            finally:
                self._held.conn = None

    @contextmanager
    def get_connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection in auto-commit mode (the one this thread holds, if it holds one),
        given back afterwards; psycopg's errors are raised as eventsourcing's."""
        with self._connection(getattr(self._held, "conn", None)) as conn:
            yield conn

    @contextmanager
    def apart(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection other than the one this thread holds: to find out what became of
        a write whose connection failed (`writing.settle`)."""
        with self._connection(None) as conn:
            yield conn

    @contextmanager
    def _connection(
        self, held: psycopg.Connection[Any] | None
    ) -> Iterator[psycopg.Connection[Any]]:
        try:
            if held is not None:
                yield held
                return
            made, conn = self._take()
            try:
                for info in self.psycopg_type_adapters.values():
                    if not conn.adapters.types.get(info.oid):
                        register_composite(info, conn)
                yield conn
            finally:
                self._give_back(made, conn)
        except psycopg.Error as exc:
            raise next(ours for theirs, ours in _ERRORS if isinstance(exc, theirs))(
                str(exc)
            ) from exc

    def _take(self) -> tuple[float, psycopg.Connection[Any]]:
        while True:
            with self._idle_lock:
                if not self._idle:
                    break
                made, since, conn = self._idle.pop()
            now = time.monotonic()
            fresh = now - since < CHECK_AFTER and not _heard(conn)
            if now - made < self.pool.max_lifetime and (fresh or _sound(conn)):
                return made, conn
            conn.close()
        settings: Any = self.pool.kwargs  # the connection settings eventsourcing gave it
        timeout = int(self.idle_in_transaction_session_timeout * 1000)
        conn = psycopg.Connection.connect(
            connect_timeout=max(1, round(self.pool.timeout)),
            autocommit=True,
            options=f"-c idle_in_transaction_session_timeout={timeout}",
            **settings,
        )
        return time.monotonic(), conn

    def _give_back(self, made: float, conn: psycopg.Connection[Any]) -> None:
        """Keep a sound connection for the next use; close one that broke, was left in a
        transaction or is one too many."""
        if conn.closed or conn.broken:
            return
        if conn.info.transaction_status != TransactionStatus.IDLE:
            conn.close()
            return
        with self._idle_lock:
            if len(self._idle) < IDLE_KEPT:
                self._idle.append((made, time.monotonic(), conn))
                return
        conn.close()

    def close(self) -> None:
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for _, _, conn in idle:
            conn.close()


def _heard(conn: psycopg.Connection[Any]) -> bool:
    """Whether the server said something to a connection left idle, without a round trip:
    an idle session in auto-commit mode is sent nothing unless the server ends it (a
    restart, `pg_terminate_backend`, an idle timeout), which closes its socket. Such a
    connection used as it was made the first write after it fail."""
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return True
    return bool(readable)


def _sound(conn: psycopg.Connection[Any]) -> bool:
    """Whether a connection left idle still answers (the server may have ended it)."""
    try:
        conn.execute("")
    except psycopg.Error:
        return False
    return True


class SnapshotRecorder(_LazyTypes, PostgresAggregateRecorder):
    """eventsourcing's PostgreSQL recorder of snapshots, with its type fetched lazily."""


class EventsRecorder(_LazyTypes, PostgresApplicationRecorder):
    """eventsourcing's PostgreSQL recorder of the store's events table, with its type
    fetched lazily. The store's own writes bypass its insert (`writing`), so their
    notification ids are not ordered as its inserts order them (see `Factory`)."""


class Factory(PostgresFactory):
    """eventsourcing's PostgreSQL factory with the datastore and recorders above: opening
    a store runs no DDL and no type introspection (`app.Warscribe._open_tables` makes
    missing tables) and connects once, in its own thread.

    What it offers in eventsourcing's terms: the aggregate and application recorders,
    which pass eventsourcing's own test cases (`tests/store/test_eventsourcing_cases.py`);
    not the tracking and process recorders, which warscribe has no use for and does not
    implement: asking for one is refused. A warscribe store's rows are written by the
    store itself, in the engine's codec rather than eventsourcing's JSON transcoder, and
    without the table lock that keeps eventsourcing's notification ids in commit order:
    nothing should follow a warscribe store's notification log."""

    aggregate_recorder_class = SnapshotRecorder
    application_recorder_class = EventsRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.datastore.__class__ = _Datastore
        self.datastore.keep_connections()  # type: ignore[attr-defined]

    def tracking_recorder(self, tracking_recorder_class: Any = None) -> Any:
        raise NotOffered("a tracking recorder")

    def process_recorder(self) -> Any:
        raise NotOffered("a process recorder")


class NotOffered(NotImplementedError):
    """A recorder warscribe's PostgreSQL factory does not offer."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"warscribe's PostgreSQL factory offers no {what}: it offers the aggregate and "
            "application recorders a warscribe store needs (see docs/developing.md, "
            '"The store in eventsourcing\'s terms")'
        )
