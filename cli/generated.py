"""The command line of a rule set, made from its tables (`warscribe.engine.rulebook`).

Each `CommandSpec` becomes a click command: its positional arguments (a list one takes
several words, joined with commas), its options with their metavar and help, `--as`, and
`--roll` when it rolls dice; its help is the spec's, with the rule and an example. A spec
with a `group` becomes `GROUP SUB` (e.g. `attack declare`). `new GAME` comes from the
rule set's `NewSpec`, and every projection not given its own renderer is a query printing
it (`--at`, `--json`). Nothing here names a game: adding one adds no CLI code.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

import click
from click.core import ParameterSource

from warscribe.engine.authority import REFEREE_NAME
from warscribe.engine.commands import Arg, CommandSpec, read
from warscribe.engine.events import Command
from warscribe.engine.rulebook import RuleBook
from warscribe.engine.ruleset import Deferred, GameSpec, LegalCommand, PlayerSpec, Projection

from .context import (
    HOST_ACT,
    HOST_ACT_HELP,
    Context,
    dice_option,
    emit,
    host_secret_option,
    json_option,
    key_option,
    name_option,
    parse_player,
    pass_ctx,
    read_host_secret,
    read_public_keys,
)
from .files import read_text
from .positions import resolve_position

RESERVED = frozenset({"actor", "entered", "as", "roll", "host_act"})
"""Parameter names the generator itself uses (`--as`, `--roll`, `--host-act`)."""


def _option_name(arg: Arg) -> str:
    return f"--{arg.option or arg.name.replace('_', '-')}"


def _param(arg: Arg, usage: bool = False) -> click.Parameter:
    """`arg` as a click parameter; with `usage`, click refuses it missing (exit 2), else
    the engine does (naming the rule)."""
    if arg.name in RESERVED:
        raise RuntimeError(f"an argument may not be called {arg.name!r} (the CLI's own)")
    if arg.positional:
        many = arg.kind.many
        return click.Argument(
            [arg.name], nargs=-1 if many else 1, required=arg.required, metavar=arg.shown
        )
    declaration = [_option_name(arg), arg.name]
    if arg.kind.flag:
        return click.Option(declaration, is_flag=True, default=False, help=arg.help)
    kind = click.Path(exists=True, dir_okay=False) if arg.kind.file else None
    if arg.kind.many:
        return click.Option(declaration, multiple=True, metavar=arg.shown, help=arg.help)
    if usage and arg.required:
        return click.Option(declaration, type=kind, metavar=arg.shown, help=arg.help, required=True)
    return click.Option(declaration, type=kind, default=None, metavar=arg.shown, help=arg.help)


def _text(arg: Arg, value: Any) -> Any:
    """An option's value as the engine reads it: words of a list joined (with commas,
    unless the kind says otherwise), a flag as `true`, a file as its text; None when not
    given."""
    if value is None or value is False or value == ():
        return None
    if arg.kind.many:
        return arg.kind.joiner.join(value)
    if arg.kind.flag:
        return "true"
    return read_text(value) if arg.kind.file else value


def given_args(args: tuple[Arg, ...], values: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The arguments given, in the spec's order, as the engine reads them."""
    found = ((arg.name, _text(arg, values.get(arg.name))) for arg in args)
    return tuple((name, value) for name, value in found if value is not None)


def _help(summary: str, examples: tuple[str, ...], rule: str | None = None) -> str:
    ruled = f"\n\nRule: {rule}." if rule else ""
    lines = "\n".join(f"  warscribe {line}" for line in examples)
    return f"{summary}{ruled}\n\n\b\nExample:\n{lines}"


def _positional_help(args: tuple[Arg, ...]) -> str:
    shown = [f"  {arg.shown}: {arg.help}" for arg in args if arg.positional]
    return "\n\n\b\nArguments:\n" + "\n".join(shown) if shown else ""


AS_OPTION = click.Option(
    ["--as", "actor"],
    default=None,
    metavar="PLAYER",
    help="The player giving the command (default: whoever must act now). In a store not "
    "theirs, a player whose key is recorded acts by signed orders: naming one needs --host-act.",
)
HOST_ACT_OPTION = click.Option(list(HOST_ACT), default=None, metavar="REASON", help=HOST_ACT_HELP)
ROLL_OPTION = click.Option(
    ["--roll", "entered"],
    type=click.IntRange(min=1),
    multiple=True,
    help="Table dice: a die as thrown (repeat for several).",
)


def spec_command(
    ruleset: str, spec: CommandSpec[Any], flags: tuple[CommandSpec[Any], ...] = ()
) -> click.Command:
    """The click command recording `spec`'s command in a game of `ruleset`; each of
    `flags` (specs given as a flag of it, `CommandSpec.flag_of`) is a flag recording its
    own command instead."""

    @pass_ctx
    def run(
        ctx: Context,
        /,
        actor: str | None,
        host_act: str | None,
        entered: tuple[int, ...] = (),
        **values: Any,
    ) -> None:
        chosen = [other for other in flags if values.pop(_flag_dest(other))]
        given = given_args(spec.args, values)
        if len(chosen) > 1 or (chosen and given):
            shown = " or ".join(f"--{other.flag_of[1]}" for other in chosen if other.flag_of)
            raise click.UsageError(f"give {shown} alone: not with arguments or each other")
        command = chosen[0] if chosen else spec
        ctx.game_of(ruleset, command.name)
        ctx.issue(command.name, given, actor, entered, host_act)

    params = [_param(arg) for arg in spec.args]
    params += [
        click.Option([f"--{other.flag_of[1]}", _flag_dest(other)], is_flag=True, help=other.help)
        for other in flags
        if other.flag_of
    ]
    rolls = spec.rolls or any(f.rolls for f in flags)
    params += [AS_OPTION, HOST_ACT_OPTION, *([ROLL_OPTION] if rolls else [])]
    help_text = _help(spec.help, spec.example, spec.rule) + _positional_help(spec.args)
    return click.Command(spec.sub or spec.name, callback=run, params=params, help=help_text)


def _flag_dest(spec: CommandSpec[Any]) -> str:
    """The parameter a spec given as a flag of another command is read into."""
    return f"flag_{spec.name.replace('-', '_')}"


def query_command(ruleset: str, name: str, projection: Projection) -> click.Command:
    """The click command printing the projection `name` of a game of `ruleset`."""

    @pass_ctx
    def run(ctx: Context, position: str | None, as_json: bool) -> None:
        game_id = ctx.game_of(ruleset, name).game_id
        state = ctx.reads().head(game_id, resolve_position(ctx.reads(), game_id, position)).state
        emit(projection(state), as_json)

    at = click.Option(
        ["--at", "position"], default=None, metavar="POSITION", help="A position or #SEQ."
    )
    summary = (projection.__doc__ or f"The {name} of the game.").strip().splitlines()[0]
    command = click.Command(
        name, callback=run, params=[at], help=_help(summary, (f"{name} --json",))
    )
    return json_option(command)


def new_command(book: RuleBook[Any]) -> click.Command:
    """`new GAME`, from the rule set's `NewSpec`."""
    spec = book.new

    @pass_ctx
    def run(
        ctx: Context,
        /,
        players: tuple[str, ...],
        name: str | None,
        dice: str,
        keys_given: tuple[str, ...],
        as_json: bool,
        host_secret: str | None,
        **values: Any,
    ) -> None:
        from .main import create  # main adds the game groups: it imports this module

        options = book.options(tuple(_read_options(book, values)))
        game = GameSpec(
            name=name or "",
            players=tuple(PlayerSpec(*parse_player(p)) for p in players),
            options=options,
        )
        keys = read_public_keys(keys_given)
        create(ctx, book.name, game, dice, as_json, keys, read_host_secret(host_secret))

    player = click.Option(
        ["--player", "players"],
        multiple=True,
        required=True,
        metavar=spec.player,
        help=spec.player_help,
    )
    command = click.Command(
        book.name,
        callback=run,
        params=[player, *(_param(arg, usage=True) for arg in spec.options)],
        help=_help(spec.help, spec.example),
    )
    return name_option(book.name)(dice_option(host_secret_option(key_option(json_option(command)))))


def _read_options(book: RuleBook[Any], values: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The options of `new` as values of their kinds (a bad one refused naming it)."""
    args = book.new.options
    spec = CommandSpec[Any]("new", lambda d: None, args, "new", book.new.help, ())
    call = read(spec, Command(REFEREE_NAME, "new", given_args(args, values)))
    found = ((arg.name, call.get(arg.name)) for arg in args)
    return [(name, value) for name, value in found if value is not None]


class GameGroup(click.Group):
    """A game's group, its help listing the commands by their place in the game's
    sequence of play (`RuleBook.sections`: phase by phase, then the answers...)."""

    book: RuleBook[Any] | None = None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.book is None:
            super().format_commands(ctx, formatter)
            return
        specs = self.book.commands.values()
        shown = {s.name: s.group or (s.flag_of or (s.name,))[0] for s in specs}
        listed: set[str] = set()
        sections = [*self.book.sections(), ("Queries and more", tuple(self.commands))]
        for title, names in sections:
            words = [w for w in dict.fromkeys(shown.get(n, n) for n in names) if w not in listed]
            words = [w for w in words if w in self.commands]
            listed.update(words)
            if not words:
                continue
            limit = formatter.width - 6 - max(len(w) for w in words)
            with formatter.section(title):
                formatter.write_dl([(w, self.commands[w].get_short_help_str(limit)) for w in words])


def add_face(group: click.Group, ruleset: str, book: RuleBook[Any]) -> None:
    """Add the commands of `book` to its game's group: one per spec (in sub-groups for
    specs with a `group`), and a query for each projection the group lacks."""
    if isinstance(group, GameGroup):
        group.book = book
    subgroups: dict[str, click.Group] = {}
    specs = book.commands.values()
    for spec in specs:
        if spec.flag_of is not None:
            continue
        flags = tuple(other for other in specs if (other.flag_of or ("",))[0] == spec.name)
        command = spec_command(ruleset, spec, flags)
        if spec.group is None:
            _add(group, command)
            continue
        if spec.group not in subgroups:
            help_text = book.groups.get(spec.group, f"The {spec.group} commands.")
            subgroups[spec.group] = click.Group(spec.group, help=help_text)
            _add(group, subgroups[spec.group])
        _add(subgroups[spec.group], command)
    for name, projection in book.projections.items():
        if name not in group.commands:
            _add(group, query_command(ruleset, name, projection))


def _add(group: click.Group, command: click.Command) -> None:
    if command.name in group.commands:
        raise RuntimeError(f"{group.name} {command.name!r} is defined twice")
    group.add_command(command)


# -- command lines as orders, and the commands a player may type now ------------------------

RECORD_COMMANDS = ("roll", "note")
"""The record's commands an orders line may give (beside the game's)."""


Args = tuple[tuple[str, Any], ...]
Thrown = tuple[int, ...]
"""Table dice as thrown (`--roll`)."""


class _Capture(Context):
    """A context whose `issue` keeps the command instead of recording it: running a click
    command with it turns a command line into the engine's command, with nothing recorded
    (and no store needed, except by a command that reads it to make its arguments, as
    `note --at` does)."""

    def __init__(self, base: Context | None) -> None:
        if base is None:
            super().__init__(None, None)
        else:
            super().__init__(base.store, base.game_ref, base.secrets, base.ask_passphrase)
            self._app = base.app
        self.captured: list[tuple[str, Args, str | None, Thrown, str | None]]
        self.captured = []

    def game_of(self, ruleset: str, command_name: str) -> Any:
        """The store's game, unchecked (the line is read by the commands of the orders'
        own game); None without a store."""
        return None if self._app is None else self.game()

    def issue(
        self,
        name: str,
        args: Args,
        actor: str | None,
        entered: Thrown = (),
        host_act: str | None = None,
    ) -> list[Any]:
        self.captured.append((name, args, actor, entered, host_act))
        return []


def _find(group: click.Group, words: list[str]) -> tuple[click.Command, list[str], list[str]]:
    """The command `words` start with in `group` (through its sub-groups): the command,
    its words, and the rest."""
    root = click.Context(group)
    found: click.Command = group
    path: list[str] = []
    while isinstance(found, click.Group):
        if not words[len(path) :]:
            raise click.UsageError(f"`{' '.join(path)}` needs one of its commands")
        word = words[len(path)]
        sub = found.get_command(root, word)
        if sub is None:
            spelled = _spelled(group, word)
            raise click.UsageError(f"no command {' '.join([*path, word])!r}{spelled}")
        found = sub
        path.append(word)
    return found, path, words[len(path) :]


def _spelled(group: click.Group, word: str) -> str:
    """How the command named `word` by the rule set (`events-lose`) is typed, when it is
    a group's command (`events lose`)."""
    head, _, tail = word.partition("-")
    found = group.get_command(click.Context(group), head)
    if isinstance(found, click.Group) and found.get_command(click.Context(found), tail):
        return f" (write it as on the command line: `{head} {tail}`)"
    return ""


def parse_line(ctx: Context | None, ruleset: str, text: str, player: str) -> Command:
    """The command a line written as on the command line gives (`move Hothior-A1 --path
    10,16`, `take-loan --count 2`, `roll 2d6`), read by the same click commands as the CLI,
    as `player`'s: nothing is recorded, and the store (`ctx`) is read only by a command
    that needs it to make its arguments. A line that is not a command of the game (or the
    record's `roll` and `note`), is a query (it has `--json`: it is refused unrun, so
    nothing is printed or written), gives `--as` another player, `--roll` or `--host-act`,
    is a click.UsageError."""
    import contextlib
    import io

    from .main import cli, face

    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise click.UsageError(f"cannot read it: {exc}") from None
    words = words[1:] if words[:1] == ["warscribe"] else words
    group = face(ruleset)
    words = words[1:] if words[:1] == [group.name] else words
    if not words:
        raise click.UsageError("an empty command")
    top = cli if words[0] in RECORD_COMMANDS else group
    command, path, rest = _find(top, words)
    if any(param.name == "as_json" for param in command.params):
        raise click.UsageError(f"`{' '.join(path)}` is a query, not a command to order")
    capture = _Capture(ctx)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            parent = click.Context(cli, obj=capture)
            with command.make_context(" ".join(path), rest, parent=parent) as sub:
                command.invoke(sub)
                as_given = any(
                    "--as" in getattr(param, "opts", ())
                    and sub.get_parameter_source(param.name or "") == ParameterSource.COMMANDLINE
                    for param in command.params
                )
    except click.exceptions.Exit:
        raise click.UsageError("not a command to order") from None
    if len(capture.captured) != 1:
        raise click.UsageError(f"`{' '.join(path)}` is not a command to order: it records nothing")
    name, args, actor, entered, host_act = capture.captured[0]
    if as_given and actor != player:
        raise click.UsageError(f"orders are {player}'s own commands: drop --as {actor}")
    if entered:
        raise click.UsageError("orders take no --roll: the record rolls the dice")
    if host_act is not None:
        raise click.UsageError(f"orders are {player}'s own, signed: drop --host-act")
    return Command(player, name, args)


CHOICES_SHOWN = 8
"""The most choices `status` lists for an argument."""


def _cli_path(ruleset: str, name: str) -> tuple[list[str], click.Command] | None:
    """The words typing the rule set's command `name` (`attack declare`), and its click
    command, made from its spec alone (the game's whole CLI is not loaded for it); None
    for a rule set without specs."""
    from warscribe.engine import rulesets

    book = rulesets.get(ruleset)
    spec = book.commands.get(name) if isinstance(book, RuleBook) else None
    if spec is None:
        return None
    path = [spec.group, spec.sub or spec.name] if spec.group else [spec.name]
    return path, spec_command(ruleset, spec)


def _shown(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return ",".join(_shown(item) for item in value)
    return str(value)


def _typed(param: click.Parameter | None, value: Any) -> str:
    """A value as typed for `param`: quoted for the shell, a list taking several words
    (`UNITS...`) as words."""
    if isinstance(param, click.Argument) and param.nargs == -1 and isinstance(value, tuple):
        return " ".join(shlex.quote(_shown(word)) for word in value)
    return shlex.quote(_shown(value))


def _written(param: click.Parameter | None, key: str, value: Any) -> str:
    """One argument as typed: `VALUE` (positional), `--key VALUE`, or a flag; a template
    (its metavar) when `value` is None."""
    metavar = (param.metavar if param is not None else None) or key.upper()
    text = metavar if value is None else _typed(param, value)
    if isinstance(param, click.Argument):
        return text
    option = param.opts[0] if isinstance(param, click.Option) else f"--{key.replace('_', '-')}"
    if isinstance(param, click.Option) and param.is_flag:
        return option if value is not None else f"[{option}]"
    return f"{option} {text}"


def _label(param: click.Parameter | None, key: str) -> str:
    """What names an argument among the choices: its option, or a positional's metavar."""
    if isinstance(param, click.Option):
        return param.opts[0]
    if isinstance(param, click.Argument):
        return param.metavar or key.upper()
    return f"--{key.replace('_', '-')}"


def _choices(param: click.Parameter | None, values: list[Any]) -> str:
    """The choices as typed, ` | ` between them (a value may hold commas: `10,14`)."""
    shown = [_typed(param, v) for v in values[:CHOICES_SHOWN]]
    more = f" | … ({len(values)} in all)" if len(values) > CHOICES_SHOWN else ""
    return " | ".join(shown) + more


def _bound(command: click.Command | None, keys: tuple[str, ...]) -> dict[str, click.Parameter]:
    """The parameter typing each argument, in the order they are typed."""
    params = [p for p in command.params if p.name in keys] if command is not None else []
    return {p.name or "": p for p in params}


def hints(ruleset: str, offers: Sequence[LegalCommand]) -> list[dict[str, Any]]:
    """What may be typed now, from `legal`'s offers: one command line per command and
    shape, the values all its offers share written out, the others as their metavar with
    the choices (`events lose UNITS...` choosing among `Zorn-A11 | Zorn-A12`), the end of
    the phase last. Choices gathered from several offers (a stack, and where another
    stack may go) make a template, not a promise: the orders' dry run checks them."""
    shapes: dict[tuple[str, tuple[str, ...]], list[LegalCommand]] = {}
    for offer in offers:
        keys = tuple(sorted({k for k, _ in offer.args} | {k for k, _ in offer.domains}))
        shapes.setdefault((offer.name, keys), []).append(offer)
    found = []
    for (name, keys), same in sorted(shapes.items(), key=lambda item: item[0][0] == "end-phase"):
        where = _cli_path(ruleset, name)
        path, command = where if where is not None else ([name], None)
        bound = _bound(command, keys)
        words, choices, listed = list(path), {}, []
        ask: str | None = None
        for key in [*bound, *(k for k in keys if k not in bound)]:
            values, deferred = _values(same, key)
            param = bound.get(key)
            if len(values) == 1 and not deferred:
                if values[0] not in (None, False):
                    words.append(_written(param, key, values[0]))
                continue
            words.append(_written(param, key, None))
            if deferred and ask is None:
                ask = _listed_by(ruleset, name, key)
            if not deferred and not (isinstance(param, click.Option) and param.is_flag):
                choices[_label(param, key)] = values
                listed.append(f"{_label(param, key)}: {_choices(param, values)}")
        text = " ".join(words)
        if len(listed) == 1:
            text += "  (one of: " + listed[0].split(": ", 1)[1] + ")"
        elif listed:
            text += "  (" + "; ".join(listed) + ")"
        hint = {"command": " ".join(words), "choices": choices, "text": text}
        found.append({**hint, "ask": ask} if ask else hint)
    return found


def _listed_by(ruleset: str, name: str, key: str) -> str | None:
    """How to ask for the values of the argument `key` of the rule set's command `name`
    (`Arg.listed_by`), if it says."""
    from warscribe.engine import rulesets

    book = rulesets.get(ruleset)
    spec = book.commands.get(name) if isinstance(book, RuleBook) else None
    arg = spec.arg(key) if spec is not None and key in spec.arg_names else None
    return arg.listed_by if arg is not None else None


def command_line(ruleset: str, command: Command) -> str:
    """`command` as typed on the command line (and in orders): `move Hothior-A1 --path
    10,16,11,15` for the rule set's `move units=Hothior-A1 path=...`."""
    offer = LegalCommand(command.actor, command.name, command.args)
    line: str = hints(ruleset, [offer])[0]["command"]
    return line


_HOW_TO = re.compile(r"\(([a-z]+(?: [a-z]+)*) (\[?[a-z_]+=[^()]*)\)")
"""How to answer, in the engine's words, as older questions say it: `(events replace
unit=ID [at=PLACE])`, `(events reinforce kind=army|fleet at=PLACE, or unit=ID ...)`."""
_ASSIGNED = re.compile(r"\b([a-z_]+)=[^\s,()\[\]]+(?:,[^\s()\[\]]+)*")


def cli_words(ruleset: str, text: str) -> str:
    """A text in the words the player types: each `(COMMAND KEY=VALUE ...)` naming a
    command of the rule set, as recorded in the questions of older games (`DecisionAsked`
    of Divine Right's random events: the stored events keep their text), has each
    `KEY=VALUE` as that argument is typed (`(events replace UNIT [--at PLACE])`)."""
    return _HOW_TO.sub(lambda found: _typed_how(ruleset, found), text)


def _typed_how(ruleset: str, found: re.Match[str]) -> str:
    words, rest = found[1], found[2]
    typed = _cli_path(ruleset, "-".join(words.split()))
    if typed is None:
        return found[0]
    params = {p.name or "": p for p in typed[1].params}

    def written(assigned: re.Match[str]) -> str:
        key = assigned[1]
        return _written(params[key], key, None) if key in params else assigned[0]

    return f"({words} {_ASSIGNED.sub(written, rest)})"


def _values(offers: list[LegalCommand], key: str) -> tuple[list[Any], bool]:
    """The values `key` takes across `offers` (each once, in order), and whether some are
    left to be found (a `Deferred` domain)."""
    values: list[Any] = []
    deferred = False
    for offer in offers:
        fixed = dict(offer.args)
        domain = dict(offer.domains).get(key)
        if isinstance(domain, Deferred):
            deferred = True
            continue
        for value in domain if domain is not None else [fixed.get(key)]:
            if value not in values:
                values.append(value)
    return values, deferred
