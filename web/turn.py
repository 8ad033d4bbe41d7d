"""What the page shows and does, on the store (`cli.context.Context`): the board, the
presenter's panels, the story, the lines of the player's turn (each checked by the dry
run as it is added, `cli.pbem.checked_orders`), the offers of `legal` at the position
they lead to, the spaces a stack reaches there, and the signed orders with their mail.
Nothing here names a game: the board and the panels are the game's presenter's
(`engine.presenter`), the offers its rule set's, the reach its `reach` query's."""

from __future__ import annotations

import shlex
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from warscribe.cli.context import Context
from warscribe.engine import rulesets
from warscribe.engine.authority import REFEREE_NAME
from warscribe.engine.errors import WarscribeError
from warscribe.engine.presenter import FLAG, READER, Asked, presenter_of
from warscribe.engine.record import Head
from warscribe.engine.ruleset import LegalCommand
from warscribe.store import story
from warscribe.store.mailbox import SmtpServer
from warscribe.store.views import escaped_lines, jsonable, printable

STORY_LINES = 80
"""The newest lines of the story shown beside the board."""
REACH = "reach"
"""The query that lists the spaces a stack reaches (a game without it has no clicks)."""


class Refused(Exception):
    """A line the page cannot add: why, in the words the player types."""


class Turn:
    """The player's turn being written (the lines so far) on the store of `ctx`, as
    `player` (None: the referee, who writes no orders here)."""

    def __init__(self, ctx: Context, player: str | None, smtp: SmtpServer | None = None) -> None:
        self.ctx = ctx
        self.player = player
        self.smtp = smtp
        self.lines: list[str] = []
        self.plan: list[str] = []
        self.signed: str | None = None

    def head(self) -> Head:
        return self.ctx.app.head(self.ctx.game_id())

    def ahead(self) -> Head:
        """The head the lines so far lead to (under the first outcome of dice this copy
        cannot roll): where the next line is offered and the reach found."""
        from warscribe.cli.pbem import checked_orders
        from warscribe.engine.dryrun import outcome

        head = self.head()
        if not self.lines or self.player is None:
            return head
        written, _ = checked_orders(self.ctx, self.player, self.lines, checked=False)
        return outcome(head, written, self.ctx.app.secret(head.game_id))

    def offers(self, head: Head) -> list[LegalCommand]:
        """What `legal` offers the player at `head` whose choices the page can list."""
        if self.player is None:
            return []
        found = rulesets.get(head.ruleset).legal(head.state)
        return [o for o in found if o.actor == self.player and _listable(o)]

    def add(self, line: str) -> None:
        """Add `line` once the dry run of every line so far with it passes (else
        `Refused`, nothing added)."""
        from warscribe.cli.pbem import checked_orders

        if self.player is None:
            raise Refused("the referee's page writes no orders")
        try:
            _, plan = checked_orders(self.ctx, self.player, [*self.lines, line])
        except (WarscribeError, _usage()) as exc:
            raise Refused(_said(exc)) from None
        self.lines.append(line)
        self.plan = plan
        self.signed = None

    def offered(self, index: int, chosen: dict[str, int]) -> str:
        """The line of the `index`th offer at the lines' head, one value of each domain
        chosen by its index (`Refused` when they are not offered)."""
        from warscribe.cli.generated import command_line

        head = self.ahead()
        offers = self.offers(head)
        if not 0 <= index < len(offers):
            raise Refused("that offer is no longer made: reload the page")
        offer = offers[index]
        try:
            values = {key: list(domain)[chosen[key]] for key, domain in offer.domains}
        except (KeyError, IndexError, TypeError):
            raise Refused("choose one of the values offered for each choice") from None
        return command_line(head.ruleset, offer.command(**values))

    def reached(self, units: list[str]) -> list[dict[str, Any]]:
        """Each space the stack of `units` reaches at the lines' head (the `reach` query)."""
        from warscribe.cli.generated import command_line

        head = self.ahead()
        query = presenter_of(rulesets.get(head.ruleset)).queries.get(REACH)
        if query is None or query.data is None:
            return []
        asked = Asked({"units": tuple(units)}, lambda c: command_line(head.ruleset, c))
        try:
            found: list[dict[str, Any]] = query.data(head.state, asked)
        except WarscribeError as exc:
            raise Refused(_said(exc)) from None
        return printable(jsonable(found))  # type: ignore[no-any-return]

    def undo(self) -> None:
        """Take back the last line; the others are checked again without it."""
        from warscribe.cli.pbem import checked_orders

        if self.lines and self.player is not None:
            self.lines.pop()
            self.plan = checked_orders(self.ctx, self.player, self.lines)[1] if self.lines else []
            self.signed = None

    def sign(self) -> str:
        """The lines as signed orders (the armored text to mail), signed with the key of
        the store's owner, which the server reads from its file: the page never holds it."""
        from warscribe.cli.files import read_bytes
        from warscribe.cli.pbem import checked_orders
        from warscribe.store import orders as orders_file

        owner = self.ctx.owner()
        if self.player is None or owner is None or owner.key_file is None:
            raise Refused("this store has no key to sign with (see `init --key`)")
        if not self.lines:
            raise Refused("add a line before signing")
        try:
            private = orders_file.read_key(read_bytes(owner.key_file), "private")
            written, _ = checked_orders(self.ctx, self.player, self.lines)
        except (WarscribeError, _usage()) as exc:
            raise Refused(_said(exc)) from None
        self.signed = orders_file.write_orders(written, private)
        return self.signed

    def mail(self) -> bytes:
        """The signed orders as a mail message (an `.eml` to send to the referee)."""
        return self.message().as_bytes()

    def addresses(self) -> dict[str, str]:
        """The addresses this store records (`address PLAYER ADDRESS`, `address referee
        ADDRESS`), by player."""
        from warscribe.store.mailbox import mailroom

        return dict(mailroom(self.ctx.app, self.ctx.game_id()).addresses)

    def send(self) -> str:
        """Send the signed orders' mail to the referee's address this store records,
        through the server `serve --smtp` names (never one the page gives): what was sent."""
        from warscribe.store.mailbox import MailError, send_message

        to = self.addresses().get(REFEREE_NAME)
        if self.smtp is None or to is None:
            raise Refused(
                "this page sends no mail: serve it with --smtp URL, the referee's address "
                "recorded (`warscribe address referee ADDRESS`)"
            )
        message = self.message()
        try:
            send_message(self.smtp, message)
        except MailError as exc:
            raise Refused(str(exc)) from None
        return f"sent to {to}: {message['Subject']}"

    def message(self) -> EmailMessage:
        """The signed orders as a mail to the referee, from and to the addresses this
        store records (placeholders where it has none)."""
        if self.signed is None or self.player is None:
            raise Refused("sign the orders first")
        listing = self.ctx.game()
        book = self.addresses()
        out = EmailMessage()
        out["From"] = book.get(self.player, f"{self.player}@warscribe.invalid")
        out["To"] = book.get(REFEREE_NAME, "referee@warscribe.invalid")
        out["Subject"] = f"orders of {self.player} in {listing.name}"
        out["Date"] = formatdate()
        out["Message-ID"] = make_msgid(domain="warscribe.invalid")
        body = f"My orders:\n\n{self.signed}"
        out.set_content(body, cte="7bit" if body.isascii() else "quoted-printable")
        return out


def view(turn: Turn) -> dict[str, Any]:
    """What the page shows now: the position, the board's overlay, the panels, the story,
    the lines with what the dry run says of them, and the offers at their head."""
    head = turn.head()
    ruleset = rulesets.get(head.ruleset)
    presenter = presenter_of(ruleset)
    board = presenter.board
    ahead = turn.ahead()
    entries = list(turn.ctx.reads().entries(head.game_id))
    return {
        "player": turn.player,
        "position": ruleset.position(head.state),
        "whose_turn": ruleset.whose_turn(head.state),
        "overlay": board.overlay(head.state, None) if board is not None else None,
        "panels": panels(turn, ahead),
        "story": list(story.story(entries))[-STORY_LINES:],
        "lines": turn.lines,
        "plan": turn.plan,
        "ahead": ruleset.position(ahead.state),
        "offers": [_offer(turn, ahead, o) for o in turn.offers(ahead)],
        "reach": REACH in presenter.queries,
        "signed": turn.signed,
        "sends": turn.smtp is not None,
    }


def steps(turn: Turn) -> list[dict[str, Any]]:
    """The whole story (as the store's owner may see it) position by position: each
    position and its lines, its heading first, for the page's slider."""
    found: list[dict[str, Any]] = []
    for line in story.story(turn.ctx.reads().entries(turn.ctx.game_id())):
        heading = line.startswith("== ")
        if heading or not found:
            found.append({"position": line.strip("= ") if heading else "set-up", "lines": []})
        found[-1]["lines"].append(line)
    return found


def panels(turn: Turn, head: Head) -> list[dict[str, str]]:
    """The pending decision, then each query of the presenter that needs nothing but the
    reader (the player's hand, the banishments...), as text the player reads."""
    from warscribe.cli.generated import cli_words, command_line

    ruleset = rulesets.get(head.ruleset)
    pending = ruleset.summary(head.state).get("pending")
    shown = []
    if isinstance(pending, dict):
        why = cli_words(head.ruleset, str(pending.get("why")))
        said = f"{pending.get('player')} must answer {pending.get('kind')}: {why}"
        shown.append({"title": "Pending decision", "text": escaped_lines(said)})
    for name, query in presenter_of(ruleset).queries.items():
        kinds = {param.kind for param in query.params}
        if not kinds <= {READER, FLAG} or (READER in kinds and turn.player is None):
            continue
        values = {p.name: turn.player if p.kind == READER else False for p in query.params}
        asked = Asked(values, lambda c: command_line(head.ruleset, c))
        data = (query.data or _projection(ruleset, name))(head.state, asked)
        text = query.text(printable(jsonable(data)), Asked(printable(values), asked.words))
        shown.append({"title": name, "text": escaped_lines(text)})
    return shown


def _projection(ruleset: Any, name: str) -> Any:
    projection = ruleset.projections[name]
    return lambda state, asked: projection(state)


def _offer(turn: Turn, head: Head, offer: LegalCommand) -> dict[str, Any]:
    """An offer as the page lists it: its line (its choices as placeholders) and the
    values of each choice, as typed."""
    from warscribe.cli.generated import hints

    hint = hints(head.ruleset, [offer])[0]
    return {
        "text": hint["command"],
        "choices": [
            {"key": key, "values": [_typed(value) for value in domain], **_several(domain)}
            for key, domain in offer.domains
        ],
    }


def _several(domain: Any) -> dict[str, list[list[str]]]:
    """For a choice of several things at once (the units a `losses` takes), each value
    as its parts, so that the page lets them be ticked one by one; else nothing."""
    shown = [jsonable(value) for value in domain]
    if not all(isinstance(v, list) and all(isinstance(p, str) for p in v) for v in shown):
        return {}
    return {"parts": shown}


def _typed(value: Any) -> str:
    """A value of a choice as the player reads it."""
    shown = jsonable(value)
    if isinstance(shown, list):
        return " ".join(str(v) if not isinstance(v, list) else ",".join(map(str, v)) for v in shown)
    return shlex.quote(str(shown)) if isinstance(shown, str) and " " in shown else str(shown)


MOST_CHOICES = 400
"""An offer with a choice of more values than this is not listed (a stack's every path:
its move is made by clicking the board)."""


def _listable(offer: LegalCommand) -> bool:
    return all(isinstance(d, list | tuple) and len(d) <= MOST_CHOICES for _, d in offer.domains)


def _usage() -> type[Exception]:
    import click

    return click.UsageError


def _said(exc: Exception) -> str:
    """An error as the player reads it."""
    import click

    if isinstance(exc, click.UsageError):
        return exc.format_message()
    return str(exc)
