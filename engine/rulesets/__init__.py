"""The rule sets warscribe knows, by the name used on the command line."""

from __future__ import annotations

from importlib import import_module

from ..errors import InvalidCommand
from ..ruleset import RuleSet

_MODULES = {"divine-right": "divine_right", "eu-pop": "eu_pop"}
_TOPIC_PREFIXES = {"dr": "divine-right", "eu": "eu-pop"}
_LOADED: dict[str, RuleSet] = {}


def names() -> tuple[str, ...]:
    return tuple(_MODULES)


def get(name: str) -> RuleSet:
    """The rule set called `name` (imported on first use)."""
    loaded = _LOADED.get(name)
    if loaded is not None:
        return loaded
    try:
        module = _MODULES[name]
    except KeyError:
        raise InvalidCommand(
            f"unknown rule set {name!r}; known: {', '.join(_MODULES)}", "new"
        ) from None
    ruleset: RuleSet = import_module(f"{__name__}.{module}").RULESET
    _LOADED[name] = ruleset
    return ruleset


def load_topic(topic: str) -> None:
    """Import the rule set whose types a topic names (`dr.*`, `eu.*`), so it can decode."""
    name = _TOPIC_PREFIXES.get(topic.partition(".")[0])
    if name is not None:
        get(name)
