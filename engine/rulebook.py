"""The one core a rule set fills with tables (see docs/developing.md).

A rule set is a `RuleBook[State]`: its commands (`CommandSpec`s), its complete evolver
table (`Evolvers`), its hooks in the order they run, its projections and what `new`
takes. `decide`, `evolve`, argument checking, the pending-decision check and "the state
after my own events" are written here once; a rule set writes only its rules. A command's
spec and every hook decide on one `Decision`: the state so far, the game's data (`data`),
the dice and the typed call; each `emit`s its events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

from warscribe.engine.codec import frozen

from . import commands
from .codec import topic_of
from .commands import REFEREE, TURN, Arg, CommandSpec
from .common import RECORD_EVENTS
from .decision import Asking, Decision
from .dice import Dice
from .errors import IllegalCommand, InvalidCommand, LogError
from .events import Command, Event, GameCreated
from .offers import offers, on_trial
from .ruleset import GameSpec, LegalCommand, Projection, names

S = TypeVar("S")


class Evolvers(Generic[S]):
    """A rule set's complete evolver table: every event it meets has an evolver, or is
    declared informational (a fact that changes no state; the record's own events always
    are, and have no evolver: a replay folds a plain CommandIssued without reading its
    command, `record.Issued`). Any other event is an error, never silently ignored."""

    def __init__(
        self,
        ruleset: str,
        initial: Callable[[GameCreated], S],
        table: Mapping[type, Callable[[S, Any], S]],
        informational: tuple[type, ...] = (),
    ) -> None:
        own = [topic_of(cls) for cls in table if cls in RECORD_EVENTS]
        if own:
            raise TypeError(f"{ruleset}: the record's own events change no state: {own}")
        self.ruleset = ruleset
        self.initial = initial
        self.table = dict(table)
        self.informational = (*RECORD_EVENTS, *informational)

    def evolve(self, state: S | None, event: Event) -> S:
        if isinstance(event, GameCreated):
            return self.initial(event)
        apply = self.table.get(type(event))
        if apply is not None and state is not None:
            return apply(state, event)
        if isinstance(event, self.informational) and state is not None:
            return state
        raise LogError(f"{self.ruleset} has no evolver for {topic_of(type(event))}")


@frozen
class Hook(Generic[S]):
    """A rule that acts after a command's events (a phase that ends itself, say): given
    the command's decision (its state after the events so far), it emits what it adds."""

    name: str
    run: Callable[[Decision[S, Any]], None]


@frozen
class NewSpec:
    """What `new GAME` takes beyond the players: the options (`Arg`s), the form of a
    `--player` value, a summary and examples."""

    help: str
    example: tuple[str, ...]
    player: str = "NAME"
    player_help: str = "A player (repeat for each player)."
    options: tuple[Arg, ...] = ()
    trial: Callable[[], GameSpec] | None = None
    """A game to try the rules on (the conformance suite plays it); None: `alice` and
    `bob`, with no options."""


class RuleBook(Generic[S]):
    """A rule set made of tables, over its state type S (see `warscribe.engine.ruleset.
    RuleSet` for the functions it answers). A subclass sets the class attributes and
    writes `validate_spec`, `setup`, `position`, `whose_turn` and `summary`; `pending`
    when it asks players questions. `legal` is read off the specs' argument domains
    (`warscribe.engine.offers`); a game writes `offered` when other players than whose
    turn it is may act, `context` when its domains read its data."""

    name: str
    prefix: str
    """The first part of its event topics, its group on the command line (`RuleSet`)."""
    rule: str
    """The rule an unknown command is refused under (the game's sequence of play)."""
    commands: Mapping[str, CommandSpec[S]]
    evolvers: Evolvers[S]
    hooks: tuple[Hook[S], ...] = ()
    projections: Mapping[str, Projection] = {}
    groups: Mapping[str, str] = {}
    """The help of each command-line group its commands form (`CommandSpec.group`)."""
    phases: tuple[str, ...] = ()
    """The phases a position names last (`position`); empty when it names none."""
    presenter: str | None = None
    """Its presentation, `"module:ATTRIBUTE"` (`warscribe.engine.presenter`): its queries'
    text, its board, its viewer frames and its story's words, imported on first use; None:
    its queries print JSON, it has no board and the story tells its events generically."""
    asking: Asking | None = None
    """The event asking a player a decision (`Decision.ask`); None: the game asks none."""
    new: NewSpec
    on_trial: bool = False
    """Whether `legal` keeps only the candidates `decide` accepts on scratch dice: for a
    game whose argument domains cannot say every rule (True costs a decision each)."""

    def spec(self, name: str) -> CommandSpec[S]:
        found = self.commands.get(name)
        if found is None:
            known = ", ".join(sorted(self.commands))
            raise InvalidCommand(f"{self.name} has no command {name!r}; it has: {known}", self.rule)
        return found

    def pending(self, state: S) -> str | None:
        """The kind of decision the game waits for (None: it waits for none)."""
        return None

    def data(self, state: S) -> Any:
        """The game's data its rules read (None: they read none but the state)."""
        return None

    def decide(self, state: S, command: Command, dice: Dice) -> list[Event]:
        """The command's events, then each hook's, in the order the hooks are written."""
        spec = self.spec(command.name)
        self.check_pending(state, spec)
        data = self.data(state)
        call = commands.read(spec, command, dice, data)
        made = Decision(state, call, data, dice, self.evolve, self.asking)
        spec.decide(made)
        for hook in self.hooks:
            hook.run(made)
        return made.events

    def whose_turn(self, state: S) -> str | None:
        """The player who may act now (None: nobody); every game writes it."""
        raise NotImplementedError(f"{self.name} says whose turn it is")

    def offered(self, state: S) -> Iterator[tuple[str, CommandSpec[S]]]:
        """The commands the position allows, each with the player who may give it: the
        answers to the decision asked, else the commands of whose turn it is."""
        player = self.whose_turn(state)
        if player is None:
            return
        waiting = self.pending(state)
        for spec in self.commands.values():
            if spec.answers == waiting and spec.authority != REFEREE:
                yield player, spec

    def context(self, state: S) -> Any:
        """What the argument domains read beyond the state (`Sofar.context`)."""
        return None

    def legal(self, state: S) -> tuple[LegalCommand, ...]:
        """Every command a player may give now, read off the specs (`offers`)."""
        accepts = on_trial(self.decide, state) if self.on_trial else None
        return tuple(offers(state, self.offered(state), self.context(state), accepts))

    def legal_commands(self, state: S) -> tuple[str, ...]:
        """What `status` lists: the commands offered to whose turn it is, as spelled."""
        spelled = {spec.name: spec.spelled for spec in self.commands.values()}
        return names(self.legal(state), self.whose_turn(state), lambda n: spelled.get(n, n))

    def check_pending(self, state: S, spec: CommandSpec[S]) -> None:
        """Refuse a command that answers a decision not asked, or that is not an answer
        while one is asked (of a player whose turn it is)."""
        waiting = self.pending(state)
        if spec.answers is not None and spec.answers != waiting:
            raise IllegalCommand(f"{spec.name} answers a {spec.answers}: none is asked", spec.rule)
        if waiting is not None and spec.answers is None and spec.authority == TURN:
            raise IllegalCommand(f"the game waits for a {waiting} first", spec.rule)

    def options(self, given: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
        """The options GameCreated records for the options `new` was given (as given)."""
        return given

    def after(self, state: S, events: Sequence[Event]) -> S:
        """The state once `events` have happened."""
        for event in events:
            state = self.evolve(state, event)
        return state

    def evolve(self, state: S | None, event: Event) -> S:
        return self.evolvers.evolve(state, event)

    def authority(self, name: str) -> str | None:
        found = self.commands.get(name)
        return found.authority if found else None

    def over(self, state: S) -> bool | None:
        """Whether the game has ended; None: the rules give it no end (eu-pop, its economy
        alone, keeps this), so it is never over."""
        return None

    def sentence(self, event: Event, state: S) -> str | None:
        """`event` as a sentence of the story, in the rulebook's words, told on the state
        before it (None: the story's generic words)."""
        from .presenter import presenter_of  # the words are the presenter's, read when told

        return presenter_of(self).sentence(event, state)

    def rule_of(self, name: str) -> str | None:
        """The rule section a command is decided by (the audit cites it)."""
        found = self.commands.get(name)
        return found.rule if found else None
