"""Answers about the game, as JSON-able data: plain dicts, lists, str, int and float.

Ducats are ints when whole and floats when a half is left (a half is exact in binary).
Maps keyed by round use the round number as text ("1", "2", ...), so the data survives a
JSON round trip unchanged; realms appear in the order of the game's players.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Protocol

from .state import EuState, Realm
from .turns import waiting

JSON = dict[str, Any]


class _ByRound(Protocol):
    @property
    def realm(self) -> str: ...

    @property
    def round(self) -> int: ...


def number(amount: Fraction | int) -> int | float:
    value = Fraction(amount)
    return int(value) if value.denominator == 1 else float(value)


def _resources(realm: Realm) -> JSON:
    return {
        "player": realm.player,
        "ducats": number(realm.ducats),
        "interest_tokens": realm.loans,
        "monarch_power": realm.power.as_dict(),
        "manpower": {"available": realm.manpower, "exhausted": realm.exhausted},
        "stability": realm.stability,
        "prestige": realm.prestige,
    }


def treasury(state: EuState) -> JSON:
    """Each realm's resources now: `{"position", "realms": {REALM: {...}}}`."""
    return {"position": state.label, "realms": {r.name: _resources(r) for r in state.realms}}


def _by_round(records: Iterable[_ByRound], show: Callable[[Any], JSON]) -> dict[str, JSON]:
    rounds: dict[str, JSON] = {}
    for item in records:
        rounds.setdefault(str(item.round), {})[item.realm] = show(item)
    return rounds


def income_statements(state: EuState) -> dict[str, JSON]:
    """Step B of every round: `{ROUND: {REALM: {lines, total, opening, closing, shortfall}}}`."""
    return _by_round(
        state.statements,
        lambda s: {
            "lines": [[label, number(amount)] for label, amount in s.lines],
            "total": number(s.total),
            "opening": number(s.opening),
            "closing": number(s.closing),
            "shortfall": number(s.shortfall),
        },
    )


def monarch_power(state: EuState) -> dict[str, JSON]:
    """Step D of every round: `{ROUND: {REALM: {lines: [[label, {adm, dip, mil}]], total}}}`."""
    return _by_round(
        state.collections,
        lambda c: {
            "lines": [[label, power.as_dict()] for label, power in c.lines],
            "total": c.total.as_dict(),
        },
    )


def prestige(state: EuState) -> JSON:
    """Prestige now and what step E scored: `{REALM: {prestige, rounds: {ROUND: {...}}}}`."""
    scored = _by_round(
        state.scores, lambda p: {"lines": [list(line) for line in p.lines], "total": p.total}
    )
    return {
        r.name: {
            "prestige": r.prestige,
            "rounds": {n: realms[r.name] for n, realms in scored.items() if r.name in realms},
        }
        for r in state.realms
    }


def summary(state: EuState) -> JSON:
    """What `status` shows beyond the position."""
    return {
        "position": state.label,
        "round": state.round,
        "phase": state.phase,
        "turn": state.turn,
        "step": state.step,
        "passed": list(state.passed),
        "waiting": list(waiting(state)),
    }


PROJECTIONS: Mapping[str, Callable[[EuState], Any]] = {
    "treasury": treasury,
    "income-statement": income_statements,
    "monarch-power": monarch_power,
    "prestige": prestige,
}
