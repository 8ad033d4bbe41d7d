"""Whole mail messages (`.eml` files, RFC 5322) given where a file is expected.

A player may save the mail that carried a log, orders or a key and give that file as it
is. `unwrap` recognises a message by its header block, walks its MIME parts in order
(text/plain, quoted-printable or base64 transfer encoding, multipart/alternative with an
HTML part, attachments) and returns the decoded content of the first part that holds the
armored block wanted, or else of the first binary attachment; anything that is not a
message, or a message with neither, is returned unchanged for the caller to refuse.
"""

from __future__ import annotations

import email
import re
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage, Message

from warscribe.engine.errors import LogError

from . import armor

MAX_PARTS = 1000
"""The most MIME parts a message may have (a bound on hostile input)."""
MAX_CONTAINERS = 64
"""The most multipart or message parts a message may declare: Python's parser and its walk
recurse into each, and 1,000 nested ones (60 KB) were a RecursionError, 400 nested ones
one when the message was written again. Counted in the bytes, before parsing."""

_CONTAINER = re.compile(rb"content-type:[ \t]*(?:\r?\n[ \t]+)?(?:multipart|message)/", re.I)

_HEADER_LINE = re.compile(rb"[A-Za-z0-9-]+:[ \t]")
_MESSAGE_FIELDS = (b"from:", b"to:", b"subject:", b"date:", b"mime-version:", b"content-type:")
_BOM = b"\xef\xbb\xbf"


def is_message(data: bytes) -> bool:
    """Whether `data` begins with a mail header block (and is not an armored file)."""
    head = data.removeprefix(_BOM)[:4096]
    first, _, _ = head.partition(b"\n")
    if not _HEADER_LINE.match(first):
        return False
    lines = [line.lower() for line in head.split(b"\n")]
    return any(line.startswith(field) for line in lines for field in _MESSAGE_FIELDS)


def unwrap(data: bytes, kind: str) -> bytes:
    """The file inside a mail message: the part holding the armored block of `kind`
    (as UTF-8 text), or the first binary attachment; `data` itself if it is no message."""
    if not is_message(data):
        return data
    attachment: bytes | None = None
    for content in leaves(parse(data)):
        if isinstance(content, str):
            if armor.begin(kind) in content:
                return content.encode("utf-8")
        elif armor.is_armored(content, kind):
            return content
        elif attachment is None and content:
            attachment = content
    return data if attachment is None else attachment


def parse(data: bytes) -> EmailMessage:
    """A mail message as Python's `email` reads it (any MIME shape, CRLF or LF); LogError
    for one declaring more than MAX_CONTAINERS multipart or message parts (so that no walk
    recurses deeper), or that the parser fails on."""
    containers = sum(1 for _ in _CONTAINER.finditer(data))
    if containers > MAX_CONTAINERS:
        raise LogError(
            f"the mail message declares {containers} multipart or message parts, more than "
            f"{MAX_CONTAINERS}: not read"
        )
    try:
        message = email.message_from_bytes(data.removeprefix(_BOM), policy=policy.default)
    except Exception as exc:  # whatever the parser raises on hostile bytes
        raise LogError(f"the mail message cannot be parsed ({type(exc).__name__})") from None
    assert isinstance(message, EmailMessage)
    return message


def leaves(message: Message) -> Iterator[str | bytes]:
    """The decoded content of each leaf part in order, a message forwarded as an attachment
    walked too: text for text parts, bytes for the others (at most MAX_PARTS parts)."""
    for number, part in enumerate(message.walk()):
        if number >= MAX_PARTS:
            raise LogError(f"the mail message has more than {MAX_PARTS} parts")
        if not part.is_multipart():
            yield _content(part)


def _content(part: Message) -> str | bytes:
    """A leaf part's decoded content: text for text parts, bytes for the others."""
    payload = part.get_payload(decode=True)
    raw = payload if isinstance(payload, bytes) else b""
    if part.get_content_maintype() != "text":
        return raw
    charset = part.get_content_charset() or "utf-8"
    try:
        return raw.decode(charset, errors="replace")
    except LookupError:
        return raw.decode("utf-8", errors="replace")
