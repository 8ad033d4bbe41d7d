"""Log files: a msgpack header map, then one map per entry; optionally ASCII-armored.

Header: ``{"format": "warscribe-log", "version": 1, "game_id", "name", "ruleset",
"players", "from_seq", "to_seq"}``. Entry maps: ``{"seq", "topic", "fields", "digest",
"salt", "chain"}``; values inside use the engine codec's extension types. The armored form
is the same bytes in base64 between BEGIN/END lines, 64 columns, so it survives being
pasted into an email body (surrounding text, quoting with "> ", CRLF and trailing spaces
are ignored on reading).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgpack
from warscribe.engine import codec
from warscribe.engine.errors import LogError
from warscribe.engine.events import Event, GameCreated
from warscribe.engine.record import Entry, split

FORMAT = "warscribe-log"
VERSION = 1
BEGIN = "-----BEGIN WARSCRIBE LOG-----"
END = "-----END WARSCRIBE LOG-----"
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
        "chain": entry.chain,
    }


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
    text = base64.b64encode(data).decode()
    lines = [text[i : i + 64] for i in range(0, len(text), 64)]
    check = hashlib.sha256(data).hexdigest()[:16]
    return "\n".join([BEGIN, f"Checksum: {check}", "", *lines, END, ""])


def dearmor(text: str) -> bytes:
    """The bytes inside an armored log, tolerant of mail quoting and line-ending damage."""
    lines = [re.sub(r"^(>\s?)+", "", line).strip() for line in text.splitlines()]
    try:
        start, stop = lines.index(BEGIN), lines.index(END)
    except ValueError:
        raise LogError(f"no {BEGIN} ... {END} block found in the armored file") from None
    body = lines[start + 1 : stop]
    check = next(
        (line.split(":", 1)[1].strip() for line in body if line.startswith("Checksum:")), None
    )
    payload = "".join(line for line in body if line and ":" not in line)
    try:
        data = base64.b64decode(payload, validate=True)
    except binascii.Error as exc:
        raise LogError(f"the armored block is damaged (not base64): {exc}") from None
    if check is not None and hashlib.sha256(data).hexdigest()[:16] != check:
        raise LogError("the armored block is damaged: its checksum does not match its content")
    return data


def read(data: bytes) -> LogFile:
    """Parse a log file (binary or armored); raise LogError naming the first bad entry."""
    if data.lstrip().startswith(BEGIN.encode()) or BEGIN.encode() in data[:4096]:
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
    if from_seq == 1 and entries:
        created = entries[0].event
        if not isinstance(created, GameCreated) or created.game_id != game_id:
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
        seq=seq, event=event, chain=item["chain"], digest=item.get("digest"), salt=item.get("salt")
    )
