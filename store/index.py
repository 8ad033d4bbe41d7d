"""The catalog's index: one row per game the store holds (its name, id and listing), so a
store of a thousand games finds one by name, or lists them, with one indexed query
instead of reading the catalog aggregate.

The catalog aggregate stays the record (chained listings, snapshotted); the index is
derived from it and kept in step by the store's writes (`writing`): a save that lists a
game writes its index row in the same transaction as the listing, on SQLite and on PostgreSQL, so a
row never names a game whose events were not written, and a rejected save leaves
neither. Each row carries the version of its listing in the catalog, so a store opened
with an index behind its catalog (a store made before the index, or written by an older
version that does not know it) is noticed by comparing two numbers, and the index is
rebuilt from the catalog in one transaction. A state row `kept` says whether the store
may hold secrets an older version kept in it (`app.KeptSecret`): set whenever such an
event is written or the index is rebuilt, cleared once they are moved out, so an open
does not search for them every time.

A third table holds each game's marks (`marks_of`): the keys its name is compared by
(`names.likeness`: case-folded, look-alike letters mapped), so that a game named alike
to one of the store's is found with one indexed query, and its host key, so that an
import knows whether the store has seen that host.

A write inserts its events itself (`writing`), without eventsourcing's table lock and
NOTIFY around every PostgreSQL insert to order its notification log: nothing reads that
log, and writers of one game are ordered by the (game, version) key and the store's
advisory lock.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from uuid import UUID

from warscribe.engine import codec, names

from .backends import Driver, Select, StoreError

if TYPE_CHECKING:  # the queries need no eventsourcing: a read-only status never imports it
    from eventsourcing.persistence import StoredEvent

GAMES_TABLE = "warscribe_games"
STATE_TABLE = "warscribe_index"
MARKS_TABLE = "warscribe_marks"
LISTED_TOPIC = "warscribe:Catalog.Listed"
LISTING_RECORD = "warscribe.GameListing"  # the codec topic of what an index row holds
KEPT_TOPIC = "warscribe:DiceSecret.Created"
FIRST_LISTING = 2  # the catalog's version of its first listing (1 is its Created event)

_DDL = (
    "CREATE TABLE IF NOT EXISTS {games} (version BIGINT PRIMARY KEY, game_id TEXT NOT NULL "
    "UNIQUE, name TEXT NOT NULL UNIQUE, listing {blob} NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {state} (key TEXT PRIMARY KEY, value BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {marks} (mark TEXT NOT NULL, version BIGINT NOT NULL, "
    "PRIMARY KEY (mark, version))",
)
INSERT_ROW = "INSERT INTO {games} (version, game_id, name, listing) VALUES (?, ?, ?, ?)"
INSERT_MARK = "INSERT INTO {marks} (mark, version) VALUES (?, ?)"
SET_KEPT = (
    "INSERT INTO {state} (key, value) VALUES ('kept', ?) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


Row = tuple[Any, ...]


def index_changes(stored_events: Sequence[StoredEvent]) -> tuple[list[Row], list[Row], bool]:
    """The index rows and marks the listings among `stored_events` add, and whether any
    of them is a secret kept in the store the old way."""
    rows: list[Row] = []
    marks: list[Row] = []
    kept = False
    for stored in stored_events:
        if stored.topic == LISTED_TOPIC:
            listing = codec.decode(stored.state)["listing"]
            version = stored.originator_version
            rows.append((version, str(listing.game_id), listing.name, _blob(listing)))
            marks += marks_of(listing, version)
        elif stored.topic == KEPT_TOPIC:
            kept = True
    return rows, marks, kept


def marks_of(listing: Any, version: int) -> list[Row]:
    """The marks of the game listed at `version`: its name's keys, its host key."""
    found = [(f"name:{key}", version) for key in sorted(names.likeness(listing.name))]
    if listing.host_key is not None:
        found.append((_host_mark(listing.host_key), version))
    return found


def _host_mark(host_key: bytes) -> str:
    return f"host:{host_key.hex()}"


def _blob(listing: Any) -> bytes:
    return codec.encode(listing)


def tables(template: str, driver: Driver) -> str:
    """`template` with the index's table names (in the store's schema if it has one, a
    checked plain identifier) and the database's type of bytes."""
    at = f"{driver.schema}." if driver.schema else ""
    return template.format(
        games=at + GAMES_TABLE, state=at + STATE_TABLE, marks=at + MARKS_TABLE, blob=driver.blob
    )


def statement(driver: Driver, template: str) -> str:
    """`template` for the store's database: its table names and parameter marks."""
    return driver.marks(tables(template, driver))


def _statements(driver: Driver, templates: Sequence[str]) -> list[str]:
    return [statement(driver, t) for t in templates]


class Index:
    """The queries of the catalog's index, on the store's query method (`select`), and the
    writes that make and rebuild it, on its recorder (a read-only store has none)."""

    def __init__(
        self,
        catalog_id: UUID,
        select: Select,
        events_table: str,
        driver: Driver,
        recorder: Any = None,
    ) -> None:
        self.catalog_id = catalog_id
        self.select = select
        self.events_table = events_table
        self.driver = driver
        self.recorder = recorder

    @contextmanager
    def _cursor(self, commit: bool = False) -> Iterator[Any]:
        with self.recorder.datastore.transaction(commit=commit) as cursor:
            yield cursor

    def _rows(self, template: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read, as tuples."""
        return self.select(tables(template, self.driver), params)

    def state(self) -> tuple[bool, bool] | None:
        """(in step with the catalog, may hold kept secrets), in one query; None when the
        index's tables are missing (a store made before the index, or before its marks)."""
        catalog = self.driver.key(self.catalog_id)
        try:
            indexed, live, kept, _ = self._rows(
                "SELECT (SELECT max(version) FROM {games}), (SELECT "
                f"max(originator_version) FROM {self.events_table} WHERE originator_id = ?), "
                "(SELECT value FROM {state} WHERE key = 'kept'), "
                "(SELECT version FROM {marks} LIMIT 1)",
                (catalog,),
            )[0]
        except Exception:  # the driver's error for a missing table: tell it from others
            if self._tables_present():
                raise
            return None
        return indexed == live, bool(kept)

    def _tables_present(self) -> bool:
        tables = (GAMES_TABLE, STATE_TABLE, MARKS_TABLE, self.events_table.rpartition(".")[2])
        return self.driver.tables_present(self.select, tables)

    def create_tables(self) -> None:
        with self._cursor(commit=True) as cursor:
            for statement in _statements(self.driver, _DDL):
                cursor.execute(statement)

    def rebuild(self, listings: Sequence[Any]) -> None:
        """Make the index the catalog's `listings` (in catalog order), in one transaction,
        and mark the store as one that may hold kept secrets."""
        rows = [
            (FIRST_LISTING + n, str(g.game_id), g.name, _blob(g)) for n, g in enumerate(listings)
        ]
        marks = [m for n, g in enumerate(listings) for m in marks_of(g, FIRST_LISTING + n)]
        with self._cursor(commit=True) as cursor:
            cursor.execute(statement(self.driver, "DELETE FROM {games}"))
            cursor.execute(statement(self.driver, "DELETE FROM {marks}"))
            if rows:
                cursor.executemany(statement(self.driver, INSERT_ROW), rows)
                cursor.executemany(statement(self.driver, INSERT_MARK), marks)
            cursor.execute(statement(self.driver, SET_KEPT), (1,))

    def secrets_moved(self) -> None:
        with self._cursor(commit=True) as cursor:
            cursor.execute(statement(self.driver, SET_KEPT), (0,))

    def _listings(self, where: str = "", params: Sequence[Any] = ()) -> list[Any]:
        query = f"SELECT version, listing FROM {{games}} {where} ORDER BY version"
        rows = self._rows(query, params)
        return [_listing(version, blob) for version, blob in rows]

    def empty(self) -> bool:
        return not self._rows("SELECT 1 FROM {games} LIMIT 1")

    def all(self) -> list[Any]:
        return self._listings()

    def newest(self, limit: int) -> tuple[list[Any], int]:
        """The newest `limit` listings, in the order they arrived, and how many games the
        store holds: the newest row's version tells it, each listing being the catalog's
        next version from `FIRST_LISTING` on and the only event after its creation (a
        count of the rows grew with the store)."""
        rows = self._rows(
            "SELECT version, listing FROM {games} ORDER BY version DESC LIMIT ?", (limit + 1,)
        )
        total = int(rows[0][0]) - FIRST_LISTING + 1 if rows else 0
        return [_listing(version, blob) for version, blob in reversed(rows[:limit])], total

    def exact(self, ref: str) -> list[Any]:
        """The games named `ref`, or whose id is `ref` written out."""
        return self._listings("WHERE name = ? OR game_id = ?", (ref, ref))

    def alike(self, name: str) -> list[Any]:
        """The games whose names are alike to `name` (`names.likeness`), `name` itself too."""
        keys = sorted(names.likeness(name))
        marks = ", ".join("?" * len(keys))
        return self._listings(
            f"WHERE version IN (SELECT version FROM {{marks}} WHERE mark IN ({marks}))",
            [f"name:{key}" for key in keys],
        )

    def host_seen(self, host_key: bytes) -> bool:
        """Whether a game of the store comes from the host of `host_key`."""
        query = "SELECT 1 FROM {marks} WHERE mark = ? LIMIT 1"
        return bool(self._rows(query, (_host_mark(host_key),)))

    def by_id(self, game_id: UUID) -> list[Any]:
        return self._listings("WHERE game_id = ?", (str(game_id),))

    def by_prefix(self, prefix: str) -> list[Any]:
        return self._listings("WHERE substr(game_id, 1, ?) = ?", (len(prefix), prefix))

    def last(self, originals: bool) -> list[Any]:
        """The newest listing (of a game that is not a fork, with `originals`)."""
        listings = self._rows("SELECT version, listing FROM {games} ORDER BY version DESC")
        for version, blob in listings:
            listing = _listing(version, blob)
            if not originals or listing.parent is None:
                return [listing]
        return []


def _listing(version: int, blob: bytes) -> Any:
    """The game's listing an index row holds; a row that holds none is a damaged store."""
    try:
        listing = codec.decode(bytes(blob))
        if codec.topic_of(type(listing)) == LISTING_RECORD:
            return listing
    except codec.CodecError:
        pass
    raise StoreError(
        f"the store's catalog index cannot be read: its row for listing #{version} holds no "
        "game's listing (the store file was damaged or edited)"
    )
