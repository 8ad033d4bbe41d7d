"""The Game Turn and Player-Order Determination: phases in order, whose turn it is, the
end of a phase, a new game turn's randomizer chits, and the end of the game."""

from __future__ import annotations

from warscribe.engine import pending as waiting
from warscribe.engine.codec import replace
from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand, NotYourTurn
from warscribe.engine.events import Command

from .events import (
    ChoiceAsked,
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
    PHASES,
    TURN_OVER,
    Pending,
    Progress,
    State,
    Turn,
)
from .tables import Evolvers, Hook, phase_title, rulebook

HAND_LIMIT = 4


def current(state: State, command: Call | Command, phase: str | None = None) -> Turn:
    """The turn, after checking the game goes on, it is the actor's turn and phase (the
    rule book checks them for every command before it is decided: `RuleBook.check_turn`;
    a query, `reach`, asks here)."""
    turn = state.turn
    if state.outcome is not None or turn is None:
        raise IllegalCommand("the game is over", VICTORY)
    if command.actor != turn.player:
        raise NotYourTurn(
            f"it is {turn.player}'s turn ({turn.label}), not {command.actor}'s", GAME_TURN
        )
    if phase is not None and turn.phase != phase:
        raise IllegalCommand(
            f"`{command.name}` belongs to the {phase_title(phase)}; {turn.player} is in the "
            f"{phase_title(turn.phase)} ({turn.label})",
            GAME_TURN,
        )
    return turn


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


def asked_now(state: State) -> Pending:
    """The decision a command answers: the rule book has checked it is one of the kinds
    the command's spec answers, asked of its actor (`RuleBook.check_turn`)."""
    pending = state.turn.progress.pending if state.turn else None
    assert pending is not None
    return pending


def playing(state: State) -> Turn:
    """The turn a command of a phase is given in: the rule book has checked the command
    belongs to the phase, on its actor's turn, with no decision waiting."""
    assert state.turn is not None
    return state.turn


def ask(state: State, pending: Pending) -> State:
    """The state with `pending` asked now, or queued behind the decision already asked
    (the core's queue, `engine.pending`)."""
    assert state.turn is not None
    progress = state.turn.progress
    now, queue = waiting.asked(progress.pending, progress.queue, pending)
    return state.with_progress(pending=now, queue=queue)


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
    not played: his phase ends as any phase does (`close`), then the next player's turn
    (or the next game turn) begins."""
    turn = d.state.turn
    if d.state.outcome is not None or turn is None or turn.phase == TURN_OVER:
        return
    if turn.progress.pending is not None or turn.progress.queue:
        return
    if not d.state.player(turn.player).eliminated:
        return
    close(d, PlayerTurnEnded(player=turn.player, phase=turn.phase))


def end_phase(d: Decision) -> None:
    """Close the phase once its player has done what it requires (its `ready` steps);
    after the last player's Combat Phase a new game turn begins with newly drawn
    randomizer chits, or the game ends after turn 20."""
    turn = playing(d.state)
    for step in rulebook().phase(turn.phase).ready:
        step(d)
    close(d, PhaseEnded(player=turn.player, phase=turn.phase))


def close(d: Decision, ending: PhaseEnded | PlayerTurnEnded) -> None:
    """The end of the phase under way, the same however it ends (its player ends it, or
    is eliminated during it and the rest of his player turn is not played): the decisions
    due before it ends (and before the game turn ends, when it is the game turn's last)
    are asked first, and it ends once they are answered; then its end steps run, it ends
    (`ending`), and what follows begins."""
    turn = d.state.turn
    assert turn is not None
    table = rulebook()
    phase = table.phase(turn.phase)
    last = isinstance(ending, PlayerTurnEnded) or turn.phase == PHASES[-1]
    game_turn = table.turn_order.due_before_game_turn_end
    due = (*phase.due, *(game_turn if last and d.state.next_player_turn() is None else ()))
    made = len(d.events)
    for step in due:
        step(d)
    if len(d.events) > made:
        return
    for step in phase.at_end:
        step(d)
    d.emit(ending)
    _what_follows(d)


def _what_follows(d: Decision) -> None:
    """After a player turn's end: a new game turn with newly drawn randomizer chits, or the
    end of the game after turn 20; then the next player turn's start."""
    order = rulebook().turn_order
    state = d.state
    if state.turn is not None and state.turn.phase == TURN_OVER:
        if state.number >= LAST_TURN:
            finish(d, f"turn {LAST_TURN} is over: the most victory points win (Victory B)")
        else:
            d.emit(*player_order(state.number + 1, state.active_players(), d.dice))
            turn_starts(d)
            _run(order.at_game_turn_start, d)
    if d.state.turn is not None and d.state.turn.phase == PHASES[0]:
        _run(order.at_player_turn_start, d)


def _run(hooks: tuple[Hook, ...], d: Decision) -> None:
    for hook in hooks:
        if d.state.outcome is None:
            hook(d)


def events_rolled(d: Decision) -> None:
    """The Random Events Phase ends once the player has rolled on the table."""
    assert d.state.turn is not None
    if not d.state.turn.progress.rolled:
        raise IllegalCommand("roll the random events first (`events roll`)", RANDOM_EVENTS_PHASE)


def card_drawn(d: Decision) -> None:
    """The Diplomacy Phase ends once the player has drawn a card."""
    assert d.state.turn is not None
    if not d.state.turn.progress.drew:
        raise IllegalCommand(
            "draw a diplomacy card first (`diplomacy draw`), even with a dead ambassador",
            DIPLOMACY_CARDS,
        )


def within_hand_limit(d: Decision) -> None:
    """The Diplomacy Phase ends with the player's hand within the limit."""
    assert d.state.turn is not None
    player = d.state.turn.player
    held = len(d.state.player(player).hand)
    if held > HAND_LIMIT:
        raise IllegalCommand(
            f"{player} holds {held} diplomacy cards: discard down to {HAND_LIMIT} "
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
    return ask(state, pending) if event.queue else state.with_progress(pending=pending)


def _choice_asked(state: State, event: ChoiceAsked) -> State:
    return _decision_asked(state, event.upcast())


def _withdrawn(state: State, event: DecisionWithdrawn) -> State:
    progress = state.turn.progress if state.turn else Progress()
    asked = (event.player, event.kind, event.options)

    def this(pending: Pending) -> bool:
        return (pending.player, pending.kind, pending.options) == asked

    now, queue = waiting.withdrawn(progress.pending, progress.queue, this)
    return state.with_progress(pending=now, queue=queue)


def _order(state: State, event: PlayerOrderDrawn) -> State:
    return state.replace(turn=Turn(number=event.turn, order=event.order, chits=event.chits))


EVOLVERS: Evolvers = {
    PhaseEnded: _phase_ended,
    PlayerTurnEnded: _player_turn_ended,
    DecisionAsked: _decision_asked,
    ChoiceAsked: _choice_asked,
    DecisionWithdrawn: _withdrawn,
    PlayerOrderDrawn: _order,
}
