"""Where a store lives, and the one interface its backends implement.

A store is a SQLite file (the default) or a PostgreSQL database by URL; each backend is
one module of this package, named by the store's `kind` (`sqlite.py`, `postgresql.py`),
whose `resolve` reads a store's address and whose `DRIVER` makes the store's `Backend.driver`
(the `Driver` protocol below: what the rest of the store asks of a database). Nothing else
in the store or the CLI tells the backends apart (tests/store/test_backends.py). The
schema is eventsourcing's: its recorders create the events and snapshots tables, and a
driver names them as eventsourcing does (docs/developing.md, "Storage").
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol
from uuid import UUID

from warscribe.engine.errors import WarscribeError

if TYPE_CHECKING:  # the writes' types, by the backends that write
    from ..writing import Rows

DEFAULT_STORE = "warscribe.db"
COLUMNS = "(originator_id, originator_version, topic, state)"  # eventsourcing's, a table's
TURN_POLL = 0.001  # seconds between two tries at a writer's turn or a lock
DEFAULT_KIND = "sqlite"  # a store's address that is no URL is a SQLite file's path
SCHEMES = {"postgresql": "postgresql", "postgres": "postgresql"}
"""The URL schemes of a store's address, and the kind (the backend module) each names."""


class StoreError(WarscribeError):
    """The store cannot be opened, is busy, or refused a write."""


class StoreUnavailable(StoreError):
    """The store's database failed or stopped answering (busy, locked, down, damaged)."""


# An error of the database or its driver, by a class of its own among the error's: no
# driver is imported to tell (a SQLite store never imports psycopg).
_DRIVER_ERRORS = frozenset(
    ("eventsourcing.persistence.PersistenceError", "psycopg.Error", "sqlite3.Error")
)


def driver_error(exc: BaseException) -> bool:
    """Whether `exc` is the database's or its driver's (eventsourcing's, psycopg's,
    sqlite3's), not warscribe's."""
    return any(f"{c.__module__}.{c.__qualname__}" in _DRIVER_ERRORS for c in type(exc).__mro__)


def unavailable(backend: Backend, exc: BaseException) -> StoreUnavailable:
    """A database failure as the clean error that names the store (`Error: ...`, exit 1)."""
    return StoreUnavailable(f"the store {backend.describe()} failed: {exc}")


class Backend(NamedTuple):
    """A resolved store location and the eventsourcing settings that open it (a named
    tuple: quicker to define than a dataclass, and `--help` reads it, issue 14)."""

    kind: str
    location: str
    env: tuple[tuple[str, str], ...]

    def describe(self) -> str:
        return f"{self.kind}:{self.location}"

    @property
    def driver(self) -> Driver:
        """The store's backend (its module imported at the first use: a SQLite store never
        imports psycopg)."""
        return _driver(self)


@cache
def _driver(backend: Backend) -> Driver:
    made: Driver = import_module(f"{__name__}.{backend.kind}").DRIVER(backend)
    return made


def resolve(target: str | None) -> Backend:
    """`PATH` (SQLite file) or `postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?schema=S]`."""
    target = target or os.environ.get("WARSCRIBE_STORE") or DEFAULT_STORE
    scheme, found, _ = target.partition("://")
    if found and scheme not in SCHEMES:
        raise StoreError(
            f"unsupported store {target!r}: give a SQLite file path or a postgresql:// URL"
        )
    module = import_module(f"{__name__}.{SCHEMES[scheme] if found else DEFAULT_KIND}")
    resolved: Backend = module.resolve(target)
    return resolved


def wait_for(take: Callable[[], bool], timeout: float) -> bool:
    """Try `take` until it succeeds (True) or `timeout` seconds have passed (False)."""
    deadline = time.monotonic() + timeout
    while not take():
        if time.monotonic() >= deadline:
            return False
        time.sleep(TURN_POLL)
    return True


def lock_timeout() -> str:
    """Seconds a writer waits for its turn, and a connection for a busy database
    (WARSCRIBE_LOCK_TIMEOUT, a whole number; unset or empty: 10)."""
    given = os.environ.get("WARSCRIBE_LOCK_TIMEOUT") or "10"
    if not (given.isascii() and given.isdigit()):
        raise StoreError(
            f"WARSCRIBE_LOCK_TIMEOUT must be a whole number of seconds (0 or more), not {given!r}"
        )
    return given


Turn = Any
"""A writer's turn as its backend's `Writer` takes it (None: none held); the rest of the
store only passes it on."""
Select = Callable[[str, Sequence[Any]], list[Any]]
"""One read-only query (`?` marks) and its rows as tuples."""


class ReadOnly(Protocol):
    """A connection to a store that cannot write (`Reader`)."""

    def select(self, query: str, params: Sequence[Any]) -> list[Any]: ...
    def close(self) -> None: ...


class Writer(Protocol):
    """How a store's writes reach its database (`writing`)."""

    def insert(self, rows: Rows, snapshots: Rows, turn: Turn | None) -> None:
        """`rows` (a game's entries, or the catalog's and settings' events), the catalog
        index's rows and marks they add (`index.index_changes`) and the `snapshots` of the
        heads they end on, in one transaction, in the writer's `turn` if it holds one.
        Versions taken: eventsourcing's IntegrityError; busy or down: its
        OperationalError; `writing.OutcomeUnknown` when a failure leaves unknown whether
        the transaction committed."""

    def close(self) -> None: ...


class Driver(Protocol):
    """What a store's backend implements (one module of this package, its `Driver` made
    from the store's `Backend`). Queries come with `?` marks; an aggregate's id is given
    as the tables hold it (`key`). `recorder`: one of eventsourcing's recorders of the
    open store (the events' or the snapshots'), whose table and connections are used."""

    backend: Backend
    lock_timeout: float  # seconds: a turn's wait, and a busy database's
    schema: str | None  # where the store's tables are, if the database has schemas
    blob: str  # the database's type of bytes, in a table the store makes

    def marks(self, query: str) -> str:
        """A query with `?` marks in the driver's own."""

    def eventsourcing_env(self) -> dict[str, str]:
        """The settings eventsourcing's application opens the store with."""

    def files(self) -> tuple[str, ...]:
        """The real paths of the store's own files (none for a database on a server):
        the CLI never writes a file over them."""

    def secrets_path(self, suffix: str) -> str:
        """Where the store's secrets file is unless another path is given."""

    def key(self, aggregate_id: UUID) -> Any:
        """An aggregate's id as the store's tables hold it."""

    def tables(self) -> tuple[str, str]:
        """The events and snapshots tables in a query, named as eventsourcing names them,
        read without eventsourcing (`Reader`)."""

    def read_only(self) -> ReadOnly | None:
        """A connection that cannot write; None when the store is not there or does not
        answer (the store's open then says why)."""

    def tables_present(self, select: Select, names: Sequence[str]) -> bool:
        """Whether every table `names` (unqualified) is in the store."""

    def table(self, recorder: Any) -> str:
        """The name of the recorder's table in a query."""

    def select(self, recorder: Any, query: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one read-only query as plain tuples, on the open store's connection,
        outside any transaction (one statement reads one consistent state); stored bytes
        come as bytes. The driver's errors are raised as they come."""

    def execute(self, recorder: Any, statement: str, params: Sequence[Any]) -> None:
        """One statement that writes, in a transaction of its own."""

    def table_exists(self, recorder: Any) -> bool:
        """Whether the recorder's table is in the store (its DDL is one transaction)."""

    def raced(self, exc: Exception) -> bool:
        """Whether `exc`, raised making a table, says another open made it at the same
        time (the loser looks again)."""

    def delete_streams(self, recorder: Any, table: str, ids: Sequence[Any]) -> None:
        """Delete every row of the aggregates `ids` (as `key` gives them) in one
        transaction, leaving no copy of their bytes where the database lets us."""

    def writer(self, recorder: Any, snapshots: str | None) -> Writer:
        """The store's writes (`snapshots`: the snapshots table, None when none are put)."""

    def opened(self) -> None:
        """What an open of the store makes beside it (a SQLite store's lock file)."""

    def turn(
        self, recorder: Any, game_id: UUID, ahead: bool
    ) -> AbstractContextManager[Turn | None]:
        """A game's writers take turns, across processes, from reading its head to writing
        after it (the turn's wait bounded by `lock_timeout`); `ahead`: the command was
        decided on a head this process kept, and its write takes the turn itself if the
        backend can (`Writer.insert`)."""

    def exclusive(self, recorder: Any, name: str) -> AbstractContextManager[bool]:
        """Hold the store's lock `name` while the block runs (waited for up to
        `lock_timeout`): whether it was taken."""
