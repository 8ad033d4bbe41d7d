"""`map`: a game's board as its presenter draws it (`warscribe.engine.presenter.Board`): as
text with row and column numbers and colour on a terminal, or as an SVG or PNG picture.

Each game with a board has its own `map` (`map_command`, in its group, with the board's own
options and help); the record's `map` runs the current game's, and says so plainly when
that game has no board. Nothing here names a game.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any
from uuid import UUID

import click

from warscribe.engine.errors import InvalidCommand, WarscribeError
from warscribe.engine.presenter import Board

from .context import Context, emit, json_option, pass_ctx, say
from .files import Output, force_option, write_files
from .positions import resolve_position
from .queries import asked, at_param, click_param, example_help

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")  # what can draw a PNG
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--hide-scrollbars",
)

for_option = click.option(
    "--for",
    "player",
    default=None,
    metavar="PLAYER",
    help="What PLAYER may see (the board is public: nothing hidden is ever drawn).",
)
colour_option = click.option(
    "--no-color", "no_colour", is_flag=True, help="No colour (also NO_COLOR, or not a TTY)."
)


def use_colour(no_colour: bool) -> bool:
    """Colour only on a terminal, unless `--no-color` or NO_COLOR (https://no-color.org)."""
    return not no_colour and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def check_player(ctx: Context, player: str | None) -> None:
    """`--for PLAYER` must name a player of the game."""
    listing = ctx.game()
    if player is not None and player not in listing.players:
        raise InvalidCommand(f"{player!r} is not a player of {listing.name}", "--for")


def previous_phase(ctx: Context, game_id: UUID, version: int) -> Any:
    """The state as the phase before `version` began (None before the first phase)."""
    marks = ctx.reads().head(game_id, version).marks.values()
    earlier = [seq for seq in marks if seq < version]
    return ctx.reads().head(game_id, max(earlier)).state if earlier else None


def map_command(ruleset: str, board: Board, at_help: str) -> click.Command:
    """The `map` of the games of `ruleset`, drawing `board`."""

    @pass_ctx
    def run(ctx: Context, /, **values: Any) -> None:
        svg, png = values.pop("svg"), values.pop("png")
        player, force = values.pop("player"), values.pop("force")
        no_colour, as_json = values.pop("no_colour"), values.pop("as_json")
        position = values.pop("position")
        given = [p for p in board.params if values.get(p.name) not in (None, False, ())]
        if given and svg is None and png is None:
            shown = given[0].option or f"--{given[0].name}"
            raise click.UsageError(f"{shown} draws on the picture: give --svg FILE or --png FILE")
        game_id = ctx.game_of(ruleset, "map").game_id
        check_player(ctx, player)
        head = ctx.reads().head(game_id, resolve_position(ctx.reads(), game_id, position))
        if svg is None and png is None:
            _print_text(board, head.state, use_colour(no_colour) and not as_json, as_json)
            return
        title = f"{board.title} at {_position(ruleset, head.state)} (#{head.seq})"
        before = previous_phase(ctx, game_id, head.seq)
        picture = board.svg(head.state, before, title, asked(ctx, ruleset, (), values, head.state))
        outputs = [Output(svg, picture.encode())] if svg else []
        if png:
            outputs.append(Output(png, to_png(picture)))
        write_files(outputs, force=force, store=ctx.store)
        for output in outputs:
            say(f"wrote the board at #{head.seq} to {output.path}", err=True)

    return _map_params(click.Command("map", callback=run, help=_help(board)), board, at_help)


def _help(board: Board) -> str:
    return example_help(board.help, board.example)


def _map_params(command: click.Command, board: Board, at_help: str) -> click.Command:
    svg = click.Option(
        ["--svg", "svg"], default=None, metavar="FILE", help="Write the board as SVG."
    )
    png = click.Option(
        ["--png", "png"],
        default=None,
        metavar="FILE",
        help="Write the board as PNG (needs Chromium installed to draw it).",
    )
    command.params = [at_param(at_help), svg, png, *(click_param(p) for p in board.params)]
    return json_option(colour_option(force_option(for_option(command))))


def _position(ruleset: str, state: Any) -> str | None:
    from warscribe.engine import rulesets

    return rulesets.get(ruleset).position(state)


def _print_text(board: Board, state: Any, colour: bool, as_json: bool) -> None:
    """The board as terminal text (coloured when `colour`), or its data as JSON."""
    from warscribe.store.views import printable

    view = board.data(state)
    drawn = board.text(printable(view), colour)
    if colour:  # every value in it already escaped by `printable`; ANSI codes kept
        click.echo(drawn)
    else:
        emit(view, as_json, drawn)


class CurrentMap(click.Command):
    """The record's `map`: the current game's own (`map_command`), or an error saying its
    game has no board."""

    def __init__(self) -> None:
        super().__init__(
            "map",
            callback=None,
            add_help_option=False,
            context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
            help=example_help(
                "The board of the current game, as its rule set draws it: as text on a "
                "terminal, or with --svg FILE or --png FILE as a picture (`map --help` in a "
                "game shows its options).",
                ("map", "map --svg board.svg --at 3.2.combat"),
            ),
        )

    def invoke(self, ctx: click.Context) -> Any:
        from warscribe.engine import rulesets
        from warscribe.engine.presenter import presenter_of

        current = ctx.find_object(Context)
        assert current is not None
        try:
            listing = current.game()
        except WarscribeError:
            if not {"-h", "--help"} & set(ctx.args):
                raise
            click.echo(self.get_help(ctx))  # no game to ask for its board's options
            return None
        presenter = presenter_of(rulesets.get(listing.ruleset))
        if presenter.board is None:
            raise WarscribeError(f"{listing.name} is a game of {listing.ruleset}: it has no board")
        command = map_command(listing.ruleset, presenter.board, presenter.at_help)
        with command.make_context("map", list(ctx.args), parent=ctx.parent) as sub:
            return command.invoke(sub)


MAP = CurrentMap()


def to_png(picture: str) -> bytes:
    """The SVG drawn as PNG by a headless Chromium (no Python dependency; refused, saying
    so, where none is installed)."""
    browser = next(filter(None, map(shutil.which, CHROMIUM)), None)
    if browser is None:
        raise WarscribeError("--png needs Chromium (e.g. apt-get install chromium); --svg does not")
    width, height = (int(v) for v in picture.split('viewBox="0 0 ', 1)[1].split('"')[0].split())
    with tempfile.TemporaryDirectory() as folder:
        source, shot = os.path.join(folder, "board.svg"), os.path.join(folder, "board.png")
        with open(source, "w", encoding="utf-8") as out:
            out.write(picture)
        size, target = f"--window-size={width},{height}", f"--screenshot={shot}"
        subprocess.run(
            [browser, *CHROMIUM_FLAGS, size, target, f"file://{source}"],
            capture_output=True,
            timeout=120,
            check=False,
        )
        if not os.path.exists(shot):
            raise WarscribeError(f"{browser} drew no PNG of the board")
        with open(shot, "rb") as drawn:
            return drawn.read()
