"""How versions before the secrets file kept the host's secrets: in the store itself, one
aggregate per secret. Only the move of such secrets out to the secrets file defines it
(`Warscribe._move_old_secrets`); a store in step never pays for it (issue 14)."""

from __future__ import annotations

from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate


class KeptSecret(Aggregate):
    """How versions before the secrets file kept a secret of the host's for one game in the
    store itself: the dice secret, or the private half of the host's signing key. Only
    read, to move such secrets out to the secrets file (`Warscribe._move_old_secrets`)."""

    TOPIC = "warscribe:DiceSecret"

    class Created(Aggregate.Created):
        TOPIC = "warscribe:DiceSecret.Created"
        key: bytes

    def __init__(self, key: bytes) -> None:
        self.key = key

    @staticmethod
    def id_for(game_id: UUID, what: str) -> UUID:
        return uuid5(game_id, what)


DICE_SECRET = "dice-secret"
HOST_KEY = "host-key"
