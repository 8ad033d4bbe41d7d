"""Divine Right's events as sentences of the story (its presenter's `sentences`), in the
rulebook's words: cards named as the deck and personality files name them, units by
their counters' ids, hexes as `col,row`. Each is told on the state before it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from warscribe.engine.words import listed

from .. import events as ev
from .. import random_events as rand
from ..data import load_custom
from ..state import Hex, State
from ..tables import phase_title

Sentence = Callable[[Any, State], str | None]


def _hex(at: Hex | None) -> str:
    return "?" if at is None else f"{at[0]},{at[1]}"


def _card(card: str | None, state: State) -> str:
    """A diplomacy card as the deck names it: its ploy and bonus (`Bribe +2`)."""
    if card is None:
        return "a card hidden from this copy"
    found = next((c for c in load_custom(state.custom_data).deck if c.id == card), None)
    return card if found is None else f"{found.ploy} +{found.bonus}"


def _personality(number: int | None, state: State) -> str:
    """A personality card as its file names it (`card 5, Grand Duke Urbis`)."""
    if number is None:
        return "a card hidden from this copy"
    names = {p.number: p.name for p in load_custom(state.custom_data).personalities}
    name = names.get(number)
    return f"personality card {number}" + (f" ({name})" if name else "")


def _units(units: Iterable[str]) -> str:
    return listed(units)


def _modified(roll: int, modifiers: Iterable[tuple[str, int]], total: int) -> str:
    added = "".join(f" {value:+d} ({why})" for why, value in modifiers if value)
    return f"{roll}{added} = {total}" if added else str(roll)


def _placed(placements: Iterable[ev.Placement]) -> str:
    return listed(f"{p.unit} at {_hex(p.hex)}" for p in placements)


def _battle(e: ev.BattleFought, state: State) -> str:
    """`carol attacked alice at 9,3 with 4 against 2 (2 to 1): 3+2=5 against 5+1=6; carol
    loses 1` (Combat Phase › Making Attacks)."""
    fight = state.turn.progress.fight if state.turn is not None else None
    where = f" at {listed(map(_hex, fight.spaces))}" if fight is not None and fight.spaces else ""
    odds = next(
        (why[5:].split(" (")[0] for why, _ in e.attacker_modifiers if why.startswith("odds ")), None
    )
    losses = [
        f"{p} loses {n}"
        for p, n in ((e.attacker, e.attacker_losses), (e.defender, e.defender_losses))
        if n
    ]
    return (
        f"battle {e.number}: {e.attacker} attacked {e.defender}{where} with {e.attacking} against "
        f"{e.defending}" + (f" ({odds})" if odds else "") + ": "
        f"{_sum(e.attacker_roll, e.attacker_modifiers, e.attacker_total)} against "
        f"{_sum(e.defender_roll, e.defender_modifiers, e.defender_total)}; "
        + ("; ".join(losses) or "no losses")
    )


def _sum(roll: int, modifiers: Iterable[tuple[str, int]], total: int) -> str:
    """A battle roll: `3+2=5`, a modifier other than the odds named (`3+2+1 (castle)=6`)."""
    added = "".join(f"{value:+d}" for _, value in modifiers if value)
    named = [why for why, value in modifiers if value and not why.startswith("odds ")]
    return (
        f"{roll}{added}"
        + (f" ({', '.join(named)})" if named else "")
        + (f"={total}" if added else "")
    )


def _siege_attack(e: ev.SiegeAttacked, state: State) -> str:
    roll = _modified(e.roll, e.modifiers, e.total)
    return (
        f"{e.besieger} attacked the siege of {e.castle} with {_units(e.units)}: rolled {roll}, "
        f"{e.result} ({e.besieging} besieging, {e.inside} inside, defence {e.defence})"
    )


def _diplomacy(e: ev.DiplomacyAttempted, state: State) -> str:
    card = f" with {_card(e.card, state)}" if e.card else ""
    how = "succeeded" if e.succeeded else "failed"
    roll = _modified(e.roll, e.modifiers, e.total)
    tried = f"{e.player} tried to {e.attempt} {e.kingdom}{card}"
    return f"{tried}: rolled {roll}, needed {e.needed}, {how}"


def _moved(e: ev.StackMoved, state: State) -> str:
    led = f" led by {e.leader}" if e.leader else ""
    carried = f", carrying {_units(e.carried)}" if e.carried else ""
    inside = " into the castle" if e.inside else ""
    end = _hex(e.path[-1]) if e.path else _hex(e.start)
    steps = f" ({len(e.path)} hexes)" if len(e.path) > 1 else ""
    moved = f"{e.player} moved {_units(e.units)}{led} from {_hex(e.start)}"
    return f"{moved} to {end}{inside}{steps}{carried}"


_HOW = re.compile(r"\s*\([^()]*(?:=|[A-Z]{4,}|\.\.\.)[^()]*\)")
"""The command line a question shows how to answer with (`(events lose units=A,B,...)`):
the story tells what was asked, not what to type."""


def _asked(player: str, options: tuple[str, ...], why: str) -> str:
    among = f" (among {listed(options, 4)})" if options else ""
    return f"{player} is asked: {_HOW.sub('', why)}{among}"


SENTENCES: Mapping[type, Sentence] = {
    # Game Setup
    ev.IdentityTaken: lambda e, s: (
        f"{e.player} {'chose' if e.chosen else 'drew'} {e.kingdom}'s identity card"
    ),
    ev.KingdomDeployed: lambda e, s: f"{e.kingdom} deployed {_placed(e.placements)}",
    ev.PersonalitiesDealt: lambda e, s: (
        f"a personality card was dealt face down to each of {listed(e.kingdoms)}"
    ),
    ev.DiplomacyDeckShuffled: lambda e, s: f"the diplomacy deck of {e.size} cards was shuffled",
    ev.PlayerOrderDrawn: lambda e, s: (
        f"turn {e.turn}: the randomizer chits ("
        + ", ".join(f"{p} {chit}" for p, chit in e.chits)
        + f") set the order {', '.join(e.order)}"
    ),
    # The Game Turn
    ev.PhaseEnded: lambda e, s: f"{e.player} ended the {phase_title(e.phase)}",
    ev.PlayerTurnEnded: lambda e, s: (
        f"{e.player}'s player turn ended in the {phase_title(e.phase)}"
    ),
    ev.GameEnded: lambda e, s: (
        f"the game ended ({e.why}): won by {listed(e.winners)}; "
        + ", ".join(f"{p} {points}" for p, points in e.scores)
    ),
    ev.PointsScored: lambda e, s: f"{e.player} scored {e.points} points: {e.deed}",
    ev.PointsForfeited: lambda e, s: f"{e.player} forfeited {e.points} points",
    # Kingdoms
    ev.KingdomActivated: lambda e, s: (
        f"{e.kingdom} was activated as {e.ally}'s ally ({e.why})"
        + (f"; it set up {_placed(e.placements)}" if e.placements else "")
    ),
    ev.KingdomDeactivated: lambda e, s: (
        f"{e.kingdom} was deactivated ({e.why})"
        + (f"; removed {_units(e.removed)}" if e.removed else "")
    ),
    ev.MonarchDied: lambda e, s: f"the monarch of {e.kingdom} died ({e.cause})",
    ev.ConfusionBegan: lambda e, s: f"{e.kingdom} fell into confusion until turn {e.until}",
    ev.ForcedPeaceBegan: lambda e, s: f"a forced peace binds {e.kingdom} until turn {e.until}",
    ev.ForcedPeaceEnded: lambda e, s: f"the forced peace on {e.kingdom} ended",
    ev.MonarchCrowned: lambda e, s: (
        f"a new monarch was crowned in {e.kingdom}"
        + (f": {_personality(e.personality, s)}" if e.personality is not None else "")
    ),
    ev.PlayerEliminated: lambda e, s: f"{e.player} was eliminated: {e.why}",
    ev.PlayerReentered: lambda e, s: (
        f"{e.player} re-entered the game with {e.kingdom}, placing {_placed(e.placements)}"
    ),
    ev.PenaltyIncurred: lambda e, s: f"{e.player} incurred a penalty with {e.kingdom}: {e.why}",
    ev.UnitsAwaitPlacement: lambda e, s: f"{_units(e.units)} of {e.kingdom} wait to be placed",
    ev.UnitPlaced: lambda e, s: f"{e.unit} ({e.kind}) of {e.kingdom} was placed at {e.place}",
    ev.PlacementChosen: lambda e, s: f"{e.player} placed {_units(e.units)} at {_hex(e.hex)}",
    ev.PlacementBlocked: lambda e, s: f"{_units(e.units)} of {e.kingdom} cannot be placed: {e.why}",
    ev.DecisionAsked: lambda e, s: _asked(e.player, e.options, e.why),
    # Diplomacy Phase
    ev.DiplomacyCardDrawn: lambda e, s: f"{e.player} drew a diplomacy card: {_card(e.card, s)}",
    ev.DiscardsReshuffled: lambda e, s: f"the {e.size} discarded diplomacy cards were reshuffled",
    ev.CardsDiscarded: lambda e, s: (
        f"{e.player} discarded {listed(_card(c, s) for c in e.cards)} ({e.why})"
    ),
    ev.PersonalityRevealed: lambda e, s: (
        f"{e.kingdom}'s personality card was turned face up: {_personality(e.card, s)}"
    ),
    ev.DiplomacyAttempted: _diplomacy,
    ev.AmbassadorBanished: lambda e, s: (
        f"{e.player}'s ambassador was banished from {e.kingdom}"
        + (f" until turn {e.until}" if e.until is not None else "")
        + f" ({e.why})"
    ),
    ev.BanishmentsLifted: lambda e, s: f"the ambassadors banished from {e.kingdom} may return",
    ev.AssassinationAttempted: lambda e, s: (
        f"{e.player}'s ambassador tried to assassinate {e.kingdom}'s monarch: "
        f"{e.ambassador_roll} against {e.monarch_roll}, {e.outcome}"
    ),
    ev.AmbassadorKilled: lambda e, s: (
        f"{e.player}'s ambassador was killed ({e.why}); a new one comes on turn {e.back_on}"
    ),
    ev.DuelFought: lambda e, s: (
        f"{e.challenger}'s ambassador dueled {e.opponent}'s: {e.challenger_roll} against "
        f"{e.opponent_roll}; killed: {listed(e.killed)}"
    ),
    ev.ForcedPeaceAttempted: lambda e, s: (
        f"{e.player} tried to force peace on {e.kingdom}: rolled {e.roll}, "
        + ("succeeded" if e.succeeded else "failed")
    ),
    ev.DiplomacyPassed: lambda e, s: f"{e.player} made no diplomacy attempt",
    # Random Events Phase
    rand.RandomEventRolled: lambda e, s: (
        f"{e.player} rolled {e.total} for the random event: {e.event}"
    ),
    rand.RandomEventVoid: lambda e, s: f"{e.event} has no effect: {e.why}",
    rand.RandomlyPicked: lambda e, s: (
        f"{e.event} fell on {e.picked}"
        + (f" (rolled {e.roll} among {listed(e.candidates)})" if e.roll is not None else "")
    ),
    ev.ChoiceAsked: lambda e, s: _asked(e.player, e.options, e.why),
    rand.UnitsLost: lambda e, s: f"{e.player} lost {_units(e.units)} to {e.event}",
    rand.RegularReplaced: lambda e, s: f"{e.unit} of {e.kingdom} came back at {e.place}",
    rand.MercenaryEntered: lambda e, s: (
        f"{e.player} brought in mercenary {e.unit} ({e.kind}) at {e.place}"
        + (f", taken from {e.stolen_from}" if e.stolen_from else "")
    ),
    rand.ReinforcementsDeclined: lambda e, s: f"{e.player} declined {e.short} reinforcements",
    rand.BadOmensFell: lambda e, s: f"bad omens fell on {e.kingdom} for turn {e.turn}",
    # Movement Phase
    ev.StackMoved: _moved,
    ev.FerryUsed: lambda e, s: f"{e.fleet} ferried {_units(e.units)} ({e.points} movement points)",
    ev.HexSearched: lambda e, s: f"{e.player} searched {_hex(e.hex)} with {_units(e.units)}",
    ev.UnitsEmbarked: lambda e, s: f"{_units(e.units)} embarked on {e.fleet}",
    ev.UnitsDebarked: lambda e, s: f"{_units(e.units)} landed from {e.fleet} at {_hex(e.hex)}",
    ev.UnitsWalled: lambda e, s: (
        f"{e.player} {'walled' if e.inside else 'brought'} {_units(e.units)} "
        + ("inside the castle" if e.inside else "out of the castle")
    ),
    ev.UnitsDisbanded: lambda e, s: f"{e.player} disbanded {_units(e.units)} ({e.why})",
    ev.UnitsRelocated: lambda e, s: f"{_units(e.units)} went to {_hex(e.hex)} ({e.why})",
    ev.HeroFateRolled: lambda e, s: (
        f"hero fate roll for {e.hero} at {_hex(e.hex)} ({e.why}): rolled {e.roll}, {e.result}"
    ),
    ev.MonarchCaptured: lambda e, s: (
        f"{e.captor} captured the monarch of {e.kingdom} at {_hex(e.hex)}"
    ),
    ev.CaptiveFateAsked: lambda e, s: (
        f"{e.player} decides the fate of {e.kingdom}'s captive monarch"
    ),
    ev.PrisonerExecuted: lambda e, s: f"{e.by} executed the captive monarch of {e.kingdom}",
    ev.PrisonerFreed: lambda e, s: (
        f"the captive monarch of {e.kingdom} went free at {_hex(e.hex)} ({e.why})"
    ),
    ev.SuccessorEntered: lambda e, s: f"{e.kingdom}'s successor entered at {_hex(e.hex)}",
    ev.HeroCastAway: lambda e, s: f"{e.hero} was cast away at {_hex(e.hex)}",
    ev.HeroRescued: lambda e, s: f"{e.fleet} rescued {_units(e.heroes)}",
    ev.CargoLost: lambda e, s: f"{e.fleet} lost its cargo: {_units(e.units)}",
    ev.CastawayDecided: lambda e, s: (
        f"{e.player} decided {e.hero} {'is lost' if e.eliminated else 'stays cast away'}"
    ),
    ev.TrollLostToEvents: lambda e, s: (
        f"{_units(e.units)} were lost to the events of turn {e.turn}"
    ),
    # Siege Phase
    ev.SiegeDeclared: lambda e, s: (
        f"{e.besieger} laid siege to {e.castle} at {_hex(e.hex)} with {_units(e.units)} "
        f"({e.besieging} besieging, {e.inside} inside, defence {e.defence})"
    ),
    ev.SiegeInvalidated: lambda e, s: (
        f"the siege of {e.castle} by {e.besieger} no longer holds: {e.why}"
    ),
    ev.SiegeEnded: lambda e, s: f"the siege of {e.castle} by {e.besieger} ended: {e.why}",
    ev.SiegeAttacked: _siege_attack,
    ev.CastlePlundered: lambda e, s: (
        f"{e.by} plundered {e.castle}"
        + (f", eliminating {_units(e.eliminated)}" if e.eliminated else "")
    ),
    ev.UnitsDisplaced: lambda e, s: (
        f"{e.player}'s {_units(e.units)} were displaced from {_hex(e.start)} "
        f"to {_hex(e.hex)} ({e.why})"
    ),
    ev.SiegeVetoAsked: lambda e, s: f"{e.kingdom}'s besiegers may veto: {e.why}",
    ev.SiegeKept: lambda e, s: f"{e.player} kept the siege of {e.kingdom} ({e.change} refused)",
    # Combat Phase
    ev.AttacksDeclared: lambda e, s: (
        f"{e.player} declared {len(e.attacks)} attack{'s' if len(e.attacks) != 1 else ''}: "
        + "; ".join(
            f"{a.number}: {_units(a.units)} on {a.defender} at {listed(map(_hex, a.spaces))}"
            for a in e.attacks
        )
    ),
    ev.AttackBegun: lambda e, s: (
        f"attack {e.number} ({e.kind}): {e.attacker}'s {_units(e.attackers)} against "
        f"{e.defender}'s {_units(e.defenders)} at {listed(map(_hex, e.spaces))}"
    ),
    ev.RetreatRolled: lambda e, s: (
        f"{e.player} rolled {e.roll} to retreat from {_hex(e.space)}: "
        + (f"{_units(e.allowed)} may go" if e.allowed else "none may go")
    ),
    ev.UnitsRetreated: lambda e, s: (
        f"{e.player} retreated {_units(e.units)} from {_hex(e.start)} to {_hex(e.hex)}"
    ),
    ev.DefendersStood: lambda e, s: f"{e.player} stood to fight attack {e.number}",
    ev.BattleFought: _battle,
    ev.UnitsEliminated: lambda e, s: f"{e.player} lost {_units(e.units)} ({e.why})",
    ev.UnitsAdvanced: lambda e, s: (
        f"{e.player} advanced {_units(e.units)} from {_hex(e.start)} to {_hex(e.hex)}"
    ),
    ev.AdvanceDeclined: lambda e, s: f"{e.player} did not advance after attack {e.number}",
    ev.AttackEnded: lambda e, s: f"attack {e.number} ended ({e.why})",
    ev.WithdrawalLosses: lambda e, s: (
        f"{e.player} lost {e.count} withdrawing after attack {e.number}, {e.survivors} left"
    ),
    ev.FleetsCameOut: lambda e, s: (
        f"{e.player}'s fleets {_units(e.units)} came out for attack {e.number}"
    ),
    ev.RetreatedAttacked: lambda e, s: (
        f"{e.player}'s retreated {_units(e.units)} were attacked again ({e.number})"
    ),
}
"""Each event class's sentence."""
