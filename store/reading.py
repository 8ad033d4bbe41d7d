"""What a store answers by reading: the catalog's index, the store's settings and a game's
head, with plain queries on the store's tables and no eventsourcing.

`Reading` holds these reads; `Warscribe` (the store, on eventsourcing) and `Reader` (a
store opened read-only by its backend, `backends.Driver.read_only`, for the commands that
only read: `status`) each give it one way to run a query (`_select`). A status is most
of what a player types, and importing eventsourcing's application was a fifth of one
(issue 14).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any
from uuid import UUID

from warscribe.engine import codec, record, rulesets
from warscribe.engine.errors import InvalidCommand, LogError
from warscribe.engine.record import Entry, EntryView, Head

from .backends import Backend, Driver, ReadOnly, StoreError
from .index import Index

PAGE = 1000  # rows a long read (verify, audit, export, log) takes from the store at a time
HEADS_KEPT = 256  # newest heads a long-running process keeps in memory, least recent dropped
# uuid5(NAMESPACE_URL, "warscribe:catalog"), "warscribe:settings" and "warscribe:defaults",
# written out: uuid5 imports hashlib, which a status needs for nothing else
# (tests/store/test_reading.py)
CATALOG_ID = UUID("678628a9-6e6e-51b0-bfb3-2fb628a41fd7")
SETTINGS_ID = UUID("e0120ac2-d180-57f5-ae78-5a3681390697")
# The default game's choices (one a game created or imported): a stream of their own, so the
# settings stream stays short and its newest OwnerSet is found without passing them all.
DEFAULTS_ID = UUID("af9b39a6-929c-55f1-82c5-cfb20f9ba64c")


@codec.record("warscribe.GameListing")
class GameListing:
    """A game as the catalog lists it; `host_key`: its GameCreated's (None in a listing
    made before it was listed, and for a game without one)."""

    game_id: UUID
    name: str
    ruleset: str
    players: tuple[str, ...]
    parent: tuple[UUID, int] | None = None
    host_key: bytes | None = codec.added(None)


@codec.record("warscribe.StoreOwner")
class StoreOwner:
    """The player whose store this is, and where their private key file is."""

    player: str
    key_file: str | None = None


@codec.frozen
class StoreSettings:
    """The store's settings: the game it acts on when none is named, and its owner."""

    default: UUID | None = None
    owner: StoreOwner | None = None


DEFAULT_CHOSEN = "warscribe:Settings.DefaultChosen"
OWNER_SET = "warscribe:Settings.OwnerSet"


def _settled(settings: StoreSettings, topic: str, version: int, state: bytes) -> StoreSettings:
    """`settings` after the stored settings event of `topic`."""
    try:
        found = codec.decode(state)
    except codec.CodecError as exc:
        raise StoreError(f"the store's settings #{version} cannot be read: {exc}") from None
    if topic == DEFAULT_CHOSEN and isinstance(found, dict):
        if isinstance(found.get("game_id"), UUID):
            return codec.replace(settings, default=found["game_id"])
    elif isinstance(found, dict) and isinstance(found.get("owner"), StoreOwner):
        return codec.replace(settings, owner=found["owner"])
    raise StoreError(f"the store's settings #{version} is not a {topic.rpartition('.')[2]}")


_NO_LIMIT = 2**62
_SEQ = re.compile(r"#([0-9]{1,12})")


def _decode_created(state: bytes) -> tuple[Entry, Any]:
    """A game's first stored event: its entry (GameCreated) and when it was stored."""
    return _decode_entry(1, state), codec.decode(state).get("timestamp")


def snapshot_state(stored: bytes) -> dict[str, Any] | None:
    """The aggregate state a stored snapshot holds (None when it cannot be read as one)."""
    try:
        found = codec.decode(stored)
    except codec.CodecError:
        return None
    state = found.get("state") if isinstance(found, dict) else None
    return state if isinstance(state, dict) else None


ROW_START = b"\x82\xa5entry"
"""How a stored entry's row begins: the encoded map {"entry": ENTRY, "timestamp": TIME}
(the keys in the codec's order), then ENTRY's bytes."""
STAMP_KEY = b"\xa9timestamp"
"""Then the key `timestamp`, then TIME's bytes (`writing.stored_events` joins them)."""
_STAMP = STAMP_KEY + b"\xc7\x20\x04"
"""How a row usually ends: the key, then the header of a 32-byte time (ext 4), its text."""
_STAMPED = len(_STAMP) + 32
_ROW_START_LENGTH = len(ROW_START)


def _decode_entry(version: int, state: bytes, whole: bool = False) -> Entry:
    """The entry a stored row holds. A load decodes thousands: the entry's own bytes are
    decoded alone when the row has the usual shape (the time it was stored, which nothing
    reads, is left as it is); `whole`: the whole row is decoded (`entries`, which `verify`
    reads: a damaged time is found too)."""
    try:
        if not whole and state.startswith(ROW_START) and state.endswith(_STAMP, 0, len(state) - 32):
            entry = codec.decode(memoryview(state)[_ROW_START_LENGTH:-_STAMPED])  # no copy
        else:
            entry = codec.decode(state)["entry"]
    except (codec.CodecError, KeyError, TypeError) as exc:
        raise LogError(f"stored entry cannot be read: {exc}", version) from None
    if type(entry) is not Entry or entry.seq != version:
        raise LogError("stored entry is not the entry of its version", version)
    return entry


def _views(rows: Iterable[tuple[int, bytes]]) -> Iterator[EntryView]:
    """The entries of stored rows as a fold takes them: the codec's peek at each entry's
    bytes (`codec.peek_entry`: a plain command's and a roll's events left unread, no
    Entry made for the rest) when the row has the usual shape and holds the entry of its
    version; else the row decoded whole (`_decode_entry`, which names what is wrong). One
    generator for a replay's thousands of rows, not a call for each."""
    for version, state in rows:
        stamped = len(state) - _STAMPED
        if stamped > 0 and state.startswith(ROW_START) and state.startswith(_STAMP, stamped):
            peeked = codec.peek_entry(state, _ROW_START_LENGTH, stamped)  # bound at the first
            if peeked is not None and peeked.seq == version:
                yield peeked
                continue
        yield _decode_entry(version, state)


class Reading:
    """The reads of a store, on one query method (`_select`: a read-only query with `?`
    marks, its rows as tuples) and the names of its tables."""

    backend: Backend
    driver: Driver
    index: Index
    _events_table: str
    _snapshots_table: str | None  # None: snapshots are not read
    _heads: OrderedDict[UUID, tuple[dict[str, Any], int]]
    _cache: bool

    def _select(self, query: str, params: Sequence[Any]) -> list[Any]:
        raise NotImplementedError

    def find(self, ref: str | None) -> GameListing:
        """A game by id, id prefix or name; without `ref`, the store's default game. One
        indexed query, however many games the store holds."""
        matches = self._default() if ref is None else self.index.exact(ref)
        if not matches and ref is not None:
            matches = self.index.by_prefix(ref)
        if len(matches) == 1:
            return matches[0]
        if not matches and self.index.empty():
            raise StoreError(
                f"store {self.backend.describe()} holds no game: create one with `new`"
            )
        if not matches:
            raise StoreError(f"no game {ref!r} in store {self.backend.describe()}")
        raise StoreError(f"{ref!r} names {len(matches)} games; give more of the id")

    def listing(self, game_id: UUID) -> GameListing | None:
        """The store's listing of `game_id`, if it holds that game."""
        found = self.index.by_id(game_id)
        return found[0] if found else None

    def games(self) -> tuple[GameListing, ...]:
        """Every game of the store, in the order it arrived (from the catalog's index)."""
        return tuple(self.index.all())

    def newest_games(self, limit: int) -> tuple[tuple[GameListing, ...], int]:
        """The newest `limit` games of the store, in the order they arrived, and how many
        games it holds: a page costs the same in a store of ten games or of thousands."""
        listings, total = self.index.newest(limit)
        return tuple(listings), total

    def _default(self) -> list[GameListing]:
        """The game chosen with `use` (or last created or imported); a fork never becomes
        the default by being made."""
        chosen = self.settings().default
        found = self.index.by_id(chosen) if chosen is not None else []
        return found or self.index.last(originals=True) or self.index.last(originals=False)

    def settings(self) -> StoreSettings:
        """The store's settings, in one query: the newest OwnerSet of the settings stream
        and the newest DefaultChosen of the defaults stream, or, in a store whose defaults
        stream is empty (written before it), of the settings stream. (Every game created
        chose the default in the settings stream once: finding an owner set long ago
        passed all of them.)"""
        newest = (
            f"SELECT * FROM (SELECT originator_id, originator_version, topic, state FROM "
            f"{self._events_table} WHERE originator_id = ? AND topic = ? "
            "ORDER BY originator_version DESC LIMIT 1) AS n"
        )
        settings, defaults = self._key_of(SETTINGS_ID), self._key_of(DEFAULTS_ID)
        params = (settings, OWNER_SET, settings, DEFAULT_CHOSEN, defaults, DEFAULT_CHOSEN)
        rows = self._select(" UNION ALL ".join([newest] * 3), params)
        found = StoreSettings()
        for _, version, topic, state in sorted(rows, key=lambda row: row[0] == defaults):
            found = _settled(found, topic, version, state)
        return found

    def _read(self, game_id: UUID, version: int | None) -> tuple[dict[str, Any], int]:
        """The game's aggregate state at `version` (default: now) and the version it is at:
        the newest snapshot at or below it, then the stored entries after it folded
        straight from the recorder's rows; all read in one query (see `_head_rows`) unless
        this process holds the newest head. No aggregate class is needed to read a head."""
        cached = self._heads.get(game_id) if version is None else None
        if cached is not None:
            state, at = cached
            rows = self._rows(game_id, at)
        else:
            state, at, rows = self._from_store(game_id, version)
        if rows:
            head = record.fold(_views(rows), state["head"])
            state, at = {**state, "head": head}, head.seq
        if version is None:
            self._keep(game_id, state, at)
        return state, at

    def _from_store(
        self, game_id: UUID, version: int | None
    ) -> tuple[dict[str, Any], int, list[tuple[int, bytes]]]:
        """The game's aggregate state at its newest sound snapshot at or below `version`
        (else at its first entry), that version, and the (version, state) rows after it up
        to `version`. A snapshot is served only when it has the current shape of a head
        and ends at the chain hash of the stored entry of its version (a snapshot of
        another position, another game or an older release is rebuilt from the entries
        instead)."""
        rows = self._head_rows(game_id, version, self._snapshots_table is not None)
        if rows and rows[0][0] < 0:
            at = -rows[0][0]
            state = snapshot_state(rows[0][1])
            head = state.get("head") if state is not None else None
            if (
                state is not None
                and isinstance(head, Head)
                and head.format == record.HEAD_FORMAT
                and head.seq == at
                and len(rows) > 1
                and rows[1][0] == at
                and _decode_entry(*rows[1]).chain == head.chain
            ):
                return state, at, rows[2:]
            rows = self._head_rows(game_id, version, False)
        if not rows or rows[0][0] != 1:
            raise StoreError(f"game {game_id} is not in this store")
        entry, created_on = _decode_created(rows[0][1])
        state = {
            "_created_on": created_on,
            "_modified_on": created_on,
            "head": record.advance(None, entry),
        }
        return state, 1, rows[1:]

    def _head_rows(
        self, game_id: UUID, version: int | None, snapshots: bool
    ) -> list[tuple[int, bytes]]:
        """One query: the (version, state) rows of the game's entries up to `version`, from
        #1 or (with `snapshots`) from the version of its newest snapshot at or below
        `version`, whose row comes first, its version negated. Two columns, no more: a
        replay reads thousands of rows, and every column costs."""
        events = self._events_table
        key = self._key_of(game_id)
        upto = version or _NO_LIMIT
        if snapshots:
            query = (
                "WITH s AS (SELECT originator_version AS v, state "
                f"FROM {self._snapshots_table} "
                "WHERE originator_id = ? AND originator_version <= ? "
                "ORDER BY originator_version DESC LIMIT 1) "
                "SELECT -v AS version, state FROM s UNION ALL "
                f"SELECT originator_version, state FROM {events} "
                "WHERE originator_id = ? AND originator_version <= ? AND originator_version "
                ">= coalesce((SELECT v FROM s), 1) ORDER BY version"
            )
            return self._select(query, (key, upto, key, upto))
        query = (
            f"SELECT originator_version, state FROM {events} "
            "WHERE originator_id = ? AND originator_version <= ? ORDER BY originator_version"
        )
        return self._select(query, (key, upto))

    def _key_of(self, game_id: UUID) -> Any:
        """An aggregate's id as the store's tables hold it."""
        return self.driver.key(game_id)

    def _keep(self, game_id: UUID, state: dict[str, Any], version: int) -> None:
        if self._cache:
            self._heads[game_id] = (state, version)
            self._heads.move_to_end(game_id)
            if len(self._heads) > HEADS_KEPT:
                self._heads.popitem(last=False)

    def _rows(self, game_id: UUID, after: int) -> list[tuple[int, bytes]]:
        """(version, state) of the game's stored entries after `after`, in order."""
        query = (
            f"SELECT originator_version, state FROM {self._events_table} "
            "WHERE originator_id = ? AND originator_version > ? ORDER BY originator_version"
        )
        return self._select(query, (self._key_of(game_id), after))

    def head(self, game_id: UUID, version: int | None = None) -> Head:
        head: Head = self._read(game_id, version)[0]["head"]
        return head

    def entries(self, game_id: UUID, start: int = 1, stop: int | None = None) -> Iterator[Entry]:
        """The log entries from `start` to `stop` (inclusive), whole rows decoded, read a
        page of `PAGE` rows at a time: a long log is never held whole."""
        query = (
            f"SELECT originator_version, state FROM {self._events_table} "
            "WHERE originator_id = ? AND originator_version > ? AND originator_version <= ? "
            "ORDER BY originator_version LIMIT ?"
        )
        key, after, upto = self._key_of(game_id), start - 1, _NO_LIMIT if stop is None else stop
        while after < upto:
            page = self._select(query, (key, after, upto, PAGE))
            for version, state in page:
                yield _decode_entry(version, state, whole=True)
            if len(page) < PAGE:
                return
            after = page[-1][0]

    def entries_backwards(self, game_id: UUID, last: int | None = None) -> Iterator[Entry]:
        """The log entries from the last (or entry `last`) to the first, read a page at a
        time (a search for the latest entries of a kind reads the few pages it needs)."""
        query = (
            f"SELECT originator_version, state FROM {self._events_table} "
            "WHERE originator_id = ? AND originator_version < ? "
            "ORDER BY originator_version DESC LIMIT ?"
        )
        key, before = self._key_of(game_id), _NO_LIMIT if last is None else last + 1
        while before > 1:
            page = self._select(query, (key, before, PAGE))
            for version, state in page:
                yield _decode_entry(version, state, whole=True)
            if len(page) < PAGE:
                return
            before = page[-1][0]

    def entry(self, game_id: UUID, seq: int) -> Entry | None:
        """The stored entry `seq`, if the game has it."""
        return next(self.entries(game_id, seq, seq), None)

    def positioned(
        self, game_id: UUID, start: int = 1, stop: int | None = None
    ) -> Iterator[tuple[Entry, str | None]]:
        """The entries `start`..`stop`, each with the position the game is at after it,
        one at a time: the fold starts from the head before `start` (a snapshot), so the
        cost is that of the entries read, not of those before them."""
        head = self.head(game_id, start - 1) if start > 1 else None
        for entry in self.entries(game_id, start, stop):
            head = record.advance(head, entry)
            yield entry, rulesets.get(head.ruleset).position(head.state)

    def version_at(self, game_id: UUID, position: str | None) -> int | None:
        """The version a POSITION names: None for now; `#SEQ` that entry; a phase
        (`TURN.PLAYER-TURN.PHASE`) the state as that phase began, from the head's marks."""
        if position is None:
            return None
        head = self.head(game_id)
        text = position.strip()
        if text.startswith("#"):
            seq = _SEQ.fullmatch(text)
            if seq is None or not 1 <= int(seq.group(1)) <= head.seq:
                raise InvalidCommand(
                    f"bad position {position!r}: the log has entries #1..#{head.seq}", "--at"
                )
            return int(seq.group(1))
        label = text.lower()
        if label in head.marks:
            return head.marks[label]
        ruleset = rulesets.get(head.ruleset)
        current = ruleset.position(head.state)
        if current is not None and label == current.lower():
            return head.seq
        phase = label.rpartition(".")[2]
        if ruleset.phases and phase not in ruleset.phases:
            raise InvalidCommand(
                f"bad position {position!r}: {ruleset.name} has no phase {phase!r}; "
                f"its phases are {', '.join(ruleset.phases)}",
                "--at",
            )
        reached = ", ".join(list(head.marks)[-5:])
        raise InvalidCommand(
            f"the game has not reached position {position!r} "
            f"(now at {current}; recent: {reached or 'none'})",
            "--at",
        )

    def span(self, game_id: UUID, position: str) -> tuple[int, int]:
        """The entries a position names: `#SEQ` that entry; a phase, the entries recorded in
        it (from its start to the start of the next phase, or the last entry)."""
        version = self.version_at(game_id, position)
        assert version is not None
        if position.strip().startswith("#"):
            return version, version
        head = self.head(game_id)
        later = [seq for seq in head.marks.values() if seq > version]
        last = min(later) if later else head.seq
        return min(version + 1, last), last


class Reader(Reading):
    """A store opened read-only, for a command that only reads (`status`, `show`, `log`
    ...): no eventsourcing, no lock file, no secrets file, and a connection that cannot
    write (the backend's `read_only`: SQLite's opened `mode=ro` with the standard
    library's sqlite3, PostgreSQL's with every transaction read-only). `open` gives None
    when the store must be opened whole: not there (or not answering), or with its index
    behind its catalog or secrets of an older version to move out (an open of the store
    puts these right, or says what is wrong)."""

    def __init__(self, backend: Backend, connection: ReadOnly) -> None:
        self.backend = backend
        self.driver = backend.driver
        self._connection = connection
        self._events_table, self._snapshots_table = self.driver.tables()
        self._heads = OrderedDict()
        self._cache = False
        self.index = Index(CATALOG_ID, self._select, self._events_table, self.driver)

    @classmethod
    def open(cls, backend: Backend) -> Reader | None:
        connection = backend.driver.read_only()
        if connection is None:
            return None
        reader = cls(backend, connection)
        try:
            ready = reader.index.state() == (True, False)
        except StoreError:  # not a store the reader can read: the store's open will say why
            ready = False
        if not ready:
            reader.close()
            return None
        return reader

    def _select(self, query: str, params: Sequence[Any]) -> list[Any]:
        return self._connection.select(query, params)

    def close(self) -> None:
        self._connection.close()
