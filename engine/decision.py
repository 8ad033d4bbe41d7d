"""One decision in the making: what a command, and every hook after it, decides from.

A `Decision` holds the state so far, the game's data (loaded once per game by its rule
set), the dice, the command's typed `Call`, and the events decided so far. `emit` adds
events and evolves the state as it goes, so each rule sees what the ones before it did (a
deactivation after an elimination sees the eliminated player's allies, say); `ask` asks a
player a decision through the rule set's own decision-asked event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .events import Event

if TYPE_CHECKING:  # the decision is made with them; `commands` decides with it
    from .commands import Call
    from .dice import Dice

S = TypeVar("S")
D = TypeVar("D")

Asking = Callable[..., Event]
"""A rule set's decision-asked event for `(kind, player, options, **more)`."""


class Decision(Generic[S, D]):
    """The state so far (`state`), the game's data (`data`), the dice, the typed `call`,
    and the events decided so far (`events`), in order."""

    __slots__ = ("_asking", "_call", "_evolve", "data", "dice", "events", "state")

    def __init__(
        self,
        state: S,
        call: Call | None,
        data: D,
        dice: Dice,
        evolve: Callable[[S, Event], S],
        asking: Asking | None = None,
    ) -> None:
        self.state = state
        self._call = call
        self.data = data
        self.dice = dice
        self.events: list[Event] = []
        self._evolve = evolve
        self._asking = asking

    @property
    def call(self) -> Call:
        """The command decided (none for a set-up or a trial: the rules decide alone)."""
        if self._call is None:
            raise TypeError("this decision decides no command (a set-up or a trial)")
        return self._call

    def emit(self, *events: Event) -> None:
        """Add `events`, each evolving the state in turn."""
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)

    def ask(self, kind: str, player: str, options: tuple[str, ...] = (), **more: Any) -> None:
        """Ask `player` a decision of `kind` among `options` (its rule set's event for it,
        given `more` of what the event records: why, how many...)."""
        if self._asking is None:
            raise TypeError("this rule set asks no decisions")
        self.emit(self._asking(kind, player, options, **more))

    def under(self, call: Call, decide: Callable[[Decision[S, D]], None]) -> None:
        """`decide` run on this decision as `call` (a command the rules give for a player),
        then the call decided before back."""
        given, self._call = self._call, call
        try:
            decide(self)
        finally:
            self._call = given

    def trial(self) -> Decision[S, D]:
        """A decision going on from the state so far with none of these events, to try a
        step on without keeping it (a dry walk)."""
        return Decision(self.state, self._call, self.data, self.dice, self._evolve, self._asking)
