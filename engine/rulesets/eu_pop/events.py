"""The facts an EU: The Price of Power record holds. Each carries its outcome, so replay
never needs the rules: a loan says how many interest tokens the realm holds afterwards, a
statement lists every line and the balance it leaves."""

from __future__ import annotations

from fractions import Fraction

from warscribe.engine.codec import record
from warscribe.engine.events import Event

from .state import Advisor, Ally, Leader, Power, Realm, Ruler, World

Deltas = tuple[tuple[str, Fraction | int], ...]

# Set-up, adjustments and the round


@record("eu.RealmEstablished")
class RealmEstablished(Event):
    realm: Realm


@record("eu.WorldSet")
class WorldSet(Event):
    """The papacy and the Empire as they now stand (set-up, or an adjustment)."""

    world: World
    reason: str


@record("eu.PhaseBegun")
class PhaseBegun(Event):
    round: int
    phase: str
    order: tuple[str, ...]


@record("eu.TurnEnded")
class TurnEnded(Event):
    """The realm finished its turn with the Turn Action described (played at the table)."""

    realm: str
    action: str
    next: str | None


@record("eu.Passed")
class Passed(Event):
    """The realm passed, gaining the ducats the rules for passing give (as entered)."""

    realm: str
    ducats: Fraction
    next: str | None


@record("eu.RealmAdjusted")
class RealmAdjusted(Event):
    """Changes by delta for an effect the record does not model, with its reason."""

    realm: str
    reason: str
    deltas: Deltas


@record("eu.CardDiscarded")
class CardDiscarded(Event):
    """A ruler, advisor or leader card left play for a reason the record does not model."""

    realm: str
    name: str
    kind: str
    reason: str


@record("eu.IdeasSet")
class IdeasSet(Event):
    realm: str
    ideas: tuple[str, ...]
    reason: str


@record("eu.AllySet")
class AllySet(Event):
    """An alliance as it now stands (made, or changed by war or peace)."""

    realm: str
    ally: Ally
    reason: str


@record("eu.AllyDropped")
class AllyDropped(Event):
    realm: str
    ally: str
    reason: str


# 5.2 Minor Actions


@record("eu.AdvisorFired")
class AdvisorFired(Event):
    realm: str
    slot: str
    name: str


@record("eu.AdvisorAppointed")
class AdvisorAppointed(Event):
    realm: str
    advisor: Advisor
    cost: int


@record("eu.LeaderAppointed")
class LeaderAppointed(Event):
    realm: str
    leader: Leader
    cost: int
    reaction: bool


@record("eu.GeneralReassigned")
class GeneralReassigned(Event):
    realm: str
    general: str
    army: str
    reaction: bool


@record("eu.RulerAppointed")
class RulerAppointed(Event):
    realm: str
    ruler: Ruler
    reaction: bool


@record("eu.AllyCalled")
class AllyCalled(Event):
    """A Call to Arms sent to one ally: the influence discarded from its areas, the NPR
    units added to available manpower and the military power gained."""

    realm: str
    ally: str
    mode: str
    influence: int
    units: int
    military_power: int
    reaction: bool


@record("eu.LoanTaken")
class LoanTaken(Event):
    """`interest_tokens` is how many the realm holds after this loan."""

    realm: str
    ducats: int
    interest_tokens: int
    reaction: bool
    purpose: str


@record("eu.LoanRepaid")
class LoanRepaid(Event):
    realm: str
    ducats: int
    interest_tokens: int


@record("eu.ManpowerReplenished")
class ManpowerReplenished(Event):
    realm: str
    units: int
    military_power: int


@record("eu.TiesCut")
class TiesCut(Event):
    """Influence and other tokens returned, alliances ended, and the penalty for ending
    them as entered (its rules lie in a section the record does not hold)."""

    realm: str
    influence: int
    ally_influence: tuple[tuple[str, int], ...]
    tokens: int
    ended: tuple[str, ...]
    penalty: Deltas


# 4.4 Phase 4: Income & Upkeep


@record("eu.CostsCut")
class CostsCut(Event):
    realm: str
    round: int
    fired: tuple[str, ...]
    regulars: int
    mercenaries: int
    ships: int
    recalled: int


@record("eu.StepClosedItself")
class StepClosedItself(Event):
    """`realm` had no choice in Phase 4's `step`, for `reason`: the rules recorded the step
    for it (the events that follow), as the command given with nothing chosen would have."""

    realm: str
    round: int
    step: str
    reason: str
    rule: str


@record("eu.ScoringTokensSet")
class ScoringTokensSet(Event):
    """Whether the realm holds a Crusade token and power struggle tokens, which step E
    scores (as entered) and removes."""

    realm: str
    crusade: bool
    power_struggle: bool
    reason: str


@record("eu.IncomeStepClosed")
class IncomeStepClosed(Event):
    round: int
    step: str


@record("eu.IncomeStatement")
class IncomeStatement(Event):
    """Step B for one realm, like a bank statement: each line signed, the total, the
    treasury before and after; `shortfall` is what bankruptcy left unpaid."""

    realm: str
    round: int
    lines: tuple[tuple[str, Fraction], ...]
    total: Fraction
    opening: Fraction
    closing: Fraction
    shortfall: Fraction


@record("eu.CorruptionSettled")
class CorruptionSettled(Event):
    realm: str
    round: int
    discarded: Fraction
    owed: int
    paid: int
    interest_tokens: int


@record("eu.MonarchPowerCollected")
class MonarchPowerCollected(Event):
    realm: str
    round: int
    lines: tuple[tuple[str, Power], ...]
    total: Power


@record("eu.PrestigeScored")
class PrestigeScored(Event):
    realm: str
    round: int
    lines: tuple[tuple[str, int], ...]
    total: int
