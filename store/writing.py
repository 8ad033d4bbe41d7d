"""How a write reaches the database: what the backends' writers share.

A write is a store's events inserted in one transaction with the catalog index rows and
marks they add (`index.index_changes`). eventsourcing's `EventStore.put` did the same
through its mapper, connection pool, cursor wrappers and, on PostgreSQL, a pipeline
fetching a composite row type; recording one command was then nearly twice a raw insert
and commit of the same rows (issue 14). Here the rows (`stored_events`) go to the
driver's connection directly, by the store's backend (`backends.Writer`: on SQLite one
transaction and `executemany` on a connection of the writes' own; on PostgreSQL the
events as four arrays, the transaction and the release of the writer's turn in one round
trip of a pipeline).

Writers of one game take turns from reading its head to writing after it, across
processes (`backends.Driver.turn`: a lock file beside a SQLite store, a session advisory
lock on PostgreSQL, held on the connection the write then uses). The wait is bounded by
the store's lock timeout; past it the writer goes on without its turn, and a lost race
fails whole on the (game, version) key, as any other.

Driver errors become eventsourcing's `IntegrityError` (the versions were taken: another
writer recorded first) and `OperationalError` (busy or unavailable), which the store
reports (`Warscribe._save`); `OutcomeUnknown` when a write's connection failed and its
outcome cannot be found out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.persistence import OperationalError, StoredEvent

from warscribe.engine import codec

from .reading import ROW_START, STAMP_KEY

RECORDED_TOPIC = "warscribe:Game.Recorded"
Rows = Sequence[StoredEvent]
"""The rows of a write: a game's entries, or the catalog's or settings' events."""


class OutcomeUnknown(OperationalError):
    """A write's connection failed, and so did finding out whether it was committed."""


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
