"""Divine Right events: facts that carry their outcomes."""

from __future__ import annotations

from warscribe.engine.codec import record
from warscribe.engine.events import Event, private

from .state import Hex


@record("dr.IdentityTaken")
class IdentityTaken(Event):
    """A player's identity card: drawn from the shuffled identity cards, or chosen."""

    player: str
    kingdom: str
    chosen: bool


@record("dr.Placement")
class Placement:
    unit: str
    kind: str
    hex: Hex


@record("dr.KingdomDeployed")
class KingdomDeployed(Event):
    """A kingdom's monarch and combat units set up on the map (Game Setup)."""

    kingdom: str
    placements: tuple[Placement, ...]


@record("dr.PersonalitiesDealt")
class PersonalitiesDealt(Event):
    """One face-down personality card under each non-player monarch's identity card;
    the rest stay face down beside the deck. The cards are hidden information."""

    kingdoms: tuple[str, ...]
    cards: tuple[int, ...] | None = private(None)
    pool: tuple[int, ...] | None = private(None)


@record("dr.DiplomacyDeckShuffled")
class DiplomacyDeckShuffled(Event):
    """The diplomacy deck shuffled face down; its order is hidden information."""

    size: int
    cards: tuple[str, ...] | None = private(None)


@record("dr.PlayerOrderDrawn")
class PlayerOrderDrawn(Event):
    """A game turn begins: each player drew a randomizer chit; lowest goes first."""

    turn: int
    chits: tuple[tuple[str, int], ...]
    order: tuple[str, ...]
