"""eu-pop's events as sentences of the story (its presenter's `sentences`), in the
rulebook's words: realms, cards and allies by the names the start file and the cards give
them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from warscribe.engine.words import listed

from . import events as ev
from .state import EuState, Power

Sentence = Callable[[Any, EuState], str | None]


def _number(value: Fraction | int) -> str:
    number = Fraction(value)
    return str(number.numerator) if number.denominator == 1 else f"{float(number):.2f}"


def _ducats(value: Fraction | int) -> str:
    return f"{_number(value)} ducats"


def _power(power: Power) -> str:
    return f"{power.adm} ADM, {power.dip} DIP, {power.mil} MIL"


def _lines(lines: Iterable[tuple[str, Any]], shown: Callable[[Any], str]) -> str:
    return "; ".join(f"{name} {shown(value)}" for name, value in lines)


def _signed(value: Fraction | int) -> str:
    return ("+" if value >= 0 else "-") + _ducats(-value if value < 0 else value)


def _reaction(reaction: bool) -> str:
    return " as a reaction" if reaction else ""


SENTENCES: Mapping[type, Sentence] = {
    ev.RealmEstablished: lambda e, s: (
        f"{e.realm.name} ({e.realm.player}) begins with {_ducats(e.realm.ducats)}, "
        f"{_power(e.realm.power)}, ruled by {e.realm.ruler.name}"
    ),
    ev.WorldSet: lambda e, s: f"the papacy and the Empire were set ({e.reason})",
    ev.PhaseBegun: lambda e, s: f"round {e.round}, {e.phase} began; order {', '.join(e.order)}",
    ev.TurnEnded: lambda e, s: (
        f"{e.realm} took its turn: {e.action}" + (f"; {e.next} is next" if e.next else "")
    ),
    ev.Passed: lambda e, s: (
        f"{e.realm} passed, gaining {_ducats(e.ducats)}" + (f"; {e.next} is next" if e.next else "")
    ),
    ev.RealmAdjusted: lambda e, s: (
        f"{e.realm} was adjusted ({e.reason}): "
        + ", ".join(
            f"{name} {'+' if value >= 0 else ''}{_number(value)}" for name, value in e.deltas
        )
    ),
    ev.CardDiscarded: lambda e, s: f"{e.realm} discarded the {e.kind} {e.name} ({e.reason})",
    ev.IdeasSet: lambda e, s: f"{e.realm}'s ideas are now {listed(e.ideas)} ({e.reason})",
    ev.AllySet: lambda e, s: f"{e.realm} is allied with {e.ally.name} ({e.reason})",
    ev.AllyDropped: lambda e, s: f"{e.realm} is no longer allied with {e.ally} ({e.reason})",
    ev.AdvisorFired: lambda e, s: f"{e.realm} fired {e.name}, its {e.slot} advisor",
    ev.AdvisorAppointed: lambda e, s: (
        f"{e.realm} appointed {e.advisor.name} as {e.advisor.slot} advisor for {e.cost} power"
    ),
    ev.LeaderAppointed: lambda e, s: (
        f"{e.realm} appointed the {e.leader.kind} {e.leader.name} for {e.cost} power"
        + _reaction(e.reaction)
    ),
    ev.GeneralReassigned: lambda e, s: (
        f"{e.realm} gave {e.general} command of {e.army}" + _reaction(e.reaction)
    ),
    ev.RulerAppointed: lambda e, s: (
        f"{e.realm} crowned {e.ruler.name} ({_power(e.ruler.skills)})" + _reaction(e.reaction)
    ),
    ev.AllyCalled: lambda e, s: (
        f"{e.realm} called {e.ally} to arms ({e.mode}): {e.units} units, "
        f"{e.military_power} MIL, {e.influence} influence spent" + _reaction(e.reaction)
    ),
    ev.LoanTaken: lambda e, s: (
        f"{e.realm} took a loan of {_ducats(e.ducats)} for {e.purpose}"
        f" ({e.interest_tokens} interest tokens now)" + _reaction(e.reaction)
    ),
    ev.LoanRepaid: lambda e, s: (
        f"{e.realm} repaid {_ducats(e.ducats)} ({e.interest_tokens} interest tokens left)"
    ),
    ev.ManpowerReplenished: lambda e, s: (
        f"{e.realm} replenished {e.units} manpower for {e.military_power} MIL"
    ),
    ev.TiesCut: lambda e, s: (
        f"{e.realm} cut its ties: {e.influence} influence and {e.tokens} tokens returned"
        + (f", alliances with {listed(e.ended)} ended" if e.ended else "")
    ),
    ev.CostsCut: lambda e, s: (
        f"{e.realm} cut its costs for round {e.round}: {e.regulars} regulars, "
        f"{e.mercenaries} mercenaries, {e.ships} ships"
        + (f", fired {listed(e.fired)}" if e.fired else "")
    ),
    ev.StepClosedItself: lambda e, s: f"{e.realm} had no choice in step {e.step}: {e.reason}",
    ev.ScoringTokensSet: lambda e, s: (
        f"{e.realm} holds {'a' if e.crusade else 'no'} Crusade token and "
        f"{'' if e.power_struggle else 'no '}power struggle tokens ({e.reason})"
    ),
    ev.IncomeStepClosed: lambda e, s: f"step {e.step} of round {e.round} is done",
    ev.IncomeStatement: lambda e, s: (
        f"{e.realm}'s income for round {e.round}: {_lines(e.lines, _signed)}; "
        f"total {_signed(e.total)}, treasury {_ducats(e.opening)} to {_ducats(e.closing)}"
        + (f", {_ducats(e.shortfall)} unpaid" if e.shortfall else "")
    ),
    ev.CorruptionSettled: lambda e, s: (
        f"{e.realm} settled corruption: owed {e.owed}, paid {e.paid}"
        f" ({e.interest_tokens} interest tokens)"
    ),
    ev.MonarchPowerCollected: lambda e, s: (
        f"{e.realm} collected {_power(e.total)} of monarch power in round {e.round}"
    ),
    ev.PrestigeScored: lambda e, s: (
        f"{e.realm} scored {e.total} prestige in round {e.round}: {_lines(e.lines, str)}"
    ),
}
"""Each event class's sentence."""
