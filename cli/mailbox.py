"""The referee's mailbox on the command line: players' addresses, every incoming mail taken
at once, every reply written as a mail (and sent); a player's import of a whole mailbox."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from warscribe.engine import rulesets
from warscribe.engine.anchor import fingerprint
from warscribe.engine.authority import REFEREE_NAME
from warscribe.engine.errors import WarscribeError
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
@json_option
@pass_ctx
def address(ctx: Context, player: str | None, address: str | None, as_json: bool) -> None:
    """The players' mail addresses, to which `referee` sends their copies: list them, or
    set PLAYER's (`referee` for the referee's own, the replies' From). Kept in this store
    only; a mail never changes them.

    \b
    Example:
      warscribe address alice alice@example.org
      warscribe address referee ref@example.org
      warscribe address
    """
    listing = ctx.game()
    if player is not None:
        if address is None:
            raise click.UsageError("give the address too: address PLAYER ADDRESS")
        if player not in (*listing.players, REFEREE_NAME):
            raise WarscribeError(f"{player!r} is not a player of {listing.name} (nor `referee`)")
        mb.set_address(ctx.app, listing.game_id, player, address)
    book = dict(mb.mailroom(ctx.app, listing.game_id).addresses)
    names = (*listing.players, REFEREE_NAME)
    emit(
        {name: book.get(name) for name in names},
        as_json,
        "\n".join(f"{escaped(name)}: {escaped(book.get(name, '(none)'))}" for name in names),
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
    each player's reply (their copy of what is new, a turn summary above it) as a mail to
    the outbox; with --smtp, send it. A mail that is refused is reported and changes
    nothing; the others go on. Exit 1 when a mail was refused.

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
    handled = _take_all(ctx.app, listing, inbox)
    replies = _replies(ctx.app, listing, book, handled)
    mb.post(outbox, [mb.message(reply, sender) for reply in replies])
    room = mb.mailroom(ctx.app, listing.game_id)
    seq = ctx.app.head(listing.game_id).seq
    for player in listing.players:
        room.trigger_event(mb.Mailroom.Mailed, player=player, seq=seq)
    ctx.app._save(room, what="`referee`")
    sent = mb.send(outbox, server) if server else []
    lines = [f"{h.mail} from {h.sender or '?'}: {h.result}" for h in handled]
    lines += [f"reply to {r.to}: {r.subject}" for r in replies] + sent
    emit({"mails": [h.__dict__ for h in handled], "sent": sent}, as_json, "\n".join(lines))
    if not all(h.ok for h in handled):
        click.get_current_context().exit(1)


def _take_all(app: Warscribe, listing: GameListing, inbox: str) -> list[Handled]:
    """Every mail of the inbox read, then taken: logs first, orders in the order they were
    written (the entry they were written against, then the mail's date)."""
    handled: list[Handled] = []
    queue: list[tuple[tuple[int, int, float], mb.Letter, mb.Envelope, mb.Carried]] = []
    for letter in mb.letters(inbox, unseen=True):
        try:
            envelope, carried = mb.opened(letter)
        except WarscribeError as exc:
            handled.append(Handled(letter.name, "", False, f"refused: {exc}"))
            continue
        if carried is None:
            handled.append(Handled(letter.name, envelope.sender, True, "no orders nor log"))
            continue
        written = 0
        if carried.kind == orders_file.ORDERS_KIND:
            try:
                written = orders_file.read_orders(carried.data).orders.seq
            except WarscribeError as exc:
                handled.append(Handled(letter.name, envelope.sender, False, f"refused: {exc}"))
                continue
        order = (int(carried.kind == orders_file.ORDERS_KIND), written, envelope.date)
        queue.append((order, letter, envelope, carried))
    for _, letter, envelope, carried in sorted(queue, key=lambda item: item[0]):
        handled.append(_take(app, listing, letter, envelope, carried))
    mb.mark_seen(inbox, [h.mail for h in handled])
    return handled


def _take(
    app: Warscribe,
    listing: GameListing,
    letter: mb.Letter,
    envelope: mb.Envelope,
    carried: mb.Carried,
) -> Handled:
    """One mail's orders or log, taken as `import-orders` or `import` would take them."""
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
        entries, returned = orders_file.receive(app, received)
        total = len(received.orders.commands)
        recorded = total - (len(returned.commands) if returned else 0)
        span = f" (#{entries[0].seq}..#{entries[-1].seq})" if entries else ""
        done.result = f"{player}'s orders: {recorded} of {total} commands recorded{span}"
        if returned is not None:
            words = "; ".join(
                f"{c.name} {' '.join(f'{k}={v}' for k, v in c.args)}".strip()
                for c in returned.commands
            )
            done.result += (
                f"; command {returned.index + 1} (`{returned.commands[0].name}`) and the rest "
                f"returned: {returned.reason}. Returned unrecorded: {words}"
            )
    except StoreUnavailable:  # the run ends, every mail left unseen: none is lost
        raise
    except WarscribeError as exc:
        done.ok = False
        done.result = f"refused: {exc}"
    return done


def _for_this_game(listing: GameListing, game_id: str, name: str) -> None:
    if game_id != str(listing.game_id):
        said = f" ({name})" if name else ""
        raise WarscribeError(
            f"not for this game: it is for game {game_id}{said}, not {listing.name}"
        )


def _replies(
    app: Warscribe, listing: GameListing, book: dict[str, str], handled: list[Handled]
) -> list[mb.Reply]:
    """A reply to each player with something new: the entries after the last one mailed
    to them (their copy), what became of their mails, and who must act now."""
    head = app.head(listing.game_id)
    ruleset = rulesets.get(head.ruleset)
    status: dict[str, Any] = {
        "whose_turn": ruleset.whose_turn(head.state),
        "commands": ruleset.legal_commands(head.state),
        **ruleset.summary(head.state),
    }
    position = ruleset.position(head.state) or "the set-up"
    mailed = dict(mb.mailroom(app, listing.game_id).mailed)
    signed_heads = heads.armor(heads.latest(app, listing.game_id))
    out = []
    for player in listing.players:
        theirs = [h for h in handled if h.player == player]
        since = mailed.get(player, 0)
        if since >= head.seq and not theirs:
            continue
        now = next_for(player, status)
        told = [f"{listing.name} ({head.ruleset}), head {fingerprint(head.seq, head.chain)}"]
        told += [f"Your mail {h.mail}: {h.result}" for h in theirs]
        block = ""
        if since < head.seq:
            entries = logfile.redact_for(app.entries(listing.game_id, since + 1), player)
            told += [
                "",
                "Since the last mail:",
                *story(entries, app.head(listing.game_id, since) if since else None),
            ]
            copy = mb.player_copy(app, listing, player, since + 1)
            block = logfile.armor(copy, fingerprint(head.seq, head.chain)) + signed_heads
        told += ["", f"Now {position}: {now}", "Import this mail with `warscribe import FILE`."]
        out.append(
            mb.Reply(
                to=book[player],
                subject=f"[warscribe] {listing.name} {position}: {now.partition(':')[0]}",
                summary="\n".join(told),
                block=block,
                in_reply_to=next((h.message_id for h in reversed(theirs) if h.message_id), None),
            )
        )
    return out


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
