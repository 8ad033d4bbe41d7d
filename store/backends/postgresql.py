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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse
from uuid import UUID

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import tuple_row

from ..index import INSERT_MARK, INSERT_ROW, SET_KEPT, index_changes, statement
from . import COLUMNS, Backend, Select, StoreError, lock_timeout, wait_for
from . import Driver as BackendDriver

if TYPE_CHECKING:  # the writes' types: a read-only call imports no eventsourcing
    from eventsourcing.persistence import StoredEvent

    from ..writing import Rows

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
        return {**self.env, "PERSISTENCE_MODULE": f"{__name__}_factory:Factory"}

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


@dataclass
class Turn:
    """A writer's turn: the connection holding the advisory lock `lock` (`held` until the
    write's pipeline or the turn's end releases it); or, with no connection, the turn of
    a write decided ahead of it (`ahead_turn`)."""

    conn: Any
    lock: int
    held: bool


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
        from eventsourcing.persistence import IntegrityError

        raise IntegrityError(str(exc)) from exc  # the turn's end rolls back and unlocks
    except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
        conn.close()  # the session ends, and with it its transaction and its locks
        settle(recorder.datastore, table, rows[0], pid, exc)
        written = len(rows)
    if ahead and written != len(rows):  # nothing was written: the turn is taken
        from eventsourcing.persistence import IntegrityError

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
    from eventsourcing.persistence import IntegrityError, OperationalError, PersistenceError

    from ..writing import OutcomeUnknown

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
