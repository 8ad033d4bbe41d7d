"""The shape of the Divine Right rule set's tables: what each event does to the state, which
commands answer which decision, and the hooks the Game Turn runs, in order.

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
    """A kind of decision the rules may ask: the commands answering it (name prefixes), and
    whether what it asks about still stands (once not, it is withdrawn)."""

    answered_by: tuple[str, ...]
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
    due_before_phase_end: Mapping[str, tuple[Due, ...]]
    at_phase_end: Mapping[str, tuple[Hook, ...]]
    after_decision: tuple[Hook, ...]
    at_game_turn_start: tuple[Hook, ...]
    at_player_turn_start: tuple[Hook, ...]
    at_setup: tuple[SetupQuestion, ...]
    after_activation: tuple[Reaction, ...]
    after_deactivation: tuple[Reaction, ...]


_BOUND: list[Rulebook] = []


def bind(table: Rulebook) -> None:
    """Make `table` the rules in play (done once, by `rulebook`)."""
    _BOUND[:] = [table]


def rulebook() -> Rulebook:
    """The rules in play."""
    if not _BOUND:
        raise RuntimeError("the Divine Right rulebook is not bound: import its rule set")
    return _BOUND[0]
