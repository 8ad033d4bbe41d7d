"""Reading a command's arguments by name.

The CLI passes text; tests and scripts may pass Python values. Both read the same way, and
a bad value is refused with InvalidCommand naming the argument and the rule. Lists are
comma-separated text or sequences; amounts by power type are `adm=1,mil=2` or a mapping.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from warscribe.engine.errors import InvalidCommand
from warscribe.engine.events import Command, Event

from .state import POWER_TYPES, EuState, Power

_INT = re.compile(r"[+-]?\d+")
_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


def check_known(command: Command, allowed: Sequence[str], rule: str) -> None:
    unknown = [name for name, _ in command.args if name not in allowed]
    if unknown:
        known = ", ".join(allowed) or "none"
        raise InvalidCommand(
            f"{command.name} takes no argument {', '.join(unknown)} (it takes: {known})", rule
        )


def given(command: Command, key: str) -> bool:
    """Whether the argument is given: None reads as not given."""
    return command.arg(key) is not None


def _raw(command: Command, key: str, default: Any) -> Any:
    value = command.arg(key)
    return default if value is None else value


def _refuse(command: Command, key: str, wanted: str, raw: Any, rule: str) -> InvalidCommand:
    return InvalidCommand(f"{command.name}: {key} must be {wanted}, not {raw!r}", rule)


def text(command: Command, key: str, rule: str, default: str | None = None) -> str:
    value = _raw(command, key, default)
    if value is None:
        raise InvalidCommand(f"{command.name} needs {key}=TEXT", rule)
    if not isinstance(value, str) or not value.strip():
        raise _refuse(command, key, "text", value, rule)
    return value.strip()


def to_int(value: Any) -> int | None:
    """`value` as an int, or None when it is not a whole number."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _INT.fullmatch(value.strip()):
        return int(value)
    return None


def integer(
    command: Command,
    key: str,
    rule: str,
    default: int | None = None,
    low: int | None = 0,
    high: int | None = None,
) -> int:
    """A whole number in low..high (None: unbounded); required when `default` is None."""
    raw = _raw(command, key, default)
    value = to_int(raw)
    if value is None or (low is not None and value < low) or (high is not None and value > high):
        bounds = f" in {'' if low is None else low}..{'' if high is None else high}"
        raise _refuse(command, key, f"a whole number{bounds}", raw, rule)
    return value


def to_bool(value: Any) -> bool | None:
    """True or False from a bool, 0/1 or text (`true`, `yes`, `1`, `false`, `no`, `0`)."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, (int, str)):
        return None
    lowered = str(value).strip().lower()
    return True if lowered in _TRUE else False if lowered in _FALSE else None


def flag(command: Command, key: str, rule: str, default: bool = False) -> bool:
    raw = _raw(command, key, default)
    value = to_bool(raw)
    if value is None:
        raise _refuse(command, key, "true or false", raw, rule)
    return value


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


def ducats(command: Command, key: str, rule: str, default: Fraction | None = None) -> Fraction:
    raw = _raw(command, key, default)
    value = to_ducats(raw)
    if value is None:
        raise _refuse(command, key, "whole or half ducats (e.g. 12 or 12.5)", raw, rule)
    return value


def names(command: Command, key: str, rule: str) -> tuple[str, ...]:
    """Comma-separated text or a sequence of names; none when not given."""
    raw = _raw(command, key, ())
    items = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
        raise _refuse(command, key, "a comma-separated list of names", raw, rule)
    return tuple(item.strip() for item in items if item.strip())


def power_types(command: Command, key: str, rule: str) -> tuple[str, ...]:
    kinds = names(command, key, rule)
    bad = [kind for kind in kinds if kind not in POWER_TYPES]
    if bad:
        raise InvalidCommand(
            f"{command.name}: {key} lists power types ({', '.join(POWER_TYPES)}), not {bad}", rule
        )
    return kinds


def pairs(command: Command, key: str, rule: str) -> tuple[tuple[str, Any], ...]:
    """`a=1,b=2` text, a mapping or a sequence of pairs, as (name, value) pairs."""
    raw = _raw(command, key, ())
    found = _pairs(raw)
    if found is None:
        raise _refuse(command, key, "name=value,... pairs", raw, rule)
    return found


def _pairs(raw: Any) -> tuple[tuple[str, Any], ...] | None:
    found: list[tuple[Any, Any]]
    if isinstance(raw, str):
        items = [item.partition("=") for item in raw.split(",") if item.strip()]
        if not all(sep for _, sep, _ in items):
            return None
        found = [(name.strip(), value.strip()) for name, _, value in items]
    elif isinstance(raw, Mapping):
        found = list(raw.items())
    elif isinstance(raw, (list, tuple)) and all(
        isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in raw
    ):
        found = [(name, value) for name, value in raw]
    else:
        return None
    return tuple(found) if all(isinstance(name, str) and name for name, _ in found) else None


def power(command: Command, key: str, rule: str) -> Power:
    """Amounts by power type, e.g. `adm=1,mil=2`."""
    amounts = dict.fromkeys(POWER_TYPES, 0)
    for kind, raw in pairs(command, key, rule):
        value = to_int(raw)
        if kind not in amounts or value is None:
            raise _refuse(command, key, "whole amounts of adm, dip or mil", f"{kind}={raw!r}", rule)
        amounts[kind] += value
    return Power(**amounts)


@dataclass(frozen=True)
class CommandSpec:
    """A command: the function deciding it, the arguments it takes, the rule it follows."""

    decide: Callable[[EuState, Command], Sequence[Event]]
    args: tuple[str, ...]
    rule: str
