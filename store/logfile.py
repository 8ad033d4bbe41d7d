"""Log files: a msgpack header map, then one map per entry; optionally ASCII-armored.

Header: ``{"format": "warscribe-log", "version": 1, "game_id", "name", "ruleset",
"players", "from_seq", "to_seq"}``. Entry maps: ``{"seq", "topic", "fields", "digest",
"salt", "scheme", "chain"}``; values inside use the engine codec's extension types. The
armored form (see `armor`) is the same bytes as text that survives an email body.

A copy for one player (`redact_for`) keeps every entry and chain hash, and the private
parts that player may see; the others lose their private part and salt, keeping the
digest the chain covers, so the copy verifies against the same chain as the full one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgpack

from warscribe.engine import codec
from warscribe.engine.errors import LogError
from warscribe.engine.events import Event, GameCreated, GameForked
from warscribe.engine.hidden import redacted, split
from warscribe.engine.record import Entry

from . import armor as armoring

FORMAT = "warscribe-log"
VERSION = 1
KIND = "LOG"
BEGIN = armoring.begin(KIND)
END = armoring.end(KIND)
_HEADER_KEYS = ("format", "version", "game_id", "name", "ruleset", "players", "from_seq", "to_seq")


@dataclass(frozen=True)
class LogFile:
    """A parsed log file: which game, which entries."""

    game_id: UUID
    name: str
    ruleset: str
    players: tuple[str, ...]
    from_seq: int
    to_seq: int
    entries: tuple[Entry, ...]


def _entry_map(entry: Entry) -> dict[str, Any]:
    public, hidden = split(entry.event)
    return {
        "seq": entry.seq,
        "topic": codec.topic_of(type(entry.event)),
        "fields": {**public, **hidden},
        "digest": entry.digest,
        "salt": entry.salt,
        "scheme": entry.scheme,
        "chain": entry.chain,
    }


def redact_for(entries: Iterable[Entry], player: str | None) -> Iterator[Entry]:
    """The entries as `player` may see them (None: the referee, everything)."""
    for entry in entries:
        if player is None or entry.salt is None or entry.event.owner() == player:
            yield entry
        else:
            yield dataclasses.replace(entry, event=redacted(entry.event), salt=None)


def write(
    game_id: UUID, name: str, ruleset: str, players: Sequence[str], entries: Iterable[Entry]
) -> bytes:
    body = [_entry_map(e) for e in entries]
    header = {
        "format": FORMAT,
        "version": VERSION,
        "game_id": str(game_id),
        "name": name,
        "ruleset": ruleset,
        "players": tuple(players),
        "from_seq": body[0]["seq"] if body else 0,
        "to_seq": body[-1]["seq"] if body else 0,
    }
    return b"".join(codec.encode(item) for item in (header, *body))


def armor(data: bytes) -> str:
    return armoring.armor(data, KIND)


def dearmor(text: str) -> bytes:
    """The bytes inside an armored log, tolerant of what mail does to text."""
    return armoring.dearmor(text, KIND)


def read(data: bytes) -> LogFile:
    """Parse a log file (binary or armored); raise LogError naming the first bad entry."""
    if armoring.is_armored(data, KIND):
        data = dearmor(data.decode("utf-8", errors="replace"))
    unpacker = codec.unpacker()
    unpacker.feed(data)
    try:
        header = next(unpacker)
    except (StopIteration, ValueError, msgpack.UnpackException) as exc:
        raise LogError(f"not a warscribe log file (no header): {exc}") from None
    game_id, from_seq, to_seq = _check_header(header)
    entries: list[Entry] = []
    expected = from_seq
    while True:
        try:
            item = next(unpacker)
        except StopIteration:
            break
        except Exception as exc:
            raise LogError(
                f"entry cannot be read (damaged or truncated): {exc}", expected
            ) from None
        entries.append(_entry(item, expected))
        expected += 1
    if to_seq and expected <= to_seq:
        raise LogError(
            f"the file is truncated: the header promises entries up to #{to_seq}", expected
        )
    if entries and entries[-1].seq != to_seq:
        raise LogError(f"the header says the file ends at #{to_seq}", entries[-1].seq)
    if from_seq == 1 and entries and _named_game(entries) != game_id:
        raise LogError("entry #1 is not the GameCreated of the game the header names", 1)
    return LogFile(
        game_id=game_id,
        name=str(header["name"]),
        ruleset=str(header["ruleset"]),
        players=tuple(header["players"]),
        from_seq=from_seq,
        to_seq=to_seq,
        entries=tuple(entries),
    )


def _named_game(entries: Sequence[Entry]) -> UUID | None:
    """The game a log from #1 is the log of: its GameCreated's, or the last fork's."""
    created = entries[0].event
    named = created.game_id if isinstance(created, GameCreated) else None
    for entry in entries:
        if isinstance(entry.event, GameForked):
            named = entry.event.game_id
    return named


def _check_header(header: Any) -> tuple[UUID, int, int]:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogError("not a warscribe log file (bad header)")
    missing = [k for k in _HEADER_KEYS if k not in header]
    if missing:
        raise LogError(f"the log header lacks {', '.join(missing)}")
    if header["version"] != VERSION:
        raise LogError(
            f"log format version {header['version']} is not supported (this is {VERSION})"
        )
    try:
        game_id = UUID(str(header["game_id"]))
    except ValueError:
        raise LogError(f"bad game id in the log header: {header['game_id']!r}") from None
    return game_id, int(header["from_seq"]), int(header["to_seq"])


def _entry(item: Any, expected: int) -> Entry:
    if not isinstance(item, dict) or not {"seq", "topic", "fields", "chain"} <= set(item):
        raise LogError("not a log entry", expected)
    seq = item["seq"]
    if seq != expected:
        raise LogError(f"expected entry #{expected} here, found #{seq}", expected)
    try:
        cls = codec.resolve(item["topic"])
        event: Event = cls(**item["fields"])
    except (codec.CodecError, TypeError) as exc:
        raise LogError(f"bad event: {exc}", seq) from None
    return Entry(
        seq=seq,
        event=event,
        chain=item["chain"],
        digest=item.get("digest"),
        salt=item.get("salt"),
        scheme=item.get("scheme", 1),
    )
