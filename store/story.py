"""The record as a story (`log --story`, and the turn summary of the referee's mails): one
sentence per decision, the positions as headings.

A decision is a command and the entries it brought (its dice, its outcome); the entries
no command brought (the set-up, the record's own) make a sentence of their own. A sentence
reads `Turn 3, alice: Random Events Phase: events roll, 2d6=8 → random event: ...`: the
turn, who decided, the rule the command is decided by (the rule set's `rule_of`) and the
command, the dice thrown, then each outcome in words. A command the host entered in a
keyed player's name (after a `HostActed`) says so: `Turn 2, the host for alice (no orders
by the deadline): ...`, never as the player's own. What this copy does not show reads
`hidden`, with how many of what when that is known (`hidden (1 card)`), never a value.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from typing import Any

from warscribe.engine import rulesets
from warscribe.engine.events import CommandIssued, DiceRolled, Event, HostActed, SecretDraw
from warscribe.engine.hidden import split
from warscribe.engine.record import Entry, Head, fold

from .views import describe, escaped, event_name, jsonable

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_QUIET = {"GameCreated", "CommandIssued", "DiceRolled", "SecretDraw", "HostActed"}
_DECISION = (CommandIssued, HostActed)  # what begins a decision: a command, or the host's act
_AS_LOGGED = {"note", "disclosed", "orders received", "game forked", "keys recorded"}


def story(entries: Iterable[Entry], head: Head | None = None) -> Iterator[str]:
    """The story of `entries` (the head before the first, if it is not #1): a heading
    line `== POSITION ==` whenever the position changes, then a sentence per decision."""
    shown: str | None = None
    told: list[Entry] = []
    position: str | None = None
    for entry in entries:
        marked = len(told) == 1 and isinstance(told[0].event, HostActed)
        if (
            head is not None
            and told
            and not (marked and isinstance(entry.event, CommandIssued))
            and (isinstance(entry.event, _DECISION) or not isinstance(told[0].event, _DECISION))
        ):
            yield from _told(told, position, shown, head)
            shown, told = position or shown, []
        if not told and head is not None:
            position = _position(head)
        head = fold((entry,), head)
        told.append(entry)
        position = position or _position(head)
    if told and head is not None:
        yield from _told(told, position, shown, head)


def _position(head: Head) -> str | None:
    return rulesets.get(head.ruleset).position(head.state)


def _told(told: list[Entry], position: str | None, shown: str | None, head: Head) -> Iterator[str]:
    if position is not None and position != shown:
        yield f"== {position} =="
    yield sentence(told, position, rulesets.get(head.ruleset))


def sentence(told: list[Entry], position: str | None, ruleset: Any) -> str:
    """One decision (a command and what it brought, the host's act marking it first, or
    entries no command brought)."""
    first = told[0].event
    acted = first if isinstance(first, HostActed) and len(told) > 1 else None
    if acted is not None:
        first = told[1].event
    turn = f"Turn {position.split('.')[0]}, " if position else ""
    dice = [_dice(e.event) for e in told if isinstance(e.event, DiceRolled | SecretDraw)]
    outcomes = [_outcome(e.event) for e in told if event_name(e.event) not in _QUIET]
    if isinstance(first, CommandIssued):
        rule = getattr(ruleset, "rule_of", lambda _: None)(first.name)
        args = " ".join(f"{k}={_value(v)}" for k, v in first.args)
        what = f"{first.name} {args}".strip()
        who = f"the host for {first.actor} ({acted.reason})" if acted else first.actor
        head = f"{turn}{who}: " + (f"{rule}: {what}" if rule else what)
    elif event_name(first) == "GameCreated":
        head = f"set-up of {getattr(first, 'name', 'the game')}"
    else:
        head = f"{turn}the record"
    words = head + (", " + ", ".join(dice) if dice else "")
    return escaped(words + (" → " + "; ".join(outcomes) if outcomes else ""))


def _dice(event: DiceRolled | SecretDraw) -> str:
    if isinstance(event, SecretDraw):
        return f"{event.purpose}: hidden draw"
    if event.values and all(s == 6 for s in event.sides):
        return f"{event.purpose} {len(event.values)}d6={sum(event.values)}"
    return f"{event.purpose}: {len(event.values)} numbers drawn"


def _outcome(event: Event) -> str:
    name = _CAMEL.sub(" ", event_name(event)).lower()
    if name in _AS_LOGGED:
        return describe(event)
    public, hidden = split(event)
    parts = [f"{k} {_value(v)}" for k, v in public.items()]
    parts += [f"{k} {_hidden(event, k) if v is None else _value(v)}" for k, v in hidden.items()]
    return f"{name}: {', '.join(parts)}" if parts else name


def _hidden(event: Event, field: str) -> str:
    """A value this copy does not hold: `hidden (1 card)` for a field of one item."""
    kind = str(next(f.type for f in dataclasses.fields(event) if f.name == field))  # type: ignore[arg-type]
    return "hidden" if kind.startswith("tuple") else f"hidden (1 {field})"


def _value(value: Any) -> str:
    plain = jsonable(value)
    text = _plain(plain)
    return text if len(text) <= 80 else text[:77] + "..."


def _plain(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return ",".join(map(str, value))
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) + "}"
    return str(value)
