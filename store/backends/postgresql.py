"""A PostgreSQL store: a database (a schema of it) by URL. Opened by eventsourcing's
PostgreSQL factory as the store needs it (`Factory`: no DDL and no type introspection at
an open, the snapshot recorder's composite type fetched before its first insert, and
connections made when asked for instead of by a pool's threads); read on a connection
whose every transaction is read-only; written straight to the driver (`Writer`: the rows
as four arrays, the transaction and the release of the writer's turn in one round trip);
writers take turns by advisory locks. Imported only for a PostgreSQL store."""

from __future__ import annotations

import hashlib
import os
import re
import select
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote, urlparse
from uuid import UUID

import psycopg
from eventsourcing import persistence
from eventsourcing.persistence import (
    IntegrityError,
    OperationalError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)
from psycopg.pq import TransactionStatus
from psycopg.rows import tuple_row
from psycopg.types.composite import register_composite

from ..index import INSERT_MARK, INSERT_ROW, SET_KEPT, index_changes, statement
from ..writing import COLUMNS, OutcomeUnknown, Rows, Turn, wait_for
from . import Backend, Select, StoreError, lock_timeout
from . import Driver as BackendDriver

EVENTS = "warscribe_events"  # the names of a PostgreSQL store's tables, in its schema,
SNAPSHOTS = "warscribe_snapshots"  # eventsourcing's of the application named warscribe
SETTLE_WAIT_MS = 5000  # how long `settle` waits for a failed write's session to end
_ARRAYS = "unnest(%s::uuid[], %s::bigint[], %s::text[], %s::bytea[])"
INSERT_EVENTS = f"INSERT INTO {{table}} {COLUMNS} SELECT * FROM {_ARRAYS}"
AHEAD_INSERT_EVENTS = (
    "WITH turn AS (SELECT pg_try_advisory_xact_lock(%s) AS held) "
    f"INSERT INTO {{table}} {COLUMNS} SELECT e.* FROM {_ARRAYS} AS e, turn WHERE turn.held"
)
"""A write decided ahead of its turn: its rows only if the game's turn is free, which its
transaction then holds to the COMMIT."""
PUT_SNAPSHOT = (
    f"INSERT INTO {{table}} {COLUMNS} SELECT %s, %s, %s, %s{{ahead}} "
    "ON CONFLICT (originator_id, originator_version) "
    "DO UPDATE SET topic = EXCLUDED.topic, state = EXCLUDED.state"
)
"""A snapshot, in its write's transaction; one already at its version (a cache's entry,
not a record) is replaced."""
# A plain SQL identifier PostgreSQL takes without quoting (at most 63 bytes).
_SCHEMA = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
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


def resolve(url: str) -> Backend:
    parts = urlparse(url)
    dbname = parts.path.lstrip("/")
    if not dbname or not parts.hostname:
        raise StoreError(f"bad PostgreSQL URL {url!r}: write postgresql://USER@HOST:PORT/DBNAME")
    env = [
        ("PERSISTENCE_MODULE", "eventsourcing.postgres"),
        ("POSTGRES_DBNAME", dbname),
        ("POSTGRES_HOST", parts.hostname),
        ("POSTGRES_PORT", str(parts.port or 5432)),
        ("POSTGRES_USER", unquote(parts.username or "postgres")),
        ("POSTGRES_PASSWORD", unquote(parts.password or "")),
        ("POSTGRES_CONNECT_TIMEOUT", "5"),
        ("POSTGRES_LOCK_TIMEOUT", lock_timeout()),
    ]
    for key, value in (p.split("=", 1) for p in parts.query.split("&") if "=" in p):
        if key == "schema":
            if not _SCHEMA.fullmatch(value):
                raise StoreError(
                    f"bad schema {value!r} in the PostgreSQL URL: give a plain identifier "
                    "(letters, digits and _, not starting with a digit, at most 63)"
                )
            env.append(("POSTGRES_SCHEMA", value))
    shown = f"{parts.hostname}:{parts.port or 5432}/{dbname}"
    return Backend(kind="postgresql", location=shown, env=tuple(env))


class PostgreSQL:
    """A PostgreSQL store (see `backends.Driver`)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.env = dict(backend.env)
        self.schema: str | None = self.env.get("POSTGRES_SCHEMA", "public")
        self.blob = "BYTEA"
        self.lock_timeout = float(self.env.get("POSTGRES_LOCK_TIMEOUT") or 10)

    def marks(self, query: str) -> str:
        return query.replace("?", "%s")

    def eventsourcing_env(self) -> dict[str, str]:
        return {**self.env, "PERSISTENCE_MODULE": f"{__name__}:Factory"}

    def files(self) -> tuple[str, ...]:
        return ()

    def secrets_path(self, suffix: str) -> str:
        """Under the user's data folder, named by the server, the database and the schema."""
        home = os.environ.get("XDG_DATA_HOME") or os.path.join(
            os.path.expanduser("~"), ".local", "share"
        )
        env = self.env
        name = "-".join((env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]))
        safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in f"{name}-{self.schema}")
        return os.path.join(home, "warscribe", safe + suffix)

    def key(self, aggregate_id: UUID) -> Any:
        return aggregate_id

    def tables(self) -> tuple[str, str]:
        return f"{self.schema}.{EVENTS}", f"{self.schema}.{SNAPSHOTS}"

    def read_only(self) -> ReadOnly | None:
        env = self.env
        try:
            conn = psycopg.connect(
                host=env["POSTGRES_HOST"],
                port=env["POSTGRES_PORT"],
                dbname=env["POSTGRES_DBNAME"],
                user=env["POSTGRES_USER"],
                password=env["POSTGRES_PASSWORD"],
                connect_timeout=env.get("POSTGRES_CONNECT_TIMEOUT") or "5",
                autocommit=True,
                options="-c default_transaction_read_only=on",
            )
        except psycopg.Error:
            return None
        return ReadOnly(self.backend, conn)

    def tables_present(self, select: Select, names: Sequence[str]) -> bool:
        query = "SELECT " + " AND ".join(["to_regclass(?) IS NOT NULL"] * len(names))
        return bool(select(query, tuple(f"{self.schema}.{t}" for t in names))[0][0])

    def table(self, recorder: Any) -> str:
        return f"{recorder.datastore.schema}.{recorder.events_table_name}"

    def select(self, recorder: Any, query: str, params: Sequence[Any]) -> list[Any]:
        """In the binary format: a stored state arrives as its bytes, not as hex text to
        decode (a third of a replay's fetch)."""
        with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as c:
            rows: list[Any] = c.execute(query.replace("?", "%s"), params, binary=True).fetchall()
        return rows

    def execute(self, recorder: Any, statement: str, params: Sequence[Any]) -> None:
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement.replace("?", "%s"), params)

    def table_exists(self, recorder: Any) -> bool:
        query = "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = ? AND tablename = ?"
        names = (recorder.datastore.schema, recorder.events_table_name)
        return bool(self.select(recorder, query, names))

    def raced(self, exc: Exception) -> bool:
        """Re-running eventsourcing's statements while another open ran them failed with
        `tuple concurrently updated`, or on the unique index of the types' names."""
        text = str(exc)
        return "concurrently updated" in text or "pg_type_typname_nsp_index" in text

    def delete_streams(self, recorder: Any, table: str, ids: Sequence[Any]) -> None:
        """Then a VACUUM of the table (its old WAL segments and backups are the server's
        to rotate)."""
        self.execute(recorder, f"DELETE FROM {table} WHERE originator_id = ANY(?)", (list(ids),))
        with recorder.datastore.get_connection() as conn:
            conn.execute(f"VACUUM {table}")

    def writer(self, recorder: Any, snapshots: str | None) -> Writer:
        return Writer(self, recorder, snapshots)

    def opened(self) -> None:
        """Nothing: the database holds the store."""

    @contextmanager
    def turn(self, recorder: Any, game_id: UUID, ahead: bool) -> Iterator[Turn | None]:
        """An advisory lock per game. `ahead`: the write takes the turn in its own
        transaction if the turn is free (`ahead_turn`): no round trip before deciding, and
        nothing written while another writer holds the turn."""
        lock = self.advisory_key(str(game_id))
        if ahead:
            yield ahead_turn(lock)
            return
        with advisory_turn(recorder.datastore, lock, self.lock_timeout) as turn:
            yield turn

    def exclusive(self, recorder: Any, name: str) -> Any:
        """A session advisory lock of the store's schema."""
        return advisory_lock(recorder.datastore, self.advisory_key(name), self.lock_timeout)

    def advisory_key(self, name: str) -> int:
        """The advisory lock a store's `name` (a game's id: its writers' turn) is taken by."""
        digest = hashlib.sha256(f"warscribe:{self.schema}:{name}".encode()).digest()
        return int.from_bytes(digest[:8], "big", signed=True)


DRIVER: type[BackendDriver] = PostgreSQL
"""The store's backend (`backends.Backend.driver`), checked against the protocol."""


class ReadOnly:
    """A connection whose every transaction is read-only (see `backends.ReadOnly`)."""

    def __init__(self, backend: Backend, conn: psycopg.Connection[Any]) -> None:
        self.backend = backend
        self.conn = conn

    def select(self, query: str, params: Sequence[Any]) -> list[Any]:
        try:
            found = self.conn.execute(query.replace("?", "%s"), params, binary=True)
            return found.fetchall()
        except psycopg.Error as exc:
            raise StoreError(f"cannot read store {self.backend.describe()}: {exc}") from exc

    def close(self) -> None:
        self.conn.close()


class Writer:
    """A PostgreSQL store's writes (see `backends.Writer`): `rows`, their index rows and
    the snapshots in one transaction, in one round trip: on the turn's connection (whose
    lock the same round trip releases), else on one of the store's (the transaction
    taking the turn first when the write was decided ahead)."""

    def __init__(self, driver: PostgreSQL, recorder: Any, snapshots: str | None) -> None:
        self.statements = tuple(statement(driver, s) for s in (INSERT_ROW, INSERT_MARK, SET_KEPT))
        self.recorder = recorder
        self.snapshots = snapshots

    def insert(self, rows: Rows, snapshots: Rows, turn: Turn | None) -> None:
        taken = snapshots if snapshots and self.snapshots else ()
        if turn is not None and turn.conn is not None:
            _insert(turn.conn, self, rows, turn, taken)
            return
        with self.recorder.datastore.get_connection() as conn:
            try:
                _insert(conn, self, rows, turn, taken)
            finally:
                _end_turn(Turn(conn, 0, held=False))

    def close(self) -> None:
        """Nothing: the writes use the store's connections."""


def ahead_turn(lock: int) -> Turn:
    """The turn of a write decided ahead of it, on a head the process kept: the write's
    insert takes the advisory lock `lock` for its transaction if it is free
    (`pg_try_advisory_xact_lock`, released by the COMMIT) and writes nothing if another
    writer holds the turn, on any connection of the store."""
    return Turn(None, lock, held=False)


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


def _values(row: StoredEvent) -> tuple[Any, int, str, bytes]:
    """A stored row's columns, in `COLUMNS`' order."""
    return row.originator_id, row.originator_version, row.topic, row.state


def _insert(
    conn: Any,
    writer: Writer,
    rows: Sequence[StoredEvent],
    turn: Turn | None,
    snapshots: Sequence[StoredEvent],
) -> None:
    recorder = writer.recorder
    insert_row, insert_mark, set_kept = writer.statements
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
    after: list[tuple[str, Sequence[Any] | None]] = [(insert_row, row) for row in index_rows]
    after += [(insert_mark, mark) for mark in marks]
    if snapshots:  # written ahead: only in the turn the rows took
        only = " WHERE pg_try_advisory_xact_lock(%s)" if ahead else ""
        put = PUT_SNAPSHOT.format(table=writer.snapshots, ahead=only)
        taken = (lock,) if ahead else ()
        after += [(put, (*_values(r), *taken)) for r in snapshots]
    after += [(set_kept, (1,))] if kept else []
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
