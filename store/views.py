"""Presenting records: JSON-able forms of engine values and one-line descriptions of events."""

from __future__ import annotations

import dataclasses
import enum
from datetime import datetime
from fractions import Fraction
from typing import Any
from uuid import UUID

from warscribe.engine import codec
from warscribe.engine.events import CommandIssued, DiceRolled, Event
from warscribe.engine.record import Entry, split


def jsonable(value: Any) -> Any:
    """A JSON-serialisable copy of an engine value (bytes as hex, tuples as lists)."""
    if value is None or isinstance(value, bool | int | float | str):
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
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


def event_name(event: Event) -> str:
    return codec.topic_of(type(event)).rpartition(".")[2]


def describe(event: Event) -> str:
    """A short line for `log`."""
    if isinstance(event, CommandIssued):
        args = " ".join(f"{k}={_short(v)}" for k, v in event.args)
        return f"{event.actor}: {event.name} {args}".rstrip()
    if isinstance(event, DiceRolled):
        by = f" (entered by {event.entered_by})" if event.entered_by else ""
        if all(s == 6 for s in event.sides):
            return f"roll {event.index}, {event.purpose}: {'+'.join(map(str, event.values))}{by}"
        return f"roll {event.index}, {event.purpose}: {len(event.values)} derived numbers"
    public, hidden = split(event)
    shown = " ".join(f"{k}={_short(v)}" for k, v in public.items())
    return f"{shown} [+{len(hidden)} hidden]" if hidden else shown


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
