"""Commands every rule set shares, decided by the record itself: a free roll, a note, and
a referee's ruling.

A ruling records `Note(ruling=True)` followed by the events it imposes, given with the
command (the facts the referee rules, e.g. an `AmbassadorBanished` the rules would not
give, or a corrected outcome). The audit re-decides a ruling like any command (the same
events come out) and reports it as a ruling; differences the rules find in the entries a
ruling is about are reported as overruled by it, not as errors.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from . import codec, typecheck
from .commands import ANYONE, REFEREE, TEXT, Arg, Call, CommandSpec, Kind, integer, table
from .decision import Decision
from .errors import InvalidCommand
from .events import (
    AnswerApplied,
    CommandIssued,
    DiceRolled,
    Disclosed,
    Event,
    GameCreated,
    GameForked,
    HostActed,
    KeysRecorded,
    Note,
    OrdersReceived,
    SecretDraw,
    SecretRevealed,
)

NOTES = "warscribe notes and rulings"
ROLLS = "roll"
RECORD_EVENTS = (
    GameCreated,
    CommandIssued,
    DiceRolled,
    SecretDraw,
    SecretRevealed,
    Disclosed,
    KeysRecorded,
    OrdersReceived,
    AnswerApplied,
    HostActed,
    GameForked,
    Note,
)


_DICE = re.compile(r"(\d+)[dD](\d+)")


def _dice(value: Any) -> str | None:
    """`NdS`: 1 to 100 dice of 2 to 1000 sides."""
    found = _DICE.fullmatch(value.strip()) if isinstance(value, str) else None
    if found is None:
        return None
    count, sides = int(found[1]), int(found[2])
    return value.strip() if 0 < count <= 100 and 1 < sides <= 1000 else None


def _events(value: Any) -> tuple[Event, ...] | None:
    if not isinstance(value, tuple) or not all(isinstance(e, Event) for e in value):
        return None
    return value


DICE = Kind("NdS dice, e.g. 2d6 (1-100 dice of 2-1000 sides)", _dice, "NdS")
EVENTS = Kind("events of the game", _events, "EVENT...")
ENTRY = integer(low=1, metavar="SEQ")


def free_roll(d: Decision[Any, Any]) -> None:
    """`roll NdS`: a roll outside the rules (house rule, referee's ruling), recorded."""
    count, _, sides = d.call.text("dice").lower().partition("d")
    d.emit(d.dice.roll(d.call.text("purpose"), int(count), int(sides)))


def _note(call: Call, ruling: bool) -> Note:
    first, last = call.number("first"), call.number("last")
    if first > last:
        raise InvalidCommand("a note needs the entries it is about (first..last)", NOTES)
    position = call.get("position")
    return Note(
        author=call.actor,
        text=call.text("text"),
        first=first,
        last=last,
        position=None if position is None else str(position),
        ruling=ruling,
    )


def note(d: Decision[Any, Any]) -> None:
    d.emit(_note(d.call, ruling=False))


def ruling(d: Decision[Any, Any]) -> None:
    imposed: tuple[Event, ...] = d.call.get("impose", ())
    for event in imposed:
        if isinstance(event, RECORD_EVENTS):
            raise InvalidCommand(
                f"a ruling cannot impose a {type(event).__name__}: the record makes those", NOTES
            )
    d.emit(_note(d.call, ruling=True), *imposed)


_NOTE_ARGS = (
    Arg("text", TEXT, "What the note says.", required=True),
    Arg("first", ENTRY, "The first entry it is about.", required=True),
    Arg("last", ENTRY, "The last entry it is about.", required=True),
    Arg("position", TEXT, "The position it is about, as shown to its reader."),
)
RECORD: dict[str, CommandSpec[Any]] = table(
    CommandSpec(
        "roll",
        free_roll,
        (
            Arg("dice", DICE, "The dice to roll.", default="1d6", positional=True),
            Arg("purpose", TEXT, "What the roll is for (recorded).", default="free roll"),
        ),
        ROLLS,
        "Record a roll outside the rules (a house rule, a referee's ruling).",
        ('roll 2d6 --purpose "weather (house rule)"',),
        authority=ANYONE,
        rolls=True,
    ),
    CommandSpec(
        "note",
        note,
        _NOTE_ARGS,
        NOTES,
        "Attach a comment to entries of the game.",
        ('note --at 2.1.diplomacy "bob agreed to redo this roll"',),
        authority=ANYONE,
    ),
    CommandSpec(
        "ruling",
        ruling,
        (*_NOTE_ARGS, Arg("impose", EVENTS, "The events the ruling imposes.")),
        NOTES,
        "A referee's ruling on entries of the game, imposing events the rules would not give.",
        (
            "note --ruling --at '#212' \"the bribe counts: card text\" "
            '--impose \'dr.PointsScored {"player": "alice", "deed": "ruling", "points": 1}\'',
        ),
        authority=REFEREE,
    ),
)
"""The record's own commands, decided through the same core as a rule set's."""


def event_from(topic: str, fields: dict[str, Any]) -> Event:
    """An event of a rule set built from plain values (lists become tuples), for a ruling."""
    if not typecheck.within_depth(fields):
        raise InvalidCommand(f"the fields of {topic} nest too deep", NOTES)
    try:
        cls = codec.resolve(topic)
        values = {name: _frozen(value) for name, value in fields.items()}
        if dataclasses.is_dataclass(cls):
            typecheck.check_fields(cls, values)
        event = cls(**values)
    except (codec.CodecError, TypeError) as exc:
        raise InvalidCommand(f"cannot make a {topic} event: {exc}", NOTES) from None
    if not isinstance(event, Event):
        raise InvalidCommand(f"{topic} is not an event", NOTES)
    return event


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value
