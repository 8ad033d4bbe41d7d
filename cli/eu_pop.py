"""The eu-pop queries on the command line (docs/eu-pop.md, "Command line").

`new eu-pop` and every eu-pop command are generated from the rule set's specs
(cli/generated.py); what is eu-pop's own here is how its projections read as text a
player reads (or JSON), now or `--at` a position. They act on eu-pop games only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import click

from warscribe.engine.codec import frozen
from warscribe.engine.errors import InvalidCommand
from warscribe.engine.rulesets.eu_pop import RULESET
from warscribe.engine.rulesets.eu_pop.state import POWER_TYPES, ducats_text
from warscribe.store.views import printable

from .context import (
    Context,
    columns,
    emit,
    json_option,
    pass_ctx,
)
from .positions import resolve_position

JSON = dict[str, Any]


def register(group: click.Group) -> None:
    """Add the eu-pop queries, each with its text form, to the eu-pop group (its commands
    come from the rule set's specs: cli/generated.py)."""
    for name, query in QUERIES.items():
        group.add_command(query_command(name, query))


def _example(lines: Iterable[str]) -> str:
    return "\b\nExample:\n" + "\n".join(f"  warscribe {line}" for line in lines)


# Queries


def signed(amount: float) -> str:
    """Ducats with their sign, as a statement line reads: `+9`, `-½`, `0`."""
    text = ducats_text(Fraction(amount))
    return f"+{text}" if amount > 0 else text


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
    return "\n".join([f"treasury at {data['position']}", *columns(rows, right_from=2)])


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
    return [realm, *(f"  {line}" for line in columns(rows))]


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
            lines += [*columns(rows), ""]
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


@frozen
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
        game_id = ctx.game_of(RULESET.name, name).game_id
        version = resolve_position(ctx.reads(), game_id, position)
        data = projection(ctx.reads().head(game_id, version).state)
        if query.by_round:
            data = pick_round(name, data, round_)
        emit(data, as_json, query.text(printable(data)))

    help_text = f"{query.summary}\n\n{_example([query.example])}"
    cmd = click.Command(name, callback=run, params=_query_options(query.by_round), help=help_text)
    return json_option(cmd)
