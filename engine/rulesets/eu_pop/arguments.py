"""eu-pop's own kinds of argument, and the arguments several commands share.

The engine reads and checks every argument (`warscribe.engine.commands`); eu-pop adds
what only it has: ducats in halves, amounts by power type (`adm=1,mil=2`), power types,
figure deltas, and the penalty of ending an alliance.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from warscribe.engine.commands import (
    FLAG,
    PAIRS,
    Arg,
    CommandSpec,
    Kind,
    choices,
    integer,
    to_int,
)
from warscribe.engine.decision import Decision

from .events import Deltas
from .ledger import delta, merge, to_ducats
from .state import POWER_TYPES, EuState, Power

EuCommand = CommandSpec[EuState]
EuDecision = Decision[EuState, None]
"""What an eu-pop command decides on (eu-pop's rules read no data but the state)."""


def _power(raw: Any) -> Power | None:
    pairs = PAIRS.read(raw)
    if pairs is None:
        return None
    amounts = dict.fromkeys(POWER_TYPES, 0)
    for kind, value in pairs:
        amount = to_int(value)
        if kind not in amounts or amount is None:
            return None
        amounts[kind] += amount
    return Power(**amounts)


def _deltas(raw: Any) -> Deltas | None:
    if isinstance(raw, str) and raw.strip().lower() == "none":
        return ()
    pairs = PAIRS.read(raw)
    if pairs is None:
        return None
    changes = [(field, delta(field, value)) for field, value in pairs]
    if any(change is None for _, change in changes):
        return None
    return merge((field, change) for field, change in changes if change is not None)


def _ducats(raw: Any) -> Fraction | None:
    amount = to_ducats(raw)
    return amount if amount is not None and amount >= 0 else None


DUCATS = Kind("whole or half ducats, 0 or more (e.g. 12 or 12.5)", _ducats, "DUCATS")
DUCATS_DELTA = Kind("whole or half ducats (e.g. -3 or 2.5)", to_ducats, "DUCATS")
POWER = Kind("whole amounts of adm, dip or mil (e.g. adm=1,mil=2)", _power, "adm=N,...")
POWER_TYPE_LIST = choices(*POWER_TYPES, metavar="TYPES")
DELTAS = Kind("realm figure deltas FIELD=DELTA,... (or none)", _deltas, "FIELD=DELTA,...|none")
COUNT = integer()
DELTA = integer(low=None, metavar="DELTA")

REACTION = Arg(
    "reaction", FLAG, "Take it as a Reaction (the record keeps who asserted the condition)."
)
BORROW = Arg(
    "borrow", COUNT, "Loans to take for a cost the treasury lacks (as a Reaction if need be)."
)
