"""The rule sets warscribe knows, by the name used on the command line."""

from __future__ import annotations

from importlib import import_module

from ..errors import InvalidCommand
from ..ruleset import RuleSet

_MODULES = {"divine-right": "divine_right", "eu-pop": "eu_pop"}


def names() -> tuple[str, ...]:
    return tuple(_MODULES)


def get(name: str) -> RuleSet:
    """The rule set called `name` (imported on first use)."""
    try:
        module = _MODULES[name]
    except KeyError:
        raise InvalidCommand(
            f"unknown rule set {name!r}; known: {', '.join(_MODULES)}", "new"
        ) from None
    ruleset: RuleSet = import_module(f"{__name__}.{module}").RULESET
    return ruleset
