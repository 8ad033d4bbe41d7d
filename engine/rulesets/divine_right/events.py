"""Divine Right events: facts that carry their outcomes."""

from __future__ import annotations

from warscribe.engine.codec import added, record
from warscribe.engine.events import Event, Leaf, private

from .sections import (
    ACTIVATION_ATTEMPTS,
    ADVANCE_AFTER_COMBAT,
    AMPHIBIOUS_ATTACKS,
    ASSASSINATION_ATTEMPTS,
    BANISHING,
    BESIEGER_DISPLACEMENT,
    COMBAT_PHASE,
    CONFUSION,
    DEACTIVATION_ATTEMPTS,
    DEACTIVATION_OF_KINGDOMS,
    DECLARING_A_SIEGE,
    DIPLOMACY_CARDS,
    DUELING,
    ENDING_A_SIEGE,
    FATE_OF_PLAYER_KINGDOMS,
    FORCED_PEACE_ATTEMPTS,
    GAME_TURN,
    MAKING_ATTACKS,
    RESOLVING_A_SIEGE,
    RETREAT_BEFORE_COMBAT,
)
from .state import Attack, Hex


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

    CONCEALS_ROLL = True


@record("dr.DiplomacyDeckShuffled")
class DiplomacyDeckShuffled(Event):
    """The diplomacy deck shuffled face down; its order is hidden information."""

    size: int
    cards: tuple[str, ...] | None = private(None)

    CONCEALS_ROLL = True


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

    def rule_section(self) -> str | None:

        return GAME_TURN


@record("dr.PlayerTurnEnded")
class PlayerTurnEnded(Event):
    """The player on turn was eliminated: what is left of his player turn is not played
    (Kingdoms › Fate of Player Kingdoms: "eliminated from the game ... immediately")."""

    player: str
    phase: str

    def rule_section(self) -> str | None:
        return FATE_OF_PLAYER_KINGDOMS


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

    PRIVATE_OWNER = "player"

    def rule_section(self) -> str | None:

        return DIPLOMACY_CARDS


@record("dr.DiscardsReshuffled")
class DiscardsReshuffled(Event):
    """The deck ran out: the discard pile, shuffled, is the new deck (order hidden)."""

    size: int
    cards: tuple[str, ...] | None = private(None)

    CONCEALS_ROLL = True

    def rule_section(self) -> str | None:

        return DIPLOMACY_CARDS


@record("dr.CardsDiscarded")
class CardsDiscarded(Event):
    player: str
    cards: tuple[str, ...]
    why: str

    def discloses(self, earlier: Event) -> tuple[Leaf, ...]:
        """A discarded card is face up: the draw that brought it into the hand is public."""
        return _drawn_card(earlier, self.player, self.cards)

    def rule_section(self) -> str | None:

        return DIPLOMACY_CARDS


@record("dr.PersonalityRevealed")
class PersonalityRevealed(Event):
    """An ambassador first worked on the kingdom: its personality card is read out."""

    kingdom: str
    card: int

    def discloses(self, earlier: Event) -> tuple[Leaf, ...]:
        """The card read out is the one dealt face down under the monarch, or drawn for
        the monarch crowned after him."""
        if isinstance(earlier, MonarchCrowned) and earlier.kingdom == self.kingdom:
            return (("personality", None),) if earlier.personality == self.card else ()
        if isinstance(earlier, PersonalitiesDealt) and self.kingdom in earlier.kingdoms:
            item = earlier.kingdoms.index(self.kingdom)
            dealt = earlier.cards[item] if earlier.cards else None
            return (("cards", item),) if dealt == self.card else ()
        return ()


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

    def discloses(self, earlier: Event) -> tuple[Leaf, ...]:
        """A card played is shown: the draw that brought it into the hand is public."""
        return _drawn_card(earlier, self.player, (self.card,) if self.card else ())

    def rule_section(self) -> str | None:

        return ACTIVATION_ATTEMPTS if self.attempt == "activate" else DEACTIVATION_ATTEMPTS


@record("dr.AmbassadorBanished")
class AmbassadorBanished(Event):
    """The player's ambassador may not work on `kingdom` until turn `until` (None: until
    its monarch dies)."""

    player: str
    kingdom: str
    until: int | None
    why: str

    def rule_section(self) -> str | None:

        return BANISHING


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

    def rule_section(self) -> str | None:

        return ASSASSINATION_ATTEMPTS


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

    def rule_section(self) -> str | None:

        return DUELING


@record("dr.ForcedPeaceAttempted")
class ForcedPeaceAttempted(Event):
    player: str
    kingdom: str
    roll: int
    succeeded: bool

    def rule_section(self) -> str | None:

        return FORCED_PEACE_ATTEMPTS


@record("dr.DiplomacyPassed")
class DiplomacyPassed(Event):
    player: str


def _drawn_card(earlier: Event, player: str, cards: tuple[str, ...]) -> tuple[Leaf, ...]:
    """The card of `earlier` when it is `player`'s draw of one of `cards`."""
    if isinstance(earlier, DiplomacyCardDrawn) and earlier.player == player:
        return (("card", None),) if earlier.card in cards else ()
    return ()


# -- movement, fleets and heroes (Movement Phase; Heroes) ---------------------------------


@record("dr.StackMoved")
class StackMoved(Event):
    """A stack moved from `start` along `path`; `spent` the points each unit paid, `leader`
    the hero whose allowance and bonuses it used, `carried` the units aboard its fleets;
    `inside` whether it ends within the walls of the castle there."""

    player: str
    units: tuple[str, ...]
    start: Hex
    path: tuple[Hex, ...]
    spent: tuple[tuple[str, int], ...]
    leader: str | None = None
    carried: tuple[str, ...] = ()
    inside: bool = False


@record("dr.FerryUsed")
class FerryUsed(Event):
    """A fleet ferried combat units across the navigable river: one of its movement points
    for each (heroes cross free)."""

    fleet: str
    units: tuple[str, ...]
    points: int


@record("dr.HexSearched")
class HexSearched(Event):
    """Combat units spent the space's terrain cost searching it for enemy heroes."""

    player: str
    units: tuple[str, ...]
    hex: Hex
    spent: tuple[tuple[str, int], ...]


@record("dr.UnitsEmbarked")
class UnitsEmbarked(Event):
    fleet: str
    units: tuple[str, ...]


@record("dr.UnitsDebarked")
class UnitsDebarked(Event):
    """Units left the fleet into its space (within the walls of a castle-port whose port the
    fleet is in, if `inside`); those it carried while moving may not move again this turn."""

    fleet: str
    units: tuple[str, ...]
    hex: Hex
    inside: bool = False


@record("dr.UnitsWalled")
class UnitsWalled(Event):
    """Units went inside the walls of the castle (or port) of their space, or came out."""

    player: str
    units: tuple[str, ...]
    inside: bool


@record("dr.UnitsDisbanded")
class UnitsDisbanded(Event):
    """Units voluntarily eliminated by their player (to avoid a diplomatic penalty)."""

    player: str
    units: tuple[str, ...]
    why: str


@record("dr.HeroFateRolled")
class HeroFateRolled(Event):
    """A Hero Fate Roll: `trigger` is its number in Heroes › Hero Fate Roll; `result`
    killed, captured, castaway or no effect; `by` the enemy player it is owed to."""

    hero: str
    trigger: int
    why: str
    roll: int
    result: str
    hex: Hex
    by: str | None = None


@record("dr.MonarchCaptured")
class MonarchCaptured(Event):
    """A non-player monarch taken prisoner by `captor`, held in `prison` (None while the
    captor, having no castle to hold him, decides to execute or free him)."""

    kingdom: str
    captor: str
    hex: Hex
    prison: str | None


@record("dr.CaptiveFateAsked")
class CaptiveFateAsked(Event):
    """The captor has no castle to hold the prisoner: execute him or set him free."""

    player: str
    kingdom: str


@record("dr.PrisonerExecuted")
class PrisonerExecuted(Event):
    kingdom: str
    by: str


@record("dr.PrisonerFreed")
class PrisonerFreed(Event):
    """A captive monarch back on the map at `hex`."""

    kingdom: str
    hex: Hex
    why: str


@record("dr.SuccessorEntered")
class SuccessorEntered(Event):
    """A monarch crowned while his kingdom stays active (a besieger kept his siege after
    the old one's death) enters the map at `hex`, within the castle's walls if `inside`."""

    kingdom: str
    hex: Hex
    inside: bool

    def rule_section(self) -> str | None:
        return CONFUSION


@record("dr.HeroCastAway")
class HeroCastAway(Event):
    """A shipwrecked hero washed up at `hex` (the Isle of Fright, or a shore of an inland
    water)."""

    hero: str
    hex: Hex


@record("dr.HeroRescued")
class HeroRescued(Event):
    """Castaways picked up by a friendly fleet entering the Isle of Fright."""

    fleet: str
    heroes: tuple[str, ...]


@record("dr.CargoLost")
class CargoLost(Event):
    """Land combat units aboard a lost fleet are lost with it."""

    fleet: str
    units: tuple[str, ...]


@record("dr.UnitsRelocated")
class UnitsRelocated(Event):
    """Units set up or put elsewhere where the rules say (an invaded kingdom's units whose
    deployment space the enemy holds, the Trollish monarch entering play, a freed captive,
    enemy fleets displaced from a non-castle port)."""

    units: tuple[str, ...]
    hex: Hex
    why: str


@record("dr.PlacementChosen")
class PlacementChosen(Event):
    """`player` answers a placement decision of `kind` (`place`): `units` go to `hex`
    (what follows is the placement itself, e.g. `UnitsRelocated`)."""

    player: str
    kind: str
    units: tuple[str, ...]
    hex: Hex


@record("dr.CastawayDecided")
class CastawayDecided(Event):
    """A castaway's player decides: he stays on a neutral kingdom's shore (the diplomatic
    penalty follows) or is eliminated voluntarily (Heroes › Shipwrecked Heroes)."""

    player: str
    hero: str
    eliminated: bool


@record("dr.UnitsAwaitPlacement")
class UnitsAwaitPlacement(Event):
    """Units of a kingdom entering play (set-up, activation, re-entry) that its controller
    places one by one (`UnitPlaced`): Zorn's goblins, on its mountain and pass spaces."""

    kingdom: str
    units: tuple[str, ...]


@record("dr.UnitPlaced")
class UnitPlaced(Event):
    """A unit its controller chose a space for as it entered play (Special Rules for
    Select Kingdoms › Zorn: one goblin per mountain or pass space, none adjacent)."""

    unit: str
    kingdom: str
    kind: str
    hex: Hex
    place: str


@record("dr.PlacementBlocked")
class PlacementBlocked(Event):
    """Units entering play with no space the rules allow left for them: they stay out of
    play, as eliminated units of their kingdom (Special Rules for Select Kingdoms › Zorn)."""

    kingdom: str
    units: tuple[str, ...]
    why: str


@record("dr.TrollLostToEvents")
class TrollLostToEvents(Event):
    """Troll regulars lost through a Random Event: not regenerated in that game turn."""

    units: tuple[str, ...]
    turn: int


@record("dr.TrollRegenerated")
class TrollRegenerated(Event):
    """The Trolls replace one eliminated regular at its deployment space."""

    unit: str
    hex: Hex
    place: str


# -- decisions asked of a player -----------------------------------------------------------------


@record("dr.DecisionAsked")
class DecisionAsked(Event):
    """Play waits on `player`'s decision of `kind` (`count` among `options` where units are
    chosen). With `queue` (as every one did before the flag), a decision asked while
    another waits is queued and asked in turn, first in first out; without it (a random
    event's choice) it is asked at once."""

    player: str
    kind: str
    options: tuple[str, ...]
    count: int
    why: str
    queue: bool = added(True)


@record("dr.ChoiceAsked")
class ChoiceAsked(Event):
    """A random event's choice as logs written before `DecisionAsked` took its `queue`
    flag recorded it; it replays as that (`upcast`), and is no longer decided."""

    player: str
    kind: str
    options: tuple[str, ...]
    count: int
    why: str

    def upcast(self) -> DecisionAsked:
        return DecisionAsked(self.player, self.kind, self.options, self.count, self.why, False)


@record("dr.DecisionWithdrawn")
class DecisionWithdrawn(Event):
    """A decision asked (or queued) of `player` is no longer asked: what it asked about
    is over (`why`), ended by something else than its answer."""

    player: str
    kind: str
    options: tuple[str, ...]
    why: str


# -- sieges (Siege Phase) --------------------------------------------------------------------


@record("dr.SiegeDeclared")
class SiegeDeclared(Event):
    """A stack entered an enemy (or neutral) castle space meeting the conditions of a siege:
    `besieging` combat units against the castle's `defence` plus the `inside` units."""

    castle: str
    kingdom: str | None
    hex: Hex
    besieger: str
    units: tuple[str, ...]
    besieging: int
    inside: int
    defence: int
    how: str

    def rule_section(self) -> str | None:
        return DECLARING_A_SIEGE


@record("dr.SiegeInvalidated")
class SiegeInvalidated(Event):
    """The besiegers fell below the castle's defence plus the units inside: no more siege
    rolls, and they are displaced at the end of the game turn."""

    castle: str
    besieger: str
    besieging: int
    inside: int
    defence: int
    why: str

    def rule_section(self) -> str | None:
        return BESIEGER_DISPLACEMENT


@record("dr.SiegeEnded")
class SiegeEnded(Event):
    castle: str
    besieger: str
    why: str

    def rule_section(self) -> str | None:
        return ENDING_A_SIEGE


@record("dr.SiegeAttacked")
class SiegeAttacked(Event):
    """A Siege Roll: every combat unit of the besieging stack attacks; 1 fails (a natural 1
    always), 6 or more plunders."""

    castle: str
    besieger: str
    units: tuple[str, ...]
    roll: int
    modifiers: tuple[tuple[str, int], ...]
    total: int
    result: str
    besieging: int
    inside: int
    defence: int

    def rule_section(self) -> str | None:
        return RESOLVING_A_SIEGE


@record("dr.CastlePlundered")
class CastlePlundered(Event):
    """The castle is taken: the combat units inside are eliminated; it stays plundered for
    the rest of the game."""

    castle: str
    kingdom: str | None
    by: str
    eliminated: tuple[str, ...]

    def rule_section(self) -> str | None:
        return RESOLVING_A_SIEGE


@record("dr.UnitsDisplaced")
class UnitsDisplaced(Event):
    """Units displaced from `start` to the adjacent space `hex` (outside any walls)."""

    player: str
    units: tuple[str, ...]
    start: Hex
    hex: Hex
    why: str

    def rule_section(self) -> str | None:
        return BESIEGER_DISPLACEMENT


@record("dr.SiegeVetoAsked")
class SiegeVetoAsked(Event):
    """A `change` (deactivation, forced peace, confusion) of a kingdom with castles under
    siege waits on its besiegers: each keeps or gives up his siege."""

    kingdom: str
    change: str
    why: str
    by: str | None
    besiegers: tuple[str, ...]

    def rule_section(self) -> str | None:
        return DEACTIVATION_OF_KINGDOMS


@record("dr.SiegeKept")
class SiegeKept(Event):
    """A besieger refused to give up his siege: the change does not happen."""

    player: str
    kingdom: str
    change: str

    def rule_section(self) -> str | None:
        return DEACTIVATION_OF_KINGDOMS


@record("dr.SiegeGivenUp")
class SiegeGivenUp(Event):
    player: str
    kingdom: str

    def rule_section(self) -> str | None:
        return DEACTIVATION_OF_KINGDOMS


# -- combat (Combat Phase; breakouts) ----------------------------------------------------------


@record("dr.AttacksDeclared")
class AttacksDeclared(Event):
    """Every attack of the player's Combat Phase, declared before any is resolved."""

    player: str
    attacks: tuple[Attack, ...]

    def rule_section(self) -> str | None:
        return COMBAT_PHASE


@record("dr.AttackBegun")
class AttackBegun(Event):
    """Attack `number` (0: a breakout) is resolved now: these units against those."""

    number: int
    kind: str
    attacker: str
    defender: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    spaces: tuple[Hex, ...]
    relief: str | None = None
    helpers: tuple[str, ...] = ()


@record("dr.RetreatRolled")
class RetreatRolled(Event):
    """A retreat roll before combat for the land units (or fleets) of a defending space:
    the groups tested, what each needs, and those the roll lets go."""

    player: str
    space: Hex
    fleets: bool
    groups: tuple[tuple[str, int], ...]
    roll: int
    allowed: tuple[str, ...]

    def rule_section(self) -> str | None:
        return RETREAT_BEFORE_COMBAT


@record("dr.UnitsRetreated")
class UnitsRetreated(Event):
    player: str
    units: tuple[str, ...]
    start: Hex
    hex: Hex

    def rule_section(self) -> str | None:
        return RETREAT_BEFORE_COMBAT


@record("dr.DefendersStood")
class DefendersStood(Event):
    """The defender tries no (further) retreat: the attack is fought."""

    player: str
    number: int


@record("dr.BattleFought")
class BattleFought(Event):
    """The Combat Roll of both sides: strengths, odds and every modifier, totals, and the
    losses each side must take."""

    number: int
    kind: str
    attacker: str
    defender: str
    attacking: int
    defending: int
    attacker_roll: int
    defender_roll: int
    attacker_modifiers: tuple[tuple[str, int], ...]
    defender_modifiers: tuple[tuple[str, int], ...]
    attacker_total: int
    defender_total: int
    attacker_losses: int
    defender_losses: int

    def rule_section(self) -> str | None:
        return MAKING_ATTACKS


@record("dr.UnitsEliminated")
class UnitsEliminated(Event):
    """Combat units lost (chosen by their owner, or all of them): regulars become eliminated
    units of their kingdom, common mercenaries go back to the pool; `losses` when they
    are the losses a battle or a siege roll asked of the player."""

    player: str
    units: tuple[str, ...]
    why: str
    losses: bool = False


@record("dr.UnitsAdvanced")
class UnitsAdvanced(Event):
    """Attacking units advanced after combat into `hex` (inside its walls if `inside`),
    with the units their fleets carry (landed there if `landed`)."""

    player: str
    units: tuple[str, ...]
    start: Hex
    hex: Hex
    inside: bool
    carried: tuple[str, ...] = ()
    landed: bool = False

    def rule_section(self) -> str | None:
        return ADVANCE_AFTER_COMBAT


@record("dr.AdvanceDeclined")
class AdvanceDeclined(Event):
    player: str
    number: int


@record("dr.AttackEnded")
class AttackEnded(Event):
    number: int
    why: str


@record("dr.WithdrawalLosses")
class WithdrawalLosses(Event):
    """A lost amphibious attack: half the surviving attackers (rounded down) are also lost
    withdrawing."""

    number: int
    player: str
    survivors: int
    count: int

    def rule_section(self) -> str | None:
        return AMPHIBIOUS_ATTACKS


@record("dr.FleetsCameOut")
class FleetsCameOut(Event):
    """The defender's fleets within the walls of a castle-port came out to defend it
    against an amphibious attack (none: `units` empty); they stay outside after it."""

    number: int
    player: str
    units: tuple[str, ...]

    def rule_section(self) -> str | None:
        return AMPHIBIOUS_ATTACKS


@record("dr.RetreatedAttacked")
class RetreatedAttacked(Event):
    """Units that retreated before combat still next to their attackers are attacked all
    the same (none: `units` empty); they retreat no more."""

    number: int
    player: str
    units: tuple[str, ...]

    def rule_section(self) -> str | None:
        return RETREAT_BEFORE_COMBAT
