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


@record("dr.PhaseEnded")
class PhaseEnded(Event):
    """The player closed a phase of their player turn."""

    player: str
    phase: str


@record("dr.GameEnded")
class GameEnded(Event):
    """Victory: after turn 20 by victory points, or when one player monarch remains."""

    winners: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]
    why: str


@record("dr.PointsScored")
class PointsScored(Event):
    """A deed worth victory points (rulebook: Victory)."""

    player: str
    deed: str
    points: int


@record("dr.PointsForfeited")
class PointsForfeited(Event):
    """An eliminated player re-entering forfeits the points earned (Basic Game Optional Rules)."""

    player: str
    points: int


@record("dr.KingdomActivated")
class KingdomActivated(Event):
    """A non-player kingdom joins `ally`'s alliance; its monarch and available units deploy."""

    kingdom: str
    ally: str
    why: str
    placements: tuple[Placement, ...]
    first_time: bool


@record("dr.KingdomDeactivated")
class KingdomDeactivated(Event):
    """A kingdom leaves its alliance; its units leave the map (the regulars are kept as
    survivors for a later re-activation); common mercenaries return to the pool."""

    kingdom: str
    why: str
    removed: tuple[str, ...]
    mercenaries: tuple[str, ...] = ()


@record("dr.MonarchDied")
class MonarchDied(Event):
    """A non-player monarch died; his personality card goes back among the unused ones."""

    kingdom: str
    cause: str


@record("dr.ConfusionBegan")
class ConfusionBegan(Event):
    """A kingdom in Confusion: no diplomacy with it until turn `until` (Kingdoms › Confusion)."""

    kingdom: str
    until: int


@record("dr.ForcedPeaceBegan")
class ForcedPeaceBegan(Event):
    """A kingdom under Forced Peace until turn `until` (Kingdoms › Forced Peace)."""

    kingdom: str
    until: int


@record("dr.MonarchCrowned")
class MonarchCrowned(Event):
    """Confusion ended: a new monarch with a new face-down personality card."""

    kingdom: str
    personality: int | None = private(None)


@record("dr.ForcedPeaceEnded")
class ForcedPeaceEnded(Event):
    kingdom: str


@record("dr.PlayerEliminated")
class PlayerEliminated(Event):
    """A player monarch killed or captured: the player is out (Fate of Player Kingdoms)."""

    player: str
    why: str


@record("dr.PlayerReentered")
class PlayerReentered(Event):
    """An eliminated player returns as the monarch of a new kingdom (optional rule)."""

    player: str
    kingdom: str
    placements: tuple[Placement, ...]


@record("dr.PenaltyIncurred")
class PenaltyIncurred(Event):
    """A permanent -1 on the player's diplomacy rolls with a kingdom (Inactive Kingdoms)."""

    player: str
    kingdom: str
    why: str


@record("dr.DiplomacyCardDrawn")
class DiplomacyCardDrawn(Event):
    """The player drew a diplomacy card (hidden until played)."""

    player: str
    card: str | None = private(None)


@record("dr.DiscardsReshuffled")
class DiscardsReshuffled(Event):
    """The deck ran out: the discard pile, shuffled, is the new deck (order hidden)."""

    size: int
    cards: tuple[str, ...] | None = private(None)


@record("dr.CardsDiscarded")
class CardsDiscarded(Event):
    player: str
    cards: tuple[str, ...]
    why: str


@record("dr.PersonalityRevealed")
class PersonalityRevealed(Event):
    """An ambassador first worked on the kingdom: its personality card is read out."""

    kingdom: str
    card: int


@record("dr.DiplomacyAttempted")
class DiplomacyAttempted(Event):
    """An activation or deactivation roll with every modifier and its result."""

    player: str
    kingdom: str
    attempt: str
    card: str | None
    roll: int
    modifiers: tuple[tuple[str, int], ...]
    total: int
    needed: int
    succeeded: bool


@record("dr.AmbassadorBanished")
class AmbassadorBanished(Event):
    """The player's ambassador may not work on `kingdom` until turn `until` (None: until
    its monarch dies)."""

    player: str
    kingdom: str
    until: int | None
    why: str


@record("dr.BanishmentsLifted")
class BanishmentsLifted(Event):
    """The offended monarch died: banishments lasting until his death end."""

    kingdom: str


@record("dr.AssassinationAttempted")
class AssassinationAttempted(Event):
    player: str
    kingdom: str
    ambassador_roll: int
    monarch_roll: int
    outcome: str


@record("dr.AmbassadorKilled")
class AmbassadorKilled(Event):
    """Diplomatic catastrophe: the player's ambassador works again on turn `back_on`."""

    player: str
    back_on: int
    why: str


@record("dr.DuelFought")
class DuelFought(Event):
    challenger: str
    opponent: str
    challenger_roll: int
    opponent_roll: int
    killed: tuple[str, ...]


@record("dr.ForcedPeaceAttempted")
class ForcedPeaceAttempted(Event):
    player: str
    kingdom: str
    roll: int
    succeeded: bool


@record("dr.DiplomacyPassed")
class DiplomacyPassed(Event):
    player: str
