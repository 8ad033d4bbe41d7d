"""ASCII armor: bytes as text that survives the trip through an email body and back.

An armored block is a BEGIN line naming its kind, a `Checksum:` line (the first 16 hex
digits of SHA-256 of the bytes; a block without one is refused, so a changed character is
always caught), optional lines a reader may show but never trusts (`Head:`, the
fingerprint of a log's last entry), a blank line, the bytes in unpadded base64 at 64 columns,
and an END line. Reading it undoes what mail does to text: surrounding text, a byte-order
mark and zero-width characters, text pasted as HTML (`<br>`, `<p>` and `<div>` wrappers,
other tags, entities such as `&gt;` and `&nbsp;`), quoting with "> " (at any depth), CRLF
line ends, trailing spaces, lines re-wrapped shorter or joined to the BEGIN and END lines,
and quoted-printable transfer encoding (soft line breaks ending in "=", escapes such as
"=3D"). Unpadded base64 has no "=" of its own, so every "=" met in the block is mail's;
older blocks written with padding still read. A whole mail message (an `.eml` file) is
read by `store.mail`, which finds the block in whichever part holds it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import io
import re
from collections.abc import Iterator
from typing import BinaryIO

from warscribe.engine.errors import LogError

WIDTH = 64
_CHUNK = WIDTH * 3 // 4 * 1024  # bytes armored at a time: whole lines, no padding inside
# Each pattern begins with a plain character, which the regex engine skips to: a whole text
# is searched in the time of its length, never a call a line (a mail of millions of short
# lines); `_at_line_starts` puts a "\n" before the first line.
_QUOTING = re.compile(r"\n[^\S\n]*>(?:[^\S\n]*>)* ?")
_LEADING = re.compile(r"\n(?=[^\S\n]|>)[^\S\n]*(?:>[^\S\n]*)*")  # quoting and spaces
_SOFT_BREAK = re.compile(r"=[^\S\n]+\n")  # a soft line break with spaces after it
_ANY_SOFT_BREAK = re.compile(r"=[^\S\n]*\n")  # a soft line break, with spaces after it or not
_QP_RUN = re.compile(r"=[0-9A-Fa-f]{2}(?:=[0-9A-Fa-f]{2})*")
_HEADER = re.compile(r"^([A-Za-z][A-Za-z-]*):\s*(\S*)")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"))
_NOTHING = re.compile(r"\n(?!)")
_HTML_BREAK = re.compile(r"<\s*(br|/?p|/?div)\b[^<>]*>", re.IGNORECASE)
_HTML_TAG = re.compile(r"<[^<>]*>")
_HTML_HINT = re.compile(r"<\s*/?[A-Za-z][^<>]*>|&(#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);")


class ArmorError(LogError):
    """An armored block is missing or damaged."""


def begin(kind: str) -> str:
    return f"-----BEGIN WARSCRIBE {kind}-----"


def end(kind: str) -> str:
    return f"-----END WARSCRIBE {kind}-----"


def armor(data: bytes, kind: str, notes: tuple[tuple[str, str], ...] = ()) -> str:
    """`data` as an armored block; `notes` are (name, text) lines shown above the data
    (informational: a reader never trusts them)."""
    return b"".join(armored(io.BytesIO(data), kind, notes)).decode()


def armored(data: BinaryIO, kind: str, notes: tuple[tuple[str, str], ...] = ()) -> Iterator[bytes]:
    """The armored block of what `data` holds from where it stands, a few lines at a time:
    read once for the checksum, then again for the text, so a long log is never held."""
    start = data.tell()
    digest = hashlib.sha256()
    for chunk in iter(lambda: data.read(_CHUNK), b""):
        digest.update(chunk)
    data.seek(start)
    shown = "".join(f"{name}: {value}\n" for name, value in notes)
    yield f"{begin(kind)}\nChecksum: {digest.hexdigest()[:16]}\n{shown}\n".encode()
    for chunk in iter(lambda: data.read(_CHUNK), b""):
        text = base64.b64encode(chunk).rstrip(b"=")
        yield b"".join(text[i : i + WIDTH] + b"\n" for i in range(0, len(text), WIDTH))
    yield f"{end(kind)}\n".encode()


def is_armored(data: bytes, kind: str) -> bool:
    """Whether `data` holds a block of `kind` (its BEGIN line maybe cut by a soft break)."""
    marker = begin(kind).encode()
    return marker in data or marker in data.replace(b"=\r\n", b"").replace(b"=\n", b"")


def _at_line_starts(pattern: re.Pattern[str], text: str) -> str:
    """`text` with each line end (any of those `splitlines` knows) one "\n", and what
    `pattern` (beginning with "\n") matches at the start of a line taken away."""
    return pattern.sub("\n", "\n" + "\n".join(text.splitlines()))[1:]


def _unquoted(text: str) -> list[str]:
    """The lines of `text` without "> " quoting and leading spaces (a BEGIN or END line has
    nothing after it, see `_blocks`; spaces in the other lines are no base64)."""
    return _at_line_starts(_LEADING, text).split("\n")


def _unmailed(text: str) -> str:
    """Undo quoted-printable: join soft line breaks (a line ending in "="), decode =XX
    escapes (runs of them as UTF-8). Plain text may have been quoted after it was encoded;
    in HTML a line may begin with a tag's ">", so it is not taken for quoting there."""
    pattern = _NOTHING if _HTML_HINT.search(text) else _QUOTING
    joined = _SOFT_BREAK.sub("=\n", _at_line_starts(pattern, text) + "\n").replace("=\n", "")
    return _QP_RUN.sub(
        lambda m: bytes.fromhex(m.group(0).replace("=", "")).decode(errors="replace"), joined
    )


def _unhtml(text: str) -> str:
    """Undo HTML: line-breaking tags become line ends, other tags go, entities are decoded."""
    if not _HTML_HINT.search(text):
        return text
    return html.unescape(_HTML_TAG.sub("", _HTML_BREAK.sub("\n", text)))


def _blocks(text: str, kind: str) -> list[list[str]]:
    """The lines between each BEGIN and the next END line of `kind`, once what mail did to
    the text is undone (in the reverse order of mail: transfer encoding, then HTML, then
    quoting). A text without "BEGIN", once invisible characters and soft line breaks are
    taken out, holds none (no mail client escapes those letters): it is not undone."""
    text = text.translate(_INVISIBLE)
    if "BEGIN" not in text and "BEGIN" not in _ANY_SOFT_BREAK.sub("", text):
        return []
    text = _unhtml(_unmailed(text)).translate(_INVISIBLE)
    for marker in (begin(kind), end(kind)):
        text = text.replace(marker, f"\n{marker}\n")
    lines = _unquoted(text)
    found: list[list[str]] = []
    start = 0
    while True:  # each search from where the last ended: a mail of many blocks costs its length
        try:
            first = lines.index(begin(kind), start) + 1
            start = lines.index(end(kind), first)
        except ValueError:
            return found
        found.append(lines[first:start])


def blocks(text: str, kind: str) -> list[bytes]:
    """The bytes of every armored block of `kind` in `text`, in order; ArmorError if one is
    damaged."""
    return [_decoded(lines, kind) for lines in _blocks(text, kind)]


def dearmor(text: str, kind: str) -> bytes:
    """The bytes of the (first) armored block of `kind` in `text`; ArmorError if damaged."""
    found = _blocks(text, kind)
    if not found:
        raise ArmorError(f"no {begin(kind)} ... {end(kind)} block found")
    return _decoded(found[0], kind)


def _decoded(block: list[str], kind: str) -> bytes:
    headers: dict[str, str] = {}
    payload = []
    for line in block:
        header = _HEADER.match(line)
        if header:
            headers[header.group(1).lower()] = header.group(2)
        else:
            payload.append("".join(line.replace("=", "").split()))
    chars = "".join(payload)
    try:
        data = base64.b64decode(chars + "=" * (-len(chars) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ArmorError(f"the armored {kind.lower()} is damaged (not base64): {exc}") from None
    check = headers.get("checksum")
    if check is None:
        raise ArmorError(
            f"the armored {kind.lower()} has no Checksum line: it cannot be checked for damage"
        )
    if hashlib.sha256(data).hexdigest()[:16] != check.lower():
        raise ArmorError(
            f"the armored {kind.lower()} is damaged: its checksum does not match its content"
        )
    return data
