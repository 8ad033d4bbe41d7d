"""The referee's part of `serve`, on a host's store only (a player's store has none of its
routes): beside the board, the mailbox — each mail that came in, from whom and when, what
it led to (recorded, or refused and why, as `referee` reports it), who must act now and
on which decision, and what will be mailed (the replies the next `referee` run owes,
those decided and not yet in the outbox, those posted). A mail handed to the page (an
`.eml` uploaded, or the armored text pasted) is taken as `referee` takes a mail of its
inbox (`cli.mailbox.hand_in`): the same checks, the same journal, nothing else written."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from importlib import resources
from typing import Any

from flask import Flask, Response, request

from warscribe.cli.context import Context
from warscribe.engine.authority import REFEREE_NAME
from warscribe.engine.errors import WarscribeError
from warscribe.store import mail
from warscribe.store import mailbox as mb
from warscribe.store.views import escaped, escaped_lines

SHOWN = 100
"""The newest mails, and replies posted, the page lists."""
UNNAMED = "pasted"
"""The name of a mail handed to the page as pasted text."""
_NOT_IN_A_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def routes(
    app: Flask, ctx: Context, opened: Callable[[], object], json: Callable[..., Response]
) -> None:
    """The referee's routes on `app`: the mailbox, and a mail handed in. `opened` aborts
    a request without the page's session (a POST's token the app's guard checks);
    `json` writes the answer (escaped)."""

    @app.get("/api/mailbox")
    def mailbox() -> Response:
        opened()
        return json(mailroom(ctx))

    @app.post("/api/mail")
    def hand() -> Response:  # the app's guard checked the session's token
        letter = handed(request.args.get("name", ""), mb.bounded_read(request.stream))
        return json(*taken(ctx, letter))


def section(nonce: str) -> str:
    """The referee's part of the page: its panels and its script, with this response's
    nonce."""
    files = resources.files("warscribe.web")
    html = files.joinpath("referee.html").read_text("utf-8")
    script = files.joinpath("referee.js").read_text("utf-8")
    return html.replace("{{nonce}}", nonce).replace("{{script}}", script)


def handed(name: str, data: bytes | None) -> mb.Letter:
    """The mail handed to the page as a mail of a mailbox: a mail message as it came
    (None: larger than a mail may be), any other text (armored orders or a log, pasted)
    as the body of one. Named in the journal by the file's name (else `pasted`) and a
    token of its own: a mail handed twice is two mails, as one delivered twice is."""
    shown = _NOT_IN_A_NAME.sub("", name)[:60] or UNNAMED
    if data is not None and not mail.is_message(data):
        wrapped = EmailMessage()
        wrapped.set_content(data.decode("utf-8", "replace"))
        data = wrapped.as_bytes()
    return mb.Letter(f"{shown} (page {secrets.token_hex(4)})", data)


def taken(ctx: Context, letter: mb.Letter) -> tuple[dict[str, Any], int]:
    """The mail taken (`cli.mailbox.hand_in`): what became of it and the mailbox after,
    or why nothing was read (another `referee` run holds the store, status 409)."""
    from warscribe.cli.mailbox import hand_in

    try:
        done = hand_in(ctx.app, ctx.game(), letter)
    except WarscribeError as exc:
        return {"error": str(exc)}, 409
    said = [{"ok": h.ok, "text": escaped_lines(f"{h.mail}: {h.result}")} for h in done]
    return {"mails": said, "mailbox": mailroom(ctx)}, 200


def mailroom(ctx: Context) -> dict[str, Any]:
    """What the referee's page shows of the mailbox: who must act now, each mail taken
    (newest first), and the replies: owed by the next `referee` run, decided and not yet
    in the outbox, posted (newest first)."""
    from warscribe.cli.mailbox import Taker
    from warscribe.cli.pbem import who_acts

    listing = ctx.game()
    taker = Taker(ctx.app, listing)
    room = taker.room
    times = mb.taken_at(ctx.app, listing.game_id)
    book = dict(room.addresses)
    mails = list(room.taken.items())[-SHOWN:]
    posted = [(k, r) for k, r in room.replies.items() if k not in room.owed][-SHOWN:]
    return {
        "now": escaped(who_acts(ctx, listing.game_id)),
        "mails": [_mail(key, note, times, key in room.untold) for key, note in reversed(mails)],
        "owed": [_reply(r, book, room, None) for r in taker.owed([]).values()],
        "decided": [_reply(r, book, room, times.get(k)) for k, r in room.owed.items()],
        "posted": [_reply(r, book, room, times.get(k)) for k, r in reversed(posted)],
    }


def _mail(key: str, note: mb.Note, times: dict[str, datetime], untold: bool) -> dict[str, Any]:
    """A mail of the journal as the page lists it."""
    return {
        "when": _when(times.get(key)),
        "name": escaped(note.name),
        "from": escaped(note.sender or "?"),
        "player": note.player,
        "ok": note.ok,
        "aside": note.aside,
        "result": escaped_lines(note.result),
        "untold": untold,
    }


def _reply(
    reply: mb.Owed, book: dict[str, str], room: mb.Mailroom, when: datetime | None
) -> dict[str, Any]:
    """A reply as the page lists it: to whom (and their address), the entries it
    carries, the mails it tells of."""
    address = book.get(reply.player)
    if address is None:
        address = f"no address: record one with `warscribe address {reply.player} ADDRESS`"
    told = [escaped(room.taken[key].name) for key in reply.mails if key in room.taken]
    entries = f"#{reply.since + 1}..#{reply.seq}" if reply.since < reply.seq else "none"
    return {
        "when": _when(when),
        "to": escaped(f"{reply.player} ({address})"),
        "referee": reply.player == REFEREE_NAME,
        "entries": entries,
        "mails": told,
    }


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC") if moment is not None else ""
