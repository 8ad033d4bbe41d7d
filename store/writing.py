"""How a write reaches the database: the writers' turns and the insert of a write's events.

A write is a store's events inserted in one transaction with the catalog index rows and
marks they add (`index.index_changes`). eventsourcing's `EventStore.put` did the same through its
mapper, connection pool, cursor wrappers and, on PostgreSQL, a pipeline fetching a
composite row type; recording one command was then nearly twice a raw insert and commit of
the same rows (issue 14). Here the rows go to the driver's connection directly: on SQLite
one transaction and `executemany` on a connection of the writes' own (`SqliteWriter`); on
PostgreSQL the events as four arrays (no composite type), the transaction's BEGIN, inserts
and COMMIT, and the release of the writer's turn, in one round trip of a pipeline; a
write decided ahead of its turn with nothing but its events is its insert alone, a
transaction of its own (a third less than the pipeline).

Writers of one game take turns from reading its head to writing after it, across
processes: a lock file beside a SQLite store, a session advisory lock on PostgreSQL, held
on the connection the write then uses. The wait is bounded by the store's lock timeout;
past it the writer goes on without its turn, and a lost race fails whole on the
(game, version) key, as any other.

Driver errors become eventsourcing's `IntegrityError` (the versions were taken: another
writer recorded first) and `OperationalError` (busy or unavailable), which the store
reports (`Warscribe._save`). A PostgreSQL write whose connection fails may have committed
before the answer was lost: its outcome is found out before anything is reported
(`settle`), and `OutcomeUnknown` when even that cannot be.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import (
    IntegrityError,
    OperationalError,
    PersistenceError,
    StoredEvent,
)

from warscribe.engine import codec

from .index import INSERT_MARK, INSERT_ROW, SET_KEPT, index_changes, statement
from .reading import ROW_START, STAMP_KEY

TURN_POLL = 0.001  # seconds between two tries at a writer's turn
SETTLE_WAIT_MS = 5000  # how long `settle` waits for a failed write's session to end
RECORDED_TOPIC = "warscribe:Game.Recorded"
COLUMNS = "(originator_id, originator_version, topic, state)"
_ARRAYS = "unnest(%s::uuid[], %s::bigint[], %s::text[], %s::bytea[])"
INSERT_EVENTS = f"INSERT INTO {{table}} {COLUMNS} SELECT * FROM {_ARRAYS}"
AHEAD_INSERT_EVENTS = (
    "WITH turn AS (SELECT pg_try_advisory_xact_lock(%s) AS held) "
    f"INSERT INTO {{table}} {COLUMNS} SELECT e.* FROM {_ARRAYS} AS e, turn WHERE turn.held"
)
"""A write decided ahead of its turn: its rows only if the game's turn is free, which its
transaction then holds to the COMMIT."""
PUT_SNAPSHOT_SQLITE = f"INSERT OR REPLACE INTO {{table}} {COLUMNS} VALUES (?, ?, ?, ?)"
PUT_SNAPSHOT = (
    f"INSERT INTO {{table}} {COLUMNS} SELECT %s, %s, %s, %s{{ahead}} "
    "ON CONFLICT (originator_id, originator_version) "
    "DO UPDATE SET topic = EXCLUDED.topic, state = EXCLUDED.state"
)
"""A snapshot, in its write's transaction; one already at its version (a cache's entry,
not a record) is replaced."""


class OutcomeUnknown(OperationalError):
    """A write's connection failed, and so did finding out whether it was committed."""


@dataclass
class Turn:
    """A PostgreSQL writer's turn: the connection holding the advisory lock `lock`
    (`held` until the write's pipeline or the turn's end releases it); or, with no
    connection, the turn of a write decided ahead of it (`ahead_turn`)."""

    conn: Any
    lock: int
    held: bool


def ahead_turn(lock: int) -> Turn:
    """The turn of a write decided ahead of it, on a head the process kept: the write's
    insert takes the advisory lock `lock` for its transaction if it is free
    (`pg_try_advisory_xact_lock`, released by the COMMIT) and writes nothing if another
    writer holds the turn, on any connection of the store."""
    return Turn(None, lock, held=False)


def stored_events(events: Sequence[Any], to_stored: Callable[[Any], StoredEvent]) -> list[Any]:
    """The rows of a write's events. A game's `Recorded` event (all but a handful of a
    store's events) is encoded here as eventsourcing's mapper would (its fields but the
    originator's id and version, in the codec), without the mapper's work for each: the
    bytes of the map {"entry", "timestamp"} are its keys' and its values' joined in the
    codec's order (`reading.ROW_START`), the map itself never made."""
    rows: list[StoredEvent] = []
    encode = codec.encode
    for event in events:
        if type(event).TOPIC != RECORDED_TOPIC:
            rows.append(to_stored(event))
            continue
        state = b"".join((ROW_START, encode(event.entry), STAMP_KEY, encode(event.timestamp)))
        rows.append(
            StoredEvent(event.originator_id, event.originator_version, RECORDED_TOPIC, state)
        )
    return rows


def wait_for(take: Callable[[], bool], timeout: float) -> bool:
    """Try `take` until it succeeds (True) or `timeout` seconds have passed (False)."""
    deadline = time.monotonic() + timeout
    while not take():
        if time.monotonic() >= deadline:
            return False
        time.sleep(TURN_POLL)
    return True


def lock_fd(path: str) -> int | None:
    """The writers' lock file, opened (created if missing); None if the folder does not
    let us (writers then only retry)."""
    try:
        return os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError:
        return None


@contextmanager
def file_turn(path: str, timeout: float) -> Iterator[bool]:
    """Hold an exclusive lock on the lock file `path`: whether it was taken within
    `timeout` seconds (False too if the file cannot be opened)."""
    fd = lock_fd(path)
    if fd is None:
        yield False
        return

    def take() -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    try:
        yield wait_for(take, timeout)
    finally:
        os.close(fd)  # releases the lock


@contextmanager
def advisory_turn(datastore: Any, lock: int, timeout: float) -> Iterator[Turn]:
    """Hold PostgreSQL's session advisory lock `lock` on a connection the datastore's
    other uses in this thread share meanwhile (`postgres._Datastore.holding`); the write
    made in the turn uses that connection and releases the lock with its COMMIT."""
    with datastore.holding() as conn:
        turn = Turn(conn, lock, wait_for(lambda: _try_lock(conn, lock), timeout))
        try:
            yield turn
        finally:
            _end_turn(turn)


@contextmanager
def advisory_lock(datastore: Any, lock: int, timeout: float) -> Iterator[bool]:
    """Hold PostgreSQL's session advisory lock `lock` on a connection of its own, taken
    from the datastore for the block (the block's writes take their own turns): whether
    it was taken within `timeout` seconds."""
    with datastore.get_connection() as conn:
        taken = wait_for(lambda: _try_lock(conn, lock), timeout)
        try:
            yield taken
        finally:
            if taken and not conn.closed:
                conn.execute("SELECT pg_advisory_unlock(%s)", (lock,))


def _try_lock(conn: Any, lock: int) -> bool:
    row = conn.execute("SELECT pg_try_advisory_lock(%s) AS taken", (lock,)).fetchone()
    return bool(row and row["taken"])


def _end_turn(turn: Turn) -> None:
    """Undo what a failed write left open on the turn's connection, and let the lock go."""
    from psycopg.pq import TransactionStatus

    conn = turn.conn
    if conn.closed:
        return
    if conn.info.transaction_status != TransactionStatus.IDLE:
        conn.execute("ROLLBACK")
    if turn.held:
        conn.execute("SELECT pg_advisory_unlock(%s)", (turn.lock,))
        turn.held = False


class SqliteWriter:
    """A SQLite store's writes, on a connection of their own: eventsourcing's connections
    cache one prepared statement (`cached_statements=True` is a cache of 1), so BEGIN
    and COMMIT pushed the insert out and it was compiled again on every write, two
    thirds of what the driver spent on one. Opened at the first write, closed with the
    store; one write at a time in a process (the store's writers take turns across
    processes by its lock file, and SQLite's own lock)."""

    def __init__(self, path: str, timeout: float, recorder: Any, snapshots: str | None) -> None:
        self.path = path
        self.timeout = timeout
        self.insert_events = recorder.insert_events_statement
        self.put_snapshot = PUT_SNAPSHOT_SQLITE.format(table=snapshots) if snapshots else None
        self.insert_row = statement(recorder, INSERT_ROW)
        self.insert_mark = statement(recorder, INSERT_MARK)
        self.set_kept = statement(recorder, SET_KEPT)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def insert(self, rows: Sequence[StoredEvent], snapshots: Sequence[StoredEvent] = ()) -> None:
        """`rows`, their index rows and the `snapshots` of the heads they end on, in one
        transaction."""
        index_rows, marks, kept = index_changes(rows)
        params = list(map(_sqlite_row, rows))
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("BEGIN")
                conn.executemany(self.insert_events, params)
                if snapshots and self.put_snapshot:
                    conn.executemany(self.put_snapshot, map(_sqlite_row, snapshots))
                if index_rows:
                    conn.executemany(self.insert_row, index_rows)
                    conn.executemany(self.insert_mark, marks)
                if kept:
                    conn.execute(self.set_kept, (1,))
                conn.commit()
            except BaseException as exc:  # an interrupt too: never leave the transaction open
                if conn.in_transaction:
                    conn.rollback()
                if not isinstance(exc, sqlite3.Error):
                    raise
                error = (
                    IntegrityError if isinstance(exc, sqlite3.IntegrityError) else OperationalError
                )
                raise error(str(exc)) from exc

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                self._conn = sqlite3.connect(
                    self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
                )
            except sqlite3.Error as exc:
                raise OperationalError(str(exc)) from exc
        return self._conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _values(row: StoredEvent) -> tuple[Any, int, str, bytes]:
    """A stored row's columns, in `COLUMNS`' order."""
    return row.originator_id, row.originator_version, row.topic, row.state


def _sqlite_row(row: StoredEvent) -> tuple[str, int, str, bytes]:
    """The same, the id as the SQLite table holds it."""
    return _text_id(row.originator_id), row.originator_version, row.topic, row.state


def _text_id(originator_id: UUID | str) -> str:
    """An id as the SQLite table holds it (a UUID's hex digits)."""
    return originator_id.hex if isinstance(originator_id, UUID) else originator_id


@dataclass
class Snapshots:
    """The snapshots a write puts in its transaction, and the table they go to."""

    table: str
    rows: Sequence[StoredEvent]


def insert_postgres(
    recorder: Any, rows: Sequence[StoredEvent], turn: Turn | None, snapshots: Snapshots | None
) -> None:
    """`rows`, their index rows and the `snapshots` in one PostgreSQL transaction, in one
    round trip: on the turn's connection (whose lock the same round trip releases), else
    on one of the store's (the transaction taking the turn first when the write was
    decided ahead)."""
    if turn is not None and turn.conn is not None:
        _insert_postgres(turn.conn, recorder, rows, turn, snapshots)
        return
    with recorder.datastore.get_connection() as conn:
        try:
            _insert_postgres(conn, recorder, rows, turn, snapshots)
        finally:
            _end_turn(Turn(conn, 0, held=False))


def _insert_postgres(
    conn: Any,
    recorder: Any,
    rows: Sequence[StoredEvent],
    turn: Turn | None,
    snapshots: Snapshots | None,
) -> None:
    import psycopg

    index_rows, marks, kept = index_changes(rows)
    table = f"{recorder.datastore.schema}.{recorder.events_table_name}"
    columns: tuple[list[Any], ...] = ([], [], [], [])
    for row in rows:
        for column, value in zip(columns, _values(row), strict=True):
            column.append(value)
    lock = turn.lock if turn is not None and turn.conn is None else None  # decided ahead
    ahead = lock is not None
    if ahead and (index_rows or kept):
        raise ValueError("only a game's own events are written ahead of their turn")
    insert: tuple[str, Sequence[Any]] = (
        (AHEAD_INSERT_EVENTS.format(table=table), (lock, *columns))
        if ahead
        else (INSERT_EVENTS.format(table=table), columns)
    )
    after: list[tuple[str, Sequence[Any] | None]] = [
        (statement(recorder, INSERT_ROW), row) for row in index_rows
    ]
    after += [(statement(recorder, INSERT_MARK), mark) for mark in marks]
    if snapshots is not None:  # written ahead: only in the turn the rows took
        only = " WHERE pg_try_advisory_xact_lock(%s)" if ahead else ""
        put = PUT_SNAPSHOT.format(table=snapshots.table, ahead=only)
        taken = (lock,) if ahead else ()
        after += [(put, (*_values(r), *taken)) for r in snapshots.rows]
    after += [(statement(recorder, SET_KEPT), (1,))] if kept else []
    unlock = turn.lock if turn is not None and turn.held else None
    pid = conn.info.backend_pid
    try:
        if after or unlock is not None:
            written = _pipelined(conn, insert, after, unlock)
        else:  # the insert alone: its own transaction, in one message, prepared once used
            written = conn.execute(*insert).rowcount
    except psycopg.IntegrityError as exc:
        raise IntegrityError(str(exc)) from exc  # the turn's end rolls back and unlocks
    except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
        conn.close()  # the session ends, and with it its transaction and its locks
        settle(recorder.datastore, table, rows[0], pid, exc)
        written = len(rows)
    if ahead and written != len(rows):  # nothing was written: the turn is taken
        raise IntegrityError("another writer holds the game's turn")
    if turn is not None:
        turn.held = False


def settle(datastore: Any, table: str, row: StoredEvent, pid: int, failure: Exception) -> None:
    """What became of a write whose connection failed (`failure`) after it was sent: its
    COMMIT may have landed and only the answer been lost. On a connection of its own: the
    failed session `pid`, if still in a transaction (a dropped network, not a dropped
    server), is ended, so the write cannot land after the look; then the write's first
    row, `row`, is looked for. Returns when the write landed; raises OperationalError
    when nothing was written, IntegrityError when another writer's row holds its place,
    OutcomeUnknown when the look fails too. A write is never guessed at: reported as
    lost when it landed, a command was recorded twice by the retry that followed."""
    try:
        with datastore.apart() as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid, %s) FROM pg_stat_activity "
                "WHERE pid = %s AND state <> 'idle'",
                (SETTLE_WAIT_MS, pid),
            )
            found = conn.execute(
                f"SELECT state FROM {table} WHERE originator_id = %s AND originator_version = %s",
                (row.originator_id, row.originator_version),
            ).fetchone()
    except PersistenceError as exc:  # the datastore raises psycopg's errors as these
        raise OutcomeUnknown(f"{failure}; and then: {exc}") from failure
    if found is None:
        raise OperationalError(str(failure)) from failure
    if bytes(found["state"]) != row.state:
        raise IntegrityError(f"another writer recorded first ({failure})") from failure


def _pipelined(
    conn: Any,
    insert: tuple[str, Sequence[Any]],
    after: Sequence[tuple[str, Sequence[Any] | None]],
    unlock: int | None,
) -> int:
    """The insert then the statements `after` it in one transaction, its COMMIT and the
    release of the session lock `unlock` (if given) in one round trip; the rows the insert
    wrote. Never prepared: a statement psycopg prepared in a pipeline that then failed was
    gone from the server and still in its cache."""
    with conn.pipeline(), conn.cursor() as cursor, conn.cursor() as inserting:
        cursor.execute("BEGIN", prepare=False)
        inserting.execute(*insert, prepare=False)
        for query, params in after:
            cursor.execute(query, params, prepare=False)
        cursor.execute("COMMIT", prepare=False)
        if unlock is not None:
            cursor.execute("SELECT pg_advisory_unlock(%s)", (unlock,), prepare=False)
    return int(inserting.rowcount)
