"""A game's log as an eventsourcing aggregate (the catalog of games and the store's settings
are in `registry`). Imported by the calls that write a game or replay one whole:
eventsourcing makes an aggregate's event classes when it is defined, and that was a tenth
of a call that only reads a head (issue 14; `Warscribe.head`, `settings` and `find` read
the rows directly), and the catalog's and the settings' a third of what a command's write
imported for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from warscribe.engine import record
from warscribe.engine.events import GameCreated
from warscribe.engine.record import Entry, Head


class Game(Aggregate):
    """A game's log: its head (sequence, chain, dice counter, rule-set state)."""

    TOPIC = "warscribe:Game"

    class Created(Aggregate.Created):
        TOPIC = "warscribe:Game.Created"
        entry: Entry

    class Recorded(Aggregate.Event):
        TOPIC = "warscribe:Game.Recorded"
        entry: Entry

        def apply(self, aggregate: Aggregate) -> None:
            game: Game = aggregate  # type: ignore[assignment]
            game.head = record.advance(game.head, self.entry)

    def __init__(self, entry: Entry) -> None:
        self.head: Head = record.advance(None, entry)

    @classmethod
    def start(cls, entries: Sequence[Entry], game_id: UUID | None = None) -> Game:
        """A game from its first entries; `game_id` for a fork (its log opens with the
        parent's GameCreated)."""
        first = entries[0].event
        assert isinstance(first, GameCreated)
        game = cls._create(cls.Created, id=game_id or first.game_id, entry=entries[0])
        for entry in entries[1:]:
            game.trigger_event(cls.Recorded, entry=entry)
        return game

    def append(self, entries: Iterable[Entry]) -> None:
        """Record `entries` as `Recorded` events: what `trigger_event` makes (the next
        version, a timestamp, the head advanced), without its checks and copies for each,
        on this one event class of the game's own (a command's write, issue 14)."""
        recorded = self.Recorded
        advance = record.advance
        for entry in entries:
            event = object.__new__(recorded)
            version = self._version + 1
            timestamp = recorded.create_timestamp()
            vars(event).update(
                originator_id=self._id, originator_version=version, timestamp=timestamp, entry=entry
            )
            self.head = advance(self.head, entry)
            self._version = version
            self._modified_on = timestamp
            self._pending_events.append(event)


class SealedSecrets(Aggregate):
    """The host's secrets of one game, sealed under the store key the secrets file keeps
    (`SecretsFile.seal`): written with the game, in its transaction, and never changed."""

    TOPIC = "warscribe:SealedSecrets"
    sealed: bytes  # its __init__ is made from its fields, as eventsourcing does

    class Created(Aggregate.Created):
        TOPIC = "warscribe:SealedSecrets.Created"
        sealed: bytes


def project_game(game: Any, events: Iterable[Any]) -> Any:
    """Fold stored events into a Game: the fast projector (no per-event protocol checks)."""
    advance = record.advance
    recorded = Game.Recorded
    for event in events:
        if game is None or type(event) is not recorded:
            game = event.mutate(game)
            continue
        game.head = advance(game.head, event.entry)
        game._version = event.originator_version
    return game
