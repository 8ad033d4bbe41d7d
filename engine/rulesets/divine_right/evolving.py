"""How each Divine Right event changes the state, and a decision's running outcome.

Rule modules register an `evolve` handler per event class with `@handles`, or declare an
event class `informational` (a fact for the record that changes nothing, e.g. which
candidate a random pick chose); `evolve` folds one event (and asks the next queued decision
once the one asked is answered), and refuses an event of this rule set it knows no
evolver for rather than ignore it silently; `Outcome`
lets a decision see the state as its own events change it (a
deactivation after an elimination sees the eliminated player's allies, say).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from warscribe.engine.codec import topic_of
from warscribe.engine.common import RECORD_EVENTS
from warscribe.engine.dice import Dice
from warscribe.engine.errors import LogError
from warscribe.engine.events import Event

from .state import State

E = TypeVar("E", bound=Event)
Handler = Callable[[State, Any], State]

_HANDLERS: dict[type, Handler] = {}
_INFORMATIONAL: set[type] = set(RECORD_EVENTS)


def handles(cls: type[E]) -> Callable[[Callable[[State, E], State]], Callable[[State, E], State]]:
    def register(fn: Callable[[State, E], State]) -> Callable[[State, E], State]:
        _HANDLERS[cls] = fn
        return fn

    return register


def informational(cls: type[E]) -> type[E]:
    """Declare an event class a fact that changes no state (the record's own events are)."""
    _INFORMATIONAL.add(cls)
    return cls


def evolvers() -> tuple[frozenset[type], frozenset[type]]:
    """The event classes with an evolver, and those declared informational."""
    return frozenset(_HANDLERS), frozenset(_INFORMATIONAL)


def evolve(state: State, event: Event) -> State:
    handler = _HANDLERS.get(type(event))
    if handler is not None:
        return _next_decision(handler(state, event))
    if type(event) in _INFORMATIONAL:
        return state
    raise LogError(f"Divine Right has no evolver for {topic_of(type(event))}")


def _next_decision(state: State) -> State:
    """Once the decision asked is answered, the first one queued behind it is asked."""
    progress = state.turn.progress if state.turn else None
    if progress is None or progress.pending is not None or not progress.queue:
        return state
    return state.with_progress(pending=progress.queue[0], queue=progress.queue[1:])


def scratch_dice() -> Dice:
    """Dice for deciding on trial, never recorded (the path finder's dry walks, `legal`
    keeping the candidates the rules accept)."""
    return Dice(key=bytes(32), game_id=UUID(int=0), chain=bytes(32), next_index=0)


class Outcome:
    """The events a decision has made so far and the state they lead to."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def add(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
