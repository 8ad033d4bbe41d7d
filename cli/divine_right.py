"""Divine Right's queries on the command line, as text a player reads (or JSON), now or
`--at` a position. Its commands and `new divine-right` are generated from the rule set's
specs (cli/generated.py); only how its projections read is Divine Right's own here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from warscribe.engine.rulesets.divine_right import RULESET
from warscribe.engine.rulesets.divine_right.projections import hand as hand_of
from warscribe.store.views import escaped, printable

from .context import Context, columns, emit, json_option, pass_ctx
from .divine_right_text import stacks_text
from .positions import resolve_position

NAME = RULESET.name

at_option = click.option(
    "--at",
    "position",
    default=None,
    metavar="POSITION",
    help="TURN.PLAYER-TURN.PHASE or #SEQ (default: now).",
)


def _help(summary: str, example: str) -> str:
    """A query's help: its summary and an example, kept as written (click's \\b)."""
    return f"{summary}\n\n\b\nExample:\n  warscribe {example}"


def _query(
    name: str, summary: str, example: str, text: Callable[[Any], str] | None = None
) -> click.Command:
    projection = RULESET.projections[name]

    @pass_ctx
    def run(ctx: Context, position: str | None, as_json: bool) -> None:
        game_id = ctx.game_of(NAME, name).game_id
        state = ctx.reads().head(game_id, resolve_position(ctx.reads(), game_id, position)).state
        data = projection(state)
        emit(data, as_json, text(printable(data)) if text else None)

    command = click.Command(name, callback=run, params=[], help=_help(summary, example))
    return json_option(at_option(command))


def _banishments_text(data: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for player, rows in data.items():
        lines.append(f"{player}: " + ("none" if not rows else ""))
        for b in rows:
            length = (
                "until its monarch dies"
                if b["until_turn"] is None
                else f"until turn {b['until_turn']}"
            )
            lines.append(f"  {b['kingdom']}: {length} ({b['why']})")
    return "\n".join(lines)


_KINGDOM_COLUMNS = ("kingdom", "status", "player/ally", "monarch", "notes")


def _kingdoms_text(rows: list[dict[str, Any]]) -> str:
    """A row per kingdom under a header: status, its player or ally, where its monarch
    is, then Confusion or Forced Peace and its personality card when face up."""
    table = [list(_KINGDOM_COLUMNS)]
    for k in rows:
        notes = []
        if k["confusion_until"]:
            notes.append(f"Confusion until turn {k['confusion_until']}")
        elif k["forced_peace_until"]:
            notes.append(f"Forced Peace until turn {k['forced_peace_until']}")
        if k["personality_name"]:
            notes.append(f"personality {k['personality']} {k['personality_name']}")
        whose = k["player"] or k["ally"] or "-"
        table.append([k["kingdom"], k["status"], whose, k["monarch"], ", ".join(notes)])
    return "\n".join(columns(table, right_from=len(_KINGDOM_COLUMNS)))


@click.command()
@click.option(
    "--as",
    "actor",
    default=None,
    metavar="PLAYER",
    help="Whose hand (default: the store's owner, else the player whose turn it is).",
)
@at_option
@json_option
@pass_ctx
def hand(ctx: Context, actor: str | None, position: str | None, as_json: bool) -> None:
    """Your own diplomacy cards (nobody else's): --as PLAYER, else the store's owner
    (see `init`), else the player whose turn it is.

    \b
    Example:
      warscribe hand --as alice
    """
    game_id = ctx.game_of(NAME, "hand").game_id
    head = ctx.reads().head(game_id, resolve_position(ctx.reads(), game_id, position))
    owner = ctx.owner()
    player = actor or (owner.player if owner else None) or RULESET.whose_turn(head.state)
    if player is None:
        raise click.UsageError("say whose hand with --as PLAYER")
    cards = hand_of(head.state, player)
    emit(
        {"player": player, "cards": cards},
        as_json,
        escaped(f"{player}: " + (", ".join(cards) or "no cards")),
    )


@click.command()
@click.argument("units", nargs=-1, required=True, metavar="STACK...")
@at_option
@json_option
@pass_ctx
def reach(ctx: Context, units: tuple[str, ...], position: str | None, as_json: bool) -> None:
    """Where a stack can go this Movement Phase: each space, its movement cost, and the
    command moving the stack there.

    One line per space it can reach, cheapest first: the movement points it costs and the
    `move` (or `ferry`) to type, by one legal path: alone, led by a monarch among its
    units, or ferried over a friendly fleet on the river; a stack of fleets carries the
    units aboard. Earlier in your player turn, for the coming Movement Phase as the board
    stands. STACK: its units, or the space it stands in.

    \b
    Example:
      warscribe reach Muetar-A1 Muetar-A2
      warscribe reach "Port Lork" --json
    """
    from warscribe.engine.rulesets.divine_right.movement.reach import reach as reach_of
    from warscribe.engine.rulesets.divine_right.specs import data_of

    from .generated import command_line

    game_id = ctx.game_of(NAME, "reach").game_id
    state = ctx.reads().head(game_id, resolve_position(ctx.reads(), game_id, position)).state
    found = reach_of(state, data_of(state), ",".join(units))
    typed = [command_line(NAME, r.command) for r in found]
    rows = [
        {
            "space": list(r.space),
            "cost": r.route.cost,
            "path": [list(h) for h in r.route.path],
            "command": line,
        }
        for r, line in zip(found, typed, strict=True)
    ]
    lines = [
        f"{r.space[0]},{r.space[1]}  cost {r.route.cost}  {line}"
        for r, line in zip(found, typed, strict=True)
    ]
    none = f"{' '.join(units)} can reach no space this phase: every step is refused"
    emit(rows, as_json, "\n".join(escaped(line) for line in lines or [none]))


def register(cli: click.Group) -> None:
    """Add the Divine Right queries, each with its text form, to its group (its commands
    come from the rule set's specs: cli/generated.py)."""
    from . import pictures

    for command in (
        _query(
            "sieges",
            "Each siege: castle, besieger, besieging and inside strengths, defence, whether "
            "it is still valid and whether it is displaced at the end of the game turn.",
            "sieges --at 3.2.siege --json",
            sieges_text,
        ),
        hand,
        reach,
        pictures.vp,
        _query(
            "banishments",
            "Each player's banishments in force: kingdom, until when, why.",
            "banishments --json",
            _banishments_text,
        ),
        _query(
            "kingdoms",
            "Each kingdom: status, ally, monarch, Confusion or Forced Peace.",
            "kingdoms",
            _kingdoms_text,
        ),
        _query(
            "stacks",
            "Who is where: every stack on the map, inside the walls or aboard.",
            "stacks --at 3.2.movement",
            stacks_text,
        ),
        pictures.map_,
    ):
        cli.add_command(command)


def sieges_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no castle is under siege"
    lines = []
    for s in rows:
        state = "valid" if s["valid"] else "INVALID"
        end = ", displaced at the end of the turn" if s["displaced_at_end_of_turn"] else ""
        lines.append(
            f"{s['castle']:<16} besieged by {s['besieger']}: {s['besieging']} against defence "
            f"{s['defence']} + {s['inside']} inside ({state}{end}), since turn {s['since_turn']}"
        )
    return "\n".join(lines)
