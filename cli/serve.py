"""`serve`: the game in a browser (the web app is `warscribe.web`, imported only here, when
the command runs: no other command loads the web framework)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .context import Context, pass_ctx, say

if TYPE_CHECKING:
    from warscribe.store.mailbox import SmtpServer

LOCAL = ("127.0.0.1", "localhost", "::1")
PORTS = 65535  # the highest port


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=int, default=8765, show_default=True, help="The port (0 to 65535).")
@click.option(
    "--smtp",
    metavar="URL",
    help="Send the signed orders to the referee's address (`address referee ADDRESS`) "
    "through smtp://HOST[:PORT] (STARTTLS) or smtps://HOST[:PORT]; login from "
    "WARSCRIBE_SMTP_USER and WARSCRIBE_SMTP_PASSWORD.",
)
@pass_ctx
def serve(ctx: Context, host: str, port: int, smtp: str | None) -> None:
    """Play in a browser: a local web page on the store showing the board, the story and,
    in a player's store (see `init`), that player's hand, pending decisions and
    banishments, where a turn is written by clicking: a stack, then a space it reaches;
    the other lines chosen from what the rules offer, each checked by the dry run as it
    is added; signed with the owner's key (read by the server, never sent to the page),
    as armored text, an .eml, or sent to the referee's address (--smtp). A host's store
    opens as the referee: beside the board, the mailbox (each mail taken, what it led to,
    who must act, what the next `referee` run will mail), where a player's mail, pasted
    or its .eml chosen, is taken as `referee` takes a mail of its inbox. Listens on this
    machine only unless --host says otherwise.

    \b
    Example:
      warscribe --store alice.db serve
      warscribe --store alice.db serve --smtp smtp://mail.example.org
    """
    from warscribe.web.app import make_app
    from warscribe.web.app import serve as run

    if not 0 <= port <= PORTS:
        raise click.BadParameter(
            f"{port} is out of range: a port is 0 to {PORTS}", param_hint="--port"
        )
    listing = ctx.game()
    owner = ctx.owner()
    app = make_app(ctx, _server(smtp))
    who = f"as {owner.player}" if owner is not None else "as the referee"
    say(f"serving {listing.name} {who} at http://{_shown(host)}:{port}/ (Ctrl-C stops)", err=True)
    if host not in LOCAL:
        say(
            f"warning: listening on {host}, not this machine alone: whoever reaches "
            f"{host}:{port} sees this store's game {who} and may sign orders with its key",
            err=True,
        )
    run(app, host, port)


def _shown(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _server(url: str | None) -> SmtpServer | None:
    """The server of `--smtp` (a usage error, exit 2, when it is no SMTP URL)."""
    from warscribe.store.mailbox import MailError, smtp_server

    try:
        return smtp_server(url) if url else None
    except MailError as exc:
        raise click.BadParameter(exc.message, param_hint="--smtp") from None
