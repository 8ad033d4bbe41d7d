"""Presenting records: JSON-able forms of engine values and one-line descriptions of events
(escaping text for a terminal is the presenters' own, `warscribe.engine.presenter`, and is
named here too for the store's and the CLI's callers)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from datetime import datetime
from fractions import Fraction
from typing import Any
from uuid import UUID

from warscribe.engine import codec
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
from warscribe.engine.presenter import escaped as escaped
from warscribe.engine.presenter import escaped_lines as escaped_lines
from warscribe.engine.presenter import printable as printable
from warscribe.engine.record import Entry


def jsonable(value: Any) -> Any:
    """A JSON-serialisable copy of an engine value (bytes as hex, tuples as lists). The
    common kinds (plain values, tuples, lists, records) are told by their exact type:
    `log --json` converts every field of every entry."""
    cls = type(value)
    if cls in _SCALARS:
        return value
    if cls is tuple or cls is list:
        return [jsonable(v) for v in value]
    names = _RECORD_FIELDS.get(cls)
    if names is None and cls not in _RECORD_FIELDS:
        fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else None
        names = _RECORD_FIELDS[cls] = None if fields is None else tuple(f.name for f in fields)
    if names is not None:
        return {name: jsonable(getattr(value, name)) for name in names}
    return _other_jsonable(value)


_SCALARS = frozenset((str, int, float, bool, type(None)))
_RECORD_FIELDS: dict[type, tuple[str, ...] | None] = {}
"""The field names of each dataclass `jsonable` met (None: the class is not one)."""


def _other_jsonable(value: Any) -> Any:
    if isinstance(value, bool | int | float | str):
        return value.value if isinstance(value, enum.Enum) else value
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, UUID | datetime):
        return str(value)
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else value.numerator
    if isinstance(value, dict):
        return {
            str(jsonable(k)) if not isinstance(k, str) else k: jsonable(v) for k, v in value.items()
        }
    if isinstance(value, tuple | list | set | frozenset):
        items = [jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, set | frozenset) else items
    return str(value)


def event_name(event: Event) -> str:
    return codec.topic_of(type(event)).rpartition(".")[2]


def describe(event: Event) -> str:
    """A short line for `log`, every control character in it shown as an escape."""
    return escaped(_line(event))


def _line(event: Event) -> str:
    if isinstance(event, CommandIssued):
        args = " ".join(f"{k}={_short(v)}" for k, v in event.args)
        return f"{event.actor}: {event.name} {args}".rstrip()
    if isinstance(event, DiceRolled):
        by = f" (entered by {event.entered_by})" if event.entered_by else ""
        if all(s == 6 for s in event.sides):
            return f"roll {event.index}, {event.purpose}: {'+'.join(map(str, event.values))}{by}"
        return f"roll {event.index}, {event.purpose}: {len(event.values)} derived numbers"
    special = _RECORD_LINES.get(type(event))
    if special is not None:
        return special(event)
    public, hidden = split(event)
    shown = " ".join(f"{k}={_short(v)}" for k, v in public.items())
    return f"{shown} [+{len(hidden)} hidden]" if hidden else shown


def _note(event: Any) -> str:
    kind = "RULING" if event.ruling else "note"
    span = f"#{event.first}" + (f"..#{event.last}" if event.last != event.first else "")
    where = f"{event.position} ({span})" if event.position else span
    return f"{kind} by {event.author} on {where}: {event.text}"


def _disclosed(event: Any) -> str:
    shown = ", ".join(
        f"{o.field}{'' if o.item is None else f'[{o.item}]'}={_short(o.value)}"
        for o in event.openings
    )
    return f"published from #{event.seq}: {shown}"


_RECORD_LINES: dict[type, Callable[[Any], str]] = {
    Note: _note,
    Disclosed: _disclosed,
    SecretDraw: lambda e: f"roll {e.index}, {e.purpose}: hidden numbers",
    OrdersReceived: lambda e: f"signed orders of {e.player} received",
    AnswerApplied: lambda e: (
        f"{e.player}'s standing answer (orders #{e.orders}, line {e.line + 1})"
    ),
    HostActed: lambda e: f"the host enters the next command for {e.player}: {e.reason}",
    GameForked: lambda e: f"{e.name}: fork of {e.parent} at #{e.at_seq} ({e.at_position})",
    KeysRecorded: lambda e: "public keys of " + ", ".join(name for name, _ in e.keys),
}


def _short(value: Any) -> str:
    text = str(jsonable(value))
    return text if len(text) <= 80 else text[:77] + "..."


def entry_json(entry: Entry, position: str | None = None) -> dict[str, Any]:
    public, hidden = split(entry.event)
    return {
        "seq": entry.seq,
        "position": position,
        "event": event_name(entry.event),
        "fields": jsonable(public),
        "hidden": sorted(hidden),
        "chain": entry.chain.hex(),
    }
