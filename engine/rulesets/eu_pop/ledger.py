"""Changes to a realm's figures by delta: read from a command, checked, applied.

Adjustments use them, and so does the penalty for ending an alliance, which the record
takes as entered. Each field keeps its limits: no resource below 0, stability in -3..+3.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from warscribe.engine.commands import to_int
from warscribe.engine.errors import IllegalCommand, InvalidCommand

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


def to_ducats(value: Any) -> Fraction | None:
    """Whole or half ducats from an int, a Fraction, a float or text (`12`, `12.5`, `12½`)."""
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, str):
            value = value.replace("½", ".5")
        amount = Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return amount if (amount * 2).denominator == 1 else None


def delta(field: str, raw: Any) -> Fraction | int | None:
    """A change of figure `field`: ducats in halves, the rest whole (None: not a figure's
    change)."""
    if field not in LIMITS:
        return None
    return to_ducats(raw) if field == "ducats" else to_int(raw)


def merge(deltas: Iterable[tuple[str, Fraction | int]]) -> Deltas:
    """(field, delta) pairs merged by field, the changes of nothing left out."""
    merged: dict[str, Fraction | int] = {}
    for field, change in deltas:
        merged[field] = merged.get(field, 0) + change
    return tuple((field, change) for field, change in merged.items() if change)


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
