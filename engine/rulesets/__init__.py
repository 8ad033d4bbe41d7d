"""The rule sets warscribe knows: the entry points of the group `warscribe.rulesets` of every
installed distribution, warscribe's own included (pyproject.toml:
`divine-right = "warscribe.engine.rulesets.divine_right:RULESET"`), each under its name on
the command line, with the first part of its event topics (its `prefix`: `dr`, `eu`), which
is also its group on the command line (`warscribe eu pass`). A game needs no edit here:
docs/developing.md shows how a package declares one.

Which are installed, and their prefixes, is worked out once and cached (engine/installed.py):
`--help` and a `status` import neither `importlib.metadata` nor any game but the one they
use; a rule set is imported on first use. A test adds a game of its own with `added`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

from .. import installed
from ..errors import InvalidCommand

if TYPE_CHECKING:  # the registry is read by `--help`, which needs no engine (issue 14)
    from ..ruleset import RuleSet

GROUP = "warscribe.rulesets"


class Registered(NamedTuple):
    """A rule set as installed: its name, where its rule set is (`module:attribute`, the
    entry point's value), its prefix (a named tuple: `--help` reads it, issue 14)."""

    name: str
    target: str
    prefix: str


_FOUND: list[tuple[Registered, ...]] = []  # the installed ones, once a process
_ADDED: dict[str, Registered] = {}  # a test's own (`added`)
_LOADED: dict[str, RuleSet] = {}
_ON_FORGET: list[Callable[[str], None]] = []


def _load(target: str) -> RuleSet:
    module, _, attribute = target.partition(":")
    ruleset: RuleSet = getattr(import_module(module), attribute)
    return ruleset


def _discover() -> str:
    """The cache's text: a line per entry point of the group (name, value, prefix), each
    rule set imported for its prefix; one that cannot be, or whose prefix is another's, is
    left out with a warning on stderr."""
    from importlib.metadata import entry_points

    rows: dict[str, Registered] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            prefix = _load(point.value).prefix
        except Exception as exc:  # a broken plugin must not stop the others
            print(f"warscribe: rule set {point.name} left out: {exc!r}", file=sys.stderr)
            continue
        if prefix in rows:
            taken = f"the prefix {prefix!r} is {rows[prefix].name}'s"
            print(f"warscribe: rule set {point.name} left out: {taken}", file=sys.stderr)
            continue
        rows[prefix] = Registered(point.name, point.value, prefix)
    return "".join(f"{e.name}\t{e.target}\t{e.prefix}\n" for e in rows.values())


def discovered() -> tuple[Registered, ...]:
    """The rule sets installed (by their entry points)."""
    if not _FOUND:
        lines = installed.cached("rulesets", _discover).splitlines()
        _FOUND.append(tuple(Registered(*line.split("\t")) for line in lines))
    return _FOUND[0]


def registered() -> tuple[Registered, ...]:
    """Every rule set known: the installed ones, then those tests added (`added`)."""
    return (*discovered(), *_ADDED.values())


def names() -> tuple[str, ...]:
    return tuple(entry.name for entry in registered())


def get(name: str) -> RuleSet:
    """The rule set called `name` (imported on first use)."""
    loaded = _LOADED.get(name)
    if loaded is not None:
        return loaded
    entry = next((e for e in registered() if e.name == name), None)
    if entry is None:
        raise InvalidCommand(f"unknown rule set {name!r}; known: {', '.join(names())}", "new")
    ruleset = _LOADED[name] = _load(entry.target)
    return ruleset


def load_topic(topic: str) -> None:
    """Import the rule set whose types a topic names (`dr.*`, `eu.*`), so it can decode."""
    prefix = topic.partition(".")[0]
    for entry in registered():
        if entry.prefix == prefix:
            get(entry.name)


def on_forget(forget: Callable[[str], None]) -> None:
    """Have `forget(name)` called when the game `name` is no longer known (what the command
    line made of it, cli/main.py)."""
    _ON_FORGET.append(forget)


@contextmanager
def added(name: str, target: str) -> Iterator[RuleSet]:
    """A test's own game, known as `name` while the block runs as if a distribution declared
    the entry point `name = target` (`module:attribute`); then forgotten, with all that was
    made of it."""
    ruleset = _load(target)
    taken = [e.name for e in registered() if name == e.name or ruleset.prefix == e.prefix]
    if taken:
        raise ValueError(f"{name} ({ruleset.prefix}) would take the name or prefix of {taken[0]}")
    _ADDED[name] = Registered(name, target, ruleset.prefix)
    _LOADED[name] = ruleset
    try:
        yield ruleset
    finally:
        del _ADDED[name]
        _LOADED.pop(name, None)
        for forget in _ON_FORGET:
            forget(name)
