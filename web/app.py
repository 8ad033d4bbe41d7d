"""The web app of `warscribe serve` (Flask: a small, well-kept WSGI framework with its own
test client, synchronous like the store, served by its development server on one thread so
a SQLite connection stays on the thread that opened it).

Trust: every response carries a Content-Security-Policy allowing only the page's own
script and style (a fresh nonce each response; no 'unsafe-inline'), no framing, no
referrer; JSON is written with `<`, `>` and `&` as \\u escapes, the page's text set as
text; a POST must carry the session's token (`X-Warscribe-Token`, given in the page; the
session cookie is HttpOnly and SameSite=Strict), so another site's page cannot post to it.
"""

from __future__ import annotations

import html
import json
import re
import secrets
from collections.abc import Callable
from importlib import resources
from typing import Any

from flask import Flask, Response, abort, g, request, session

from warscribe.cli.context import Context
from warscribe.store.mailbox import SmtpServer

from . import frames, referee
from .turn import Refused, Turn, steps, view

TOKEN_HEADER = "X-Warscribe-Token"
FIELD = re.compile(r"\{\{(nonce|token|title|board|script|referee)\}\}")
"""Where the page's template takes what this response fills in (in one pass: nothing
filled in is read again)."""


def make_app(ctx: Context, smtp: SmtpServer | None = None) -> Flask:
    """The app on the store of `ctx`, as the store's owner (else as the referee); the
    signed orders sent through `smtp` when given (`serve --smtp`)."""
    owner = ctx.owner()
    app = Flask(__name__)
    app.secret_key = secrets.token_bytes(32)
    app.config.update(SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_HTTPONLY=True)
    turns: dict[str, Turn] = {}
    player = owner.player if owner is not None else None

    def turn() -> Turn:
        token = session.get("token")
        if not isinstance(token, str) or token not in turns:
            abort(403)
        return turns[token]

    @app.before_request
    def guard() -> None:
        g.nonce = secrets.token_urlsafe(16)
        if request.method == "POST":
            token = session.get("token")
            if not token or request.headers.get(TOKEN_HEADER) != token or token not in turns:
                abort(403)

    app.after_request(_headers)
    _routes(app, ctx, turns, lambda: Turn(ctx, player, smtp), turn)
    frames.routes(app, frames.Frames(), turn, _json)
    if player is None:
        referee.routes(app, ctx, turn, _json)
    return app


def _routes(
    app: Flask,
    ctx: Context,
    turns: dict[str, Turn],
    new_turn: Callable[[], Turn],
    turn: Callable[[], Turn],
) -> None:
    """The routes reading: the page (which opens the session), its state, the rest."""

    @app.get("/")
    def page() -> Response:
        token = session.get("token")
        if not isinstance(token, str) or token not in turns:
            token = session["token"] = secrets.token_urlsafe(32)
            turns[token] = new_turn()
        return Response(_page(ctx, turns[token].player, token), mimetype="text/html")

    @app.get("/api/state")
    def state() -> Response:
        return _json(view(turn()))

    _reading_routes(app, turn)
    _turn_routes(app, turn)
    _mail_routes(app, turn)


def _reading_routes(app: Flask, turn: Callable[[], Turn]) -> None:
    """The routes reading what the page shows beside its state: the whole story, a
    stack's reach."""

    @app.get("/api/story")
    def told() -> Response:
        return _json({"story": steps(turn())})

    @app.get("/api/reach")
    def reach() -> Response:
        units = request.args.get("stack", "").split()
        return _answer(lambda: {"reach": turn().reached(units)})


def _turn_routes(app: Flask, turn: Callable[[], Turn]) -> None:
    """The routes writing the turn: a line added or taken back."""

    @app.post("/api/line")
    def line() -> Response:
        asked = request.get_json(silent=True)
        return _answer(lambda: _add(turn(), asked))

    @app.post("/api/undo")
    def undo() -> Response:
        turn().undo()
        return _json(view(turn()))


def _mail_routes(app: Flask, turn: Callable[[], Turn]) -> None:
    """The routes of the orders signed: signing, their mail sent or downloaded."""

    @app.post("/api/sign")
    def sign() -> Response:
        return _answer(lambda: {"signed": turn().sign()})

    @app.post("/api/send")
    def send() -> Response:
        return _answer(lambda: {"sent": turn().send()})

    @app.get("/orders.eml")
    def mail() -> Response:
        try:
            body = turn().mail()
        except Refused as exc:
            return _json({"error": str(exc)}, 422)
        sent = Response(body, mimetype="message/rfc822")
        sent.headers["Content-Disposition"] = 'attachment; filename="orders.eml"'
        return sent


def _add(turn: Turn, asked: Any) -> dict[str, Any]:
    """Add the line the page chose: a space the stack reaches (`stack`, `space`) or an
    offer with a value chosen for each of its choices (`offer`, `chosen`); never a typed
    line."""
    if not isinstance(asked, dict):
        raise Refused("send the choice as a JSON object")
    if "stack" in asked:
        stack, space = str(asked["stack"]).split(), str(asked.get("space"))
        found = [r for r in turn.reached(stack) if ",".join(map(str, r["space"])) == space]
        if not found:
            raise Refused(f"the stack cannot reach {space} now")
        turn.add(found[0]["command"])
    else:
        chosen = asked.get("chosen", {})
        index = asked.get("offer")
        if not isinstance(index, int) or not isinstance(chosen, dict):
            raise Refused("choose an offer")
        turn.add(turn.offered(index, chosen))
    return view(turn)


def _answer(make: Callable[[], Any]) -> Response:
    """`make()` as JSON, or its refusal as `{"error": ...}` with status 422."""
    try:
        made = make()
    except Refused as exc:
        return _json({"error": str(exc)}, 422)
    return _json(made)


def _json(data: Any, status: int = 200) -> Response:
    """`data` as JSON with `<`, `>` and `&` escaped (it can never be read as markup)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return Response(text, status=status, mimetype="application/json")


def _page(ctx: Context, player: str | None, token: str) -> str:
    """The page: the board's fixed part (the presenter's SVG), its script and style
    carrying this response's nonce, the session's token."""
    from warscribe.engine import rulesets
    from warscribe.engine.presenter import presenter_of

    listing = ctx.game()
    head = ctx.app.head(listing.game_id)
    board = presenter_of(rulesets.get(head.ruleset)).board
    nonce = g.nonce
    svg = board.base(head.state) if board is not None else ""
    files = resources.files("warscribe.web")
    who = f"{player}'s page" if player else "the referee's page"
    filled = {
        "nonce": nonce,
        "token": html.escape(token),
        "title": html.escape(f"{listing.name}: {who}"),
        "board": svg.replace("<style>", f'<style nonce="{nonce}">', 1),
        "script": files.joinpath("page.js").read_text("utf-8"),
        "referee": referee.section(nonce) if player is None else "",
    }
    template = files.joinpath("page.html").read_text("utf-8")
    return FIELD.sub(lambda found: filled[found[1]], template)


def _headers(response: Response) -> Response:
    nonce = g.get("nonce", "")
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
        "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cache-Control"] = "no-store"
    return response


def serve(app: Flask, host: str, port: int) -> None:
    """Serve `app` on `host`:`port` (one thread) until interrupted."""
    from werkzeug.serving import run_simple

    run_simple(host, port, app, threaded=False, use_reloader=False, use_debugger=False)
