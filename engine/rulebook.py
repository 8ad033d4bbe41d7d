"""The one core a rule set fills with tables (see docs/developing.md).

A rule set is a `RuleBook[State]`: its commands (`CommandSpec`s), its complete evolver
table (`Evolvers`), its sequence of play (`Phase`s, in order), its hooks in the order they
run, its projections and what `new` takes. `decide`, `evolve`, argument checking, the
check that a command belongs to the phase and to its player's turn, the pending-decision
check (which commands answer which decision: `CommandSpec.answers`, nowhere else) and "the
state after my own events" are written here once; a rule set writes only its rules. A
command's spec and every hook decide on one `Decision`: the state so far, the game's data
(`data`), the dice and the typed call; each `emit`s its events.
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
from .errors import IllegalCommand, InvalidCommand, LogError, NotYourTurn
from .events import Command, Event, GameCreated
from .offers import offers, on_trial
from .ruleset import GameSpec, LegalCommand, Projection, names

S = TypeVar("S")
H = TypeVar("H")


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
class Waiting:
    """A decision the game waits for: its kind, the player who must give it and why."""

    kind: str
    player: str
    why: str = ""


@frozen
class Phase(Generic[H]):
    """A phase of the sequence of play (boardgame.io's `phases`), everything about it in
    one place: its name (as `position` labels it), the rule section it is played under,
    the commands the player on turn gives in it (an answer to a decision is given in any
    phase, by the player asked), and its steps, each run in the order written: `ready`
    (what its player must have done before he may end it: each refuses, naming what is
    left), `due` (decisions asked of anyone before it ends: it ends once they are
    answered) and `at_end` (what runs as it ends). H is the rule set's step type; the
    rule set runs the steps (the same ones however the phase ends: `RuleBook.phase`)."""

    name: str
    rule: str
    commands: tuple[str, ...] = ()
    ready: tuple[H, ...] = ()
    due: tuple[H, ...] = ()
    at_end: tuple[H, ...] = ()


@frozen
class TurnOrder(Generic[H]):
    """How the phases follow each other (boardgame.io's `turn`): the commands given in
    every phase by the player on turn (ending it, say), and those given at any time
    whatever the phase or the decision asked; what is due before a game turn
    ends (after its last phase's own), and what runs as a game turn, then a player turn,
    begins, in the order written."""

    every_phase: tuple[str, ...] = ()
    any_time: tuple[str, ...] = ()
    due_before_game_turn_end: tuple[H, ...] = ()
    at_game_turn_start: tuple[H, ...] = ()
    at_player_turn_start: tuple[H, ...] = ()


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
    sequence: tuple[Phase[Any], ...] = ()
    """The phases in the order they are played; empty when the game has none."""
    turn_order: TurnOrder[Any] = TurnOrder()
    over_rule: str = ""
    """The rule a command given once the game is over is refused under (its victory)."""
    asking: Asking | None = None
    """The event asking a player a decision (`Decision.ask`); None: the game asks none."""
    presenter: str | None = None
    """Its presentation, `"module:ATTRIBUTE"` (`warscribe.engine.presenter`): its queries'
    text, its board, its viewer frames and its story's words, imported on first use; None:
    its queries print JSON, it has no board and the story tells its events generically."""
    new: NewSpec
    on_trial: frozenset[str] = frozenset()
    """The commands whose candidates `legal` keeps only when `decide` accepts them on
    scratch dice: those whose argument domains cannot say every rule (each candidate
    costs a decision); the others' domains are exact."""

    def spec(self, name: str) -> CommandSpec[S]:
        found = self.commands.get(name)
        if found is None:
            known = ", ".join(sorted(self.commands))
            raise InvalidCommand(f"{self.name} has no command {name!r}; it has: {known}", self.rule)
        return found

    @property
    def phases(self) -> tuple[str, ...]:
        """The phases a position names last (`position`); empty when it names none."""
        return tuple(p.name for p in self.sequence)

    def phase(self, name: str) -> Phase[Any]:
        """The phase called `name`."""
        return next(p for p in self.sequence if p.name == name)

    def sections(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The commands by their place in the sequence of play, as help lists them: each
        phase's (titled with its rule), those of every phase, the answers to a decision,
        those given at any time, then the rest; a command in several is listed in its
        first."""
        order = self.turn_order
        answers = tuple(name for name, spec in self.commands.items() if spec.answers)
        found = [(phase.rule, phase.commands) for phase in self.sequence]
        found += [("Every phase", order.every_phase), ("Answers to a decision", answers)]
        found += [("At any time", order.any_time)]
        listed: set[str] = set()
        sections = []
        for title, listing in (*found, ("Other commands", tuple(self.commands))):
            kept = tuple(name for name in listing if name not in listed)
            listed.update(kept)
            if kept:
                sections.append((title, kept))
        return tuple(sections)

    def current_phase(self, state: S) -> str | None:
        """The phase play is in (None: none, or the game has no phases)."""
        return None

    def on_turn(self, state: S) -> str | None:
        """The player whose turn it is, who gives the phases' commands (None: the rules
        say who may give each, as eu-pop's Reactions out of turn)."""
        return None

    def pending(self, state: S) -> Waiting | None:
        """The decision the game waits for (None: it waits for none)."""
        return None

    def data(self, state: S) -> Any:
        """The game's data its rules read (None: they read none but the state)."""
        return None

    def decide(self, state: S, command: Command, dice: Dice) -> list[Event]:
        """The command's events, then each hook's, in the order the hooks are written."""
        spec = self.spec(command.name)
        self.check_turn(state, spec, command.actor)
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
        """The commands the position allows, each with the player who may give it (what
        `check_turn` accepts): the answers to the decision asked, to the player asked;
        else the commands of whose turn it is allowed in the current phase."""
        waiting = self.pending(state)
        if waiting is not None:
            for spec in self.commands.values():
                if waiting.kind in spec.answers and spec.authority != REFEREE:
                    yield waiting.player, spec
            return
        player = self.whose_turn(state)
        if player is None:
            return
        for spec in self.commands.values():
            if spec.authority != REFEREE and self._in_phase(state, spec):
                yield player, spec

    def _in_phase(self, state: S, spec: CommandSpec[S]) -> bool:
        """Whether the player on turn may give `spec` now, no decision waiting: given in
        the current phase (or in no declared one), and not only an answer."""
        phases = self._phases_of(spec.name)
        if phases is None:
            return not spec.answers
        now = self.current_phase(state)
        return now is None or now in phases

    def context(self, state: S) -> Any:
        """What the argument domains read beyond the state (`Sofar.context`)."""
        return None

    def legal(self, state: S) -> tuple[LegalCommand, ...]:
        """Every command a player may give now, read off the specs (`offers`)."""
        accepts = on_trial(self.decide, state, self.on_trial) if self.on_trial else None
        return tuple(offers(state, self.offered(state), self.context(state), accepts))

    def legal_commands(self, state: S) -> tuple[str, ...]:
        """What `status` lists: the commands offered to whose turn it is, as spelled,
        those of every phase (ending it) last."""
        spelled = {spec.name: spec.spelled for spec in self.commands.values()}
        return names(
            self.legal(state),
            self.whose_turn(state),
            lambda n: spelled.get(n, n),
            self.turn_order.every_phase,
        )

    def check_turn(self, state: S, spec: CommandSpec[S], actor: str) -> None:
        """Refuse a command out of its place in the sequence of play: an answer to a
        decision not asked, or given by another than the player asked; a command of the
        player on turn once the game is over, out of his turn or of its phase (those of
        `sequence`), or while a decision waits. A command given at any time (`any_time`:
        an eliminated player's re-entry, say) is its rules' to check."""
        waiting = self.pending(state)
        if waiting is not None and waiting.kind in spec.answers:
            if actor != waiting.player:
                raise NotYourTurn(f"{waiting.player} must decide: {waiting.why}", spec.rule)
            return
        if spec.name in self.turn_order.any_time:
            return
        phases = self._phases_of(spec.name)
        if spec.answers and phases is None:
            asked = f"the decision asked is: {waiting.why}" if waiting else "no decision is asked"
            raise IllegalCommand(f"`{spec.name}` answers no decision now; {asked}", spec.rule)
        if spec.authority != TURN:
            return
        if phases is not None:
            self._check_phase(state, spec, actor, phases)
        if waiting is not None:
            raise IllegalCommand(
                f"{waiting.player} must first decide: {waiting.why} ({waiting.kind})", self.rule
            )

    def _phases_of(self, name: str) -> tuple[str, ...] | None:
        """The phases a command is given in (every one for `every_phase`), None: none."""
        if name in self.turn_order.every_phase:
            return self.phases
        found = tuple(p.name for p in self.sequence if name in p.commands)
        return found or None

    def _check_phase(
        self, state: S, spec: CommandSpec[S], actor: str, phases: tuple[str, ...]
    ) -> None:
        if self.over(state):
            raise IllegalCommand("the game is over", self.over_rule or self.rule)
        player, now = self.on_turn(state), self.current_phase(state)
        where = self.position(state)
        if player is not None and actor != player:
            raise NotYourTurn(f"it is {player}'s turn ({where}), not {actor}'s", self.rule)
        if now is not None and now not in phases:
            raise IllegalCommand(
                f"`{spec.name}` belongs to the {self._title(phases[0])}; "
                f"{player or 'play'} is in the {self._title(now)} ({where})",
                self.rule,
            )

    def _title(self, phase: str) -> str:
        return next((p.rule for p in self.sequence if p.name == phase), phase)

    def position(self, state: S) -> str | None:
        """Where the game stands (`TURN.PLAYER-TURN.PHASE`; None: it has not begun)."""
        return None

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
