"""Damaged and mail-mangled log files for the import fuzzer (tests/security/test_fuzz_import.py
and tools/fuzz_import.py): one seeded generator, so a failing case is replayed by its seed.

Each case is (what was done, the file's bytes, whether it must import): bit flips,
truncations, appended garbage, a wrong-typed value in a field of the header or of an
entry (raw, or with every chain hash after it rebuilt as a forger would), malformed
msgpack and bad extension payloads, deep nesting, and mail mangling (quoted-printable,
quoting, CRLF, HTML, a byte-order mark, whole messages in every MIME shape written by
Python's `email` package), alone (the file must import) or with damage on top, and
hostile mail (MIME nested as deep as once stopped the referee, header encodings the mail
library fails on: `hostile_mail`, which the referee's fuzzer feeds to `mailbox.opened`).
"""

from __future__ import annotations

import dataclasses
import quopri
import random
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from typing import Any

import msgpack

from tests.security.conftest import rebuilt, rewrite
from warscribe.engine import codec
from warscribe.engine.record import Entry
from warscribe.store import logfile


@dataclasses.dataclass(frozen=True)
class Case:
    what: str
    data: bytes
    must_import: bool = False


def _nested(depth: int, leaf: Any = 0) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _nested_sets(depth: int) -> msgpack.ExtType:
    value = msgpack.ExtType(codec.EXT_SET, b"")
    for _ in range(depth):
        value = msgpack.ExtType(codec.EXT_SET, msgpack.packb(value))
    return value


def _ext(code: int, payload: Any) -> msgpack.ExtType:
    return msgpack.ExtType(code, payload if isinstance(payload, bytes) else msgpack.packb(payload))


BAD_VALUES: tuple[Callable[[random.Random], Any], ...] = (
    lambda r: r.randint(-(2**63), 2**64 - 1),
    lambda r: r.choice([0, 1, -1, 2**31]),
    lambda r: "".join(r.choice("ab\x00\n\u202e\u0430é#") for _ in range(r.randint(0, 12))),
    lambda r: r.randbytes(r.choice([0, 1, 15, 16, 17, 31, 32, 33])),
    lambda r: None,
    lambda r: r.choice([True, False]),
    lambda r: r.random() * 1e9,
    lambda r: [r.randint(0, 9) for _ in range(r.randint(0, 4))],
    lambda r: {r.choice(["a", 1, b"k"]): r.randint(0, 9)},
    lambda r: _nested(r.choice([63, 65, 200, 500])),
    lambda r: _nested_sets(r.choice([10, 70, 500, 2000])),
    lambda r: _ext(codec.EXT_DECIMAL, r.choice([b"abc", b"NaN", b"1e999999999", b"\xff"])),
    lambda r: _ext(codec.EXT_FRACTION, r.choice([b"1/0", b"x/y", b"", b"\xff"])),
    lambda r: _ext(codec.EXT_UUID, r.randbytes(r.choice([0, 15, 17]))),
    lambda r: _ext(codec.EXT_DATETIME, r.choice([b"yesterday", b"\xff\xfe", b""])),
    lambda r: _ext(
        codec.EXT_ENUM, r.choice([("dr.UnitKind", "nope"), (5, 1), "x", ("dr.Placement", 1)])
    ),
    lambda r: _ext(codec.EXT_SET, msgpack.packb({"a": 1}) + msgpack.packb([1])),
    lambda r: _ext(codec.EXT_FROZENSET, b"\xc1"),
    lambda r: _ext(codec.EXT_DATACLASS, r.choice([b"no.such", b"\xff", b"dr.Placement"])),
    lambda r: [msgpack.ExtType(codec.EXT_DATACLASS, b"warscribe.GameCreated"), 1],
    lambda r: msgpack.ExtType(r.randint(9, 127), r.randbytes(4)),
)


def bad_value(rng: random.Random) -> Any:
    return rng.choice(BAD_VALUES)(rng)


def _unpack(data: bytes) -> Iterator[Any]:
    """The header and entry maps of a binary log, extension values kept as they are."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, use_list=True)
    unpacker.feed(data)
    yield from unpacker


def _pack(items: list[Any]) -> bytes:
    return b"".join(msgpack.packb(item, use_bin_type=True) for item in items)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place inside a raw map or array a value can be put."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _put(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = root
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return root


class Generator:
    """The cases of one seed, built from a full binary log and its parsed form."""

    def __init__(self, full: bytes, armored: str, seed: int) -> None:
        self.full = full
        self.armored = armored
        self.log = logfile.read(full)
        self.rng = random.Random(seed)

    def cases(self, count: int) -> Iterator[Case]:
        makers = [
            self.flipped,
            self.truncated,
            self.appended,
            self.wrong_type,
            self.wrong_type,
            self.wrong_type_rebuilt,
            self.wrong_type_rebuilt,
            self.malformed,
            self.mangled,
            self.mangled,
            self.mailed,
            self.hostile,
        ]
        for _ in range(count):
            yield self.rng.choice(makers)()

    # -- damage to the bytes ---------------------------------------------------------------

    def _source(self) -> bytes:
        return self.full if self.rng.random() < 0.7 else self.armored.encode()

    def flipped(self) -> Case:
        data = bytearray(self._source())
        for _ in range(self.rng.randint(1, 4)):
            data[self.rng.randrange(len(data))] ^= 1 << self.rng.randrange(8)
        return Case("bit flips", bytes(data))

    def truncated(self) -> Case:
        data = self._source()
        return Case("truncated", data[: self.rng.randrange(len(data))])

    def appended(self) -> Case:
        tail = self.rng.choice(
            [
                self.rng.randbytes(self.rng.randint(1, 40)),
                msgpack.packb(bad_value(self.rng), use_bin_type=True),
                self.full[: self.rng.randint(1, 200)],
            ]
        )
        return Case("appended garbage", self.full + tail)

    def malformed(self) -> Case:
        header = self.full[: len(self.full) - len(_pack(list(_unpack(self.full))[1:]))]
        body = self.rng.choice(
            [
                self.rng.randbytes(self.rng.randint(1, 64)),
                b"\xc1" * 3,
                b"\xdd\xff\xff\xff\xff",
                b"\xdb\x7f\xff\xff\xff",
                b"\xc7\xff\x05",
                b"\x91" * self.rng.choice([70, 1100, 5000]) + b"\x00",
                msgpack.packb(bad_value(self.rng), use_bin_type=True),
            ]
        )
        return Case("malformed msgpack", self.rng.choice([header, b""]) + body)

    # -- wrong types -----------------------------------------------------------------------

    def wrong_type(self) -> Case:
        """A value anywhere in the header or an entry (fields included) replaced."""
        items = list(_unpack(self.full))
        index = self.rng.randrange(len(items))
        path = self.rng.choice(list(_paths(items[index]))[1:] or [()])
        items[index] = _put(items[index], path, bad_value(self.rng))
        try:
            data = _pack(items)
        except (TypeError, ValueError, OverflowError):
            return self.flipped()
        return Case(f"wrong type at item {index} {path!r}", data)

    def wrong_type_rebuilt(self) -> Case:
        """An event field given a value of another type, every chain hash after it
        recomputed (what a forger would do)."""
        entries = list(self.log.entries)
        entry = self.rng.choice(entries)
        names = [f.name for f in dataclasses.fields(entry.event)]
        name = self.rng.choice(names)
        try:
            value = self._python_bad_value()
        except codec.CodecError:
            return self.wrong_type()

        def change(e: Entry) -> Entry:
            event = object.__new__(type(e.event))
            object.__setattr__(event, "__dict__", {**vars(e.event), name: value})
            return dataclasses.replace(e, event=event)

        try:
            data = rewrite(self.log, rebuilt(entries, entry.seq, change))
        except (codec.CodecError, TypeError, ValueError, RecursionError):
            return self.wrong_type()
        return Case(f"rebuilt chain, #{entry.seq} {name} = {value!r:.40}", data)

    def _python_bad_value(self) -> Any:
        value = bad_value(self.rng)
        if isinstance(value, msgpack.ExtType):
            return self.rng.choice([7, "x", b"y", None, (1,), {"k": 2}])
        return codec.decode(msgpack.packb(value))

    # -- mail ------------------------------------------------------------------------------

    def mangled(self) -> Case:
        """The armored log through a random run of what mail clients do; valid unless
        damaged on top."""
        text = self.armored
        chosen = self.rng.sample(MANGLINGS, self.rng.randint(1, 4))
        steps = [step for step in MANGLINGS if step in chosen]
        for step in steps:
            text = step(text, self.rng)
        data = text.encode("utf-8")
        damaged = self.rng.random() < 0.25
        if damaged:
            data = bytearray(data)
            data[self.rng.randrange(len(data))] = self.rng.choice(b"\xc3\xa9Z*\x00")
            data = bytes(data)
        names = "+".join(s.__name__ for s in steps)
        return Case(f"mangled {names}{' and damaged' if damaged else ''}", data, not damaged)

    def hostile(self) -> Case:
        """The armored log in a hostile mail (nested MIME, header encodings)."""
        return hostile_mail(self.rng, self.armored)

    def mailed(self) -> Case:
        """The log as a whole mail message, in one of the MIME shapes mail clients send."""
        shape = self.rng.choice(sorted(MESSAGES))
        return Case(f"mail message, {shape}", MESSAGES[shape](self.armored, self.full), True)


def _html(text: str, rng: random.Random) -> str:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    lines = escaped.splitlines()
    style = rng.choice(["br", "div", "p"])
    if style == "br":
        body = "<br>\n".join(lines) if rng.random() < 0.5 else "<br/>".join(lines)
    else:
        body = "".join(f"<{style}>{line or '&nbsp;'}</{style}>" for line in lines)
    return f'<html><body><div dir="ltr">{body}</div></body></html>'


def _quoted_printable(text: str, rng: random.Random) -> str:
    return quopri.encodestring(text.encode()).decode()


def _quoting(text: str, rng: random.Random) -> str:
    prefix = rng.choice(["> ", ">", "> > ", ">> "])
    return "\n".join(prefix + line for line in text.splitlines())


def _crlf(text: str, rng: random.Random) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _trailing_spaces(text: str, rng: random.Random) -> str:
    return "\n".join(line + " " * rng.randint(0, 3) for line in text.splitlines())


def _bom(text: str, rng: random.Random) -> str:
    return "\ufeff" + text


def _surrounded(text: str, rng: random.Random) -> str:
    return "Hi all,\n\nhere is the log:\n\n" + text + "\n-- \nalice\n"


def _rewrapped(text: str, rng: random.Random) -> str:
    width = rng.randint(20, 60)
    out = []
    for line in text.splitlines():
        while len(line) > width and "-----" not in line and ":" not in line:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out)


MANGLINGS: list[Callable[[str, random.Random], str]] = [
    _surrounded,
    _rewrapped,
    _quoting,
    _html,
    _trailing_spaces,
    _bom,
    _quoted_printable,
    _crlf,
]
"""What mail does to a text, in the order it happens (a chosen few are applied in turn)."""


def _headers(message: Any) -> Any:
    message["From"] = "alice@example.org"
    message["To"] = "referee@example.org"
    message["Subject"] = "our game, turn 3"
    return message


def _plain(armored: str, binary: bytes, cte: str | None = None) -> bytes:
    message = EmailMessage()
    message.set_content("Here is the log:\n\n" + armored, cte=cte)
    return bytes(_headers(message))


def _alternative(armored: str, binary: bytes) -> bytes:
    message = MIMEMultipart("alternative")
    message.attach(MIMEText("Here is the log:\n\n" + armored, "plain", "utf-8"))
    message.attach(MIMEText(_html(armored, random.Random(0)), "html", "utf-8"))
    return _headers(message).as_bytes()


def _html_only(armored: str, binary: bytes) -> bytes:
    message = EmailMessage()
    message.set_content(_html(armored, random.Random(1)), subtype="html")
    return bytes(_headers(message))


def _attached(armored: str, binary: bytes) -> bytes:
    message = EmailMessage()
    message.set_content("The log is attached.")
    message.add_attachment(armored.encode(), maintype="text", subtype="plain", filename="g.txt")
    return bytes(_headers(message))


def _binary_attached(armored: str, binary: bytes) -> bytes:
    message = MIMEMultipart()
    message.attach(MIMEText("The log is attached.", "plain"))
    message.attach(MIMEApplication(binary, Name="g.wlog"))
    return _headers(message).as_bytes()


MESSAGES: dict[str, Callable[[str, bytes], bytes]] = {
    "text/plain 7bit": _plain,
    "text/plain quoted-printable": lambda a, b: _plain(a, b, "quoted-printable"),
    "text/plain base64": lambda a, b: _plain(a, b, "base64"),
    "multipart/alternative with HTML": _alternative,
    "text/html only": _html_only,
    "armored attachment": _attached,
    "binary attachment": _binary_attached,
}


# -- hostile mail: MIME nested deep, header encodings the mail library fails on ----------------

NESTINGS = (1, 3, 20, 63, 65, 400, 1000, 1200)
"""How deep a hostile mail nests its parts: within the bound, just past it, and as deep as
once stopped the referee (400: written again by mark_seen; 1,000 and 1,200: parsing)."""

HOSTILE_HEADERS: tuple[bytes, ...] = (
    b"From: =?utf-8?q?x=0D=0Ay?= <m@evil.test>",
    b"From: =?utf-8?b?eA0KQmNjOiBtQGV2aWwudGVzdA==?=",
    b"From: =?x-unknown?q?x?= <m@evil.test>",
    b"From: <>",
    b'From: "\\" <m@evil.test',
    b"From: a\xff\xfe@evil.test",
    b"Message-ID: <>",
    b"Message-ID: <=?utf-8?q?a=0D=0Ab?=@evil.test>",
    b"Message-ID: =?utf-8?q?=0D=0ABcc:_m@evil.test?=",
    b"Message-ID: <a@b> <c@d>",
    b"Message-ID: " + b"<" * 2000,
    b"Message-ID: <a\x00b@evil.test>",
    b"Date: Mon, 99 Foo 99999 99:99:99 +9999",
    b"Date: =?utf-8?q?=0D=0A?=",
    b"Subject: =?utf-8?q?a=0D=0AFrom:_m@evil.test?=",
    b"Subject: =?utf-8?b?####?=",
    b"In-Reply-To: <>",
    b"References: <<<<",
)
"""Header lines that made Python's mail library raise, or decode to CR LF."""

CONTENT_TYPES: tuple[bytes, ...] = (
    b"text/plain; charset*=x-unknown''%FF%FE",
    b'text/plain; charset="=?utf-8?q?x=0D=0A?="',
    b"text/plain; charset=x-no-such-charset",
    b"text/plain; charset*0*=utf-8''a; charset*1=%",
    b'multipart/mixed; boundary=""',
    b"message/rfc822",
)
"""A part's Content-Type the library may fail on (the part holding the block is then
unreadable: the mail need not import)."""


def nested_mime(body: bytes, depth: int, style: str) -> bytes:
    """`body` as a text part inside `depth` levels of `style`: `message` (a mail forwarded
    as an attachment, message/rfc822), or a multipart subtype (mixed, digest)."""
    part = b"Content-Type: text/plain; charset=utf-8\n\n" + body
    for level in range(depth):
        if style == "message":
            part = b"Content-Type: message/rfc822\n\nSubject: fwd\n" + part
        else:
            mark = b"b%d" % level
            head = b"Content-Type: multipart/%s; boundary=%s\n\n--%s\n" % (
                style.encode(),
                mark,
                mark,
            )
            part = head + part + b"\n--%s--\n" % mark
    return part


def hostile_mail(rng: random.Random, armored: str) -> Case:
    """A mail carrying `armored` that tries to stop whoever reads it: MIME nested to a
    depth of NESTINGS, hostile header lines, a hostile Content-Type, or all three. It
    must import (`must_import`) when it nests within the bound and its parts are sound."""
    depth = rng.choice(NESTINGS)
    style = rng.choice(["message", "mixed", "digest"])
    headers = rng.sample(HOSTILE_HEADERS, rng.randint(0, 3))
    body = armored.encode()
    sound = depth <= 20
    if rng.random() < 0.2:
        kind = rng.choice(CONTENT_TYPES)
        body = b"Content-Type: " + kind + b"\n\n" + body
        sound = False
    top = [b"To: referee@example.org", b"Subject: my turn", b"MIME-Version: 1.0", *headers]
    if not any(h.startswith(b"From:") for h in headers):
        top.insert(0, b"From: alice@example.org")
    data = b"\n".join(top) + b"\n" + nested_mime(body, depth, style)
    names = ", ".join(h.split(b":")[0].decode() for h in headers) or "no hostile header"
    return Case(f"hostile mail nested {depth} ({style}), {names}", data, sound)
