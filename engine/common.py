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
from collections.abc import Callable
from typing import Any

from . import codec, typecheck
from .dice import Dice
from .errors import InvalidCommand
from .events import (
    Command,
    CommandIssued,
    DiceRolled,
    Disclosed,
    Event,
    GameCreated,
    GameForked,
    KeysRecorded,
    Note,
    OrdersReceived,
    SecretDraw,
    SecretRevealed,
)

NOTES = "warscribe notes and rulings"
RECORD_EVENTS = (
    GameCreated,
    CommandIssued,
    DiceRolled,
    SecretDraw,
    SecretRevealed,
    Disclosed,
    KeysRecorded,
    OrdersReceived,
    GameForked,
    Note,
)


def free_roll(command: Command, dice: Dice) -> list[Event]:
    """`roll NdS`: a roll outside the rules (house rule, referee's ruling), recorded."""
    text = str(command.arg("dice", "1d6"))
    count, _, sides = text.lower().partition("d")
    if not (
        count.isdigit() and sides.isdigit() and 0 < int(count) <= 100 and 1 < int(sides) <= 1000
    ):
        raise InvalidCommand(f"bad dice {text!r}: write NdS, e.g. 2d6", "roll")
    return [dice.roll(str(command.arg("purpose", "free roll")), int(count), int(sides))]


def _note(command: Command, ruling: bool) -> Note:
    text = command.arg("text")
    first, last = command.arg("first"), command.arg("last")
    if not isinstance(text, str) or not text.strip():
        raise InvalidCommand("a note needs its text", NOTES)
    if not (isinstance(first, int) and isinstance(last, int) and 1 <= first <= last):
        raise InvalidCommand("a note needs the entries it is about (first..last)", NOTES)
    position = command.arg("position")
    return Note(
        author=command.actor,
        text=text.strip(),
        first=first,
        last=last,
        position=None if position is None else str(position),
        ruling=ruling,
    )


def note(command: Command, dice: Dice) -> list[Event]:
    return [_note(command, ruling=False)]


def ruling(command: Command, dice: Dice) -> list[Event]:
    imposed = command.arg("impose", ())
    if not isinstance(imposed, tuple) or not all(isinstance(e, Event) for e in imposed):
        raise InvalidCommand("a ruling imposes events of the game", NOTES)
    for event in imposed:
        if isinstance(event, RECORD_EVENTS):
            raise InvalidCommand(
                f"a ruling cannot impose a {type(event).__name__}: the record makes those", NOTES
            )
    return [_note(command, ruling=True), *imposed]


COMMON: dict[str, Callable[[Command, Dice], list[Event]]] = {
    "roll": free_roll,
    "note": note,
    "ruling": ruling,
}


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
