"""The rule sets warscribe knows: each registered under the name used on the command line,
with the module that holds it (its `RULESET`) and the topic prefix of its events (`dr`,
`eu`), which is also its short name on the command line (`warscribe eu pass`).

A rule set is imported on first use; a test registers its own game the same way
(`register("duel", "tests.engine.duel", "duel")`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

from ..errors import InvalidCommand

if TYPE_CHECKING:  # the registry is read by `--help`, which needs no engine (issue 14)
    from ..ruleset import RuleSet


class Registered(NamedTuple):
    """A rule set as registered: its name, the module holding `RULESET`, its prefix (a
    named tuple: quicker to define than a dataclass, and `--help` reads it, issue 14)."""

    name: str
    module: str
    prefix: str


_REGISTERED: dict[str, Registered] = {}
_LOADED: dict[str, RuleSet] = {}


def register(name: str, module: str, topic_prefix: str) -> None:
    """Make the rule set `RULESET` of `module` known as `name`, its event topics beginning
    with `topic_prefix.` (each name and prefix once)."""
    taken = [r for r in _REGISTERED.values() if topic_prefix == r.prefix and r.name != name]
    if taken:
        raise ValueError(f"topic prefix {topic_prefix!r} is {taken[0].name}'s")
    _REGISTERED[name] = Registered(name, module, topic_prefix)
    _LOADED.pop(name, None)


def unregister(name: str) -> None:
    """Forget the rule set `name` (a test's own game, once the test is done)."""
    _REGISTERED.pop(name, None)
    _LOADED.pop(name, None)


register("divine-right", f"{__name__}.divine_right", "dr")
register("eu-pop", f"{__name__}.eu_pop", "eu")


def names() -> tuple[str, ...]:
    return tuple(_REGISTERED)


def registered() -> tuple[Registered, ...]:
    return tuple(_REGISTERED.values())


def get(name: str) -> RuleSet:
    """The rule set called `name` (imported on first use)."""
    loaded = _LOADED.get(name)
    if loaded is not None:
        return loaded
    entry = _REGISTERED.get(name)
    if entry is None:
        raise InvalidCommand(f"unknown rule set {name!r}; known: {', '.join(_REGISTERED)}", "new")
    ruleset: RuleSet = import_module(entry.module).RULESET
    _LOADED[name] = ruleset
    return ruleset


def load_topic(topic: str) -> None:
    """Import the rule set whose types a topic names (`dr.*`, `eu.*`), so it can decode."""
    prefix = topic.partition(".")[0]
    for entry in _REGISTERED.values():
        if entry.prefix == prefix:
            get(entry.name)
