"""Where a store lives: a SQLite file (the default) or a PostgreSQL database by URL."""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from warscribe.engine.errors import WarscribeError

DEFAULT_STORE = "warscribe.db"
SQLITE_LOCK_FILE = "-lock"  # beside a SQLite store: writers take turns by locking it
# The files of a SQLite store: the database, SQLite's own, and the writers' lock file.
SQLITE_REFEREE_LOCK = "-referee"  # beside a SQLite store: one `referee` run at a time
SQLITE_FILES = ("", "-wal", "-shm", "-journal", SQLITE_LOCK_FILE, SQLITE_REFEREE_LOCK)
# A plain SQL identifier PostgreSQL takes without quoting (at most 63 bytes).
_SCHEMA = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


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


def resolve(target: str | None) -> Backend:
    """`PATH` (SQLite file) or `postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?schema=S]`."""
    target = target or os.environ.get("WARSCRIBE_STORE") or DEFAULT_STORE
    if target.startswith(("postgresql://", "postgres://")):
        return _postgres(target)
    if "://" in target:
        raise StoreError(
            f"unsupported store {target!r}: give a SQLite file path or a postgresql:// URL"
        )
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
            ("SQLITE_LOCK_TIMEOUT", os.environ.get("WARSCRIBE_LOCK_TIMEOUT", "10")),
        ),
    )


def _postgres(url: str) -> Backend:
    from urllib.parse import unquote, urlparse  # here: a SQLite store never needs it

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
        ("POSTGRES_LOCK_TIMEOUT", os.environ.get("WARSCRIBE_LOCK_TIMEOUT", "10")),
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
