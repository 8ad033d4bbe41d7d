"""The codec's peek at an encoded Entry (`codec.peek_entry`): what a fold needs of it,
read from its bytes without decoding the rest (issue 14: a replay reads thousands).

A plain command's entry (a third of a log) comes back with its command unread
(`record.UnreadCommand`), a plain roll's with only its roll number (`record.UnreadRoll`),
any other entry as its fields (`record.Peeked`, no Entry made); bytes of any other shape
give None, and the caller decodes them whole (so a damaged entry fails as it always did).
Here, not in `codec`, because the layout is the record's, which imports the codec."""

from __future__ import annotations

from typing import Any

import msgpack

from . import codec
from .events import CommandIssued, DiceRolled
from .record import UNREAD_COMMAND, Entry, Peeked, UnreadRoll

_ENTRY_PREFIX, _ENTRY_COUNT = codec.record_prefix(Entry)
"""How an encoded Entry begins (its array's header and its marker), and its field count."""
_SEQ_AT = len(_ENTRY_PREFIX)
"""Where an entry's sequence number begins, its event after it."""
_ENTRY_FIELDS = msgpack.Packer().pack_array_header(_ENTRY_COUNT)
"""The header of an array of an entry's fields: its bytes after its marker read as one
value."""
_INT_LENGTHS = {0xCC: 2, 0xCD: 3, 0xCE: 5}  # msgpack's uint 8, 16 and 32, with their header


def _plain_read(cls: type, left_out: int = 0) -> tuple[bytes, bytes]:
    """How a record of `cls` begins (its array's header and its marker), and the header of
    an array of its fields then its entry's chain, digest, salt and scheme: an entry's
    bytes after its event's marker read as one plain value (`_plain`). `left_out`: the
    record without its last fields (added fields holding their default)."""
    prefix, count = codec.record_prefix(cls)
    packer = msgpack.Packer()
    marker = prefix[len(packer.pack_array_header(count + 1)) :]
    count -= left_out
    return packer.pack_array_header(count + 1) + marker, packer.pack_array_header(count + 4)


_COMMAND, _COMMAND_REST = _plain_read(CommandIssued)
_ROLLS = dict((_plain_read(DiceRolled, left_out=1), _plain_read(DiceRolled)))
"""A roll's beginning and the header of its rest, without its proof (record version 1, or
entered by hand) and with one."""
_ROLL_PREFIXES = tuple(_ROLLS)
_new = tuple.__new__  # a Peeked of its fields made in C: a replay makes thousands


def peek_entry(raw: bytes, start: int = 0, stop: int | None = None) -> Peeked | None:
    """What a fold needs of the encoded Entry `raw[start:stop]` (see the module), or None
    when the bytes are not an entry of the usual shape."""
    end = len(raw) if stop is None else stop
    at = start + _SEQ_AT
    if not raw.startswith(_ENTRY_PREFIX, start) or end <= at:
        return None
    first = raw[at]
    if first < 0x80:
        seq, event_at = first, at + 1
    elif first in _INT_LENGTHS:
        event_at = at + _INT_LENGTHS[first]
        seq = int.from_bytes(raw[at + 1 : event_at])
    else:
        return None
    if raw.startswith(_COMMAND, event_at):
        rest = _plain(memoryview(raw)[event_at + len(_COMMAND) : end], _COMMAND_REST)
        if rest is None:
            return None
        return _new(Peeked, (seq, UNREAD_COMMAND, rest[-4], None, None, rest[-1]))
    if raw.startswith(_ROLL_PREFIXES, event_at):
        return _roll(raw, seq, event_at, end)
    try:  # any other entry: its fields after its marker, read as one array, and no more
        found = codec.decode(_ENTRY_FIELDS + memoryview(raw)[at:end])
    except codec.CodecError:
        return None
    peeked: Peeked = _new(Peeked, found)
    return peeked


def _roll(raw: bytes, seq: int, event_at: int, end: int) -> Peeked | None:
    """A roll's entry whose event begins at `event_at`, its dice unread (see `peek_entry`)."""
    for prefix, header in _ROLLS.items():
        if raw.startswith(prefix, event_at):
            rest = _plain(memoryview(raw)[event_at + len(prefix) : end], header)
            if rest is not None and type(rest[0]) is int:
                roll = _new(UnreadRoll, (rest[0],))
                return _new(Peeked, (seq, roll, rest[-4], None, None, rest[-1]))
    return None


def _plain(rest: memoryview, header: bytes) -> list[Any] | None:
    """The plain values of an entry's bytes after its event's marker (`rest`), read as the
    one array `header` begins (`_plain_read`): well formed, they hold the event's fields
    and the entry's last four, no more, with a chain and no hidden part; else None."""
    try:
        values: list[Any] = msgpack.unpackb(header + rest)
    except (ValueError, msgpack.UnpackException):
        return None
    if values[-3] is values[-2] is None and type(values[-4]) is bytes:
        return values
    return None
