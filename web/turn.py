"""What the page shows and does, on the store (`cli.context.Context`): the board, the
presenter's panels, the story, the lines of the player's turn (each checked by the dry
run as it is added, `cli.pbem.checked_orders`), the offers of `legal` at the position
they lead to, the spaces a stack reaches there, and the signed orders with their mail.
Nothing here names a game: the board and the panels are the game's presenter's
(`engine.presenter`), the offers its rule set's, the reach its `reach` query's."""

from __future__ import annotations

import shlex
from collections import OrderedDict
from collections.abc import Callable, Hashable
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any, TypeVar
from uuid import UUID

from warscribe.cli.context import Context
from warscribe.cli.panels import panels
from warscribe.engine import rulesets
from warscribe.engine.authority import REFEREE_NAME
from warscribe.engine.errors import WarscribeError
from warscribe.engine.orders import Orders
from warscribe.engine.presenter import Asked, presenter_of
from warscribe.engine.record import Head
from warscribe.engine.ruleset import LegalCommand
from warscribe.store import story
from warscribe.store.mailbox import SmtpServer
from warscribe.store.views import jsonable, printable

STORY_LINES = 80
"""The newest lines of the story shown beside the board."""
REACH = "reach"
"""The query that lists the spaces a stack reaches (a game without it has no clicks)."""
KEPT = 64
"""The most results a turn keeps of one head of the game (`Turn.kept`)."""
T = TypeVar("T")


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
        self._at: tuple[UUID, int, bytes] | None = None
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()
        self._reach: tuple[Hashable, list[dict[str, Any]]] | None = None
        """The last stack clicked and its reach: a space of it clicked next adds a line."""

    def head(self) -> Head:
        """The game's head, read from the store on every call (another process may have
        recorded since): what the turn kept of another head is dropped (`kept`)."""
        head = self.ctx.app.head(self.ctx.game_id())
        at = (head.game_id, head.seq, head.chain)
        if at != self._at:
            self._at = at
            self._kept.clear()
        return head

    def kept(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, worked out once while the store's head stays where `head()` last read
        it (a request reads it first): the story, the panels, the plans and heads the
        lines lead to, the offers there; the `KEPT` newest."""
        if key in self._kept:
            self._kept.move_to_end(key)
        else:
            self._kept[key] = make()
            if len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        made: T = self._kept[key]
        return made

    def ahead(self, head: Head | None = None) -> Head:
        """The head the lines so far lead to from `head` (read when not given; under the
        first outcome of dice this copy cannot roll): where the next line is offered and
        the reach found."""
        head = head or self.head()
        if not self.lines or self.player is None:
            return head
        return self.kept(("ahead", *self.lines), lambda: self._outcome(head))

    def _outcome(self, head: Head) -> Head:
        from warscribe.engine.dryrun import outcome

        return outcome(head, self.written(self.lines), self.ctx.app.secret(head.game_id))

    def offers(self, head: Head) -> list[LegalCommand]:
        """What `legal` offers the player at `head` whose choices the page can list."""
        if self.player is None:
            return []
        found = rulesets.get(head.ruleset).legal(head.state)
        return [o for o in found if o.actor == self.player and _listable(o)]

    def offers_ahead(self, head: Head | None = None) -> tuple[Head, list[LegalCommand]]:
        """The head the lines lead to and the offers there (`offers`)."""
        ahead = self.ahead(head)
        return ahead, self.kept(("offers", *self.lines), lambda: self.offers(ahead))

    def written(self, lines: list[str]) -> Orders:
        """The player's orders of `lines` at the head (each line read, the standing answers
        checked; not dry-run), kept while the head stays, as each line read."""
        from warscribe.cli.pbem import Parsed, checked_orders

        player = self.player
        assert player is not None
        parsed: Parsed = self.kept("parsed", dict)
        return self.kept(
            ("written", *lines), lambda: checked_orders(self.ctx, player, lines, False, parsed)[0]
        )

    def checked(self, lines: list[str]) -> list[str]:
        """What the dry run says of `lines` (`cli.pbem.dry_run_plan`: a line it refuses
        raises), kept while the head stays: a line taken back finds its plan again."""
        from warscribe.cli.pbem import dry_run_plan

        head = self.head()
        written = self.written(lines)
        return self.kept(("plan", *lines), lambda: dry_run_plan(self.ctx, head, written, lines))

    def add(self, line: str) -> None:
        """Add `line` once the dry run of every line so far with it passes (else
        `Refused`, nothing added)."""
        if self.player is None:
            raise Refused("the referee's page writes no orders")
        try:
            plan = self.checked([*self.lines, line])
        except (WarscribeError, _usage()) as exc:
            raise Refused(_said(exc)) from None
        self.lines.append(line)
        self.plan = plan
        self.signed = None

    def offered(self, index: int, chosen: dict[str, int]) -> str:
        """The line of the `index`th offer at the lines' head, one value of each domain
        chosen by its index (`Refused` when they are not offered)."""
        from warscribe.cli.generated import command_line

        head, offers = self.offers_ahead()
        if not 0 <= index < len(offers):
            raise Refused("that offer is no longer made: reload the page")
        offer = offers[index]
        try:
            values = {key: list(domain)[chosen[key]] for key, domain in offer.domains}
        except (KeyError, IndexError, TypeError):
            raise Refused("choose one of the values offered for each choice") from None
        return command_line(head.ruleset, offer.command(**values))

    def reached(self, units: list[str]) -> list[dict[str, Any]]:
        """Each space the stack of `units` reaches at the lines' head (the `reach` query;
        the last stack's kept)."""
        head = self.ahead()
        asked = (self._at, tuple(self.lines), tuple(units))
        if self._reach is None or self._reach[0] != asked:
            self._reach = (asked, _reach(head, units))
        return self._reach[1]

    def undo(self) -> None:
        """Take back the last line; the others are checked again without it."""
        if self.lines and self.player is not None:
            self.lines.pop()
            self.plan = self.checked(self.lines) if self.lines else []
            self.signed = None

    def sign(self) -> str:
        """The lines as signed orders (the armored text to mail), signed with the key of
        the store's owner, which the server reads from its file: the page never holds it."""
        from warscribe.cli.files import read_bytes
        from warscribe.store import orders as orders_file

        owner = self.ctx.owner()
        if self.player is None or owner is None or owner.key_file is None:
            raise Refused("this store has no key to sign with (see `init --key`)")
        if not self.lines:
            raise Refused("add a line before signing")
        try:
            private = orders_file.read_key(read_bytes(owner.key_file), "private")
            self.checked(self.lines)  # the dry run at the store's head now (kept if it stays)
            written = self.written(self.lines)
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
    ahead, offers = turn.offers_ahead(head)
    return {
        "player": turn.player,
        **turn.kept("view", lambda: _at_head(turn, head)),
        "panels": turn.kept(
            ("panels", *turn.lines), lambda: panels(ahead.ruleset, ahead.state, turn.player)
        ),
        "lines": turn.lines,
        "plan": turn.plan,
        "ahead": ruleset.position(ahead.state),
        "offers": turn.kept(
            ("shown", *turn.lines), lambda: [_offer(turn, ahead, o) for o in offers]
        ),
        "reach": REACH in presenter_of(ruleset).queries,
        "signed": turn.signed,
        "sends": turn.smtp is not None,
    }


def _at_head(turn: Turn, head: Head) -> dict[str, Any]:
    """What the page shows of the game's head (whatever the lines): the position, the
    board's overlay and the story's newest lines (told once a head, by `steps`)."""
    ruleset = rulesets.get(head.ruleset)
    board = presenter_of(ruleset).board
    told = [line for step in steps(turn) for line in step["lines"]]
    return {
        "position": ruleset.position(head.state),
        "whose_turn": ruleset.whose_turn(head.state),
        "overlay": board.overlay(head.state, None) if board is not None else None,
        "story": told[-STORY_LINES:],
    }


def steps(turn: Turn) -> list[dict[str, Any]]:
    """The whole story (as the store's owner may see it) position by position: each
    position and its lines, its heading first, for the page's slider (kept while the
    store's head stays)."""
    head = turn.head()
    return turn.kept("steps", lambda: _steps(turn, head))


def _steps(turn: Turn, head: Head) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for line in story.story(turn.ctx.reads().entries(head.game_id, 1, head.seq)):
        heading = line.startswith("== ")
        if heading or not found:
            found.append({"position": line.strip("= ") if heading else "set-up", "lines": []})
        found[-1]["lines"].append(line)
    return found


def _reach(head: Head, units: list[str]) -> list[dict[str, Any]]:
    """Each space the stack of `units` reaches at `head` (the `reach` query)."""
    from warscribe.cli.generated import command_line

    query = presenter_of(rulesets.get(head.ruleset)).queries.get(REACH)
    if query is None or query.data is None:
        return []
    asked = Asked({"units": tuple(units)}, lambda c: command_line(head.ruleset, c))
    try:
        found: list[dict[str, Any]] = query.data(head.state, asked)
    except WarscribeError as exc:
        raise Refused(_said(exc)) from None
    return printable(jsonable(found))  # type: ignore[no-any-return]


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
