"""How each Divine Right event changes the state, and what its rules decide on.

`evolve` folds one event through the rulebook's evolver for its class (and asks the next
queued decision once the one asked is answered); an event the rulebook declares
informational (a fact for the record that changes nothing, e.g. which candidate a random
pick chose) changes nothing, and one it knows no evolver for is refused rather than ignored
silently. Every command and rule decides on a `Decision` (the core's, over Divine Right's
state and data), which sees the state as its own events change it (a deactivation after
an elimination sees the eliminated player's allies, say).
"""

from __future__ import annotations

from typing import Any, TypeAlias
from uuid import UUID

from warscribe.engine import decision
from warscribe.engine import pending as waiting
from warscribe.engine.codec import topic_of
from warscribe.engine.dice import Dice
from warscribe.engine.errors import LogError
from warscribe.engine.events import Event

from .data import DRData
from .events import DecisionAsked
from .state import State
from .tables import Evolver, rulebook

Decision: TypeAlias = decision.Decision[State, DRData]
"""What a Divine Right command, and every rule acting on it, decides on."""


def evolve(state: State, event: Event) -> State:
    table = rulebook()
    evolver = table.evolvers.get(type(event))
    if evolver is not None:
        return next_decision(evolver(state, event))
    if type(event) in table.informational:
        return state
    raise LogError(f"Divine Right has no evolver for {topic_of(type(event))}")


def asking_next(evolver: Evolver) -> Evolver:
    """`evolver`, then the next queued decision asked once the one asked is answered."""
    return lambda state, event: next_decision(evolver(state, event))


def next_decision(state: State) -> State:
    """Once the decision asked is answered, the first one queued behind it is asked."""
    progress = state.turn.progress if state.turn else None
    if progress is None or progress.pending is not None or not progress.queue:
        return state
    now, queue = waiting.following(progress.pending, progress.queue)
    return state.with_progress(pending=now, queue=queue)


def asking(kind: str, player: str, options: tuple[str, ...], **more: Any) -> Event:
    """Divine Right's question to a player (`Decision.ask`): a `DecisionAsked`."""
    return DecisionAsked(player=player, kind=kind, options=options, **more)


def trial(state: State, data: DRData) -> Decision:
    """A decision on trial from `state`, never recorded (the path finder's dry walks)."""
    return decision.Decision(state, None, data, scratch_dice(), evolve, asking)


def scratch_dice() -> Dice:
    """Dice for deciding on trial, never recorded (the path finder's dry walks, `legal`
    keeping the candidates the rules accept)."""
    return Dice(key=bytes(32), game_id=UUID(int=0), chain=bytes(32), next_index=0)
