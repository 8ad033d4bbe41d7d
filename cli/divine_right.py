"""Divine Right on the command line: one command per kind of decision, and the queries.

Decisions go to the player whose turn it is unless `--as PLAYER` says otherwise; in a
table-dice game the dice thrown are given with `--roll` (repeat it for several dice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from warscribe.engine.rulesets.divine_right import RULESET
from warscribe.engine.rulesets.divine_right.projections import hand as hand_of
from warscribe.store.views import escaped, printable

from .context import Context, emit, json_option, pass_ctx
from .divine_right_text import stacks_text
from .positions import resolve_position

NAME = RULESET.name

as_option = click.option(
    "--as",
    "actor",
    default=None,
    metavar="PLAYER",
    help="Who gives the command (default: the player whose turn it is).",
)
roll_option = click.option(
    "--roll",
    "entered",
    type=click.IntRange(1, 6),
    multiple=True,
    help="Table dice: a die as thrown (repeat for several).",
)
at_option = click.option(
    "--at",
    "position",
    default=None,
    metavar="POSITION",
    help="TURN.PLAYER-TURN.PHASE or #SEQ (default: now).",
)


def _help(summary: str, example: str) -> str:
    """A command's help: its summary and an example, kept as written (click's \\b)."""
    return f"{summary}\n\n\b\nExample:\n  warscribe {example}"


def record(
    ctx: Context, name: str, args: dict[str, Any], actor: str | None, entered: tuple[int, ...]
) -> None:
    ctx.game_of(NAME, name)
    ctx.issue(name, tuple((k, v) for k, v in args.items() if v is not None), actor, entered)


@click.group()
def events() -> None:
    """Random Events Phase: roll on the table, then make the choices it asks for.

    \b
    Example:
      warscribe events roll
    """


@events.command("roll")
@as_option
@roll_option
@pass_ctx
def events_roll(ctx: Context, actor: str | None, entered: tuple[int, ...]) -> None:
    """Roll two dice on the Random Events Table.

    \b
    Example:
      warscribe events roll --roll 3 --roll 4   # table dice
    """
    record(ctx, "events-roll", {}, actor, entered)


@events.command("lose")
@click.argument("units", nargs=-1, required=True)
@as_option
@pass_ctx
def events_lose(ctx: Context, units: tuple[str, ...], actor: str | None) -> None:
    """Choose the unit(s) lost to Storms, Mutiny, Epidemic or Desertion.

    \b
    Example:
      warscribe events lose Hothior-F1
    """
    record(ctx, "events-lose", {"units": ",".join(units)}, actor, ())


@events.command("replace")
@click.argument("unit")
@click.option("--at", "place", default=None, help="Where, when the unit has several spaces.")
@as_option
@pass_ctx
def events_replace(ctx: Context, unit: str, place: str | None, actor: str | None) -> None:
    """Bring an eliminated regular back at its deployment space (Replacements).

    \b
    Example:
      warscribe events replace Muetar-A3
    """
    record(ctx, "events-replace", {"unit": unit, "at": place}, actor, ())


@events.command("reinforce")
@click.option(
    "--kind", type=click.Choice(["army", "fleet"]), default=None, help="Type from the pool."
)
@click.option(
    "--unit", default=None, help="A pool counter, or another player's mercenary to steal."
)
@click.option("--at", "place", required=True, help="A friendly castle (a port for a fleet).")
@as_option
@pass_ctx
def events_reinforce(
    ctx: Context, kind: str | None, unit: str | None, place: str, actor: str | None
) -> None:
    """Bring a common mercenary into play (Reinforcements), or steal one when the pool
    has none of the type you may take.

    \b
    Example:
      warscribe events reinforce --kind army --at "Port Lork"
    """
    record(ctx, "events-reinforce", {"kind": kind, "unit": unit, "at": place}, actor, ())


@events.command("decline")
@as_option
@pass_ctx
def events_decline(ctx: Context, actor: str | None) -> None:
    """Decline to steal a mercenary when stealing is all that is left.

    \b
    Example:
      warscribe events decline
    """
    record(ctx, "events-decline", {}, actor, ())


@click.group()
def diplomacy() -> None:
    """Diplomacy Phase: draw a card, then one ambassador task, then forced peace.

    \b
    Example:
      warscribe diplomacy draw
      warscribe diplomacy activate Neuth --card threats+1#1
    """


def _ambassador_task(
    name: str, target: str, summary: str, example: str, card: bool
) -> click.Command:
    @pass_ctx
    def run(
        ctx: Context,
        /,
        actor: str | None,
        entered: tuple[int, ...],
        card: str | None = None,
        **values: str,
    ) -> None:
        args: dict[str, Any] = {target: values[target]}
        if card is not None:
            args["card"] = card
        record(ctx, f"diplomacy-{name}", args, actor, entered)

    params: list[click.Parameter] = [click.Argument([target])]
    if card:
        params.append(
            click.Option(
                ["--card"],
                default=None,
                metavar="CARD",
                help="A diplomacy card from your hand to play (one per roll).",
            )
        )
    command = click.Command(
        name,
        callback=run,
        params=params,
        help=_help(summary, f"diplomacy {example}"),
    )
    return as_option(roll_option(command))


for _name, _target, _summary, _example, _card in (
    (
        "activate",
        "kingdom",
        "Try to win a non-allied non-player kingdom (6 or more).",
        "activate Neuth --card bribe+1#1",
        True,
    ),
    (
        "deactivate",
        "kingdom",
        "Try to make an enemy-allied kingdom leave its alliance (7 or more).",
        "deactivate Ghem",
        True,
    ),
    (
        "assassinate",
        "kingdom",
        "Once per game: contested roll against an enemy-allied monarch.",
        "assassinate Zorn",
        False,
    ),
    (
        "duel",
        "player",
        "Once per pair of players: the lower roll's ambassador dies; a tie kills both.",
        "duel bob",
        False,
    ),
    (
        "force-peace",
        "kingdom",
        "After the ambassador's task: 5-6 forces peace on an enemy ally whose royal "
        "castle you plundered and hold, or whose monarch you hold.",
        "force-peace Muetar",
        False,
    ),
):
    diplomacy.add_command(_ambassador_task(_name, _target, _summary, _example, _card))


@diplomacy.command("draw")
@as_option
@pass_ctx
def diplomacy_draw(ctx: Context, actor: str | None) -> None:
    """Draw one diplomacy card (even with a dead ambassador).

    \b
    Example:
      warscribe diplomacy draw
    """
    record(ctx, "diplomacy-draw", {}, actor, ())


@diplomacy.command("pass")
@as_option
@pass_ctx
def diplomacy_pass(ctx: Context, actor: str | None) -> None:
    """The ambassador does nothing this phase.

    \b
    Example:
      warscribe diplomacy pass
    """
    record(ctx, "diplomacy-pass", {}, actor, ())


@click.command()
@click.argument("cards", nargs=-1, required=True)
@as_option
@pass_ctx
def discard(ctx: Context, cards: tuple[str, ...], actor: str | None) -> None:
    """Discard diplomacy cards (down to four at the end of the Diplomacy Phase).

    \b
    Example:
      warscribe discard threats+1#2 bribe+2#1
    """
    record(ctx, "discard", {"cards": cards}, actor, ())


stack_argument = click.argument("stack", nargs=-1, required=True)
path_option = click.option(
    "--path",
    required=True,
    metavar="HEX,HEX,...",
    help="The spaces entered in turn: names or COL,ROW (e.g. 12,7,13,7,Pennol).",
)
leader_option = click.option(
    "--leader", default=None, metavar="MONARCH", help="The monarch leading the stack."
)


@click.command()
@stack_argument
@path_option
@leader_option
@as_option
@roll_option
@pass_ctx
def move(
    ctx: Context,
    stack: tuple[str, ...],
    path: str,
    leader: str | None,
    actor: str | None,
    entered: tuple[int, ...],
) -> None:
    """Move a stack (its units, or the space it stands in) along a path.

    \b
    Example:
      warscribe move Hothior-monarch Hothior-A1 --path 10,16,11,15 --leader Hothior-monarch
      warscribe move "Port Lork" --path 10,16
    """
    args = {"units": ",".join(stack), "path": path, "leader": leader}
    record(ctx, "move", args, actor, entered)


@click.command()
@stack_argument
@click.option("--fleet", required=True, help="The friendly fleet ferrying the stack.")
@path_option
@leader_option
@as_option
@roll_option
@pass_ctx
def ferry(
    ctx: Context,
    stack: tuple[str, ...],
    fleet: str,
    path: str,
    leader: str | None,
    actor: str | None,
    entered: tuple[int, ...],
) -> None:
    """Move a stack across the navigable river over a friendly fleet (one combat unit per
    movement point the fleet has left; heroes free).

    \b
    Example:
      warscribe ferry Muetar-A1 Muetar-A2 --fleet Muetar-F1 --path 17,15,16,14
    """
    args = {"units": ",".join(stack), "path": path, "leader": leader, "fleet": fleet}
    record(ctx, "ferry", args, actor, entered)


def _units_command(name: str, summary: str, example: str) -> click.Command:
    @pass_ctx
    def run(
        ctx: Context, units: tuple[str, ...], actor: str | None, entered: tuple[int, ...]
    ) -> None:
        record(ctx, name, {"units": ",".join(units)}, actor, entered)

    command = click.Command(
        name,
        callback=run,
        params=[click.Argument(["units"], nargs=-1, required=True)],
        help=_help(summary, example),
    )
    return as_option(roll_option(command))


def _fleet_command(name: str, summary: str, example: str, required: bool) -> click.Command:
    @pass_ctx
    def run(ctx: Context, fleet: str, units: tuple[str, ...], actor: str | None) -> None:
        args = {"fleet": fleet, "units": ",".join(units) if units else None}
        record(ctx, name, args, actor, ())

    command = click.Command(
        name,
        callback=run,
        params=[
            click.Argument(["fleet"]),
            click.Argument(["units"], nargs=-1, required=required),
        ],
        help=_help(summary, example),
    )
    return as_option(command)


@click.group()
def prisoner() -> None:
    """Decide a captive monarch's fate: execute him or set him free.

    \b
    Example:
      warscribe prisoner free Neuth
    """


def _prisoner_command(name: str, summary: str) -> click.Command:
    @pass_ctx
    def run(ctx: Context, kingdom: str, actor: str | None, entered: tuple[int, ...]) -> None:
        record(ctx, f"prisoner-{name}", {"kingdom": kingdom}, actor, entered)

    command = click.Command(
        name,
        callback=run,
        params=[click.Argument(["kingdom"])],
        help=_help(summary, f"prisoner {name} Neuth"),
    )
    return as_option(roll_option(command))


prisoner.add_command(
    _prisoner_command(
        "execute",
        "Execute the captive monarch (no points; a permanent diplomatic penalty with his "
        "kingdom): on capture, or in a later Diplomacy Phase of yours.",
    )
)
prisoner.add_command(
    _prisoner_command("free", "Set the captive monarch free (you keep the capture's points).")
)


@click.group()
def castaway() -> None:
    """Decide for your hero cast upon a neutral kingdom's shore: he stays (a diplomatic
    penalty) or is eliminated voluntarily.

    \b
    Example:
      warscribe castaway stay
    """


for _choice, _summary in (
    ("stay", "The castaway stays on the neutral shore: you incur the diplomatic penalty."),
    ("eliminate", "The castaway is eliminated voluntarily (a non-player monarch: Confusion)."),
):

    @pass_ctx
    def _castaway(
        ctx: Context, actor: str | None, entered: tuple[int, ...], name: str = _choice
    ) -> None:
        record(ctx, f"castaway-{name}", {}, actor, entered)

    castaway.add_command(
        as_option(
            roll_option(
                click.Command(
                    _choice, callback=_castaway, help=_help(_summary, f"castaway {_choice}")
                )
            )
        )
    )


def _query(
    name: str, summary: str, example: str, text: Callable[[Any], str] | None = None
) -> click.Command:
    projection = RULESET.projections[name]

    @pass_ctx
    def run(ctx: Context, position: str | None, as_json: bool) -> None:
        game_id = ctx.game_of(NAME, name).game_id
        state = ctx.app.head(game_id, resolve_position(ctx.app, game_id, position)).state
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


def _kingdoms_text(rows: list[dict[str, Any]]) -> str:
    out = []
    for k in rows:
        whose = k["player"] or k["ally"] or "-"
        until = ""
        if k["confusion_until"]:
            until = f", Confusion until turn {k['confusion_until']}"
        elif k["forced_peace_until"]:
            until = f", Forced Peace until turn {k['forced_peace_until']}"
        if k["personality_name"]:
            until += f", personality {k['personality']} {k['personality_name']}"
        out.append(f"{k['kingdom']:<10} {k['status']:<12} {whose:<8} monarch {k['monarch']}{until}")
    return "\n".join(out)


@click.command()
@as_option
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
    head = ctx.app.head(game_id, resolve_position(ctx.app, game_id, position))
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
@click.option(
    "--consent", is_flag=True, required=True, help="Every other player agrees (required)."
)
@as_option
@pass_ctx
def rejoin(ctx: Context, consent: bool, actor: str | None) -> None:
    """Optional rule: an eliminated player re-enters as the monarch of a new kingdom.

    \b
    Example:
      warscribe rejoin --consent --as carol
    """
    record(ctx, "rejoin", {"consent": "true" if consent else None}, actor, ())


@click.command()
@click.argument("units", nargs=-1)
@click.option("--at", "at", required=True, help="The space chosen (name or COL,ROW).")
@as_option
@pass_ctx
def place(ctx: Context, units: tuple[str, ...], at: str, actor: str | None) -> None:
    """Answer a placement the rules leave to you (which Troll regenerates, where the
    Trollish monarch, each of Zorn's goblins, an invaded kingdom's units or a freed
    captive go, where enemy fleets leave a port for): the units (left out when only the
    space is chosen) and the space, among the options `status` shows.

    \b
    Example:
      warscribe place Trolls-monarch --at "The Crag"
      warscribe place --at "Snow Pass"
    """
    record(ctx, "place", {"units": ",".join(units) or None, "at": at}, actor, ())


@click.command("end-phase")
@as_option
@pass_ctx
def end_phase(ctx: Context, actor: str | None) -> None:
    """End the current phase (refused while it waits for a decision).

    \b
    Example:
      warscribe end-phase
    """
    record(ctx, "end-phase", {}, actor, ())


def register(cli: click.Group) -> None:
    """Add the Divine Right commands and queries to its group."""
    from . import divine_right_battle as battle
    from . import pictures

    for command in (
        *battle.COMMANDS,
        _query(
            "sieges",
            "Each siege: castle, besieger, besieging and inside strengths, defence, whether "
            "it is still valid and whether it is displaced at the end of the game turn.",
            "sieges --at 3.2.siege --json",
            battle.sieges_text,
        ),
        events,
        diplomacy,
        discard,
        hand,
        rejoin,
        place,
        castaway,
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
        move,
        ferry,
        _fleet_command(
            "embark",
            "Land units and heroes in the fleet's space go aboard it (one combat unit per "
            "fleet, any heroes).",
            "embark Hothior-F1 Hothior-A1 Hothior-monarch",
            True,
        ),
        _fleet_command(
            "debark",
            "Units aboard the fleet land in its space (all of them unless named).",
            "debark Hothior-F1",
            False,
        ),
        _units_command(
            "inside", "Units go inside the walls of their friendly castle.", "inside Pennol"
        ),
        _units_command(
            "outside", "Units come out of the walls of their castle.", "outside Muetar-A1"
        ),
        _units_command(
            "search",
            "Combat units spend the space's terrain cost to search it for lone enemy heroes.",
            "search Muetar-A1",
        ),
        _units_command(
            "disband",
            "Voluntarily eliminate combat units (to avoid a diplomatic penalty).",
            "disband Muetar-A4",
        ),
        prisoner,
        _query(
            "stacks",
            "Who is where: every stack on the map, inside the walls or aboard.",
            "stacks --at 3.2.movement",
            stacks_text,
        ),
        pictures.map_,
        end_phase,
    ):
        if command.name in cli.commands:
            raise RuntimeError(f"Divine Right's {command.name!r} clashes with an existing command")
        cli.add_command(command)
