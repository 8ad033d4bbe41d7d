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
the next reply carries the entries after it. It is also the referee's journal: what each
mail led to (keyed by `mail_id`), and each reply decided and whether it is in the outbox,
so that a run stopped at any point is finished by the next one (see docs/security.md, The
referee's mailbox).

Mail is hostile input: a mail that cannot be read (too large, MIME nested past
`mail.MAX_CONTAINERS`, bytes the parser fails on) is `Unreadable` and is set aside in the
quarantine Maildir beside the mailbox; a header is used only once checked (a plain address,
a plain msg-id), never as the mail library decodes it; a mail is moved between a Maildir's
folders by renaming its file, never by writing it again.
"""

from __future__ import annotations

import hashlib
import io
import mailbox
import os
import re
import smtplib
import ssl
import time
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default
from email.utils import formatdate, getaddresses, make_msgid, parseaddr, parsedate_to_datetime
from glob import escape
from ipaddress import ip_address
from pathlib import Path
from typing import BinaryIO, TypeVar, cast
from urllib.parse import urlsplit
from uuid import UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from warscribe.engine.anchor import fingerprint
from warscribe.engine.authority import REFEREE_NAME
from warscribe.engine.codec import frozen
from warscribe.engine.errors import LogError, WarscribeError
from warscribe.engine.record import Entry

from . import armor, logfile, mail
from .app import Warscribe
from .atomic import write_atomically
from .backends import StoreError
from .heads import KIND as HEADS_KIND
from .heads import Heads, found_in
from .orders import KEY_KINDS, ORDERS_KIND
from .reading import GameListing

MAX_MAIL_BYTES = 8 * 1024 * 1024
"""The largest mail read (a bound on hostile input; a game's whole armored log is far less)."""
MAX_MAIL_LINES = 250_000
"""The most lines a mail read may hold: a mail of the largest size in armored lines (76
characters) holds about 110,000, twice that with an HTML alternative; 2.8 million short
lines of quoting cost Python's mail parser seconds. Counted in the bytes, before parsing."""

NOTIFY = ("every", "turn", "none")
"""What mail a player wants beside the mails that concern them (when they must act, and
when a mail of theirs was taken or refused): a reply whenever there is something new,
one digest a game turn (the default), or none."""
DEFAULT_NOTIFY = "turn"
SMTP_USER = "WARSCRIBE_SMTP_USER"
SMTP_PASSWORD = "WARSCRIBE_SMTP_PASSWORD"
_LOG_KIND = logfile.KIND
_SEEN = "S"
_TRASHED = "T"
QUARANTINE = ".quarantine"
"""The Maildir beside a Maildir INBOX that its unreadable mails are moved to:
INBOX.quarantine, each mail with a file KEY.reason at its top saying why."""


class MailError(WarscribeError):
    """A mail cannot be read or taken, a mailbox opened, or a reply sent."""


class Unreadable(MailError):
    """A mail that cannot be read at all: it is set aside, not taken."""


# -- the mailroom of a game ------------------------------------------------------------------


@frozen
class Note:
    """What the journal holds of a mail taken: its name, sender, whether it went well,
    what became of it, whose reply tells it (`referee` for a mail set aside; None:
    nobody's), its checked Message-ID, and whether it was set aside."""

    name: str
    sender: str
    ok: bool
    result: str
    player: str | None
    message_id: str | None
    aside: bool


@frozen
class Owed:
    """A reply decided (journalled before it is written to the outbox): to whom, the
    entries after `since` up to `seq`, and the mails it tells of."""

    player: str
    since: int
    seq: int
    mails: tuple[str, ...]


class Mailroom(Aggregate):
    """A game's players' addresses, the last entry mailed to each of them, and the
    referee's journal: orders being taken, what each mail led to, the mails no reply has
    told of yet, and the replies decided but not known to be in the outbox."""

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
        """The last entry mailed to a player (as runs before the journal recorded it)."""

        TOPIC = "warscribe:Mailroom.Mailed"
        player: str
        seq: int

        def apply(self, aggregate: Aggregate) -> None:
            room: Mailroom = aggregate  # type: ignore[assignment]
            room.mailed_to(self.player, self.seq)

    class Taking(Aggregate.Event):
        """A mail's orders are about to be recorded (written before they are)."""

        TOPIC = "warscribe:Mailroom.Taking"
        mail: str
        signature: bytes

        def apply(self, aggregate: Aggregate) -> None:
            room: Mailroom = aggregate  # type: ignore[assignment]
            room.taking[self.mail] = self.signature

    class Taken(Aggregate.Event):
        """What a mail led to; a reply is owed to tell of it."""

        TOPIC = "warscribe:Mailroom.Taken"
        mail: str
        name: str
        sender: str
        ok: bool
        result: str
        player: str | None
        message_id: str | None
        aside: bool

        def apply(self, aggregate: Aggregate) -> None:
            room: Mailroom = aggregate  # type: ignore[assignment]
            room.taking.pop(self.mail, None)
            room.taken[self.mail] = Note(
                self.name,
                self.sender,
                self.ok,
                self.result,
                self.player,
                self.message_id,
                self.aside,
            )
            if self.player is not None:
                room.untold[self.mail] = None

    class NotifySet(Aggregate.Event):
        """Which mail a player wants beside the mails that concern them (NOTIFY)."""

        TOPIC = "warscribe:Mailroom.NotifySet"
        player: str
        notify: str

        def apply(self, aggregate: Aggregate) -> None:
            cast(Mailroom, aggregate).notifies(self.player, self.notify)

    class Replying(Aggregate.Event):
        """A reply decided, before it is written to the outbox as mail `key`."""

        TOPIC = "warscribe:Mailroom.Replying"
        key: str
        player: str
        since: int
        seq: int
        mails: tuple[str, ...]

        def apply(self, aggregate: Aggregate) -> None:
            room: Mailroom = aggregate  # type: ignore[assignment]
            room.owed[self.key] = room.replies[self.key] = Owed(
                self.player, self.since, self.seq, self.mails
            )
            for told in self.mails:
                room.untold.pop(told, None)
            if self.player != REFEREE_NAME:
                room.mailed_to(self.player, self.seq)

    class Posted(Aggregate.Event):
        """Replies known to be in the outbox."""

        TOPIC = "warscribe:Mailroom.Posted"
        keys: tuple[str, ...]

        def apply(self, aggregate: Aggregate) -> None:
            room: Mailroom = aggregate  # type: ignore[assignment]
            for key in self.keys:
                room.owed.pop(key, None)

    def __init__(self) -> None:
        self.addresses: tuple[tuple[str, str], ...] = ()
        self.mailed: tuple[tuple[str, int], ...] = ()
        self.taking: dict[str, bytes] = {}
        self.taken: dict[str, Note] = {}
        self.untold: dict[str, None] = {}  # mails taken that no reply told of, in order
        self.owed: dict[str, Owed] = {}
        self.replies: dict[str, Owed] = {}  # every reply decided, by its outbox key
        self.notify: tuple[tuple[str, str], ...] = ()

    def notify_of(self, player: str) -> str:
        """The mail `player` wants beside the mails that concern them (NOTIFY)."""
        return dict(self.notify).get(player, DEFAULT_NOTIFY)

    def superseded(self, keys: Iterable[str]) -> dict[str, str]:
        """Of the replies `keys` (mails not sent yet), each that a later one to the same
        player carries whole (its entries and the mails it tells of), with that later one:
        the newest of a player's unsent mails supersedes the others. A key the journal
        does not know (a mail written before it kept them) supersedes nothing and is
        superseded by nothing."""
        known = sorted(key for key in keys if key in self.replies)  # by the time made
        newest = {self.replies[key].player: key for key in known}
        return {
            key: newest[old.player]
            for key, old in ((key, self.replies[key]) for key in known)
            if _carries(self.replies[newest[old.player]], old) and key != newest[old.player]
        }

    def mailed_to(self, player: str, seq: int) -> None:
        self.mailed = (*_without(self.mailed, player), (player, seq))

    def notifies(self, player: str, notify: str) -> None:
        self.notify = (*_without(self.notify, player), (player, notify))

    @staticmethod
    def id_for(game_id: UUID) -> UUID:
        return uuid5(game_id, "mailroom")


def _carries(new: Owed, old: Owed) -> bool:
    """Whether reply `new` carries all that `old` does: its entries and its mails."""
    return new.since <= old.since and old.seq <= new.seq and set(old.mails) <= set(new.mails)


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


def taken_at(app: Warscribe, game_id: UUID) -> dict[str, datetime]:
    """When the journal took each mail (by its `mail_id`) and decided each reply (by its
    outbox key): the times of the mailroom's events."""
    found: dict[str, datetime] = {}
    for event in app.repository.event_store.get(Mailroom.id_for(game_id)):
        if isinstance(event, Mailroom.Taken):
            found[event.mail] = event.timestamp
        elif isinstance(event, Mailroom.Replying):
            found[event.key] = event.timestamp
    return found


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


def set_address(
    app: Warscribe, game_id: UUID, player: str, address: str | None, notify: str | None = None
) -> None:
    """Record a player's address, or what mail they want (NOTIFY), or both."""
    room = mailroom(app, game_id)
    if address is not None:
        room.trigger_event(Mailroom.AddressSet, player=player, address=checked_address(address))
    if notify is not None:
        room.trigger_event(Mailroom.NotifySet, player=player, notify=notify)
    app._save(room, what="`address`")


# -- mail in ---------------------------------------------------------------------------------


@frozen
class Letter:
    """One mail of a mailbox: how the report names it, its bytes (None: too large), and
    its file in a Maildir's new/ ("": a mail of an mbox or a folder, never moved)."""

    name: str
    data: bytes | None
    file: str = ""


def mail_id(letter: Letter) -> str:
    """The journal's key of a mail: its name and bytes (a mail delivered again is another
    mail; a run that stopped leaves the same one)."""
    digest = hashlib.sha256(letter.name.encode("utf-8", "surrogateescape") + b"\0")
    digest.update(b"\1too large" if letter.data is None else letter.data)
    return digest.hexdigest()


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


def _not_half_a_maildir(place: Path) -> None:
    """A folder meant as a Maildir (named so, or holding some of its subfolders) but
    lacking its cur/, new/ or tmp/ is refused, not read as a folder of `.eml` files (which
    would find none in it, and say nothing)."""
    missing = [sub for sub in ("cur", "new", "tmp") if not (place / sub).is_dir()]
    if place.name.lower() == "maildir" or len(missing) < 3:
        raise MailError(
            f"{place} is no Maildir: it lacks {', '.join(f'{m}/' for m in missing)} (a Maildir "
            "holds cur/, new/ and tmp/; a folder of mails holds .eml files)"
        )


def letters(path: str, *, unseen: bool = False) -> Iterator[Letter]:
    """Every mail of a Maildir (with `unseen`, those not marked seen yet), an mbox file, a
    folder of `.eml` files, or the one message a file holds; in the mailbox's order."""
    place = Path(path)
    if place.is_dir() and not _is_maildir(place):
        _not_half_a_maildir(place)
        for file in sorted(place.glob("*.eml")):
            yield Letter(file.name, bounded_read(file.open("rb")))
        return
    if place.is_file() and not is_mailbox(path):
        yield Letter(place.name, bounded_read(place.open("rb")))
        return
    if unseen and place.is_dir():
        for key, name in _new(place):
            file = place / "new" / name
            try:
                yield Letter(key, bounded_read(file.open("rb")), str(file))
            except FileNotFoundError:  # moved meanwhile by a mail client
                continue
        return
    box: mailbox.Mailbox[mailbox.Message] = (
        mailbox.Maildir(place, create=False) if place.is_dir() else mailbox.mbox(place)
    )
    try:
        keys = sorted(box.iterkeys())
        for number, key in enumerate(keys, start=1):
            name = key if isinstance(box, mailbox.Maildir) else f"{place.name} #{number}"
            yield Letter(name, bounded_read(box.get_file(key)))
    finally:
        box.close()


def _new(place: Path) -> list[tuple[str, str]]:
    """The key and file name of each of a Maildir's new mails (those in new/: not seen,
    or not sent, yet), by key."""
    names = (name for name in os.listdir(place / "new") if not name.startswith("."))
    return sorted((name.partition(":")[0], name) for name in names)


def bounded_read(file: object) -> bytes | None:
    """A mail's bytes read from `file` (then closed), None when it is larger than
    MAX_MAIL_BYTES: no more than one byte over the bound is ever read."""
    with file:  # type: ignore[attr-defined]
        data: bytes = file.read(MAX_MAIL_BYTES + 1)  # type: ignore[attr-defined]
    return None if len(data) > MAX_MAIL_BYTES else data


def quarantine_of(inbox: str) -> Path:
    """The quarantine Maildir beside a Maildir INBOX: INBOX.quarantine."""
    place = Path(inbox).resolve()
    return place.with_name(place.name + QUARANTINE)


def put_away(letter: Letter, aside: str | None = None) -> None:
    """Move a Maildir's mail out of new/, so that no later run reads it: to cur/ marked
    seen, or (`aside`: why it cannot be read) to new/ of the quarantine Maildir beside the
    mailbox, with the reason in the file KEY.reason at its top. The file is renamed, never
    written again (a message the mail library cannot write is moved as it came); one
    moved already is left. A mail of an mbox or a folder stays where it is."""
    if not letter.file:
        return
    source = Path(letter.file)
    if aside is None:
        target = source.parent.parent / "cur" / f"{letter.name}:2,{_SEEN}"
    else:
        place = quarantine_of(str(source.parent.parent))
        for sub in ("cur", "new", "tmp"):
            (place / sub).mkdir(parents=True, exist_ok=True)
        reason = str(place / f"{letter.name}.reason")
        write_atomically(reason, f"{aside}\n".encode(), 0o644, replace=True)
        target = place / "new" / letter.name
    _move(source, target)


def _move(source: Path, target: Path) -> None:
    try:
        os.rename(source, target)
    except FileNotFoundError:
        if not target.exists():
            raise


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
    log in it). Unreadable for a mail too large, nested too deep, or that the mail library
    fails on in any way; MailError for two different blocks of a kind."""
    if letter.data is None:
        raise Unreadable(f"the mail is larger than {MAX_MAIL_BYTES} bytes: not read")
    lines = letter.data.count(b"\n")
    if lines > MAX_MAIL_LINES:
        raise Unreadable(f"the mail holds {lines} lines, more than {MAX_MAIL_LINES}: not read")
    try:
        message = mail.parse(letter.data)
        texts = [
            c if isinstance(c, str) else c.decode("utf-8", "replace")
            for c in mail.leaves(message)
            if isinstance(c, str) or any(armor.is_armored(c, kind) for kind in _KINDS)
        ]
        envelope = _envelope(message)
    except LogError as exc:
        raise Unreadable(str(exc)) from None
    except Exception as exc:  # whatever the mail library raises on hostile bytes
        raise Unreadable(f"the mail cannot be read ({type(exc).__name__})") from None
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


_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_MSG_ID = re.compile(rf"<{_ATEXT}@(?:{_ATEXT}|\[[!-Z^-~]*\])>")
_ADDRESS = re.compile(rf"{_ATEXT}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_FOLD = re.compile(r"\r?\n(?=[ \t])")


def _envelope(message: EmailMessage) -> Envelope:
    """The sender, id and date from the header's raw text (the first of each field), each
    kept only in its plainest form: the mail library's decoding of a header (encoded
    words, which may hold CR LF) is never used, so nothing a mail says reaches a reply's
    header or the report but a plain address and a plain msg-id."""
    raw: dict[str, str] = {}
    for name, value in message.raw_items():
        raw.setdefault(name.lower(), _FOLD.sub("", str(value)).strip())
    address = parseaddr(raw.get("from", ""))[1]
    message_id = raw.get("message-id", "")
    return Envelope(
        sender=address if _ADDRESS.fullmatch(address) and len(address) <= 254 else "",
        message_id=message_id if plain_message_id(message_id) else None,
        date=_timestamp(raw.get("date")),
    )


def plain_message_id(text: str) -> bool:
    """Whether `text` is one plain msg-id (`<local@domain>`, RFC 5322 dot-atoms, at most
    250 characters, no encoded word): the only form a reply's In-Reply-To takes."""
    return len(text) <= 250 and "=?" not in text and _MSG_ID.fullmatch(text) is not None


def _timestamp(value: str | None) -> float:
    try:
        return parsedate_to_datetime(value).timestamp() if value else 0.0
    except Exception:  # whatever a hostile date makes the library raise
        return 0.0


# -- mail out --------------------------------------------------------------------------------


def player_copy(
    app: Warscribe, listing: GameListing, player: str | None, start: int, stop: int | None = None
) -> bytes:
    """The log file `write_copy` writes, as bytes."""
    out = io.BytesIO()
    write_copy(app, listing, player, start, out, stop)
    return out.getvalue()


def write_copy(
    app: Warscribe,
    listing: GameListing,
    player: str | None,
    start: int,
    out: BinaryIO,
    stop: int | None = None,
) -> Entry | None:
    """Write the log file of the game from entry `start` to `stop` (default: its head) to
    `out`, an entry at a time: the copy `player` may see (None: the whole log), with the
    host's checkpoint over its last entry (refused without one in a game with a host
    key). The last entry written."""
    game_id = listing.game_id
    head = app.head(game_id, stop)
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


def post(outbox: str, messages: Mapping[str, EmailMessage]) -> None:
    """Put each message in the outbox Maildir (made if missing) as the mail of its key,
    unless a mail of that key is there (new/, or cur/ once sent): written by a run that
    stopped before it could journal it. Each file is whole or none: written to tmp/, then
    linked into new/."""
    place = Path(outbox)
    for sub in ("cur", "new", "tmp"):
        (place / sub).mkdir(parents=True, exist_ok=True)
    for key, each in messages.items():
        if (place / "new" / key).exists() or any((place / "cur").glob(f"{escape(key)}:*")):
            continue
        temporary = place / "tmp" / key
        write_atomically(str(temporary), each.as_bytes(), 0o600, replace=True)
        os.link(temporary, place / "new" / key)
        os.unlink(temporary)


def unsent(outbox: str) -> list[str]:
    """The keys of the outbox's mails not sent yet (in new/; none when it is not made)."""
    return [key for key, _ in _new(Path(outbox))] if _is_maildir(Path(outbox)) else []


def outbox_key(player: str) -> str:
    """A new name for a reply in the outbox (a Maildir key)."""
    return f"{time.time_ns()}.{uuid4().hex}.{hashlib.sha256(player.encode()).hexdigest()[:8]}"


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


def send(
    outbox: str,
    server: SmtpServer,
    superseded: Mapping[str, str] = {},
    environ: Mapping[str, str] = os.environ,
) -> list[str]:
    """Send every message of the outbox not sent yet (those in new/), logging in with
    WARSCRIBE_SMTP_USER and WARSCRIBE_SMTP_PASSWORD when set; each message sent is marked
    seen (moved to cur/). A message of `superseded` (its key, with the key of the newer
    message to the same player that carries all it does) is not sent: it is moved aside
    to cur/ marked trashed, first. Without TLS only a server on this machine is spoken to,
    and never with credentials. Returns one line per message."""
    box = mailbox.Maildir(outbox, create=True)
    skipped = [_set_aside(Path(outbox), mail, superseded) for mail in _new(Path(outbox))]
    lines = [line for line in skipped if line]
    pending = _new(Path(outbox))
    if not pending:
        return lines
    try:
        with _connected(server, environ) as connection:
            return lines + [_send_one(connection, box, Path(outbox), mail) for mail in pending]
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"sending through {server.host}:{server.port} failed: {exc}") from None


def send_message(
    server: SmtpServer, message: EmailMessage, environ: Mapping[str, str] = os.environ
) -> None:
    """Send one message now, as `send` sends (a player's signed orders from `serve`):
    `MailError` when the server cannot be reached or refuses it."""
    try:
        with _connected(server, environ) as connection:
            connection.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"sending through {server.host}:{server.port} failed: {exc}") from None


def _connected(server: SmtpServer, environ: Mapping[str, str]) -> smtplib.SMTP:
    """A connection to `server`, over TLS (STARTTLS on `smtp://`, refused without it but
    to a relay on this machine without a login), logged in with WARSCRIBE_SMTP_USER and
    WARSCRIBE_SMTP_PASSWORD when set; a context manager that closes it."""
    user, password = environ.get(SMTP_USER), environ.get(SMTP_PASSWORD, "")
    context = ssl.create_default_context()
    connection: smtplib.SMTP = (
        smtplib.SMTP_SSL(server.host, server.port, context=context, timeout=60)
        if server.tls
        else smtplib.SMTP(server.host, server.port, timeout=60)
    )
    try:
        connection.ehlo()
        if not server.tls:
            _start_tls(connection, server.host, context, user is not None)
        if user is not None:
            connection.login(user, password)
    except BaseException:
        connection.close()
        raise
    return connection


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


def _set_aside(place: Path, mail: tuple[str, str], superseded: Mapping[str, str]) -> str:
    """Move an unsent message that a newer one supersedes to cur/, marked trashed (so that
    `post` never writes it again): what became of it ("" when it is to be sent)."""
    key, name = mail
    newer = superseded.get(key)
    if newer is None:
        return ""
    with (place / "new" / name).open("rb") as file:
        header = BytesParser(policy=default).parse(file, headersonly=True)
    _move(place / "new" / name, place / "cur" / f"{key}:2,{_TRASHED}")
    return (
        f"not sent to {header.get('To', '')}: {header.get('Subject', '')} (superseded by "
        f"{newer}, which carries all it did)"
    )


def _send_one(
    server: smtplib.SMTP, box: mailbox.Maildir, place: Path, mail: tuple[str, str]
) -> str:
    key, name = mail
    message = box[key]
    to = str(message.get("To", ""))
    try:
        server.send_message(message)
    except smtplib.SMTPException as exc:
        return f"not sent to {to}: {exc} (left in the outbox)"
    _move(place / "new" / name, place / "cur" / f"{key}:2,{_SEEN}")
    return f"sent to {to}: {message.get('Subject', '')}"
