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
    return command.arg(key) is not None


def text(command: Command, key: str, rule: str, default: str | None = None) -> str:
    value = command.arg(key, default)
    if not isinstance(value, str) or not value.strip():
        raise InvalidCommand(f"{command.name} needs {key}=TEXT", rule)
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
    raw = command.arg(key)
    if raw is None and default is not None:
        return default
    value = to_int(raw)
    if value is None or (low is not None and value < low) or (high is not None and value > high):
        bounds = f" in {'' if low is None else low}..{'' if high is None else high}"
        raise InvalidCommand(
            f"{command.name}: {key} must be a whole number{bounds}, not {raw!r}", rule
        )
    return value


def to_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    lowered = str(value).strip().lower()
    return True if lowered in _TRUE else False if lowered in _FALSE else None


def flag(command: Command, key: str, rule: str, default: bool = False) -> bool:
    raw = command.arg(key, default)
    value = to_bool(raw)
    if value is None:
        raise InvalidCommand(f"{command.name}: {key} must be true or false, not {raw!r}", rule)
    return value


def to_ducats(value: Any) -> Fraction | None:
    """Whole or half ducats from an int, a Fraction, a float or text (`12`, `12.5`, `12½`)."""
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, str):
            value = value.replace("½", ".5")
        amount = Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return amount if (amount * 2).denominator == 1 else None


def ducats(command: Command, key: str, rule: str, default: Fraction | None = None) -> Fraction:
    raw = command.arg(key)
    if raw is None and default is not None:
        return default
    value = to_ducats(raw)
    if value is None:
        raise InvalidCommand(
            f"{command.name}: {key} must be whole or half ducats (e.g. 12 or 12.5), not {raw!r}",
            rule,
        )
    return value


def names(command: Command, key: str) -> tuple[str, ...]:
    raw = command.arg(key, ())
    items = raw.split(",") if isinstance(raw, str) else [str(item) for item in raw]
    return tuple(item.strip() for item in items if item.strip())


def power_types(command: Command, key: str, rule: str) -> tuple[str, ...]:
    kinds = names(command, key)
    bad = [kind for kind in kinds if kind not in POWER_TYPES]
    if bad:
        raise InvalidCommand(
            f"{command.name}: {key} lists power types ({', '.join(POWER_TYPES)}), not {bad}", rule
        )
    return kinds


def pairs(command: Command, key: str, rule: str) -> tuple[tuple[str, Any], ...]:
    """`a=1,b=2` text, a mapping or a sequence of pairs, as (name, value) pairs."""
    raw = command.arg(key, ())
    if isinstance(raw, Mapping):
        return tuple(raw.items())
    if not isinstance(raw, str):
        return tuple((str(k), v) for k, v in raw)
    found: list[tuple[str, Any]] = []
    for item in filter(None, (part.strip() for part in raw.split(","))):
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InvalidCommand(
                f"{command.name}: write {key} as name=value,..., not {raw!r}", rule
            )
        found.append((name.strip(), value.strip()))
    return tuple(found)


def power(command: Command, key: str, rule: str) -> Power:
    """Amounts by power type, e.g. `adm=1,mil=2`."""
    amounts = dict.fromkeys(POWER_TYPES, 0)
    for kind, raw in pairs(command, key, rule):
        value = to_int(raw)
        if kind not in amounts or value is None:
            raise InvalidCommand(
                f"{command.name}: {key} gives whole amounts of adm, dip or mil, not {kind}={raw!r}",
                rule,
            )
        amounts[kind] += value
    return Power(**amounts)


@dataclass(frozen=True)
class CommandSpec:
    """A command: the function deciding it, the arguments it takes, the rule it follows."""

    decide: Callable[[EuState, Command], Sequence[Event]]
    args: tuple[str, ...]
    rule: str
