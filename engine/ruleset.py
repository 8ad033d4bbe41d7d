"""The interface every rule set implements (see DESIGN.md, "The engine")."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol, overload

from warscribe.engine.codec import frozen

from .dice import Dice
from .events import Command, DataRef, Event

if TYPE_CHECKING:  # random play brings its own generator: a call never imports random
    import random


@frozen
class PlayerSpec:
    """A player as given to `new`: a name and, optionally, the side they choose."""

    name: str
    choice: str | None = None


@frozen
class GameSpec:
    """What `new` was asked for, before anything is decided."""

    name: str
    players: tuple[PlayerSpec, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def option(self, key: str, default: Any = None) -> Any:
        return dict(self.options).get(key, default)


Projection = Callable[[Any], Any]


class Deferred(Sequence[Any]):
    """A domain whose values are found only when first asked for: the spaces a path finder
    reaches, say, too costly to search for every stack when one move is drawn. It may turn
    out empty (nothing reached after all)."""

    def __init__(self, find: Callable[[], Sequence[Any]]) -> None:
        self._find = find

    @cached_property
    def values(self) -> tuple[Any, ...]:
        return tuple(self._find())

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self.values[index]

    def __len__(self) -> int:
        return len(self.values)

    def __repr__(self) -> str:
        return f"Deferred({self.values!r})"


@frozen
class LegalCommand:
    """A command a player may give now, with its argument domains filled from the state.

    `args` are given as they are; each argument of `domains` takes one of its values.
    Every choice of one value per domain makes a command `decide` accepts: a rule set
    splits a command whose arguments depend on each other into several (one `move` per
    stack, its domain the paths to each space it reaches). A domain is never empty, but
    a `Deferred` one, searched only when asked for, may turn out so."""

    actor: str
    name: str
    args: tuple[tuple[str, Any], ...] = ()
    domains: tuple[tuple[str, Sequence[Any]], ...] = ()

    def values(self, key: str) -> Sequence[Any]:
        """The values argument `key` takes in this offer: its domain, or the one value
        given (a domain of one value is offered as given), or none."""
        for name, value in self.args:
            if name == key:
                return (value,)
        return dict(self.domains).get(key, ())

    def command(self, **chosen: Any) -> Command:
        """The command with `chosen` values for the domains (each one of its domain)."""
        for key, values in self.domains:
            if key not in chosen or chosen[key] not in values:
                raise ValueError(f"{self.name}: choose {key} among its domain")
        return Command(self.actor, self.name, (*self.args, *chosen.items()))

    def draw(self, rng: random.Random) -> Command | None:
        """A complete command, each domain's value drawn at random (None: a domain is
        empty after all)."""
        if any(not values for _, values in self.domains):
            return None
        return self.command(**{key: rng.choice(values) for key, values in self.domains})


def draw(offered: Sequence[LegalCommand], rng: random.Random) -> Command | None:
    """A complete legal command drawn at random: a command name, then one of its offers,
    then its values (so that one kind of command offered many times, a move per stack,
    does not crowd out the others); None when nothing can be given (the game is over)."""
    by_name: dict[str, list[LegalCommand]] = {}
    for offer in offered:
        by_name.setdefault(offer.name, []).append(offer)
    while by_name:
        name = rng.choice(sorted(by_name))
        offers = by_name[name]
        command = offers.pop(rng.randrange(len(offers))).draw(rng)
        if command is not None:
            return command
        if not offers:
            del by_name[name]
    return None


def names(
    offered: Sequence[LegalCommand],
    player: str | None,
    spelled: Callable[[str], str] = str,
    last: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """The names of the commands `player` is offered, once each (`spelled` as the CLI
    spells them), those of every phase (`last`: ending it) last: what `status` shows, read
    off `legal` so that the two never disagree."""
    found = dict.fromkeys(spelled(o.name) for o in offered if o.actor == player)
    ending = {spelled(name) for name in last}
    return (*(n for n in found if n not in ending), *(n for n in found if n in ending))


class RuleSet(Protocol):
    """A game's rules as pure functions over an immutable state, known by its `name` (as
    installed, engine/rulesets) and its `prefix`, the first part of its event topics (`dr`
    for `dr.UnitsMoved`) and its group on the command line (`warscribe dr ...`).

    * `validate_spec(spec)` checks what `new` was given and names the data files the game
      is built on (recorded with their digests in GameCreated);
    * `setup(state, spec, dice)` decides the set-up events that follow GameCreated;
    * `decide(state, command, dice)` checks a command and returns its events, or raises a
      RuleError citing the rule; it draws dice only from `dice`;
    * `evolve(state, event)` applies a fact (state is None before GameCreated); it never
      validates, rolls or reads a clock; the record's own events (`common.RECORD_EVENTS`,
      but GameCreated) leave the state as it is (a replay folds a CommandIssued without
      asking, `record.fold`);
    * `position(state)` labels where the game stands (`TURN.PLAYER-TURN.PHASE`);
      `phases` are the names the label's last part may take (empty: it names no phase);
    * `whose_turn(state)` names the player who may act now (None when nobody can);
    * `legal(state)` is every command the player(s) who may act now can give, with its
      argument domains filled from the state (`LegalCommand`; `draw` picks one at random);
      anything it offers `decide` accepts;
    * `legal_commands(state)` lists the names of the commands the player whose turn it is
      may give now (as `status` shows them), read off `legal` (`names`);
    * `summary(state)` is what `status` prints beyond turn and phase;
    * `over(state)` says whether the game has ended (None: its rules give it no end, so
      it never has); `reveal` asks for `--yes` until it has;
    * `projections` maps a query name to a pure function of the state.

    Optional: `rule_of(command_name) -> str | None`, the rule section a command is decided
    by; the audit cites it when the events that differ do not name their rule
    (`Event.rule_section`); `sentence(event, state_before) -> str | None`, the event as
    a sentence of the story (`log --story`, the referee's mails, `view`'s log) in the
    rulebook's words, cards and units named as the game's tables name them (None, or no
    `sentence`: the story's generic words).
    """

    name: str
    prefix: str
    projections: Mapping[str, Projection]
    phases: tuple[str, ...]

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]: ...

    def setup(self, state: Any, spec: GameSpec, dice: Dice) -> list[Event]: ...

    def decide(self, state: Any, command: Command, dice: Dice) -> list[Event]: ...

    def evolve(self, state: Any, event: Event) -> Any: ...

    def position(self, state: Any) -> str | None: ...

    def whose_turn(self, state: Any) -> str | None: ...

    def legal(self, state: Any) -> tuple[LegalCommand, ...]: ...

    def legal_commands(self, state: Any) -> tuple[str, ...]: ...

    def summary(self, state: Any) -> dict[str, Any]: ...

    def over(self, state: Any) -> bool | None: ...
