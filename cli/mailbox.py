"""The referee's mailbox on the command line: players' addresses, every incoming mail taken
at once, every reply written as a mail (and sent); a player's import of a whole mailbox."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from eventsourcing.domain import Aggregate

from warscribe.engine import codec, rulesets
from warscribe.engine.anchor import fingerprint
from warscribe.engine.authority import REFEREE_NAME
from warscribe.engine.errors import WarscribeError
from warscribe.engine.ruleset import RuleSet
from warscribe.store import heads, logfile
from warscribe.store import mailbox as mb
from warscribe.store import orders as orders_file
from warscribe.store.app import Warscribe
from warscribe.store.backends import StoreUnavailable
from warscribe.store.reading import GameListing
from warscribe.store.story import story
from warscribe.store.views import escaped

from .context import Context, emit, json_option, pass_ctx, say
from .main import arrived, next_for


@click.command("address")
@click.argument("player", required=False)
@click.argument("address", required=False)
@click.option(
    "--notify",
    default=None,
    metavar="|".join(mb.NOTIFY),
    help="The mail PLAYER wants beside the mails that concern them (when they must act, "
    "and when a mail of theirs was taken or refused): a mail on every run with something "
    "new (every), one digest a game turn (turn, the default), or none.",
)
@json_option
@pass_ctx
def address(
    ctx: Context, player: str | None, address: str | None, notify: str | None, as_json: bool
) -> None:
    """The players' mail addresses, to which `referee` sends their copies, and what mail
    each wants: list them, or set PLAYER's (`referee` for the referee's own, the replies'
    From). Kept in this store only; a mail never changes them.

    \b
    Example:
      warscribe address alice alice@example.org
      warscribe address bob --notify every
      warscribe address referee ref@example.org
      warscribe address
    """
    if notify is not None and notify not in mb.NOTIFY:
        raise click.BadParameter(f"write one of {', '.join(mb.NOTIFY)}", param_hint="--notify")
    listing = ctx.game()
    if player is not None:
        if address is None and notify is None:
            raise click.UsageError("give the address or --notify: address PLAYER ADDRESS")
        if player not in (*listing.players, REFEREE_NAME):
            raise WarscribeError(f"{player!r} is not a player of {listing.name} (nor `referee`)")
        if notify is not None and player == REFEREE_NAME:
            raise click.UsageError(
                "--notify is a player's: the referee is mailed what is set aside"
            )
        mb.set_address(ctx.app, listing.game_id, player, address, notify)
    elif notify is not None:
        raise click.UsageError("--notify needs the PLAYER it is for")
    room = mb.mailroom(ctx.app, listing.game_id)
    book = dict(room.addresses)
    emit(
        {name: book.get(name) for name in (*listing.players, REFEREE_NAME)},
        as_json,
        "\n".join(
            [
                *(
                    f"{escaped(name)}: {escaped(book.get(name, '(none)'))} (notify: "
                    f"{room.notify_of(name)})"
                    for name in listing.players
                ),
                f"{REFEREE_NAME}: {escaped(book.get(REFEREE_NAME, '(none)'))}",
            ]
        ),
    )


@dataclass
class Handled:
    """What became of one mail: its name, sender, the player it concerns, the outcome."""

    mail: str
    sender: str
    ok: bool
    result: str
    player: str | None = None
    message_id: str | None = None
    set_aside: bool = False


@click.command("referee")
@click.argument("inbox", type=click.Path(exists=True))
@click.option(
    "--outbox",
    required=True,
    type=click.Path(file_okay=False),
    help="The Maildir the replies are written to (made if missing).",
)
@click.option(
    "--from",
    "sender",
    default=None,
    metavar="ADDRESS",
    help="The replies' From (default: the address recorded for `referee`).",
)
@click.option(
    "--smtp",
    default=None,
    metavar="URL",
    help="Send the outbox through smtp://HOST[:PORT] (STARTTLS) or smtps://HOST[:PORT]; "
    f"login from ${mb.SMTP_USER} and ${mb.SMTP_PASSWORD}.",
)
@json_option
@pass_ctx
def referee(
    ctx: Context, inbox: str, outbox: str, sender: str | None, smtp: str | None, as_json: bool
) -> None:
    """Referee: take every mail of INBOX (a Maildir: the mails not seen yet; an mbox; a
    folder of .eml files) at once, each like `import-orders` or `import` would, and write
    a reply to each player it concerns (who must act, whose mail was taken, and the others
    as `address --notify` asks: their copy of what is new, a turn summary above it) as a
    mail to the outbox; with --smtp, send it (of a player's unsent mails the newest only,
    which carries the others). A mail that is refused is reported and changes
    nothing; one that cannot be read is moved to the Maildir INBOX.quarantine and told to
    the referee's own address; the others go on. One run at a time per store; a run
    stopped midway is finished by the next. Exit 1 when a mail was refused.

    \b
    Example:
      warscribe referee ~/Mail/game --outbox ~/Mail/outbox --smtp smtp://mail.example.org
    """
    server = mb.smtp_server(smtp) if smtp else None
    listing = ctx.game()
    book = dict(mb.mailroom(ctx.app, listing.game_id).addresses)
    missing = [p for p in listing.players if p not in book]
    if missing:
        raise WarscribeError(
            f"no mail address for {', '.join(missing)}: record each with `warscribe address "
            "PLAYER ADDRESS` (no mail was read)"
        )
    sender = mb.checked_address(sender or book.get(REFEREE_NAME) or "")
    with ctx.app.referee_run():
        run = _Run(ctx.app, listing, book, sender, outbox)
        replies = run.post(dict(run.room.owed))  # decided by a run that stopped
        handled = run.take_all(inbox)
        replies += run.reply()
    sent = mb.send(outbox, server, run.room.superseded(mb.unsent(outbox))) if server else []
    lines = [f"{h.mail} from {h.sender or '?'}: {h.result}" for h in handled]
    lines += [f"reply to {r.to}: {r.subject}" for r in replies] + sent
    emit({"mails": [h.__dict__ for h in handled], "sent": sent}, as_json, "\n".join(lines))
    if not all(h.ok for h in handled):
        click.get_current_context().exit(1)


class Taker:
    """Mails taken into a game's record as `referee` takes them, each step journalled in
    the game's mailroom before the next (docs/security.md, The referee's mailbox): a
    mail's orders are journalled as being taken before they are recorded, and what the
    mail led to before it is moved out of new/. Also decides the replies owed. Used by
    `referee` and by the referee's page of `serve` (`hand_in`)."""

    def __init__(self, app: Warscribe, listing: GameListing) -> None:
        self.app = app
        self.listing = listing
        self.room = mb.mailroom(app, listing.game_id)

    def _journal(self, event: type[Aggregate.Event], **fields: Any) -> None:
        self.room.trigger_event(event, **fields)
        self.app._save(self.room, what="`referee`")

    def take(self, letters: Iterable[mb.Letter]) -> list[Handled]:
        """Every mail of `letters` read, then taken: logs first, orders in the order they
        were written (the entry they were written against, then the mail's date)."""
        handled: list[Handled] = []
        queue: list[tuple[tuple[int, int, float], mb.Letter, str, mb.Envelope, mb.Carried]] = []
        for letter in letters:
            key = mb.mail_id(letter)
            known = self.room.taken.get(key)
            if known is not None:  # taken by a run that stopped before it moved the mail
                mb.put_away(letter, known.result if known.aside else None)
                continue
            read = self._read(letter, key)
            if isinstance(read, Handled):
                handled.append(read)
            else:
                queue.append(read)
        for _, letter, key, envelope, carried in sorted(queue, key=lambda item: item[0]):
            taken = self._take(letter, key, envelope, carried)
            handled.append(self._done(letter, key, taken))
        return handled

    def _read(
        self, letter: mb.Letter, key: str
    ) -> Handled | tuple[tuple[int, int, float], mb.Letter, str, mb.Envelope, mb.Carried]:
        """A mail opened: what became of it when it cannot be taken (journalled), else
        its place in the order of taking and what it carries."""
        try:
            envelope, carried = mb.opened(letter)
        except mb.Unreadable as exc:
            where = f" (set aside in {_quarantine(letter)})" if letter.file else ""
            done = Handled(letter.name, "", False, f"refused: {exc}{where}", REFEREE_NAME)
            return self._done(letter, key, done, aside=str(exc))
        except WarscribeError as exc:
            return self._done(letter, key, Handled(letter.name, "", False, f"refused: {exc}"))
        if carried is None:
            done = Handled(letter.name, envelope.sender, True, "no orders nor log")
            return self._done(letter, key, done)
        written = 0
        if carried.kind == orders_file.ORDERS_KIND:
            try:
                written = orders_file.read_orders(carried.data).orders.seq
            except WarscribeError as exc:
                done = Handled(letter.name, envelope.sender, False, f"refused: {exc}")
                return self._done(letter, key, done)
        order = (int(carried.kind == orders_file.ORDERS_KIND), written, envelope.date)
        return order, letter, key, envelope, carried

    def _done(
        self, letter: mb.Letter, key: str, done: Handled, aside: str | None = None
    ) -> Handled:
        """Journal what the mail led to (`key`: its `mail_id`), then move it out of the
        inbox's new/."""
        self._journal(
            mb.Mailroom.Taken,
            mail=key,
            name=done.mail,
            sender=done.sender,
            ok=done.ok,
            result=done.result,
            player=done.player,
            message_id=done.message_id,
            aside=aside is not None,
        )
        mb.put_away(letter, aside)
        done.set_aside = aside is not None
        return done

    def _take(
        self, letter: mb.Letter, key: str, envelope: mb.Envelope, carried: mb.Carried
    ) -> Handled:
        """One mail's orders or log (`key`: its `mail_id`), taken as `import-orders` or
        `import` would take them."""
        app, listing = self.app, self.listing
        done = Handled(letter.name, envelope.sender, True, "", message_id=envelope.message_id)
        try:
            if carried.kind == logfile.KIND:
                log = carried.log()
                _for_this_game(listing, str(log.game_id), log.name)
                done.result = f"log: {app.import_log(log).added} new entries"
                return done
            received = orders_file.read_orders(carried.data)
            player = received.orders.player
            _for_this_game(listing, str(received.orders.game_id), "")
            done.player = player if player in listing.players else None
            if key in self.room.taking:  # a run stopped while it took this mail
                seq = orders_file.recorded_at(app, listing.game_id, received)
                if seq is not None:
                    done.result = (
                        f"{player}'s orders: recorded at #{seq} (by a run that stopped "
                        "before it had finished)"
                    )
                    return done
            self._journal(mb.Mailroom.Taking, mail=key, signature=received.signature)
            entries, returned = orders_file.receive(app, received)
            total = len(received.orders.commands)
            recorded = total - (len(returned.commands) if returned else 0)
            span = f" (#{entries[0].seq}..#{entries[-1].seq})" if entries else ""
            done.result = f"{player}'s orders: {recorded} of {total} commands recorded{span}"
            if returned is not None:
                from .generated import cli_words, command_line

                words = "; ".join(
                    received.orders.line(line)
                    if received.orders.lines
                    else command_line(listing.ruleset, command)
                    for line, command in received.orders.steps()[returned.index :]
                )
                done.result += (
                    f"; command {returned.index + 1} (`{returned.commands[0].name}`) and the "
                    f"rest returned: {cli_words(listing.ruleset, str(returned.reason))}. "
                    f"Returned unrecorded: {words}"
                )
        except StoreUnavailable:  # the run ends, this mail left unseen: none is lost
            raise
        except WarscribeError as exc:
            done.ok = False
            done.result = f"refused: {exc}"
        return done

    def owed(self, unsent: list[mb.Owed]) -> dict[str, mb.Owed]:
        """The replies owed now, by a new outbox key: one to each player it concerns
        (`_concerns`), and one to the referee's own address telling of the mails set
        aside. A player's reply carries the entries after the last one mailed to them, or
        after the first of their replies `unsent` (and the mails those tell of), so that
        it supersedes them."""
        head = self.app.head(self.listing.game_id)
        mailed = dict(self.room.mailed)
        untold: dict[str, list[str]] = {}
        for key in self.room.untold:
            untold.setdefault(self.room.taken[key].player or "", []).append(key)
        owed: dict[str, mb.Owed] = {}
        for player in (*self.listing.players, REFEREE_NAME):
            since = mailed.get(player, 0) if player != REFEREE_NAME else head.seq
            theirs = tuple(untold.get(player, ()))
            if theirs or (
                since < head.seq and self._concerns(player, player in mailed, since, head.state)
            ):
                earlier = [r for r in unsent if r.player == player]
                since = min((since, *(r.since for r in earlier)))
                told = dict.fromkeys((*(m for r in earlier for m in r.mails), *theirs))
                owed[mb.outbox_key(player)] = mb.Owed(player, since, head.seq, tuple(told))
        return owed

    def _concerns(self, player: str, mailed: bool, since: int, state: Any) -> bool:
        """Whether the entries after `since` are mailed to `player` now (a mail of theirs
        taken or refused always is): when they must act, the game is over, or they chose
        `--notify every`; with `turn` (the default), also once a game turn (their first
        copy, then when the game turn differs from the one of their last mail)."""
        ruleset = rulesets.get(self.listing.ruleset)
        notify = self.room.notify_of(player)
        if ruleset.whose_turn(state) == player or ruleset.over(state) or notify == "every":
            return True
        if notify == "none":
            return False
        then = self.app.head(self.listing.game_id, since).state if mailed else None
        return then is None or _game_turn(ruleset, then) != _game_turn(ruleset, state)


class _Run(Taker):
    """One run of `referee`: the mails of its inbox taken, the replies written to its
    outbox, each journalled as decided before it is written, and as posted after."""

    def __init__(
        self, app: Warscribe, listing: GameListing, book: dict[str, str], sender: str, outbox: str
    ) -> None:
        super().__init__(app, listing)
        self.book = book
        self.sender = sender
        self.outbox = outbox

    def take_all(self, inbox: str) -> list[Handled]:
        """Every mail of the inbox not seen yet, taken."""
        return self.take(mb.letters(inbox, unseen=True))

    def reply(self) -> list[mb.Reply]:
        """The replies owed (`owed`, superseding this player's replies still unsent in the
        outbox): journalled as decided, then posted."""
        unsent = [self.room.replies[k] for k in mb.unsent(self.outbox) if k in self.room.replies]
        owed = self.owed(unsent)
        for key, each in owed.items():
            # Replying carries the reply's fields (Owed's) under its outbox key.
            self.room.trigger_event(mb.Mailroom.Replying, key=key, **codec.field_values(each))
        if owed:
            self.app._save(self.room, what="`referee`")
        return self.post(owed)

    def post(self, owed: dict[str, mb.Owed]) -> list[mb.Reply]:
        """The replies decided, written to the outbox (each one not there yet), then
        journalled as posted."""
        if not owed:
            return []
        replies = {key: self._reply(each) for key, each in owed.items()}
        mb.post(self.outbox, {key: mb.message(r, self.sender) for key, r in replies.items()})
        self._journal(mb.Mailroom.Posted, keys=tuple(owed))
        return list(replies.values())

    def _reply(self, owed: mb.Owed) -> mb.Reply:
        notes = [self.room.taken[key] for key in owed.mails]
        if owed.player == REFEREE_NAME:
            return mb.Reply(
                to=self.sender,
                subject=f"[warscribe] {self.listing.name}: {len(notes)} mail(s) set aside",
                summary="\n".join(
                    f"Mail {n.name} from {n.sender or '?'}: {n.result}" for n in notes
                ),
                block="",
            )
        return _reply_to(self.app, self.listing, self.book[owed.player], owed, notes)


def hand_in(app: Warscribe, listing: GameListing, letter: mb.Letter) -> list[Handled]:
    """A mail handed to the referee's page of `serve`, taken as `referee` takes a mail of
    its inbox: under the same lock, by the same steps, journalled the same way (a reply
    to the player it concerns is then owed, which the next `referee` run writes)."""
    with app.referee_run():
        return Taker(app, listing).take([letter])


def _quarantine(letter: mb.Letter) -> Path:
    """The quarantine Maildir beside the Maildir a mail of new/ came from."""
    return mb.quarantine_of(str(Path(letter.file).parent.parent))


def _game_turn(ruleset: RuleSet, state: Any) -> str:
    """The game turn of a position: its first part (`2` of Divine Right's
    `2.1.movement`, eu-pop's round `2` of `2.action`); "" before the game begins."""
    return (ruleset.position(state) or "").partition(".")[0]


def _for_this_game(listing: GameListing, game_id: str, name: str) -> None:
    if game_id != str(listing.game_id):
        said = f" ({name})" if name else ""
        raise WarscribeError(
            f"not for this game: it is for game {game_id}{said}, not {listing.name}"
        )


def _reply_to(
    app: Warscribe, listing: GameListing, to: str, owed: mb.Owed, theirs: list[mb.Note]
) -> mb.Reply:
    """A player's reply: the entries after the last one mailed to them up to `owed.seq`
    (their copy), what became of their mails, and who must act at `owed.seq`."""
    player, since = owed.player, owed.since
    head = app.head(listing.game_id, owed.seq)
    ruleset = rulesets.get(head.ruleset)
    status: dict[str, Any] = {
        "whose_turn": ruleset.whose_turn(head.state),
        "commands": ruleset.legal_commands(head.state),
        **ruleset.summary(head.state),
    }
    position = ruleset.position(head.state) or "the set-up"
    now = next_for(player, status)
    told = [f"{listing.name} ({head.ruleset}), head {fingerprint(head.seq, head.chain)}"]
    told += [f"Your mail {n.name}: {n.result}" for n in theirs]
    block = ""
    if since < head.seq:
        entries = logfile.redact_for(app.entries(listing.game_id, since + 1, head.seq), player)
        told += [
            "",
            "Since the last mail:",
            *story(entries, app.head(listing.game_id, since) if since else None),
        ]
        copy = mb.player_copy(app, listing, player, since + 1, head.seq)
        signed_heads = heads.armor(heads.latest(app, listing.game_id, head.seq))
        block = logfile.armor(copy, fingerprint(head.seq, head.chain)) + signed_heads
    told += ["", f"Now {position}: {now}", "Import this mail with `warscribe import FILE`."]
    return mb.Reply(
        to=to,
        subject=f"[warscribe] {listing.name} {position}: {now.partition(':')[0]}",
        summary="\n".join(told),
        block=block,
        in_reply_to=next((n.message_id for n in reversed(theirs) if n.message_id), None),
    )


def import_mailbox(ctx: Context, path: str) -> None:
    """A player's `import` of a whole mailbox (Maildir, mbox, folder of .eml files): every
    log mailed, in the order of their entries; each all or nothing, a bad one reported."""
    logs: list[tuple[str, logfile.LogFile]] = []
    failed = False
    for letter in mb.letters(path):
        try:
            _, carried = mb.opened(letter)
            if carried is not None and carried.kind == logfile.KIND:
                logs.append((letter.name, carried.log()))
        except WarscribeError as exc:
            say(f"{letter.name}: refused: {exc}")
            failed = True
    for name, log in sorted(logs, key=lambda item: (item[1].from_seq, item[1].to_seq)):
        try:
            if ctx.game_ref is not None:
                _for_this_game(ctx.game(), str(log.game_id), log.name)
            imported = ctx.app.import_log(log)
            say(f"{name}: imported {imported.added} new entries of {escaped(log.name)}")
            if imported.arrival is not None:
                say(f"{name}: {arrived(imported.arrival)}")
        except WarscribeError as exc:
            say(f"{name}: refused: {exc}")
            failed = True
    if not logs:
        raise WarscribeError(f"{path} holds no mailed log")
    if failed:
        click.get_current_context().exit(1)


def register(cli: click.Group) -> None:
    for command in (address, referee):
        cli.add_command(command)
