"""The shape of the Divine Right rule set's tables: what each event does to the state, the
decisions the rules may ask, and the sequence of play (its phases and the steps each runs,
in order; `warscribe.engine.rulebook.Phase`).

Each rule module exports its own part (`EVOLVERS`, `DECISIONS`, `PLACEMENTS`, and its hooks
as plain functions); `rulebook` declares the whole table, in the order the hooks run, and
binds it once (`bind`) for the rules that read it as they play (`rulebook()`). Nothing is
registered by importing a module: a rule the table does not name does not exist, and one it
names cannot be lost by deleting an import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from warscribe.engine.codec import frozen
from warscribe.engine.events import Event
from warscribe.engine.rulebook import Phase, TurnOrder

from .data import DRData
from .state import Hex, Pending, State

if TYPE_CHECKING:
    from .evolving import Decision

Evolver = Callable[[State, Any], State]
Evolvers = Mapping[type[Event], Evolver]
Stands = Callable[[State, Pending], bool]
Hook = Callable[["Decision"], None]
Due = Callable[[State, DRData], list[Any]]
Reaction = Callable[["Decision", str], None]
SetupQuestion = Callable[["Decision", str, str], None]
Finish = Callable[["Decision", str, tuple[str, ...], Hex], None]
Refusal = Callable[[State, DRData, tuple[str, ...], Hex], str]


@frozen
class Answer:
    """A kind of decision the rules may ask: whether what it asks about still stands (once
    not, it is withdrawn). The commands answering it say so themselves (`CommandSpec.answers`)."""

    stands: Stands


@frozen
class Placement:
    """A placement the rules leave to a player, answered by `place`: how it is carried out
    (`finish(d, player, units, hex)`), the section it cites, whether it still
    stands, and why a space not offered breaks it (`refusal`, if the rule says)."""

    finish: Finish
    rule: str
    stands: Stands
    refusal: Refusal | None = None


@frozen
class Rulebook:
    """The whole table (see `rulebook`)."""

    evolvers: Evolvers
    informational: frozenset[type[Event]]
    decisions: Mapping[str, Answer]
    placements: Mapping[str, Placement]
    phases: tuple[Phase[Hook], ...]
    turn_order: TurnOrder[Hook]
    after_decision: tuple[Hook, ...]
    at_setup: tuple[SetupQuestion, ...]
    after_activation: tuple[Reaction, ...]
    after_deactivation: tuple[Reaction, ...]

    def phase(self, name: str) -> Phase[Hook]:
        return next(p for p in self.phases if p.name == name)


def due_step(check: Due) -> Hook:
    """A step asking the decisions `check` finds due (or refusing, as it says)."""

    def step(d: Decision) -> None:
        d.emit(*check(d.state, d.data))

    step.__doc__, step.__qualname__ = check.__doc__, check.__qualname__
    step.__module__ = check.__module__
    return step


_BOUND: list[Rulebook] = []


def bind(table: Rulebook) -> None:
    """Make `table` the rules in play (done once, by `rulebook`)."""
    _BOUND[:] = [table]


def rulebook() -> Rulebook:
    """The rules in play."""
    if not _BOUND:
        raise RuntimeError("the Divine Right rulebook is not bound: import its rule set")
    return _BOUND[0]


def phase_title(phase: str) -> str:
    """The phase as the rule book declares it (its section), or the end of the game turn
    (`TURN_OVER`, between two game turns)."""
    return next((p.rule for p in rulebook().phases if p.name == phase), "end of the game turn")
