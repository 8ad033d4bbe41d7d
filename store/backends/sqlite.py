"""A SQLite store: a file (the default), opened by eventsourcing's SQLite module, read
read-only with the standard library's sqlite3, written on a connection of the writes' own
(`SqliteWriter`); writers take turns by locking a file beside it."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from uuid import UUID

from ..index import INSERT_MARK, INSERT_ROW, SET_KEPT, index_changes, statement
from . import COLUMNS, Backend, Select, StoreError, Turn, lock_timeout, wait_for
from . import Driver as BackendDriver

if TYPE_CHECKING:  # the writes' types: a read-only call imports no eventsourcing
    from eventsourcing.persistence import StoredEvent

    from ..writing import Rows

LOCK_FILE = "-lock"  # beside a SQLite store: writers take turns by locking it
FILES = ("", "-wal", "-shm", "-journal", LOCK_FILE, "-referee")
"""The files of a SQLite store: the database, SQLite's own, and its lock files (the
writers', `LOCK_FILE`, and one per lock `Driver.exclusive` takes, beside it)."""
EVENTS = "stored_events"  # eventsourcing's names of a SQLite store's tables
SNAPSHOTS = "stored_snapshots"
PUT_SNAPSHOT = f"INSERT OR REPLACE INTO {{table}} {COLUMNS} VALUES (?, ?, ?, ?)"


def resolve(target: str) -> Backend:
    path = os.path.abspath(target)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise StoreError(f"cannot create store {target!r}: folder {folder!r} does not exist")
    return Backend(
        kind="sqlite",
        location=target,
        env=(
            ("PERSISTENCE_MODULE", "eventsourcing.sqlite"),
            ("SQLITE_DBNAME", path),
            ("SQLITE_LOCK_TIMEOUT", lock_timeout()),
        ),
    )


class SQLite:
    """A SQLite store (see `backends.Driver`)."""

    schema: str | None = None
    blob = "BLOB"

    def __init__(self, backend: Backend) -> None:
        env = dict(backend.env)
        self.backend = backend
        self.path = env["SQLITE_DBNAME"]
        self.lock_timeout = float(env.get("SQLITE_LOCK_TIMEOUT") or 10)

    def marks(self, query: str) -> str:
        return query

    def eventsourcing_env(self) -> dict[str, str]:
        return dict(self.backend.env)

    def files(self) -> tuple[str, ...]:
        database = os.path.realpath(self.path)
        return tuple(database + suffix for suffix in FILES)

    def secrets_path(self, suffix: str) -> str:
        return self.path + suffix

    def key(self, aggregate_id: UUID) -> Any:
        return aggregate_id.hex

    def tables(self) -> tuple[str, str]:
        return EVENTS, SNAPSHOTS

    def read_only(self) -> ReadOnly | None:
        if not os.path.isfile(self.path):
            return None
        uri = f"file:{_uri_path(os.path.abspath(self.path))}?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=self.lock_timeout)
        except sqlite3.Error:
            return None
        return ReadOnly(self.backend, conn)

    def tables_present(self, select: Select, names: Sequence[str]) -> bool:
        marks = ", ".join("?" * len(names))
        query = f"SELECT count(*) = {len(names)} FROM sqlite_master WHERE name IN ({marks})"
        return bool(select(query, names)[0][0])

    def table(self, recorder: Any) -> str:
        name: str = recorder.events_table_name
        return name

    def select(self, recorder: Any, query: str, params: Sequence[Any]) -> list[Any]:
        with recorder.datastore.get_connection(commit=False) as conn:
            cursor = conn.cursor().sqlite_cursor
            cursor.row_factory = None
            try:
                rows: list[Any] = cursor.execute(query, params).fetchall()
            finally:
                cursor.close()
        return rows

    def execute(self, recorder: Any, statement: str, params: Sequence[Any]) -> None:
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement, params)

    def table_exists(self, recorder: Any) -> bool:
        query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        return bool(self.select(recorder, query, (recorder.events_table_name,)))

    def raced(self, exc: Exception) -> bool:
        """Never: eventsourcing's SQLite statements make a table only if it is missing."""
        return False

    def delete_streams(self, recorder: Any, table: str, ids: Sequence[Any]) -> None:
        """secure_delete overwrites the freed space, a truncating checkpoint folds the
        write-ahead log back."""
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute("PRAGMA secure_delete = ON")
            for start in range(0, len(ids), _IDS_PER_DELETE):
                chunk = ids[start : start + _IDS_PER_DELETE]
                marks = ", ".join("?" * len(chunk))
                cursor.execute(f"DELETE FROM {table} WHERE originator_id IN ({marks})", chunk)
        with recorder.datastore.get_connection(commit=True) as conn:
            conn.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def writer(self, recorder: Any, snapshots: str | None) -> SqliteWriter:
        return SqliteWriter(self, recorder, snapshots)

    def opened(self) -> None:
        fd = lock_fd(self.path + LOCK_FILE)
        if fd is not None:  # there from the first open on, not only from the first write
            os.close(fd)

    @contextmanager
    def turn(self, recorder: Any, game_id: UUID, ahead: bool) -> Iterator[Turn | None]:
        """The lock file beside the store, for any game (SQLite writes one at a time)."""
        with file_turn(self.path + LOCK_FILE, self.lock_timeout):
            yield None

    def exclusive(self, recorder: Any, name: str) -> Any:
        return file_turn(f"{self.path}-{name}", self.lock_timeout)


DRIVER: type[BackendDriver] = SQLite
"""The store's backend (`backends.Backend.driver`), checked against the protocol."""


_IDS_PER_DELETE = 500


class ReadOnly:
    """A SQLite store's file opened `mode=ro` (see `backends.ReadOnly`)."""

    def __init__(self, backend: Backend, conn: sqlite3.Connection) -> None:
        self.backend = backend
        self.conn = conn

    def select(self, query: str, params: Sequence[Any]) -> list[Any]:
        try:
            rows: list[Any] = self.conn.execute(query, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read store {self.backend.describe()}: {exc}") from exc
        return rows

    def close(self) -> None:
        self.conn.close()


def _uri_path(path: str) -> str:
    """`path` as the path of a SQLite `file:` URI (its `%`, `?` and `#` escaped)."""
    return path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")


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


class SqliteWriter:
    """A SQLite store's writes, on a connection of their own: eventsourcing's connections
    cache one prepared statement (`cached_statements=True` is a cache of 1), so BEGIN
    and COMMIT pushed the insert out and it was compiled again on every write, two
    thirds of what the driver spent on one. Opened at the first write, closed with the
    store; one write at a time in a process (the store's writers take turns across
    processes by its lock file, and SQLite's own lock)."""

    def __init__(self, driver: SQLite, recorder: Any, snapshots: str | None) -> None:
        self.path = driver.path
        self.timeout = driver.lock_timeout
        self.insert_events = recorder.insert_events_statement
        self.put_snapshot = PUT_SNAPSHOT.format(table=snapshots) if snapshots else None
        self.insert_row = statement(driver, INSERT_ROW)
        self.insert_mark = statement(driver, INSERT_MARK)
        self.set_kept = statement(driver, SET_KEPT)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def insert(self, rows: Rows, snapshots: Rows, turn: Turn | None) -> None:
        index_rows, marks, kept = index_changes(rows)
        params = list(map(_row, rows))
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("BEGIN")
                conn.executemany(self.insert_events, params)
                if snapshots and self.put_snapshot:
                    conn.executemany(self.put_snapshot, map(_row, snapshots))
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
                raise _persistence_error(exc) from exc

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                self._conn = sqlite3.connect(
                    self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
                )
            except sqlite3.Error as exc:
                raise _persistence_error(exc) from exc
        return self._conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _persistence_error(exc: sqlite3.Error) -> Exception:
    """The driver's error as eventsourcing's, which the store reports (`Warscribe._save`)."""
    from eventsourcing.persistence import IntegrityError, OperationalError

    cls = IntegrityError if isinstance(exc, sqlite3.IntegrityError) else OperationalError
    return cls(str(exc))


def _row(row: StoredEvent) -> tuple[str, int, str, bytes]:
    """A stored row's columns, the id as the SQLite table holds it (a UUID's hex)."""
    originator_id = row.originator_id
    text = originator_id.hex if isinstance(originator_id, UUID) else originator_id
    return text, row.originator_version, row.topic, row.state
