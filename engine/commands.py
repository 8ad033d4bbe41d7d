"""Typed commands: what a command takes, read and checked once for every game.

A rule set declares each of its commands as a `CommandSpec`: its name, its typed
arguments (`Arg`, each read by a `Kind`), the rule section it follows, who may give it,
the pending decision it answers, its help and an example, and its shape on the command
line. `read` checks a `Command` against its spec before anything is decided: an unknown
argument, a missing required one, or a value its kind refuses is an `InvalidCommand`
naming the argument and the rule. The decision (`warscribe.engine.decision.Decision`)
then reads the values through `Call`, already of their type: a kind that names things of
the game's data (a space, a path) gives them resolved against it.

A kind reads both the text typed on the command line and the Python values tests and
scripts pass; None always reads as "not given".
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import Any, Generic, TypeVar

from warscribe.engine.codec import frozen

from .decision import Decision
from .dice import Dice
from .errors import InvalidCommand
from .events import Command, Event

S = TypeVar("S")
T = TypeVar("T")

# Who may give a command (`warscribe.engine.authority` checks it).
TURN = "the player whose turn or decision it is"
ANYONE = "any player or the referee"
REFEREE = "the referee only"

_INT = re.compile(r"[+-]?\d+")
_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


@frozen
class Kind(Generic[T]):
    """How an argument's value is read: `read` gives the value, or None to refuse it.

    `wanted` says what it must be (for the error); the rest is its command-line shape:
    `metavar`, a bare `flag`, a list (`many`: several words, or an option given several
    times, joined with `joiner`), or a `file` whose text is the value. `resolve`, when
    set, turns the value read into what it names in the game's data, `(data, value, rule)`,
    as the decision reads it (refusing, citing `rule`, what names nothing)."""

    wanted: str
    read: Callable[[Any], T | None]
    metavar: str = "VALUE"
    flag: bool = False
    many: bool = False
    file: bool = False
    joiner: str = ","
    resolve: Callable[[Any, Any, str], Any] | None = None
    domain: Domain | None = None
    """The values a player may give now (`Sofar`), for `legal` to offer (None: the
    kind cannot say; an argument of it is offered only where its `Arg` says)."""

    def ranging(self, domain: Domain) -> Kind[T]:
        """This kind, its values offered from `domain`."""
        return dataclasses.replace(self, domain=domain)


@frozen
class Sofar:
    """What an argument's domain is read from: the state, the player who would give the
    command, the values already chosen for its earlier arguments (in the spec's order)
    and what the rule book adds (`RuleBook.context`: its game data)."""

    state: Any
    actor: str
    chosen: Mapping[str, Any]
    context: Any = None


Domain = Callable[[Sofar], Sequence[Any]]
"""The values an argument may take in a position, in the order they are offered; None
among them leaves the argument out. A `Deferred` domain (a path finder's) is searched
only when asked for, and must be the command's last one."""


INT_MAX = 2**63 - 1
"""The largest whole number an argument may be: what a store holds (a signed 64-bit
integer), and what the codec writes in one msgpack integer."""


def to_int(value: Any) -> int | None:
    """`value` as an int, or None when it is not a whole number within +-INT_MAX."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and len(value) <= 40 and _INT.fullmatch(value.strip()):
        number = int(value)
    else:
        return None
    return number if -INT_MAX - 1 <= number <= INT_MAX else None


def to_bool(value: Any) -> bool | None:
    """True or False from a bool, 0/1 or text (`true`, `yes`, `1`, `false`, `no`, `0`)."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, (int, str)):
        return None
    lowered = str(value).strip().lower()
    return True if lowered in _TRUE else False if lowered in _FALSE else None


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _names(value: Any) -> tuple[str, ...] | None:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
        return None
    return tuple(item.strip() for item in items if item.strip())


def _pairs(raw: Any) -> tuple[tuple[str, Any], ...] | None:
    found: list[tuple[Any, Any]]
    if isinstance(raw, str):
        items = [item.partition("=") for item in raw.split(",") if item.strip()]
        if not all(sep for _, sep, _ in items):
            return None
        found = [(name.strip(), value.strip()) for name, _, value in items]
    elif isinstance(raw, Mapping):
        found = list(raw.items())
    elif isinstance(raw, (list, tuple)) and all(
        isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in raw
    ):
        found = [(name, value) for name, value in raw]
    else:
        return None
    return tuple(found) if all(isinstance(name, str) and name for name, _ in found) else None


def integer(low: int | None = 0, high: int | None = None, metavar: str = "N") -> Kind[int]:
    """A whole number in low..high (None: unbounded)."""

    def read(value: Any) -> int | None:
        number = to_int(value)
        if number is None or (low is not None and number < low):
            return None
        return None if high is not None and number > high else number

    bounds = f" in {'' if low is None else low}..{'' if high is None else high}"
    return Kind(f"a whole number{bounds}", read, metavar)


def choice(*values: str) -> Kind[str]:
    """One of `values`, as written."""
    return Kind(
        f"one of {', '.join(values)}",
        lambda value: value.strip() if isinstance(value, str) and value.strip() in values else None,
        "|".join(values),
    )


def choices(*values: str, metavar: str = "LIST") -> Kind[tuple[str, ...]]:
    """Comma-separated names, each one of `values`."""

    def read(value: Any) -> tuple[str, ...] | None:
        found = _names(value)
        return found if found is not None and set(found) <= set(values) else None

    return Kind(f"a comma-separated list of {', '.join(values)}", read, metavar)


TEXT: Kind[str] = Kind("text", _text, "TEXT")
FLAG: Kind[bool] = Kind("true or false", to_bool, flag=True)
SWITCH: Kind[bool] = Kind("true or false", to_bool, "true|false")
"""A yes/no value given as a value (`--at-peace false`), not as a bare flag."""
NAMES: Kind[tuple[str, ...]] = Kind("a comma-separated list of names", _names, "LIST")
WORDS: Kind[tuple[str, ...]] = Kind("a list of names", _names, "NAME...", many=True)
"""Names given as several words on the command line (joined with commas)."""
PAIRS: Kind[tuple[tuple[str, Any], ...]] = Kind("name=value,... pairs", _pairs, "NAME=VALUE,...")
FILE_TEXT: Kind[str] = Kind("the text of a file", _text, "FILE", file=True)


@frozen
class Arg:
    """An argument of a command: its kind, help, and how it is given.

    Not given (or given as None), it takes `default` (None: it has none, and a decision
    asking for it is refused naming it, unless it only asks whether it is given)."""

    name: str
    kind: Kind[Any]
    help: str
    required: bool = False
    default: Any = None
    positional: bool = False
    metavar: str | None = None
    rule: str | None = None
    """The rule a bad value is refused under, when not the command's."""
    option: str | None = None
    """Its option on the command line, when not `--NAME` (`--group` for `groups`)."""
    listed_by: str | None = None
    """How to ask for its values when `legal` leaves them to be searched (a path), as
    `status` shows it: `where can a stack go: warscribe reach STACK`."""
    domain: Domain | None = None
    """Its values in a position, when not its kind's (`Kind.domain`)."""

    @property
    def offered(self) -> Domain | None:
        """Where `legal` finds its values: its own domain, else its kind's."""
        return self.domain or self.kind.domain

    @property
    def shown(self) -> str:
        """Its metavar on the command line."""
        return self.metavar or self.kind.metavar


Decide = Callable[["Decision[S, Any]"], None]


@frozen
class CommandSpec(Generic[S]):
    """A command of a rule set (or of the record), everything about it in one place.

    `decide(d)` emits its events on the decision `d` or raises a RuleError citing the
    rule; it reads the arguments from `d.call`, already checked against `args`. `answers`
    names the kinds of decision it answers (the rule book's one source for it: while a
    decision is asked only its answers are given, by the player asked; empty: it answers
    none). On the command line it is `warscribe GROUP SUB` when `group` is set (e.g.
    `attack declare`), else `warscribe NAME`, unless `flag_of` makes it a flag of another
    command: `("pursue", "none")` is `warscribe pursue --none`; `rolls` adds the table
    dice option `--roll`."""

    name: str
    decide: Decide[S]
    args: tuple[Arg, ...]
    rule: str
    help: str
    example: tuple[str, ...]
    authority: str = TURN
    answers: tuple[str, ...] = ()
    group: str | None = None
    sub: str | None = None
    rolls: bool = False
    flag_of: tuple[str, str] | None = None

    @cached_property
    def arg_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    def arg(self, name: str) -> Arg:
        return self.args[self.arg_names.index(name)]

    def ranging(self, domains: Mapping[str, Domain]) -> CommandSpec[S]:
        """This spec, the values of its arguments offered from `domains` (by name)."""
        unknown = sorted(set(domains) - set(self.arg_names))
        if unknown:
            raise ValueError(f"{self.name} has no argument {', '.join(unknown)}")
        args = tuple(
            dataclasses.replace(a, domain=domains[a.name]) if a.name in domains else a
            for a in self.args
        )
        return dataclasses.replace(self, args=args)

    @property
    def spelled(self) -> str:
        """Its name as the command line spells it: `attack declare`, `pursue` (for
        `pursue --none`), `end-phase`."""
        if self.group:
            return f"{self.group} {self.sub}"
        return self.flag_of[0] if self.flag_of else self.name


def _refusal(spec: CommandSpec[Any], arg: Arg, raw: Any) -> InvalidCommand:
    return InvalidCommand(
        f"{spec.name}: {arg.name} must be {arg.kind.wanted}, not {raw!r}", arg.rule or spec.rule
    )


def read(
    spec: CommandSpec[Any], command: Command, dice: Dice | None = None, data: Any = None
) -> Call:
    """`command`'s arguments read and checked against `spec`: InvalidCommand, citing the
    rule, naming the arguments it does not take, else the first one of the wrong kind,
    else the first required one missing."""
    unknown = [name for name, _ in command.args if name not in spec.arg_names]
    if unknown:
        known = ", ".join(spec.arg_names) or "none"
        raise InvalidCommand(
            f"{spec.name} takes no argument {', '.join(unknown)} (it takes: {known})", spec.rule
        )
    given = {name: raw for name, raw in command.args if raw is not None}
    values: dict[str, Any] = {}
    for arg in spec.args:
        if arg.name in given:
            value = arg.kind.read(given[arg.name])
            if value is None:
                raise _refusal(spec, arg, given[arg.name])
            values[arg.name] = value
    for arg in spec.args:
        if arg.required and arg.name not in values and arg.default is None:
            raise _missing(spec, arg)
    return Call(spec, command, values, dice, data)


def _missing(spec: CommandSpec[Any], arg: Arg) -> InvalidCommand:
    return InvalidCommand(f"{spec.name} needs {arg.name}={arg.shown}", arg.rule or spec.rule)


@frozen
class Call:
    """A command as its decision reads it: who gives it, its checked values, the dice.

    `get` and the typed readers give a value given (resolved against the game's `data`
    when its kind resolves), else the argument's default; a value the decision needs that
    is neither is refused naming the argument."""

    spec: CommandSpec[Any]
    command: Command
    values: Mapping[str, Any]
    dice: Dice | None = None
    data: Any = None

    @property
    def actor(self) -> str:
        return self.command.actor

    @property
    def name(self) -> str:
        return self.command.name

    def given(self, name: str) -> bool:
        return name in self.values

    def get(self, name: str, default: Any = None) -> Any:
        """The value given, else `default`, else the argument's default."""
        if name in self.values:
            arg = self.spec.arg(name)
            resolve = arg.kind.resolve
            value = self.values[name]
            return (
                value if resolve is None else resolve(self.data, value, arg.rule or self.spec.rule)
            )
        return default if default is not None else self.spec.arg(name).default

    def value(self, name: str, default: Any = None) -> Any:
        """As `get`, refused (InvalidCommand naming the argument) when there is none."""
        found = self.get(name, default)
        if found is None:
            raise _missing(self.spec, self.spec.arg(name))
        return found

    def text(self, name: str, default: str | None = None) -> str:
        found: str = self.value(name, default)
        return found

    def number(self, name: str, default: int | None = None) -> int:
        found: int = self.value(name, default)
        return found

    def flag(self, name: str) -> bool:
        return bool(self.get(name, False))

    def names(self, name: str) -> tuple[str, ...]:
        found: tuple[str, ...] = self.get(name, ())
        return found

    def at_most(self, name: str, high: int) -> int:
        """The whole number given (0 when not), refused above `high` (a limit of the state)."""
        number = self.number(name, 0)
        if number > high:
            arg = self.spec.arg(name)
            raise InvalidCommand(
                f"{self.spec.name}: {name} must be a whole number in 0..{high}, not {number!r}",
                arg.rule or self.spec.rule,
            )
        return number

    def roll_dice(self) -> Dice:
        """The dice of the command (only a decision given some rolls)."""
        if self.dice is None:
            raise InvalidCommand(f"{self.spec.name} rolls dice: none were given", self.spec.rule)
        return self.dice


def decision(
    spec: CommandSpec[S],
    state: S,
    command: Command,
    dice: Dice,
    evolve: Callable[[S, Event], S],
    data: Any = None,
) -> Decision[S, Any]:
    """`command` decided on `state`, its arguments checked against `spec` first: the
    decision, its events evolved by `evolve` as they were emitted."""
    made: Decision[S, Any] = Decision(state, read(spec, command, dice, data), data, dice, evolve)
    spec.decide(made)
    return made


def follow(d: Decision[S, Any], spec: CommandSpec[S], command: Command) -> None:
    """`command` decided as a part of `d` (a step the rules record for a player as his own
    command would record it), its events emitted on `d`."""
    d.under(read(spec, command, d.dice, d.data), spec.decide)


def answering(specs: Mapping[str, CommandSpec[Any]], kind: str) -> tuple[str, ...]:
    """The names of the commands answering a decision of `kind`, in the table's order."""
    return tuple(name for name, spec in specs.items() if kind in spec.answers)


def ranged(
    specs: Mapping[str, CommandSpec[S]], domains: Mapping[str, Mapping[str, Domain]]
) -> dict[str, CommandSpec[S]]:
    """The specs, the values of their arguments offered from `domains` (by command,
    then argument: `CommandSpec.ranging`)."""
    unknown = sorted(set(domains) - set(specs))
    if unknown:
        raise ValueError(f"no command {', '.join(unknown)} to offer values for")
    return {name: spec.ranging(domains.get(name, {})) for name, spec in specs.items()}


def table(*specs: CommandSpec[S]) -> dict[str, CommandSpec[S]]:
    """Specs by name, each name once."""
    found: dict[str, CommandSpec[S]] = {}
    for spec in specs:
        if spec.name in found:
            raise ValueError(f"two commands are called {spec.name!r}")
        found[spec.name] = spec
    return found
