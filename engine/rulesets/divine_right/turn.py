"""The Game Turn and Player-Order Determination: phases in order, whose turn it is, the
end of a phase, a new game turn's randomizer chits, and the end of the game."""

from __future__ import annotations

from warscribe.engine.codec import replace
from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand, NotYourTurn
from warscribe.engine.events import Command

from .events import (
    DecisionAsked,
    DecisionWithdrawn,
    PhaseEnded,
    PlayerOrderDrawn,
    PlayerTurnEnded,
)
from .evolving import Decision
from .kingdoms import finish, turn_starts
from .sections import DIPLOMACY_CARDS, GAME_TURN, RANDOM_EVENTS_PHASE, VICTORY
from .setup import player_order
from .state import (
    FRESH,
    LAST_TURN,
    PHASE_TITLES,
    PHASES,
    TURN_OVER,
    Pending,
    Progress,
    State,
    Turn,
)
from .tables import Evolvers, Hook, rulebook

HAND_LIMIT = 4


def current(state: State, command: Call | Command, phase: str | None = None) -> Turn:
    """The turn, after checking the game goes on, it is the actor's turn and phase (of a
    command decided, or of one a query asks about)."""
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
    if pending is not None and not command.name.startswith(answered_by(pending.kind) or "\0"):
        raise IllegalCommand(
            f"{pending.player} must first decide: {pending.why} ({pending.kind})", GAME_TURN
        )
    return turn


def answered_by(kind: str) -> tuple[str, ...]:
    """The prefixes of the commands answering a decision of `kind`."""
    answer = rulebook().decisions.get(kind)
    return answer.answered_by if answer else ()


def pending_kinds() -> tuple[str, ...]:
    """Every kind of decision the rules may ask."""
    return tuple(sorted(rulebook().decisions))


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
    if not rulebook().decisions[pending.kind].stands(state, pending):
        return f"what it asked about is over ({pending.why})"
    return None


def answering(state: State, command: Call, kinds: tuple[str, ...], rule: str) -> Pending:
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


def settle(d: Decision) -> None:
    """Run the after-decision hooks on a decision's outcome, then withdraw the decisions
    whatever happened has made moot."""
    for hook in rulebook().after_decision:
        hook(d)
    d.emit(*withdrawals(d.state))
    _turn_of_the_eliminated(d)


def _turn_of_the_eliminated(d: Decision) -> None:
    """Kingdoms › Fate of Player Kingdoms: a player eliminated during his own player turn
    is out of the game at once, so once nothing is left to decide the rest of his turn is
    not played: the next player's turn (or the next game turn) begins."""
    turn = d.state.turn
    if d.state.outcome is not None or turn is None or turn.phase == TURN_OVER:
        return
    if turn.progress.pending is not None or turn.progress.queue:
        return
    if not d.state.player(turn.player).eliminated:
        return
    d.emit(PlayerTurnEnded(player=turn.player, phase=turn.phase))
    _what_follows(d)


def end_phase(d: Decision) -> None:
    """Close the phase; after the last player's Combat Phase a new game turn begins with
    newly drawn randomizer chits, or the game ends after turn 20."""
    turn = current(d.state, d.call)
    _check_phase_done(d.state, turn)
    table = rulebook()
    due = [
        ask
        for check in table.due_before_phase_end.get(turn.phase, ())
        for ask in check(d.state, d.data)
    ]
    if due:
        d.emit(*due)
        return
    for hook in table.at_phase_end.get(turn.phase, ()):
        hook(d)
    d.emit(PhaseEnded(player=turn.player, phase=turn.phase))
    _what_follows(d)


def _what_follows(d: Decision) -> None:
    """After a player turn's end: a new game turn with newly drawn randomizer chits, or the
    end of the game after turn 20; then the next player turn's start."""
    table = rulebook()
    state = d.state
    if state.turn is not None and state.turn.phase == TURN_OVER:
        if state.number >= LAST_TURN:
            finish(d, f"turn {LAST_TURN} is over: the most victory points win (Victory B)")
        else:
            d.emit(*player_order(state.number + 1, state.active_players(), d.dice))
            turn_starts(d)
            _run(table.at_game_turn_start, d)
    if d.state.turn is not None and d.state.turn.phase == PHASES[0]:
        _run(table.at_player_turn_start, d)


def _run(hooks: tuple[Hook, ...], d: Decision) -> None:
    for hook in hooks:
        if d.state.outcome is None:
            hook(d)


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


def _phase_ended(state: State, event: PhaseEnded) -> State:
    turn = state.turn
    assert turn is not None
    index = PHASES.index(turn.phase)
    if index + 1 < len(PHASES):
        return replace(state, turn=replace(turn, phase=PHASES[index + 1], progress=FRESH))
    return _following_player_turn(state, turn)


def _following_player_turn(state: State, turn: Turn) -> State:
    """The next player turn's first phase, or the game turn over when none is left."""
    following = state.next_player_turn()
    if following is not None:
        return replace(
            state, turn=replace(turn, player_turn=following, phase=PHASES[0], progress=FRESH)
        )
    return replace(state, turn=replace(turn, phase=TURN_OVER, progress=FRESH))


def _player_turn_ended(state: State, event: PlayerTurnEnded) -> State:
    assert state.turn is not None
    return _following_player_turn(state, state.turn)


def _decision_asked(state: State, event: DecisionAsked) -> State:
    pending = Pending(
        kind=event.kind,
        player=event.player,
        options=event.options,
        count=event.count,
        why=event.why,
    )
    return ask(state, pending)


def _withdrawn(state: State, event: DecisionWithdrawn) -> State:
    progress = state.turn.progress if state.turn else Progress()

    def withdrawn(pending: Pending | None) -> bool:
        asked = (event.player, event.kind, event.options)
        return pending is not None and (pending.player, pending.kind, pending.options) == asked

    if withdrawn(progress.pending):
        return state.with_progress(pending=None)
    first = next(i for i, pending in enumerate(progress.queue) if withdrawn(pending))
    return state.with_progress(queue=progress.queue[:first] + progress.queue[first + 1 :])


def _order(state: State, event: PlayerOrderDrawn) -> State:
    return state.replace(turn=Turn(number=event.turn, order=event.order, chits=event.chits))


EVOLVERS: Evolvers = {
    PhaseEnded: _phase_ended,
    PlayerTurnEnded: _player_turn_ended,
    DecisionAsked: _decision_asked,
    DecisionWithdrawn: _withdrawn,
    PlayerOrderDrawn: _order,
}
