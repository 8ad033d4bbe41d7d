"""Pictures on the command line: the Divine Right board as SVG (`map --svg`), the text map
with row and column numbers and colour on a terminal, and the victory points per turn as a
chart of Unicode blocks (`vp --chart`)."""

from __future__ import annotations

import os
import sys
from typing import Any
from uuid import UUID

import click

from warscribe.engine.errors import InvalidCommand
from warscribe.engine.rulesets.divine_right import RULESET
from warscribe.engine.rulesets.divine_right.state import State
from warscribe.store.views import printable

from . import svgmap
from .context import Context, emit, json_option, pass_ctx, say
from .divine_right import NAME, at_option
from .divine_right_text import board_text
from .files import Output, force_option, write_files
from .positions import resolve_position

BLOCKS = " ▁▂▃▄▅▆▇█"
CHART_ROWS = 4  # lines of blocks per player

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


def previous_phase(ctx: Context, game_id: UUID, version: int) -> State | None:
    """The state as the phase before `version` began (None before the first phase)."""
    marks = ctx.reads().head(game_id, version).marks.values()
    earlier = [seq for seq in marks if seq < version]
    return ctx.reads().head(game_id, max(earlier)).state if earlier else None


@click.command("map")
@at_option
@click.option("--svg", "svg", default=None, metavar="FILE", help="Write the board as SVG.")
@click.option(
    "--png",
    "png",
    default=None,
    metavar="FILE",
    help="Write the board as PNG (needs Chromium installed to draw it).",
)
@click.option(
    "--reach",
    "reach",
    default=None,
    metavar="STACK",
    help="With --svg or --png: light up the spaces STACK (its units, comma-separated, or its "
    "space) can reach this phase, as `reach` lists them.",
)
@for_option
@force_option
@colour_option
@json_option
@pass_ctx
def map_(
    ctx: Context,
    position: str | None,
    svg: str | None,
    png: str | None,
    reach: str | None,
    player: str | None,
    force: bool,
    no_colour: bool,
    as_json: bool,
) -> None:
    """The map of who is where: as text with row and column numbers, or with --svg FILE
    as a picture (terrain, rivers, coasts, castles and their defence, kingdoms, stacks in
    their kingdom's colour, sieges, and what moved or fought since the previous phase;
    with --reach STACK, the spaces that stack can reach, each titled with its cost and the
    command to type).

    \b
    Example:
      warscribe map --at 3.2.combat
      warscribe map --svg board.svg --at 3.2.combat --for alice
      warscribe map --svg moves.svg --reach Muetar-A1,Muetar-A2
      warscribe map --png board.png
    """
    if reach is not None and svg is None and png is None:
        raise click.UsageError("--reach draws on the picture: give --svg FILE or --png FILE")
    game_id = ctx.game_of(NAME, "map").game_id
    check_player(ctx, player)
    head = ctx.reads().head(game_id, resolve_position(ctx.reads(), game_id, position))
    if svg is None and png is None:
        view = RULESET.projections["map"](head.state)
        colour = use_colour(no_colour) and not as_json
        drawn = text_map(printable(view), colour)
        if colour:  # every value in it already escaped by `printable`; ANSI codes kept
            click.echo(drawn)
        else:
            emit(view, as_json, drawn)
        return
    title = f"Divine Right at {RULESET.position(head.state)} (#{head.seq})"
    reached = _reached(head.state, reach) if reach is not None else ()
    picture = svgmap.render(head.state, previous_phase(ctx, game_id, head.seq), title, reached)
    outputs = [Output(svg, picture.encode())] if svg else []
    if png:
        outputs.append(Output(png, svgmap.to_png(picture)))
    write_files(outputs, force=force, store=ctx.store)
    for output in outputs:
        say(f"wrote the board at #{head.seq} to {output.path}", err=True)


def _reached(state: State, stack: str) -> svgmap.Reach:
    """The spaces `stack` can reach at `state`, as `reach` finds them (refused as it is)."""
    from warscribe.engine.rulesets.divine_right.movement.reach import reach
    from warscribe.engine.rulesets.divine_right.specs import data_of

    from .generated import command_line

    return tuple(
        (found.space, found.route.cost, command_line(NAME, found.command))
        for found in reach(state, data_of(state), stack)
    )


@click.command()
@at_option
@click.option("--chart", is_flag=True, help="A chart of each player's points turn by turn.")
@json_option
@pass_ctx
def vp(ctx: Context, position: str | None, chart: bool, as_json: bool) -> None:
    """Victory points: totals and the ledger of deeds; with --chart, each player's
    points at the end of every game turn as a bar of Unicode blocks.

    \b
    Example:
      warscribe vp --at 5.1.diplomacy
      warscribe vp --chart
    """
    game_id = ctx.game_of(NAME, "vp").game_id
    state = ctx.reads().head(game_id, resolve_position(ctx.reads(), game_id, position)).state
    data = RULESET.projections["vp"](state)
    if chart:
        points = per_turn(state)
        emit(points, as_json, chart_text(printable(points)))
    else:
        emit(data, as_json, vp_text(printable(data)))


def vp_text(data: dict[str, Any]) -> str:
    lines = [f"{player}: {points}" for player, points in data["totals"].items()]
    lines += [
        f"  turn {d['turn']:>2}  {d['player']}: {d['deed']} ({d['points']:+d})"
        for d in data["ledger"]
    ]
    return "\n".join(lines)


def per_turn(state: State) -> dict[str, list[int]]:
    """Each player's running total at the end of each game turn so far (Victory: the
    ledger of deeds, summed turn by turn)."""
    last = max([state.number, *(d.turn for d in state.ledger)], default=1)
    out = {p.name: [0] * max(last, 1) for p in state.players}
    for deed in state.ledger:
        for turn in range(deed.turn, last + 1):
            out[deed.player][turn - 1] += deed.points
    return out


def chart_text(points: dict[str, list[int]]) -> str:
    """One block chart per player, a column per game turn, scaled to the highest total;
    while nobody has scored, each player's total on a line under a sentence saying so
    (a chart of nothing would be empty boxes)."""
    turns = len(next(iter(points.values()), []))
    width = max((len(name) for name in points), default=0)
    if not any(v > 0 for series in points.values() for v in series):
        totals = [
            f"{name:>{width}}: {series[-1] if series else 0} VP" for name, series in points.items()
        ]
        return "\n".join([f"nobody has victory points yet (turns 1..{turns})", *totals])
    top = max(abs(v) for series in points.values() for v in series)
    lines = []
    for name, series in points.items():
        levels = [round(max(v, 0) * CHART_ROWS * 8 / top) for v in series]
        for row in range(CHART_ROWS - 1, -1, -1):
            cells = "".join(BLOCKS[min(max(level - row * 8, 0), 8)] for level in levels)
            label = name if row == CHART_ROWS - 1 else ""
            lines.append(f"{label:>{width}} │{cells}│")
        lines.append(f"{'':>{width}} └{'─' * len(series)}┘ {series[-1] if series else 0} VP")
    lines.append(f"{'':>{width}}  turns 1..{turns}")
    return "\n".join(lines)


# ANSI colours of the text map's characters: players' stacks bold, terrain by kind
PLAYER_COLOURS = ("31", "34", "32", "35", "36", "33")
TERRAIN_COLOURS = {"~": "34", "M": "90", "=": "90", "h": "33", "f": "32", "s": "32", "r": "36"}


def text_map(view: dict[str, Any], colour: bool) -> str:
    """The text map with column numbers above it (tens, then units) and row numbers on
    both sides, so a space can be named as COL,ROW; coloured when `colour`."""
    rows: list[str] = view["rows"]
    cols = max((len(r.split(" ")) for r in rows), default=0)
    pad = "    "
    tens = pad + " ".join(str(c // 10) if c >= 10 else " " for c in range(cols))
    units = pad + " ".join(str(c % 10) for c in range(cols))
    body = [
        f"{n:>3} {_paint(line, colour)}{' ' * (2 * cols - len(line))}{n:>3}"
        for n, line in enumerate(rows)
    ]
    numbered = {**view, "rows": [tens.rstrip(), units, *body, units]}
    return board_text(numbered)


def _paint(line: str, colour: bool) -> str:
    if not colour:
        return line
    return "".join(_paint_char(char) for char in line)


def _paint_char(char: str) -> str:
    if char.isdigit() or char == "*":
        code = "1;" + PLAYER_COLOURS[(int(char) - 1) % 6 if char.isdigit() else 0]
    elif char in TERRAIN_COLOURS:
        code = TERRAIN_COLOURS[char]
    elif char in "CPp":
        code = "1"
    else:
        return char
    return f"\x1b[{code}m{char}\x1b[0m"
