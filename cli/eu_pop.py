"""The eu-pop rule set on the command line (docs/eu-pop.md, "Command line").

Thin, like the rest of the CLI: `new eu-pop` reads the starting-position file and creates
the game; every command of the rule set becomes a click command generated from its
`CommandSpec`, so names and arguments follow the engine; the queries print a projection
as text a player reads or as JSON, now or `--at` a position. All of them act on eu-pop
games only: a command name such as `pass` says nothing about the game it is meant for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from warscribe.engine.errors import InvalidCommand
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets.eu_pop import COMMANDS, RULESET
from warscribe.engine.rulesets.eu_pop.arguments import CommandSpec
from warscribe.engine.rulesets.eu_pop.state import POWER_TYPES, ducats_text
from warscribe.store.app import GameListing
from warscribe.store.views import printable

from .context import (
    Context,
    dice_option,
    emit,
    json_option,
    key_option,
    name_option,
    parse_player,
    pass_ctx,
    read_public_keys,
)
from .files import read_text
from .positions import resolve_position

JSON = dict[str, Any]

# Engine arguments given as bare flags (`--reaction` records reaction=true); every other
# argument takes a value, passed to the engine as the text typed.
FLAGS = frozenset({"reaction", "accepting"})
COMMAND_FLAGS: Mapping[str, frozenset[str]] = {"appoint-advisor": frozenset({"fire"})}

# What each command does and an example of it: (summary, example lines).
_COMMAND_HELP: Mapping[str, tuple[str, ...]] = {
    "appoint-advisor": (
        "Appoint an advisor to a slot and pay its hiring cost (one advisor per slot).",
        'appoint-advisor --slot mil --name "Jean Bureau" --skill 2 --cost 6 --upkeep 2',
        "appoint-advisor --slot adm --fire --as alice",
    ),
    "appoint-leader": (
        "Appoint a general or an admiral to an army or fleet mat, for military power.",
        'appoint-leader --kind general --name "La Hire" --mat "Army II" --cost 1',
    ),
    "reassign-general": (
        "Move a general to another army (free; allowed as a Reaction).",
        'reassign-general --name "Jean de Dunois" --army "Army II"',
    ),
    "appoint-ruler": (
        "Appoint a new ruler when the realm has none, or an Interregnum (free).",
        'appoint-ruler --name "Louis XI" --adm 2 --dip 2 --mil 1 --reaction --as alice',
    ),
    "call-to-arms": (
        "Call allies to a war: offensive with your own DoW, defensive as a Reaction.",
        "call-to-arms --mode offensive --allies Savoy --near-enemy Savoy --enemy Austria",
    ),
    "take-loan": (
        "Take loans: 5 ducats and an interest token each (refused at 5 interest tokens).",
        "take-loan --count 1",
    ),
    "repay-loan": (
        "Repay loans: 6 ducats each, removing an interest token (not in Phase 4).",
        "repay-loan --count 1",
    ),
    "replenish-manpower": (
        "Move exhausted manpower back to available: 1 military power per 3 units.",
        "replenish-manpower --units 3",
    ),
    "cut-ties": (
        "Return influence and tokens from the board and end alliances.",
        "cut-ties --ally-influence Savoy=1 --end Savoy --penalty prestige=-1",
    ),
    "end-turn": (
        "End the realm's turn in the Action phase (the Turn Action played at the table).",
        'end-turn --action "Recruit"',
    ),
    "pass": (
        "Pass for the rest of the Action phase (ducats gained as entered).",
        "pass --ducats 2 --as bob",
    ),
    "end-phase": (
        "Move on to the next phase (refused until the phase is complete).",
        "end-phase --order Austria,France",
    ),
    "income-cut-costs": (
        "Phase 4 step A: fire advisors, disband units, recall ships (or cut nothing).",
        "income-cut-costs --disband-mercenaries 1 --recall 1 --as alice",
    ),
    "income-corruption": (
        "Phase 4 step C: keep ducats and pay the administrative power corruption costs.",
        "income-corruption --keep 49 --as alice",
    ),
    "income-monarch-power": (
        "Phase 4 step D: collect monarch power (choose types at stability +3 or -3).",
        "income-monarch-power --gain adm,mil --as alice",
    ),
    "income-prestige": (
        "Phase 4 step E: score prestige (crusades and power struggles as entered).",
        "income-prestige --crusade 1 --as alice",
    ),
    "adjust": (
        "Record an effect the record does not model (card, war, event), with a reason.",
        'adjust --reason "Recruit 2 regulars" --ducats -2 --regulars 2 --manpower -2',
        'adjust --reason "Election" --realm Austria --emperor Austria',
    ),
}

# What an argument means: (metavar, help).
_ARG_HELP: Mapping[str, tuple[str, str]] = {
    "slot": ("adm|dip|mil", "The advisor's slot."),
    "name": ("NAME", "The card's name."),
    "skill": ("N", "The advisor's skill."),
    "cost": ("N", "The cost (ducats for an advisor, military power for a leader)."),
    "upkeep": ("1-4", "The advisor's upkeep."),
    "fire": ("SLOTS", "Slots whose advisors are fired (e.g. adm,mil)."),
    "borrow": ("N", "Loans to take for a cost the treasury lacks (as a Reaction if need be)."),
    "reaction": ("", "Take it as a Reaction (the record keeps who asserted the condition)."),
    "kind": ("general|admiral", "The leader's kind."),
    "mat": ("MAT", "The army or fleet mat."),
    "army": ("ARMY", "The army the general moves to."),
    "adm": ("N", "Administrative skill."),
    "dip": ("N", "Diplomatic skill."),
    "mil": ("N", "Military skill."),
    "mode": ("offensive|defensive", "The kind of Call to Arms."),
    "allies": ("LIST", "The allies called (comma-separated)."),
    "near_enemy": ("LIST", "Called allies bordering a new enemy."),
    "accepting": ("", "Answering an NPR ally's Call to Arms."),
    "enemy": ("REALM", "The realm attacked."),
    "count": ("N", "How many loans (default 1)."),
    "units": ("N", "Manpower units to replenish."),
    "influence": ("N", "Influence tokens returned."),
    "ally_influence": ("ALLY=N,...", "Influence returned from allies' areas."),
    "tokens": ("N", "Other board tokens returned."),
    "end": ("LIST", "Alliances ended."),
    "penalty": ("FIELD=DELTA,...|none", "The penalty for ending an alliance, as entered."),
    "action": ("TEXT", "The Turn Action played (a note)."),
    "ducats": ("DUCATS", "Ducats gained for passing, as entered."),
    "repay": ("N", "Loans repaid at once."),
    "order": ("REALMS", "The turn order of the new phase (comma-separated)."),
    "disband_regulars": ("N", "Regulars disbanded (back to available manpower)."),
    "disband_mercenaries": ("N", "Mercenaries disbanded."),
    "disband_ships": ("N", "Ships at sea disbanded."),
    "recall": ("N", "Ships at sea recalled to port."),
    "keep": ("DUCATS", "Ducats kept (default all); the rest goes back to the bank."),
    "pay": ("N", "Administrative power paid (default all owed); each unpaid is a loan token."),
    "gain": ("TYPES", "At stability +3: the two types gaining 1 (e.g. adm,mil or dip,dip)."),
    "lose": ("TYPE", "At stability -3: the type losing 1."),
    "emperor": ("adm=N,...", "The Emperor's extra power, as entered."),
    "ideas": ("adm=N,...", "Extra power from ideas, as entered."),
    "crusade": ("N", "Prestige from crusades, as entered."),
    "power_struggle": ("N", "Prestige from power struggles, as entered."),
}
_ADJUST_HELP: Mapping[str, tuple[str, str]] = {
    "reason": ("TEXT", "Why (required): the card, war or event."),
    "borrow": _ARG_HELP["borrow"],
    "realm": ("REALM", "The realm changed (default: the actor's)."),
    "ducats": ("DUCATS", "Change of ducats (whole or half)."),
    "papal_controller": ("REALM|none", "The papal controller now."),
    "papal_contested": ("true|false", "Whether the papacy is contested."),
    "catholic_prs": ("N", "The number of Catholic PRs."),
    "emperor": ("REALM|none", "The Emperor now."),
    "imperial_authority": ("DELTA", "Change of imperial authority."),
    "ally": ("NAME", "The ally to add or change (with the ally options)."),
    "ally_kind": ("npr|pr", "The ally's kind (needed for a new alliance)."),
    "ally_tax_value": ("N", "The ally's provinces' tax value."),
    "ally_influence": ("N", "Influence in the ally's areas."),
    "ally_adjacent": ("true|false", "Whether the ally borders the realm."),
    "ally_at_peace": ("true|false", "Whether the ally is at peace."),
    "ally_active": ("true|false", "Whether the ally is Active."),
    "drop_ally": ("NAME", "End an alliance without Cut Ties."),
    "discard": ("NAME", "A ruler, advisor or leader card leaves play."),
    "gain_idea": ("NAME", "An idea gained."),
    "lose_idea": ("NAME", "An idea lost."),
}
# Arguments a command reads its own way; `adjust` arguments not listed are figure deltas.
_COMMAND_ARG_HELP: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "adjust": _ADJUST_HELP,
    "appoint-advisor": {"fire": ("", "Fire the advisor in that slot first (alone: only fire).")},
}


# Commands every rule set has under the same name: the game's own rule set judges them
# (Divine Right's `end-phase` takes no options and refuses eu-pop's --order).
SHARED = frozenset({"end-phase"})


def register(cli: click.Group, new: click.Group) -> None:
    """Add `new eu-pop`, one command per eu-pop command, and the eu-pop queries."""
    _add(new, new_eu_pop)
    for name, spec in COMMANDS.items():
        _add(cli, command(name, spec))
    for name, query in QUERIES.items():
        _add(cli, query_command(name, query))


def _add(group: click.Group, cmd: click.Command) -> None:
    if cmd.name in group.commands:
        raise RuntimeError(
            f"eu-pop's {cmd.name!r} clashes with the existing command "
            f"'{group.name} {cmd.name}': give one of them another name"
        )
    group.add_command(cmd)


def eu_pop_game(ctx: Context, command_name: str) -> GameListing:
    """The chosen game, refused unless it is a game of eu-pop."""
    return ctx.game_of(RULESET.name, command_name)


# Creating a game


@click.command("eu-pop")
@click.option(
    "--player",
    "players",
    multiple=True,
    required=True,
    metavar="NAME=REALM",
    help="A player and the realm they play (repeat for each player).",
)
@click.option(
    "--start",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    metavar="FILE",
    help="The starting-position file (JSON; see docs/eu-pop.md).",
)
@name_option("eu-pop")
@dice_option
@key_option
@json_option
@pass_ctx
def new_eu_pop(
    ctx: Context,
    players: tuple[str, ...],
    start: Path,
    name: str | None,
    dice: str,
    keys_given: tuple[str, ...],
    as_json: bool,
) -> None:
    """Set up an EU: The Price of Power economy from a starting-position file: the realms,
    the papacy and the empire are recorded; the file is not needed again.

    \b
    Example:
      warscribe new eu-pop --player alice=France --player bob=Austria --start my-start.json
    """
    from .main import _create  # main imports this module at its end

    text = read_text(str(start))
    specs = tuple(PlayerSpec(*parse_player(p)) for p in players)
    spec = GameSpec(name=name or "", players=specs, options=(("start", text),))
    _create(ctx, RULESET.name, spec, dice, as_json, read_public_keys(keys_given))


# The rule set's commands


def is_flag(command_name: str, arg: str) -> bool:
    return arg in FLAGS or arg in COMMAND_FLAGS.get(command_name, frozenset())


def _arg_help(command_name: str, arg: str) -> tuple[str, str]:
    """(metavar, help) of an argument: the command's own reading, else the common one."""
    own = _COMMAND_ARG_HELP.get(command_name, {})
    if arg in own:
        return own[arg]
    if command_name == "adjust":
        return ("DELTA", f"Change of the realm's figure {arg} (+N or -N).")
    return _ARG_HELP.get(arg, ("VALUE", f"{arg}, as docs/eu-pop.md describes it."))


def _option(command_name: str, arg: str) -> click.Option:
    declaration = [f"--{arg.replace('_', '-')}", arg]
    metavar, text = _arg_help(command_name, arg)
    if is_flag(command_name, arg):
        return click.Option(declaration, is_flag=True, default=False, help=text)
    return click.Option(declaration, default=None, metavar=metavar, help=text)


def _example(lines: Iterable[str]) -> str:
    return "\b\nExample:\n" + "\n".join(f"  warscribe {line}" for line in lines)


def _command_help(name: str, spec: CommandSpec) -> str:
    summary, *examples = _COMMAND_HELP.get(name, (f"The eu-pop command {name}.", name))
    return f"{summary}\n\nRule: {spec.rule}.\n\n{_example(examples)}"


def _as_option() -> click.Option:
    return click.Option(
        ["--as", "actor"],
        default=None,
        metavar="PLAYER",
        help="The player giving the command (default: whoever must act now).",
    )


def given_args(
    spec: CommandSpec, values: Mapping[str, str | bool | None]
) -> tuple[tuple[str, str], ...]:
    """The arguments given, in the engine's order, as the text the engine parses."""
    found = ((arg, values.get(arg)) for arg in spec.args)
    return tuple(
        (arg, "true" if value is True else value)
        for arg, value in found
        if isinstance(value, str) or value is True
    )


def command(name: str, spec: CommandSpec) -> click.Command:
    """The click command recording the eu-pop command `name`, its options from `spec`."""
    if {"actor", "as"} & set(spec.args):
        raise RuntimeError(f"eu-pop's {name} has an argument named like --as (actor)")

    @pass_ctx
    def run(ctx: Context, /, actor: str | None, **values: str | bool | None) -> None:
        if name not in SHARED:
            eu_pop_game(ctx, name)
        ctx.issue(name, given_args(spec, values), actor)

    params: list[click.Parameter] = [_option(name, arg) for arg in spec.args]
    return click.Command(
        name, callback=run, params=[*params, _as_option()], help=_command_help(name, spec)
    )


# Queries


def signed(amount: float) -> str:
    """Ducats with their sign, as a statement line reads: `+9`, `-½`, `0`."""
    text = ducats_text(Fraction(amount))
    return f"+{text}" if amount > 0 else text


def _columns(rows: Sequence[Sequence[str]], right_from: int = 1) -> list[str]:
    """Rows aligned in columns; columns from `right_from` on are right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(width) if i >= right_from else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


_TREASURY_COLUMNS = (
    "realm", "player", "ducats", "interest", *POWER_TYPES,
    "manpower", "exhausted", "stability", "prestige",
)  # fmt: skip


def _resources_row(realm: str, r: JSON) -> list[str]:
    stability = r["stability"]
    return [
        realm,
        r["player"],
        ducats_text(Fraction(r["ducats"])),
        str(r["interest_tokens"]),
        *_power_cells(r["monarch_power"]),
        str(r["manpower"]["available"]),
        str(r["manpower"]["exhausted"]),
        f"{stability:+d}" if stability else "0",
        str(r["prestige"]),
    ]


def treasury_text(data: JSON) -> str:
    rows = [list(_TREASURY_COLUMNS)]
    rows += [_resources_row(realm, r) for realm, r in data["realms"].items()]
    return "\n".join([f"treasury at {data['position']}", *_columns(rows, right_from=2)])


def _power_cells(amounts: Mapping[str, int]) -> list[str]:
    return [str(amounts[kind]) for kind in POWER_TYPES]


def _statement_text(realm: str, s: JSON) -> list[str]:
    rows = [["opening balance", ducats_text(Fraction(s["opening"]))]]
    rows += [[f"  {label}", signed(amount)] for label, amount in s["lines"]]
    rows += [
        ["total", signed(s["total"])],
        ["closing balance", ducats_text(Fraction(s["closing"]))],
    ]
    if s["shortfall"]:
        rows.append(["shortfall (bankrupt)", ducats_text(Fraction(s["shortfall"]))])
    return [realm, *(f"  {line}" for line in _columns(rows))]


def income_statement_text(data: Mapping[str, JSON]) -> str:
    lines: list[str] = []
    for n, realms in data.items():
        lines += [f"Round {n}: income statement (Phase 4, step B)", ""]
        for realm, s in realms.items():
            lines += [*_statement_text(realm, s), ""]
    return "\n".join(lines).rstrip() or "no income statement recorded yet"


def monarch_power_text(data: Mapping[str, JSON]) -> str:
    lines: list[str] = []
    for n, realms in data.items():
        lines += [f"Round {n}: monarch power collected (Phase 4, step D)", ""]
        for realm, c in realms.items():
            rows = [[realm, *POWER_TYPES]]
            rows += [[f"  {label}", *_power_cells(power)] for label, power in c["lines"]]
            rows.append(["  total", *_power_cells(c["total"])])
            lines += [*_columns(rows), ""]
    return "\n".join(lines).rstrip() or "no monarch power collected yet"


def prestige_text(data: Mapping[str, JSON]) -> str:
    lines: list[str] = []
    for realm, p in data.items():
        lines.append(f"{realm}: prestige {p['prestige']}")
        for n, scored in p["rounds"].items():
            parts = [f"{label} {points:+d}" for label, points in scored["lines"] if points]
            lines.append(
                f"  round {n}: {', '.join(parts) or 'nothing'} (total {scored['total']:+d})"
            )
    return "\n".join(lines)


@dataclass(frozen=True)
class Query:
    """A query of an eu-pop projection: its help, an example, and its text form."""

    summary: str
    example: str
    text: Callable[[Any], str]
    by_round: bool = False


QUERIES: Mapping[str, Query] = {
    "treasury": Query(
        "Each realm's ducats, interest tokens, monarch power, manpower, stability and prestige.",
        "treasury --at 1.income-upkeep --json",
        treasury_text,
    ),
    "income-statement": Query(
        "Phase 4 step B of each round, line by line for each realm, like a bank statement.",
        "income-statement --round 1",
        income_statement_text,
        by_round=True,
    ),
    "monarch-power": Query(
        "Phase 4 step D of each round: the monarch power each realm collected, and why.",
        "monarch-power --round 1 --json",
        monarch_power_text,
        by_round=True,
    ),
    "prestige": Query(
        "Each realm's prestige and what step E scored in each round.",
        "prestige --json",
        prestige_text,
    ),
}


def _query_options(by_round: bool) -> list[click.Parameter]:
    at = click.Option(
        ["--at", "position"],
        default=None,
        metavar="POSITION",
        help="ROUND.PHASE (e.g. 2.action, 1.income-upkeep) or #SEQ; default: now.",
    )
    round_ = click.Option(
        ["--round", "round_"],
        type=click.IntRange(min=1),
        default=None,
        help="Only this round (the JSON keeps its shape: {ROUND: ...}).",
    )
    return [at, round_] if by_round else [at]


def pick_round(name: str, data: Mapping[str, JSON], round_: int | None) -> Mapping[str, JSON]:
    """`data` keyed by round, narrowed to `round_` when one is asked for."""
    if round_ is None:
        return data
    if str(round_) not in data:
        recorded = ", ".join(data) or "none yet"
        raise InvalidCommand(
            f"{name} has no round {round_} (rounds recorded: {recorded})", "--round"
        )
    return {str(round_): data[str(round_)]}


def query_command(name: str, query: Query) -> click.Command:
    """The click command printing the eu-pop projection `name`."""
    projection = RULESET.projections[name]

    @pass_ctx
    def run(ctx: Context, position: str | None, as_json: bool, round_: int | None = None) -> None:
        game_id = eu_pop_game(ctx, name).game_id
        version = resolve_position(ctx.app, game_id, position)
        data = projection(ctx.app.head(game_id, version).state)
        if query.by_round:
            data = pick_round(name, data, round_)
        emit(data, as_json, query.text(printable(data)))

    help_text = f"{query.summary}\n\n{_example([query.example])}"
    cmd = click.Command(name, callback=run, params=_query_options(query.by_round), help=help_text)
    return json_option(cmd)
