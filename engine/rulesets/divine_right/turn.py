"""The Game Turn and Player-Order Determination: phases in order, whose turn it is, the
end of a phase, a new game turn's randomizer chits, and the end of the game."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar

from warscribe.engine.dice import Dice
from warscribe.engine.errors import IllegalCommand, NotYourTurn
from warscribe.engine.events import Command

from .data import DRData
from .events import DecisionAsked, DecisionWithdrawn, PhaseEnded, PlayerOrderDrawn
from .evolving import Outcome, handles
from .kingdoms import finish, turn_starts
from .sections import DIPLOMACY_CARDS, GAME_TURN, RANDOM_EVENTS_PHASE, VICTORY
from .setup import player_order
from .state import LAST_TURN, PHASE_TITLES, PHASES, TURN_OVER, Pending, Progress, State, Turn

HAND_LIMIT = 4


def current(state: State, command: Command, phase: str | None = None) -> Turn:
    """The turn, after checking the game goes on, it is the actor's turn and phase."""
    turn = state.turn
    if state.outcome is not None or turn is None:
        raise IllegalCommand("the game is over", VICTORY)
    if command.actor != turn.player:
        raise NotYourTurn(
            f"it is {turn.player}'s turn ({turn.label}), not {command.actor}'s", GAME_TURN
        )
    if phase is not None and turn.phase != phase:
        raise IllegalCommand(
            f"`{command.name}` belongs to the {PHASE_TITLES[phase]}; {turn.player} is in the "
            f"{PHASE_TITLES[turn.phase]} ({turn.label})",
            GAME_TURN,
        )
    pending = turn.progress.pending
    if pending is not None and not command.name.startswith(_PENDING_PREFIX.get(pending.kind, "\0")):
        raise IllegalCommand(
            f"{pending.player} must first decide: {pending.why} ({pending.kind})", GAME_TURN
        )
    return turn


Stands = Callable[[State, Pending], bool]
_PENDING_PREFIX: dict[str, str | tuple[str, ...]] = {}
_STANDS: dict[str, Stands] = {}


def answers_pending(kind: str, prefix: str | tuple[str, ...], stands: Stands) -> None:
    """Declare that commands starting with `prefix` (or one of several) answer a pending
    decision `kind`, and whether what it asks about still stands: `stands(state, pending)`.
    Once it does not, however it ended, the decision is withdrawn (`withdrawals`)."""
    _PENDING_PREFIX[kind] = prefix
    _STANDS[kind] = stands


def answered_by(kind: str) -> tuple[str, ...]:
    """The prefixes of the commands answering a decision of `kind`."""
    prefix = _PENDING_PREFIX.get(kind, ())
    return (prefix,) if isinstance(prefix, str) else prefix


def pending_kinds() -> tuple[str, ...]:
    """Every kind of decision the rules may ask."""
    return tuple(sorted(_STANDS))


def offered_units(state: State, pending: Pending) -> bool:
    """A choice among units stands while one of the units offered is on the map."""
    return any(unit in state.units for unit in pending.options)


def withdrawals(state: State) -> list[DecisionWithdrawn]:
    """The decisions asked or queued that are no longer to be made: their player is out
    of the game, or what they ask about is over."""
    progress = state.turn.progress if state.turn else Progress()
    waiting = [p for p in (progress.pending, *progress.queue) if p is not None]
    found = []
    for pending in waiting:
        why = _over(state, pending)
        if why is not None:
            found.append(DecisionWithdrawn(pending.player, pending.kind, pending.options, why))
    return found


def _over(state: State, pending: Pending) -> str | None:
    if state.has_player(pending.player) and state.player(pending.player).eliminated:
        return f"{pending.player} is out of the game"
    if not _STANDS[pending.kind](state, pending):
        return f"what it asked about is over ({pending.why})"
    return None


def answering(state: State, command: Command, kinds: tuple[str, ...], rule: str) -> Pending:
    """The decision `command` answers, after checking one of `kinds` is asked of its actor
    (who need not be the player whose turn it is)."""
    turn = state.turn
    if state.outcome is not None or turn is None:
        raise IllegalCommand("the game is over", VICTORY)
    pending = turn.progress.pending
    if pending is None or pending.kind not in kinds:
        asked = f"the decision asked is: {pending.why}" if pending else "no decision is asked"
        raise IllegalCommand(f"`{command.name}` answers no decision now; {asked}", rule)
    if command.actor != pending.player:
        raise NotYourTurn(f"{pending.player} must decide: {pending.why}", rule)
    return pending


def ask(state: State, pending: Pending) -> State:
    """The state with `pending` asked now, or queued behind the decision already asked."""
    assert state.turn is not None
    progress = state.turn.progress
    if progress.pending is None:
        return state.with_progress(pending=pending)
    return state.with_progress(queue=(*progress.queue, pending))


def asked(state: State, kind: str) -> bool:
    """Whether a decision of `kind` is asked now or queued."""
    progress = state.turn.progress if state.turn else Progress()
    waiting = (progress.pending, *progress.queue)
    return any(p is not None and p.kind == kind for p in waiting)


Hook = Callable[[Outcome, DRData, Dice], None]
Due = Callable[[State, DRData], list[DecisionAsked]]
_PHASE_END: dict[str, list[Hook]] = {}
_DUE: dict[str, list[Due]] = {}
_AFTER_DECISION: list[Hook] = []
_GAME_TURN_START: list[Hook] = []
_PLAYER_TURN_START: list[Hook] = []
_PHASE_COMMANDS: dict[str, tuple[str, ...]] = {}
_T = TypeVar("_T")


def _in_phase(registry: dict[str, list[_T]], phase: str) -> Callable[[_T], _T]:
    """A decorator registering its function under `phase` in `registry`."""

    def register(item: _T) -> _T:
        registry.setdefault(phase, []).append(item)
        return item

    return register


def at_phase_end(phase: str) -> Callable[[Hook], Hook]:
    """Register what happens as the player whose turn it is closes `phase` (before the
    phase ends): `hook(out, data, dice)`."""
    return _in_phase(_PHASE_END, phase)


def at_game_turn_start(hook: Hook) -> Hook:
    """Register what happens as a new game turn begins (after the player order is drawn)."""
    _GAME_TURN_START.append(hook)
    return hook


def at_player_turn_start(hook: Hook) -> Hook:
    """Register what happens as a player turn begins (before its Random Events Phase)."""
    _PLAYER_TURN_START.append(hook)
    return hook


def due_before_phase_end(phase: str) -> Callable[[Due], Due]:
    """Register a check made before the player may close `phase`: `due(state, data)`
    raises when something must be done first, or returns the decisions other players
    must make first (asked by the refused `end-phase`, which is then given again)."""
    return _in_phase(_DUE, phase)


def after_decision(hook: Hook) -> Hook:
    """Register what is settled after every decision (sieges become invalid, say)."""
    _AFTER_DECISION.append(hook)
    return hook


def settle(out: Outcome, data: DRData, dice: Dice) -> None:
    """Run the after-decision hooks on a decision's outcome, then withdraw the decisions
    whatever happened has made moot."""
    for hook in _AFTER_DECISION:
        hook(out, data, dice)
    out.add(*withdrawals(out.state))


def phase_commands(phase: str, names: tuple[str, ...]) -> None:
    """Declare the commands (as the CLI spells them) a player may give in `phase`."""
    _PHASE_COMMANDS[phase] = _PHASE_COMMANDS.get(phase, ()) + names


def end_phase(state: State, command: Command, data: DRData, dice: Dice) -> Outcome:
    """Close the phase; after the last player's Combat Phase a new game turn begins with
    newly drawn randomizer chits, or the game ends after turn 20."""
    turn = current(state, command)
    _check_phase_done(state, turn)
    out = Outcome(state)
    due = [ask for check in _DUE.get(turn.phase, ()) for ask in check(state, data)]
    if due:
        out.add(*due)
        return out
    for hook in _PHASE_END.get(turn.phase, ()):
        hook(out, data, dice)
    out.add(PhaseEnded(player=turn.player, phase=turn.phase))
    if out.state.turn is not None and out.state.turn.phase == TURN_OVER:
        if state.number >= LAST_TURN:
            finish(out, f"turn {LAST_TURN} is over: the most victory points win (Victory B)")
        else:
            out.add(*player_order(state.number + 1, state.active_players(), dice))
            turn_starts(out, dice)
            _run(_GAME_TURN_START, out, data, dice)
    if out.state.turn is not None and out.state.turn.phase == PHASES[0]:
        _run(_PLAYER_TURN_START, out, data, dice)
    return out


def _run(hooks: list[Hook], out: Outcome, data: DRData, dice: Dice) -> None:
    for hook in hooks:
        if out.state.outcome is None:
            hook(out, data, dice)


def _check_phase_done(state: State, turn: Turn) -> None:
    progress = turn.progress
    if turn.phase == "random-events" and not progress.rolled:
        raise IllegalCommand("roll the random events first (`events roll`)", RANDOM_EVENTS_PHASE)
    if turn.phase == "diplomacy":
        if not progress.drew:
            raise IllegalCommand(
                "draw a diplomacy card first (`diplomacy draw`), even with a dead ambassador",
                DIPLOMACY_CARDS,
            )
        held = len(state.player(turn.player).hand)
        if held > HAND_LIMIT:
            raise IllegalCommand(
                f"{turn.player} holds {held} diplomacy cards: discard down to {HAND_LIMIT} "
                "before the phase ends (`discard CARD`)",
                DIPLOMACY_CARDS,
            )


def legal_commands(state: State) -> tuple[str, ...]:
    """What the player whose turn it is may do now (names as the CLI spells them)."""
    turn = state.turn
    if turn is None or state.outcome is not None:
        return ()
    progress = turn.progress
    if progress.pending is not None:
        prefix = _PENDING_PREFIX.get(progress.pending.kind, "")
        first = prefix if isinstance(prefix, str) else prefix[0]
        return (first + " ...",)
    if turn.phase == "random-events":
        return ("end-phase",) if progress.rolled else ("events roll",)
    if turn.phase == "diplomacy":
        if not progress.drew:
            return ("diplomacy draw",)
        options: list[str] = []
        player = state.player(turn.player)
        if not progress.acted:
            options.append("diplomacy pass")
            if not player.ambassador_dead(turn.number):
                options += [
                    "diplomacy activate",
                    "diplomacy deactivate",
                    "diplomacy assassinate",
                    "diplomacy duel",
                ]
        options.append("diplomacy force-peace")
        if len(player.hand) > HAND_LIMIT:
            return (*options, "discard")
        return (*options, "discard", "end-phase")
    return (*_PHASE_COMMANDS.get(turn.phase, ()), "end-phase")


@handles(PhaseEnded)
def _phase_ended(state: State, event: PhaseEnded) -> State:
    turn = state.turn
    assert turn is not None
    index = PHASES.index(turn.phase)
    if index + 1 < len(PHASES):
        return state.replace(
            turn=dataclasses.replace(turn, phase=PHASES[index + 1], progress=Progress())
        )
    following = state.next_player_turn()
    if following is not None:
        return state.replace(
            turn=dataclasses.replace(
                turn, player_turn=following, phase=PHASES[0], progress=Progress()
            )
        )
    return state.replace(turn=dataclasses.replace(turn, phase=TURN_OVER, progress=Progress()))


@handles(DecisionAsked)
def _decision_asked(state: State, event: DecisionAsked) -> State:
    pending = Pending(
        kind=event.kind,
        player=event.player,
        options=event.options,
        count=event.count,
        why=event.why,
    )
    return ask(state, pending)


@handles(DecisionWithdrawn)
def _withdrawn(state: State, event: DecisionWithdrawn) -> State:
    progress = state.turn.progress if state.turn else Progress()

    def withdrawn(pending: Pending | None) -> bool:
        asked = (event.player, event.kind, event.options)
        return pending is not None and (pending.player, pending.kind, pending.options) == asked

    if withdrawn(progress.pending):
        return state.with_progress(pending=None)
    first = next(i for i, pending in enumerate(progress.queue) if withdrawn(pending))
    return state.with_progress(queue=progress.queue[:first] + progress.queue[first + 1 :])


@handles(PlayerOrderDrawn)
def _order(state: State, event: PlayerOrderDrawn) -> State:
    return state.replace(turn=Turn(number=event.turn, order=event.order, chits=event.chits))
