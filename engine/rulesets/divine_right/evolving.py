"""How each Divine Right event changes the state, and a decision's running outcome.

Rule modules register an `evolve` handler per event class with `@handles`; `evolve` folds
one event (and asks the next queued decision once the one asked is answered); `Outcome`
lets a decision see the state as its own events change it (a
deactivation after an elimination sees the eliminated player's allies, say).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from warscribe.engine.events import Event

from .state import State

E = TypeVar("E", bound=Event)
Handler = Callable[[State, Any], State]

_HANDLERS: dict[type, Handler] = {}


def handles(cls: type[E]) -> Callable[[Callable[[State, E], State]], Callable[[State, E], State]]:
    def register(fn: Callable[[State, E], State]) -> Callable[[State, E], State]:
        _HANDLERS[cls] = fn
        return fn

    return register


def evolve(state: State, event: Event) -> State:
    handler = _HANDLERS.get(type(event))
    return _next_decision(handler(state, event)) if handler else state


def _next_decision(state: State) -> State:
    """Once the decision asked is answered, the first one queued behind it is asked."""
    progress = state.turn.progress if state.turn else None
    if progress is None or progress.pending is not None or not progress.queue:
        return state
    return state.with_progress(pending=progress.queue[0], queue=progress.queue[1:])


class Outcome:
    """The events a decision has made so far and the state they lead to."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def add(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
