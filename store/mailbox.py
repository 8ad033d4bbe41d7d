"""The referee's mailbox: mail in from a Maildir, an mbox or a folder of `.eml` files, the
players' addresses, replies out as RFC 5322 messages to an outbox Maildir and over SMTP.

A mail carries at most one thing the record acts on: signed orders, or else a log, with
the players' signed heads beside it (`heads`; the block of the other kind, such as the
referee's log quoted below a player's orders, is left alone). The same block found twice
(the plain and the HTML alternative of one mail) counts once; two different blocks of the
kind taken are refused, as is a mail over MAX_MAIL_BYTES, before it is parsed.

Each game's `Mailroom` (an aggregate of the store, never part of the game's log) keeps the
players' addresses, which only the store's operator sets (`address`; an incoming mail never
changes them: replies, which carry a player's copy with their hidden cards, go to the
recorded address whatever a mail's From says), and the last entry mailed to each player, so
the next reply carries the entries after it.
"""

from __future__ import annotations

import io
import mailbox
import os
import smtplib
import ssl
from collections.abc import Iterator, Mapping, Sequence
from email.message import EmailMessage
from email.utils import formatdate, getaddresses, make_msgid, parseaddr, parsedate_to_datetime
from ipaddress import ip_address
from pathlib import Path
from typing import BinaryIO, TypeVar
from urllib.parse import urlsplit
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from warscribe.engine.anchor import fingerprint
from warscribe.engine.codec import frozen
from warscribe.engine.errors import WarscribeError
from warscribe.engine.record import Entry

from . import armor, logfile, mail
from .app import Warscribe
from .backends import StoreError
from .heads import KIND as HEADS_KIND
from .heads import Heads, found_in
from .orders import KEY_KINDS, ORDERS_KIND
from .reading import GameListing

MAX_MAIL_BYTES = 8 * 1024 * 1024
"""The largest mail read (a bound on hostile input; a game's whole armored log is far less)."""

SMTP_USER = "WARSCRIBE_SMTP_USER"
SMTP_PASSWORD = "WARSCRIBE_SMTP_PASSWORD"
_LOG_KIND = logfile.KIND
_SEEN = "S"


class MailError(WarscribeError):
    """A mail cannot be read or taken, a mailbox opened, or a reply sent."""


# -- the mailroom of a game ------------------------------------------------------------------


class Mailroom(Aggregate):
    """A game's players' addresses, and the last entry mailed to each of them."""

    TOPIC = "warscribe:Mailroom"

    class Created(Aggregate.Created):
        TOPIC = "warscribe:Mailroom.Created"

    class AddressSet(Aggregate.Event):
        TOPIC = "warscribe:Mailroom.AddressSet"
        player: str
        address: str

        def apply(self, aggregate: Aggregate) -> None:
            room: Mailroom = aggregate  # type: ignore[assignment]
            room.addresses = (*_without(room.addresses, self.player), (self.player, self.address))

    class Mailed(Aggregate.Event):
        TOPIC = "warscribe:Mailroom.Mailed"
        player: str
        seq: int

        def apply(self, aggregate: Aggregate) -> None:
            room: Mailroom = aggregate  # type: ignore[assignment]
            room.mailed = (*_without(room.mailed, self.player), (self.player, self.seq))

    def __init__(self) -> None:
        self.addresses: tuple[tuple[str, str], ...] = ()
        self.mailed: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def id_for(game_id: UUID) -> UUID:
        return uuid5(game_id, "mailroom")


P = TypeVar("P", bound=tuple[str, object])


def _without(pairs: tuple[P, ...], name: str) -> tuple[P, ...]:
    return tuple(pair for pair in pairs if pair[0] != name)


def mailroom(app: Warscribe, game_id: UUID) -> Mailroom:
    """The game's mailroom (an empty one when nothing was set yet)."""
    try:
        room: Mailroom = app.repository.get(Mailroom.id_for(game_id))
    except AggregateNotFoundError:
        room = Mailroom._create(Mailroom.Created, id=Mailroom.id_for(game_id))
    return room


def checked_address(text: str) -> str:
    """One plain mail address (`name@host`), refused otherwise (no lists, no header tricks)."""
    found = getaddresses([text])
    if len(found) != 1 or "\n" in text or "\r" in text:
        raise MailError(f"{text!r} is not one mail address")
    address = found[0][1]
    local, at, host = address.rpartition("@")
    if not at or not local or "." not in host or any(c.isspace() for c in address):
        raise MailError(f"{text!r} is not one mail address (write name@host)")
    return address


def set_address(app: Warscribe, game_id: UUID, player: str, address: str) -> None:
    room = mailroom(app, game_id)
    room.trigger_event(Mailroom.AddressSet, player=player, address=checked_address(address))
    app._save(room, what="`address`")


# -- mail in ---------------------------------------------------------------------------------


@frozen
class Letter:
    """One mail of a mailbox: how the report names it, and its bytes (None: too large)."""

    name: str
    data: bytes | None


def is_mailbox(path: str) -> bool:
    """Whether `path` is a Maildir, a folder of `.eml` files or an mbox file (one file
    beginning with a `From ` line)."""
    place = Path(path)
    if place.is_dir():
        return True
    if not place.is_file():
        return False
    with place.open("rb") as file:
        return file.read(5) == b"From "


def _is_maildir(place: Path) -> bool:
    return all((place / sub).is_dir() for sub in ("cur", "new", "tmp"))


def letters(path: str, *, unseen: bool = False) -> Iterator[Letter]:
    """Every mail of a Maildir (with `unseen`, those not marked seen yet), an mbox file, a
    folder of `.eml` files, or the one message a file holds; in the mailbox's order."""
    place = Path(path)
    if place.is_dir() and not _is_maildir(place):
        for file in sorted(place.glob("*.eml")):
            yield Letter(file.name, _bounded_read(file.open("rb")))
        return
    if place.is_file() and not is_mailbox(path):
        yield Letter(place.name, _bounded_read(place.open("rb")))
        return
    box: mailbox.Mailbox[mailbox.Message] = (
        mailbox.Maildir(place, create=False) if place.is_dir() else mailbox.mbox(place)
    )
    try:
        keys = _new(place) if unseen and place.is_dir() else sorted(box.iterkeys())
        for number, key in enumerate(keys, start=1):
            name = key if isinstance(box, mailbox.Maildir) else f"{place.name} #{number}"
            yield Letter(name, _bounded_read(box.get_file(key)))
    finally:
        box.close()


def _new(place: Path) -> list[str]:
    """The keys of a Maildir's new mails (those in new/: not seen, or not sent, yet)."""
    names = (name.partition(":")[0] for name in os.listdir(place / "new"))
    return sorted(name for name in names if not name.startswith("."))


def _bounded_read(file: object) -> bytes | None:
    with file:  # type: ignore[attr-defined]
        data: bytes = file.read(MAX_MAIL_BYTES + 1)  # type: ignore[attr-defined]
    return None if len(data) > MAX_MAIL_BYTES else data


def mark_seen(path: str, names: Sequence[str]) -> None:
    """Mark these mails of a Maildir seen (moved to cur/ with the S flag), so the next run
    of `referee` does not read them again; an mbox or a folder is left as it is."""
    place = Path(path)
    if not (place.is_dir() and _is_maildir(place)):
        return
    box = mailbox.Maildir(place, create=False)
    for key in names:
        if key in box:
            message = box[key]
            message.set_subdir("cur")
            message.add_flag(_SEEN)
            box[key] = message


@frozen
class Envelope:
    """What a mail's header says: the sender's address, its id and date (for ordering)."""

    sender: str
    message_id: str | None
    date: float


@frozen
class Carried:
    """The one block a mail carries for the record: ORDERS or LOG, and its bytes; beside
    a log, the players' signed heads."""

    kind: str
    data: bytes
    heads: Heads = ()

    def log(self) -> logfile.LogFile:
        """The log it carries, with the signed heads beside it."""
        return logfile.read(self.data, self.heads)


_KINDS = (ORDERS_KIND, _LOG_KIND, HEADS_KIND, *KEY_KINDS.values())


def opened(letter: Letter) -> tuple[Envelope, Carried | None]:
    """The mail's envelope and the block it carries for the record (None: no orders nor
    log in it); MailError for a mail too large or with two different blocks of a kind."""
    if letter.data is None:
        raise MailError(f"the mail is larger than {MAX_MAIL_BYTES} bytes: not read")
    message = mail.parse(letter.data)
    texts = [
        c if isinstance(c, str) else c.decode("utf-8", "replace")
        for c in mail.leaves(message)
        if isinstance(c, str) or any(armor.is_armored(c, kind) for kind in _KINDS)
    ]
    envelope = Envelope(
        sender=parseaddr(str(message.get("From", "")))[1],
        message_id=message.get("Message-ID"),
        date=_timestamp(message.get("Date")),
    )
    for kind in (ORDERS_KIND, _LOG_KIND):
        found = {block for text in texts for block in armor.blocks(text, kind)}
        if len(found) > 1:
            raise MailError(
                f"the mail holds {len(found)} different {kind.lower()} blocks: send one a mail"
            )
        if found:
            beside = found_in(texts) if kind == _LOG_KIND else ()
            return envelope, Carried(kind, found.pop(), beside)
    return envelope, None


def _timestamp(value: object) -> float:
    try:
        return parsedate_to_datetime(str(value)).timestamp() if value else 0.0
    except (TypeError, ValueError):
        return 0.0


# -- mail out --------------------------------------------------------------------------------


def player_copy(app: Warscribe, listing: GameListing, player: str | None, start: int) -> bytes:
    """The log file `write_copy` writes, as bytes."""
    out = io.BytesIO()
    write_copy(app, listing, player, start, out)
    return out.getvalue()


def write_copy(
    app: Warscribe, listing: GameListing, player: str | None, start: int, out: BinaryIO
) -> Entry | None:
    """Write the log file of the game from entry `start` to `out`, an entry at a time: the
    copy `player` may see (None: the whole log), with the host's checkpoint over its last
    entry (refused without one in a game with a host key). The last entry written."""
    game_id = listing.game_id
    head = app.head(game_id)
    checkpoint = None
    if start <= head.seq:
        checkpoint = app.checkpoint(game_id, head.seq, head.chain)
        if checkpoint is None and head.host_key is not None:
            raise StoreError(
                f"no checkpoint of the host's covers {fingerprint(head.seq, head.chain)} in "
                "this store: only the host's store signs a copy (with the host's key from its "
                f"secrets file {app.secrets.path}), and a player's store passes on the one it "
                "received (a fork made in a player's store cannot be mailed: the host did not "
                "sign it)"
            )
    span = (start, head.seq) if start <= head.seq else (0, 0)
    entries = logfile.redact_for(app.entries(game_id, start, head.seq), player)
    return logfile.write_to(
        out, game_id, listing.name, listing.ruleset, listing.players, entries, span, checkpoint
    )


@frozen
class Reply:
    """A reply to write: to whom, its subject, the plain text above the block, the block."""

    to: str
    subject: str
    summary: str
    block: str
    in_reply_to: str | None = None


def message(reply: Reply, sender: str) -> EmailMessage:
    """The reply as an RFC 5322 message: plain text, the summary above the armored block."""
    out = EmailMessage()
    out["From"] = sender
    out["To"] = reply.to
    out["Subject"] = reply.subject
    out["Date"] = formatdate()
    out["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    if reply.in_reply_to:
        out["In-Reply-To"] = reply.in_reply_to
        out["References"] = reply.in_reply_to
    body = f"{reply.summary.rstrip()}\n\n{reply.block}"
    out.set_content(body, cte="7bit" if body.isascii() else "quoted-printable")
    return out


def post(outbox: str, messages: Sequence[EmailMessage]) -> None:
    """Put the messages in the outbox Maildir (made if missing), each file whole or none."""
    box = mailbox.Maildir(outbox, create=True)
    for each in messages:
        box.add(each)


@frozen
class SmtpServer:
    """Where `send` sends: `smtp://HOST[:PORT]` (STARTTLS) or `smtps://HOST[:PORT]` (TLS)."""

    tls: bool
    host: str
    port: int


def smtp_server(url: str) -> SmtpServer:
    """The server of an `--smtp` URL, refused with credentials in it (they would show in
    the process list and the shell's history: they come from the environment)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise MailError(f"--smtp {url!r}: write smtp://HOST[:PORT] or smtps://HOST[:PORT]")
    if parts.username or parts.password:
        raise MailError(
            f"--smtp: no credentials in the URL (they would show in the process list): "
            f"set {SMTP_USER} and {SMTP_PASSWORD}"
        )
    tls = parts.scheme == "smtps"
    return SmtpServer(tls, parts.hostname, parts.port or (465 if tls else 587))


def send(outbox: str, server: SmtpServer, environ: Mapping[str, str] = os.environ) -> list[str]:
    """Send every message of the outbox not sent yet (those in new/), logging in with
    WARSCRIBE_SMTP_USER and WARSCRIBE_SMTP_PASSWORD when set; each message sent is marked
    seen (moved to cur/). Without TLS only a server on this machine is spoken to, and never
    with credentials. Returns one line per message."""
    user, password = environ.get(SMTP_USER), environ.get(SMTP_PASSWORD, "")
    context = ssl.create_default_context()
    box = mailbox.Maildir(outbox, create=True)
    pending = _new(Path(outbox))
    if not pending:
        return []
    try:
        connection: smtplib.SMTP = (
            smtplib.SMTP_SSL(server.host, server.port, context=context, timeout=60)
            if server.tls
            else smtplib.SMTP(server.host, server.port, timeout=60)
        )
        with connection:
            connection.ehlo()
            if not server.tls:
                _start_tls(connection, server.host, context, user is not None)
            if user is not None:
                connection.login(user, password)
            return [_send_one(connection, box, key) for key in pending]
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"sending through {server.host}:{server.port} failed: {exc}") from None


def _start_tls(server: smtplib.SMTP, host: str, context: ssl.SSLContext, login: bool) -> None:
    if server.has_extn("starttls"):
        server.starttls(context=context)
        server.ehlo()
        return
    if login or not _local(host):
        raise MailError(
            f"the SMTP server {host} offers no STARTTLS: refusing to send mail "
            + ("and credentials " if login else "")
            + "in clear over the network"
        )


def _local(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def _send_one(server: smtplib.SMTP, box: mailbox.Maildir, key: str) -> str:
    message = box[key]
    to = str(message.get("To", ""))
    try:
        server.send_message(message)
    except smtplib.SMTPException as exc:
        return f"not sent to {to}: {exc} (left in the outbox)"
    message.set_subdir("cur")
    message.add_flag(_SEEN)
    box[key] = message
    return f"sent to {to}: {message.get('Subject', '')}"
