"""Legal moves read off the command specs: one enumerator for every game.

A position allows some commands, each to some players (`RuleBook.offered`: the answers
to the decision asked, else the commands of whose turn it is). Each command's arguments
are filled in the spec's order from their domains (`Arg.offered`: the cards in hand,
the kingdoms, the units a loss may take...), each read from the position and the values
chosen so far (`Sofar`); an argument with no domain is left out, and a command with a
required one is not offered. A `Deferred` domain (the paths a stack may take, searched
only when asked for) ends the command as it is.

A game whose domains say every rule offers exactly what `decide` accepts; where a
command's rules are subtler than its domains, the game passes `accepts`, deciding each
candidate of that command on scratch dice (nothing is recorded). Candidates that differ
only in their last argument are offered as one command with that argument's domain.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import Any
from uuid import UUID

from .commands import CommandSpec, Sofar
from .dice import Dice
from .errors import RuleError
from .events import Command, Event
from .ruleset import Deferred, LegalCommand

Accepts = Callable[[Command], bool]
Chosen = tuple[tuple[str, Any], ...]


class _ScratchDice(Dice):
    """Dice whose draws are fixed by their place alone: a trial records nothing, so no
    value needs to be unpredictable or proved, and none is hashed from a secret (the
    hashing, and loading it, were a twentieth of a `status`)."""

    def _derived(self, index: int, sides: tuple[int, ...]) -> tuple[tuple[int, ...], None]:
        return tuple((index + place) % side + 1 for place, side in enumerate(sides)), None


def scratch_dice() -> Dice:
    """Dice for deciding on trial, never recorded."""
    return _ScratchDice(key=None, game_id=UUID(int=0), chain=bytes(32), next_index=0)


def on_trial(
    decide: Callable[[Any, Command, Dice], list[Event]],
    state: Any,
    tried: Collection[str] | None = None,
) -> Accepts:
    """Whether the rules accept a command in `state` (decided on scratch dice); only the
    commands named `tried` are decided, when given (the others' domains are exact)."""

    def accepts(command: Command) -> bool:
        if tried is not None and command.name not in tried:
            return True
        try:
            decide(state, command, scratch_dice())
        except RuleError:
            return False
        return True

    return accepts


def offers(
    state: Any,
    offered: Iterable[tuple[str, CommandSpec[Any]]],
    context: Any = None,
    accepts: Accepts | None = None,
) -> list[LegalCommand]:
    """The commands `offered` (each to its player), their arguments filled from their
    domains; with `accepts`, only the candidates it accepts."""
    found = list(candidates(state, offered, context))
    complete = [c for c in found if isinstance(c, Command)]
    kept = complete if accepts is None else [c for c in complete if accepts(c)]
    return [*(c for c in found if isinstance(c, LegalCommand)), *grouped(kept)]


def candidates(
    state: Any, offered: Iterable[tuple[str, CommandSpec[Any]]], context: Any = None
) -> Iterator[Command | LegalCommand]:
    """Each choice of values the domains allow, as a command; a command whose last
    domain is `Deferred` as an offer of it."""
    for actor, spec in offered:
        for filled in _filled(spec, Sofar(state, actor, {}, context), 0):
            yield filled if isinstance(filled, LegalCommand) else Command(actor, spec.name, filled)


def _filled(spec: CommandSpec[Any], sofar: Sofar, index: int) -> Iterator[Chosen | LegalCommand]:
    """The choices of values for the spec's arguments from `index` on, given `sofar`."""
    if index == len(spec.args):
        yield tuple(sofar.chosen.items())
        return
    arg = spec.args[index]
    domain = arg.offered
    if domain is None:
        if not arg.required:
            yield from _filled(spec, sofar, index + 1)
        return
    values = domain(sofar)
    if isinstance(values, Deferred):
        fixed = tuple(sofar.chosen.items())
        yield LegalCommand(sofar.actor, spec.name, fixed, ((arg.name, values),))
        return
    for value in values:
        yield from _filled(spec, _with(sofar, arg.name, value), index + 1)


def _with(sofar: Sofar, name: str, value: Any) -> Sofar:
    if value is None:
        return sofar
    chosen: Mapping[str, Any] = {**sofar.chosen, name: value}
    return Sofar(sofar.state, sofar.actor, chosen, sofar.context)


def grouped(commands: Iterable[Command]) -> list[LegalCommand]:
    """The commands as few offers, each the product of its domains: commands alike but
    in one argument share a domain for it, from the last argument to the first (a
    domain of one value is an argument given)."""
    rows: dict[tuple[str, str, tuple[str, ...]], list[list[tuple[Any, ...]]]] = {}
    for command in commands:
        keys = tuple(key for key, _ in command.args)
        rows.setdefault((command.actor, command.name, keys), []).append(
            [(value,) for _, value in command.args]
        )
    found: list[LegalCommand] = []
    for (actor, name, keys), alike in rows.items():
        for index in reversed(range(len(keys))):
            alike = _merged(alike, index)
        for row in alike:
            args = tuple((k, v[0]) for k, v in zip(keys, row, strict=True) if len(v) == 1)
            domains = tuple((k, v) for k, v in zip(keys, row, strict=True) if len(v) > 1)
            found.append(LegalCommand(actor, name, args, domains))
    return found


def _merged(rows: list[list[tuple[Any, ...]]], index: int) -> list[list[tuple[Any, ...]]]:
    """Rows alike but at `index` as one, with the values found there (once each)."""
    merged: dict[tuple[tuple[Any, ...], ...], list[tuple[Any, ...]]] = {}
    for row in rows:
        rest = (*row[:index], *row[index + 1 :])
        into = merged.setdefault(rest, [*row[:index], (), *row[index + 1 :]])
        into[index] = (*into[index], *(v for v in row[index] if v not in into[index]))
    return list(merged.values())


def expanded(offered: Iterable[LegalCommand]) -> set[Command]:
    """Every complete command the offers allow (a test's view of them: deferred domains
    searched)."""
    found: set[Command] = set()
    for offer in offered:
        choices: list[dict[str, Any]] = [{}]
        for key, values in offer.domains:
            choices = [{**c, key: v} for c in choices for v in values]
        found |= {offer.command(**c) for c in choices}
    return found
