"""The store's registry as eventsourcing aggregates: the catalog of its games and its
settings. Imported by the calls that write them (creating, importing or choosing a game,
`init`) or rebuild the catalog's index; a command's write imports only the game's
aggregate (`aggregates`): defining these was a third of what it imported for them.
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import Aggregate

from .reading import DEFAULT_CHOSEN, OWNER_SET, GameListing, StoreOwner


class Catalog(Aggregate):
    """The games this store holds, in the order they arrived."""

    TOPIC = "warscribe:Catalog"

    class Created(Aggregate.Created):
        TOPIC = "warscribe:Catalog.Created"

    class Listed(Aggregate.Event):
        TOPIC = "warscribe:Catalog.Listed"
        listing: GameListing

        def apply(self, aggregate: Aggregate) -> None:
            catalog: Catalog = aggregate  # type: ignore[assignment]
            catalog.games = (*catalog.games, self.listing)

    def __init__(self) -> None:
        self.games: tuple[GameListing, ...] = ()


class Settings(Aggregate):
    """Whose store this is, and the game it acts on when none is named: only written here,
    read from its rows (`Warscribe.settings`)."""

    TOPIC = "warscribe:Settings"

    class Created(Aggregate.Created):
        TOPIC = "warscribe:Settings.Created"

    class DefaultChosen(Aggregate.Event):
        TOPIC = DEFAULT_CHOSEN
        game_id: UUID

    class OwnerSet(Aggregate.Event):
        TOPIC = OWNER_SET
        owner: StoreOwner
