"""Changes to a realm's figures by delta: read from a command, checked, applied.

Adjustments use them, and so does the penalty for ending an alliance, which the record
takes as entered. Each field keeps its limits: no resource below 0, stability in -3..+3.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from warscribe.engine.errors import IllegalCommand, InvalidCommand

from .arguments import to_ducats, to_int
from .events import Deltas
from .rules import INCOME_STATEMENT
from .state import POWER_TYPES, Power, Realm

_COUNTS = (
    "ducats", "adm", "dip", "mil", "manpower", "exhausted", "loans", "regulars", "mercenaries",
    "ships_at_sea", "ships_in_port", "base_tax", "vassal_tax", "plague_tax", "idea_income",
    "influence", "tokens",
)  # fmt: skip
# field -> (lowest, highest); None means no limit
LIMITS: dict[str, tuple[int | None, int | None]] = {
    **dict.fromkeys(_COUNTS, (0, None)),
    "stability": (-3, 3),
    "prestige": (None, None),
}
FIELDS = tuple(LIMITS)


def read_deltas(pairs: Iterable[tuple[str, Any]], rule: str, argument: str = "") -> Deltas:
    """(field, delta) pairs, checked and merged: ducats in halves, the rest whole. Errors
    name the field, after the command's `argument` holding the pairs when there is one."""
    merged: dict[str, Fraction | int] = {}
    where = f"{argument}: " if argument else ""
    for field, raw in pairs:
        if field not in LIMITS:
            raise InvalidCommand(
                f"{where}no realm figure {field!r}; figures: {', '.join(FIELDS)}", rule
            )
        value = to_ducats(raw) if field == "ducats" else to_int(raw)
        if value is None:
            kind = "whole or half ducats" if field == "ducats" else "a whole number"
            raise InvalidCommand(f"{where}{field} changes by {kind}, not {raw!r}", rule)
        merged[field] = merged.get(field, 0) + value
    return tuple((field, delta) for field, delta in merged.items() if delta)


def value(realm: Realm, field: str) -> Fraction | int:
    if field in POWER_TYPES:
        return realm.power.of(field)
    figure: Fraction | int = getattr(realm, field)
    return figure


def apply_deltas(realm: Realm, deltas: Deltas) -> Realm:
    power = Power(**{field: int(delta) for field, delta in deltas if field in POWER_TYPES})
    others: dict[str, Any] = {
        field: value(realm, field) + delta for field, delta in deltas if field not in POWER_TYPES
    }
    return dataclasses.replace(realm, power=realm.power.plus(power), **others)


def check_deltas(realm: Realm, deltas: Deltas, rule: str) -> None:
    after = apply_deltas(realm, deltas)
    for field, _ in deltas:
        low, high = LIMITS[field]
        figure = value(after, field)
        if (low is not None and figure < low) or (high is not None and figure > high):
            limits = f"{'' if low is None else low}..{'' if high is None else high}"
            raise IllegalCommand(f"{realm.name}: {field} would be {figure}, outside {limits}", rule)
    if after.tax_problem:
        raise InvalidCommand(after.tax_problem, INCOME_STATEMENT)
