"""The record as a story (`log --story`, the turn summary of the referee's mails and the log
panel of `view`): a sentence per thing that happened, the positions as headings.

Each event is told by whoever knows its words: a game's event by its rule set
(`sentence(event, state_before)`, see docs/developing.md), which names cards and units as
the game's tables do; the record's own (the set-up, notes and rulings, rolls, orders
received, the host's acts, forks, disclosures) here. A command and its dice are told in
the sentences of what they brought (a battle names its rolls), and stand as a line of
their own only when they brought nothing else (`Told.aside`). A command the host entered
in a keyed player's name (after a `HostActed`) says so: `the host for alice (no orders by
the deadline): ...`. What this copy does not show reads `hidden`, never a value. A line
is at most `WIDTH` characters: a longer sentence goes on over indented lines, broken
between words.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from warscribe.engine import rulesets
from warscribe.engine.codec import frozen
from warscribe.engine.events import (
    AnswerApplied,
    CommandIssued,
    DiceRolled,
    Disclosed,
    Event,
    GameForked,
    HostActed,
    KeysRecorded,
    Note,
    OrdersReceived,
    SecretDraw,
)
from warscribe.engine.hidden import split
from warscribe.engine.record import Entry, Head, fold
from warscribe.engine.words import listed

from .views import escaped, event_name, jsonable

WIDTH = 160
"""The longest line of a story; a sentence beyond it goes on over indented lines."""
_INDENT = "    "
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_DECISION = (CommandIssued, HostActed)  # what begins a decision: a command, or the host's act
_ASIDE = (CommandIssued, DiceRolled, SecretDraw, HostActed)  # told by what they brought


@frozen
class Told:
    """One entry in words: the position it happened in, its sentence, and whether the story
    leaves it out when its decision tells something else (a command, its dice, the host's
    act marking it)."""

    position: str | None
    text: str
    event: Event

    @property
    def aside(self) -> bool:
        return isinstance(self.event, _ASIDE)


def story(entries: Iterable[Entry], head: Head | None = None) -> Iterator[str]:
    """The story of `entries` (the head before the first, if it is not #1): a heading
    line `== POSITION ==` whenever the position changes, then a line per thing that
    happened, none longer than `WIDTH`."""
    shown: str | None = None
    for decision in _decisions(told(entries, head)):
        position = decision[0].position
        if position is not None and position != shown:
            yield f"== {position} =="
            shown = position
        for sentence in _lines(decision):
            yield from wrapped(sentence)


def wrapped(sentence: str) -> list[str]:
    """`sentence` as lines of at most `WIDTH` characters, broken between words, each
    line after the first indented."""
    if len(sentence) <= WIDTH:
        return [sentence]
    return textwrap.wrap(
        sentence, WIDTH, subsequent_indent=_INDENT, break_on_hyphens=False, drop_whitespace=True
    )


def told(entries: Iterable[Entry], head: Head | None = None) -> Iterator[Told]:
    """Every entry in words, with the position it happened in (that before it; at the
    set-up, the first the game reaches)."""
    for entry in entries:
        before = head
        head = fold((entry,), head)
        ruleset = rulesets.get(head.ruleset)
        position = (before and ruleset.position(before.state)) or ruleset.position(head.state)
        text = _sentence(entry.event, before.state if before else None, ruleset)
        yield Told(position, escaped(text), entry.event)


def _decisions(lines: Iterable[Told]) -> Iterator[list[Told]]:
    """The lines grouped by decision: a command (the host's act marking it first) and what
    it brought; a line no command brought is a decision of its own."""
    group: list[Told] = []
    opens = False  # the group is a decision begun by a command or a host's act
    for line in lines:
        marked = len(group) == 1 and isinstance(group[0].event, HostActed)
        begins = isinstance(line.event, _DECISION)
        if group and not (marked and begins) and (begins or not opens):
            yield group
            group = []
        if not group:
            opens = begins
        group.append(line)
    if group:
        yield group


def _lines(decision: list[Told]) -> list[str]:
    """A decision's lines: what it brought, or the command (and its dice) when it brought
    nothing; the first marked as the host's when the host entered it."""
    acted = decision[0].text if isinstance(decision[0].event, HostActed) else None
    rest = decision[1:] if acted and len(decision) > 1 else decision
    shown = [line.text for line in rest if not line.aside] or [line.text for line in rest]
    if acted and rest is not decision:
        shown[0] = f"{acted}: {shown[0]}"
    return shown


def _sentence(event: Event, state: Any, ruleset: Any) -> str:
    told = _RECORD.get(type(event))
    if told is not None:
        return str(told(event))
    if event_name(event) == "GameCreated":
        players = listed(str(p) for p in getattr(event, "players", ()))
        return f"the game {getattr(event, 'name', '')} of {ruleset.name} began, played by {players}"
    sentence = getattr(ruleset, "sentence", None)
    found = sentence(event, state) if sentence is not None else None
    return found if found is not None else fallback(event)


def fallback(event: Event) -> str:
    """An event no one has words for: its name as words, then its values (what this copy
    does not hold: `hidden`)."""
    public, hidden = split(event)
    values = [_plain(jsonable(v)) for v in public.values()] + ["hidden" for _ in hidden]
    name = _CAMEL.sub(" ", event_name(event)).lower()
    return f"{name}: {', '.join(v for v in values if v)}" if values else name


def _plain(value: Any) -> str:
    if value is None or value == [] or value == {}:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if len(value) == 2 and all(type(v) is int for v in value):
            return f"{value[0]},{value[1]}"
        return listed([_plain(v) for v in value])
    if isinstance(value, dict):
        return listed([_plain(v) for v in value.values()])
    return str(value)


def _command(event: CommandIssued) -> str:
    args = ", ".join(f"{k.replace('_', ' ')} {_plain(jsonable(v))}" for k, v in event.args)
    return f"{event.actor} gave the order {event.name}" + (f" ({args})" if args else "")


def _rolled(event: DiceRolled) -> str:
    by = f", entered by {event.entered_by}" if event.entered_by else ""
    if event.values and all(s == 6 for s in event.sides):
        dice = "+".join(map(str, event.values))
        total = f" = {sum(event.values)}" if len(event.values) > 1 else ""
        return f"rolled {dice}{total} for {event.purpose}{by}"
    return f"rolled {len(event.values)} numbers for {event.purpose}{by}"


def _note(event: Note) -> str:
    kind = "ruled" if event.ruling else "noted"
    span = f"#{event.first}" + (f" to #{event.last}" if event.last != event.first else "")
    return f"{event.author} {kind} on {event.position or span}: {event.text}"


def _disclosed(event: Disclosed) -> str:
    fields = listed(sorted({o.field for o in event.openings}))
    return f"the {fields} hidden at #{event.seq} were shown, proved against their commitment"


_RECORD: dict[type, Callable[[Any], str]] = {
    CommandIssued: _command,
    DiceRolled: _rolled,
    SecretDraw: lambda e: (
        f"drew {len(e.values or ()) or 'hidden'} numbers in secret for {e.purpose}"
    ),
    Note: _note,
    Disclosed: _disclosed,
    OrdersReceived: lambda e: f"the signed orders of {e.player} were received",
    AnswerApplied: lambda e: (
        f"{e.player}'s standing answer applied (orders #{e.orders}, line {e.line + 1})"
    ),
    HostActed: lambda e: f"the host for {e.player} ({e.reason})",
    GameForked: lambda e: f"{e.name} was forked from {e.parent} at #{e.at_seq} ({e.at_position})",
    KeysRecorded: lambda e: (
        "the public keys of " + listed([n for n, _ in e.keys]) + " were recorded"
    ),
}
