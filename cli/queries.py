"""A game's queries on the command line, as its presenter writes them
(`warscribe.engine.presenter`): each prints its data as text a player reads, or as JSON,
now or `--at` a position. Nothing here names a game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from warscribe.engine.presenter import COUNT, FLAG, READER, WORDS, Asked, Param, Query

from .context import Context, emit, json_option, pass_ctx
from .positions import resolve_position


def example_help(text: str, examples: tuple[str, ...]) -> str:
    """A command's help: its text and its examples, kept as written (click's \\b)."""
    lines = "\n".join(f"  warscribe {line}" for line in examples)
    return f"{text}\n\n\b\nExample:\n{lines}"


def at_param(at_help: str) -> click.Option:
    return click.Option(["--at", "position"], default=None, metavar="POSITION", help=at_help)


def click_param(param: Param) -> click.Parameter:
    """`param` as click takes it."""
    if param.kind == WORDS:
        return click.Argument([param.name], nargs=-1, required=True, metavar=param.metavar)
    declared = [param.option or f"--{param.name}", param.name]
    if param.kind == FLAG:
        return click.Option(declared, is_flag=True, help=param.help)
    kind = click.IntRange(min=1) if param.kind == COUNT else None
    return click.Option(declared, type=kind, default=None, metavar=param.metavar, help=param.help)


def asked(
    ctx: Context, ruleset: str, params: tuple[Param, ...], values: Mapping[str, Any], state: Any
) -> Asked:
    """What a query was asked: its values, a `READER` as the player found, and the game's
    commands in the words of the command line."""
    from warscribe.engine import rulesets

    from .generated import command_line

    found = dict(values)
    for param in params:
        if param.kind == READER and found.get(param.name) is None:
            owner = ctx.owner()
            reader = owner.player if owner else None
            found[param.name] = reader or rulesets.get(ruleset).whose_turn(state)
            if found[param.name] is None:
                raise click.UsageError(param.missing)
    return Asked(found, lambda command: command_line(ruleset, command))


def query_command(ruleset: str, name: str, query: Query, at_help: str) -> click.Command:
    """The click command printing the query `name` of a game of `ruleset`."""
    from warscribe.engine import rulesets
    from warscribe.store.views import printable

    @pass_ctx
    def run(ctx: Context, position: str | None, as_json: bool, **values: Any) -> None:
        game_id = ctx.game_of(ruleset, name).game_id
        state = ctx.reads().head(game_id, resolve_position(ctx.reads(), game_id, position)).state
        given = asked(ctx, ruleset, query.params, values, state)
        data = (query.data or _projection(rulesets.get(ruleset), name))(state, given)
        shown = Asked(printable(given.values), given.words)
        emit(data, as_json, query.text(printable(data), shown))

    params = [click_param(p) for p in query.params]
    before = [p for p, q in zip(params, query.params, strict=True) if q.kind in (READER, WORDS)]
    after = [p for p in params if p not in before]
    command = click.Command(
        name,
        callback=run,
        params=[*before, at_param(at_help), *after],
        help=example_help(query.help, query.example),
    )
    return json_option(command)


def _projection(ruleset: Any, name: str) -> Any:
    projection = ruleset.projections[name]
    return lambda state, asked: projection(state)
