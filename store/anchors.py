"""What vouches for a player's copy of a game, per game: the newest checkpoint of the host's
the store received, and the evidence of any fork its imports found (`forks`): an aggregate
of its own, defined only by the calls that read or keep one (issue 14: defining an
aggregate and its events costs a CLI call as much as a short replay)."""

from __future__ import annotations

from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from warscribe.engine.anchor import Checkpoint

from .forks import ForkFound


class Anchors(Aggregate):
    """The newest checkpoint the host signed for one game, as a player's store received it
    (so a copy it passes on is anchored too), and the forks its imports found, each kept
    once: the host's word against a player's signed head."""

    TOPIC = "warscribe:Anchors"

    class Created(Aggregate.Created):
        TOPIC = "warscribe:Anchors.Created"

    class Anchored(Aggregate.Event):
        TOPIC = "warscribe:Anchors.Anchored"
        checkpoint: Checkpoint

        def apply(self, aggregate: Aggregate) -> None:
            anchors: Anchors = aggregate  # type: ignore[assignment]
            anchors.latest = self.checkpoint

    class Forked(Aggregate.Event):
        TOPIC = "warscribe:Anchors.Forked"
        fork: ForkFound

        def apply(self, aggregate: Aggregate) -> None:
            anchors: Anchors = aggregate  # type: ignore[assignment]
            anchors.forks = (*anchors.forks, self.fork)

    def __init__(self) -> None:
        self.latest: Checkpoint | None = None
        self.forks: tuple[ForkFound, ...] = ()

    @staticmethod
    def id_for(game_id: UUID) -> UUID:
        return uuid5(game_id, "anchors")
