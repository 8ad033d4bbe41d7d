"""Log files: a msgpack header map, then one map per entry; optionally ASCII-armored.

Header: ``{"format": "warscribe-log", "version": 1, "game_id", "name", "ruleset",
"players", "from_seq", "to_seq"}``, and ``"checkpoint": {"seq", "chain", "signature"}``
when the host vouches for the last entry (see `engine.anchor`). Entry maps: ``{"seq",
"topic", "fields", "digest", "salt", "scheme", "chain"}``; values inside use the engine
codec's extension types. The armored form (see `armor`) is the same bytes as text that
survives an email body.

Nothing a file says is taken on trust: every key and type is checked (each event field
against the type its class declares, see `engine.typecheck`), unknown keys and trailing
bytes are refused, values nest at most `codec.MAX_DEPTH` levels and a file holds at most
`MAX_BYTES`; whatever goes wrong reading a file is a LogError naming the entry, never a
crash. A whole mail message holding the log (an `.eml` file) reads as the log it carries
(see `mail`). The header's name, rule set and players (which the chain
does not cover) must agree with the chained GameCreated/GameForked entries; the store
lists a game from those entries, never from the header.

A copy for one player (`redact_for`) keeps every entry and chain hash, and the private
parts that player may see; the others lose their private part and salt, keeping the
digest the chain covers, so the copy verifies against the same chain as the full one.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, BinaryIO
from uuid import UUID

import msgpack

from warscribe.engine import codec, typecheck
from warscribe.engine.anchor import Checkpoint
from warscribe.engine.codec import frozen
from warscribe.engine.errors import LogError, WarscribeError
from warscribe.engine.events import Event, GameCreated, GameForked
from warscribe.engine.hidden import LEAVES, WHOLE, private_names, redacted, split
from warscribe.engine.record import Entry

from . import armor as armoring
from . import mail
from .heads import Heads, found_in

FORMAT = "warscribe-log"
VERSION = 1
KIND = "LOG"
BEGIN = armoring.begin(KIND)
END = armoring.end(KIND)
MAX_BYTES = 64 * 1024 * 1024
"""The largest log file read (a bound on hostile input; a long game is a few megabytes)."""
_HEADER_KEYS = ("format", "version", "game_id", "name", "ruleset", "players", "from_seq", "to_seq")
_OPTIONAL_HEADER_KEYS = ("checkpoint",)
_ENTRY_KEYS = ("seq", "topic", "fields", "chain")
_OPTIONAL_ENTRY_KEYS = ("digest", "salt", "scheme")
_CHECKPOINT_KEYS = ("seq", "chain", "signature")


@frozen
class LogFile:
    """A parsed log file: which game, which entries."""

    game_id: UUID
    name: str
    ruleset: str
    players: tuple[str, ...]
    from_seq: int
    to_seq: int
    entries: tuple[Entry, ...]
    checkpoint: Checkpoint | None = None
    heads: Heads = ()
    """The players' signed heads the copy carries beside it (`heads`; none in a binary
    file, or from a referee before them)."""


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
    game_id: UUID,
    name: str,
    ruleset: str,
    players: Sequence[str],
    entries: Iterable[Entry],
    checkpoint: Checkpoint | None = None,
) -> bytes:
    body = list(entries)
    out = io.BytesIO()
    span = (body[0].seq, body[-1].seq) if body else (0, 0)
    write_to(out, game_id, name, ruleset, players, body, span, checkpoint)
    return out.getvalue()


def write_to(
    out: BinaryIO,
    game_id: UUID,
    name: str,
    ruleset: str,
    players: Sequence[str],
    entries: Iterable[Entry],
    span: tuple[int, int],
    checkpoint: Checkpoint | None = None,
) -> Entry | None:
    """Write the log file of `entries` to `out` an entry at a time (a long log is never
    held whole); `span` is (first, last) sequence number of the entries, which the header
    gives before them ((0, 0): none). The last entry written (None: none); LogError if
    the entries are not the span promised."""
    out.write(codec.encode(_header(game_id, name, ruleset, players, span, checkpoint)))
    return _write_entries(out, entries, span)


def _header(
    game_id: UUID,
    name: str,
    ruleset: str,
    players: Sequence[str],
    span: tuple[int, int],
    checkpoint: Checkpoint | None,
) -> dict[str, Any]:
    """The log file's header: the game, its players and the span of entries it holds."""
    from_seq, to_seq = span
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game_id": str(game_id),
        "name": name,
        "ruleset": ruleset,
        "players": tuple(players),
        "from_seq": from_seq,
        "to_seq": to_seq,
    }
    if checkpoint is not None:
        header["checkpoint"] = {
            "seq": checkpoint.seq,
            "chain": checkpoint.chain,
            "signature": checkpoint.signature,
        }
    return header


def _write_entries(out: BinaryIO, entries: Iterable[Entry], span: tuple[int, int]) -> Entry | None:
    """Write `entries` after the header; the last (None: none). LogError if they are not
    the span the header promised."""
    from_seq, to_seq = span
    last: Entry | None = None
    expected = from_seq
    for entry in entries:
        if entry.seq != expected or entry.seq > to_seq:
            raise LogError(f"expected entry #{expected} of #{from_seq}..#{to_seq}", entry.seq)
        out.write(codec.encode(_entry_map(entry)))
        last, expected = entry, expected + 1
    if (last.seq if last else 0) != to_seq:
        raise LogError(f"the log ends before #{to_seq}", expected)
    return last


def armor(data: bytes, head: str | None = None) -> str:
    """The armored log; `head` (the last entry's fingerprint) is shown above the data."""
    return armoring.armor(data, KIND, _notes(head))


def armored(data: BinaryIO, head: str | None = None) -> Iterator[bytes]:
    """`armor` of the log `data` holds, a few lines at a time (see `armor.armored`)."""
    return armoring.armored(data, KIND, _notes(head))


def _notes(head: str | None) -> tuple[tuple[str, str], ...]:
    return (("Head", head),) if head else ()


def dearmor(text: str) -> bytes:
    """The bytes inside an armored log, tolerant of what mail does to text."""
    return armoring.dearmor(text, KIND)


def read(data: bytes, heads: Heads = ()) -> LogFile:
    """Parse a log file (binary, armored, or a mail message carrying either), with the
    signed heads armored beside it (or `heads`, found beside the log by whoever took it
    out of its mail); raise LogError naming the first bad entry, whatever the bytes."""
    if len(data) > MAX_BYTES:
        raise LogError(f"the file is larger than {MAX_BYTES} bytes: not a log file")
    try:
        return _read(mail.unwrap(data, KIND), heads)
    except WarscribeError:
        raise
    except Exception as exc:
        raise LogError(f"the file cannot be read: {type(exc).__name__}: {exc}") from None


def _read(data: bytes, heads: Heads) -> LogFile:
    if armoring.is_armored(data, KIND):
        text = data.decode("utf-8", errors="replace")
        data, heads = dearmor(text), heads or found_in((text,))
    unpacker = codec.unpacker()
    unpacker.feed(data)
    try:
        header = next(unpacker)
    except (StopIteration, ValueError, msgpack.UnpackException) as exc:
        raise LogError(f"not a warscribe log file (no header): {exc}") from None
    game_id, from_seq, to_seq = _check_header(header)
    checkpoint = _checkpoint(header.get("checkpoint"))
    entries = _entries_after_header(unpacker, len(data), from_seq)
    _check_span(entries, game_id, from_seq, to_seq)
    return LogFile(
        game_id=game_id,
        name=header["name"],
        ruleset=header["ruleset"],
        players=header["players"],
        from_seq=from_seq,
        to_seq=to_seq,
        entries=tuple(entries),
        checkpoint=checkpoint,
        heads=heads,
    )


def _entries_after_header(unpacker: msgpack.Unpacker, size: int, from_seq: int) -> list[Entry]:
    """The entries after the header (of a file of `size` bytes), numbered from
    `from_seq`; LogError if one cannot be read or the file ends in part of one."""
    end = unpacker.tell()
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
        end = unpacker.tell()
        expected += 1
    if end != size:
        raise LogError(
            f"{size - end} bytes after the last entry are not a whole entry (damaged, or appended)",
            expected,
        )
    return entries


def _check_span(entries: Sequence[Entry], game_id: UUID, from_seq: int, to_seq: int) -> None:
    """LogError unless `entries` are the span the header promised, of the game it names."""
    expected = from_seq + len(entries)
    if to_seq and expected <= to_seq:
        raise LogError(
            f"the file is truncated: the header promises entries up to #{to_seq}", expected
        )
    if entries and entries[-1].seq != to_seq:
        raise LogError(f"the header says the file ends at #{to_seq}", entries[-1].seq)
    if from_seq == 1 and entries and _named_game(entries) != game_id:
        raise LogError("entry #1 is not the GameCreated of the game the header names", 1)


def _named_game(entries: Sequence[Entry]) -> UUID | None:
    """The game a log from #1 is the log of: its GameCreated's, or the last fork's."""
    created = entries[0].event
    named = created.game_id if isinstance(created, GameCreated) else None
    for entry in entries:
        if isinstance(entry.event, GameForked):
            named = entry.event.game_id
    return named


def _keys(item: Any, required: Sequence[str], optional: Sequence[str], what: str) -> None:
    """Refuse a map that lacks a required key or has a key nobody reads (a changed byte)."""
    if type(item) is not dict:
        raise LogError(f"{what} is not a map")
    missing = [k for k in required if k not in item]
    if missing:
        raise LogError(f"{what} lacks {', '.join(missing)}")
    unknown = [repr(k) for k in item if k not in required and k not in optional]
    if unknown:
        raise LogError(f"{what} has unknown keys {', '.join(unknown)}")


def _is_int(value: Any) -> bool:
    return type(value) is int


def _check_header(header: Any) -> tuple[UUID, int, int]:
    if type(header) is not dict or header.get("format") != FORMAT:
        raise LogError("not a warscribe log file (bad header)")
    _keys(header, _HEADER_KEYS, _OPTIONAL_HEADER_KEYS, "the log header")
    if header["version"] != VERSION:
        raise LogError(
            f"log format version {header['version']!r} is not supported (this is {VERSION})"
        )
    try:
        game_id = UUID(header["game_id"])
    except (TypeError, ValueError, AttributeError):
        raise LogError(f"bad game id in the log header: {header['game_id']!r}") from None
    players = header["players"]
    if type(header["name"]) is not str or type(header["ruleset"]) is not str:
        raise LogError("the log header's name and ruleset must be text")
    if type(players) is not tuple or not all(type(p) is str for p in players):
        raise LogError("the log header's players must be a list of names")
    from_seq, to_seq = header["from_seq"], header["to_seq"]
    if not (_is_int(from_seq) and _is_int(to_seq) and from_seq >= 0 and to_seq >= 0):
        raise LogError("the log header's from_seq and to_seq must be entry numbers")
    return game_id, from_seq, to_seq


def _checkpoint(item: Any) -> Checkpoint | None:
    if item is None:
        return None
    _keys(item, _CHECKPOINT_KEYS, (), "the log header's checkpoint")
    seq, chain, signature = item["seq"], item["chain"], item["signature"]
    if not (_is_int(seq) and type(chain) is bytes and type(signature) is bytes):
        raise LogError("the log header's checkpoint has fields of the wrong type")
    return Checkpoint(seq=seq, chain=chain, signature=signature)


def _entry(item: Any, expected: int) -> Entry:
    try:
        _keys(item, _ENTRY_KEYS, _OPTIONAL_ENTRY_KEYS, "the entry")
    except LogError as exc:
        raise LogError(exc.message, expected) from None
    seq = item["seq"]
    if not _is_int(seq) or seq != expected:
        raise LogError(f"expected entry #{expected} here, found #{seq!r}", expected)
    topic, fields, chain = item["topic"], item["fields"], item["chain"]
    digest, salt, scheme = item.get("digest"), item.get("salt"), item.get("scheme", WHOLE)
    if type(topic) is not str or type(fields) is not dict:
        raise LogError("the entry's topic must be text and its fields a map", seq)
    if type(chain) is not bytes or len(chain) != 32:
        raise LogError("the entry's chain hash is not 32 bytes", seq)
    if not (digest is None or (type(digest) is bytes and len(digest) == 32)):
        raise LogError("the entry's digest is not 32 bytes", seq)
    if not (salt is None or (type(salt) is bytes and len(salt) == 16)):
        raise LogError("the entry's salt is not 16 bytes", seq)
    if scheme not in (WHOLE, LEAVES) or not _is_int(scheme):
        raise LogError(f"unknown commitment scheme {scheme!r}", seq)
    try:
        cls = codec.resolve(topic)
        if not (isinstance(cls, type) and issubclass(cls, Event)):
            raise codec.CodecError(f"{topic!r} is not an event")
        typecheck.check_fields(cls, fields, private_names(cls) if salt is None else ())
        event: Event = cls(**fields)
    except (codec.CodecError, TypeError, ValueError) as exc:
        raise LogError(f"bad event: {exc}", seq) from None
    return Entry(seq=seq, event=event, chain=chain, digest=digest, salt=salt, scheme=scheme)
