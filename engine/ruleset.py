"""The interface every rule set implements (see DESIGN.md, "The engine")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .dice import Dice
from .events import Command, DataRef, Event


@dataclass(frozen=True)
class PlayerSpec:
    """A player as given to `new`: a name and, optionally, the side they choose."""

    name: str
    choice: str | None = None


@dataclass(frozen=True)
class GameSpec:
    """What `new` was asked for, before anything is decided."""

    name: str
    players: tuple[PlayerSpec, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def option(self, key: str, default: Any = None) -> Any:
        return dict(self.options).get(key, default)


Projection = Callable[[Any], Any]


class RuleSet(Protocol):
    """A game's rules as pure functions over an immutable state.

    * `validate_spec(spec)` checks what `new` was given and names the data files the game
      is built on (recorded with their digests in GameCreated);
    * `setup(state, spec, dice)` decides the set-up events that follow GameCreated;
    * `decide(state, command, dice)` checks a command and returns its events, or raises a
      RuleError citing the rule; it draws dice only from `dice`;
    * `evolve(state, event)` applies a fact (state is None before GameCreated); it never
      validates, rolls or reads a clock;
    * `position(state)` labels where the game stands (`TURN.PLAYER-TURN.PHASE`);
    * `whose_turn(state)` names the player who may act now (None when nobody can);
    * `legal_commands(state)` lists the commands that player may give now;
    * `summary(state)` is what `status` prints beyond turn and phase;
    * `projections` maps a query name to a pure function of the state.

    Optional: `rule_of(command_name) -> str | None`, the rule section a command is decided
    by; the audit cites it when the events that differ do not name their rule
    (`Event.rule_section`).
    """

    name: str
    projections: Mapping[str, Projection]

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]: ...

    def setup(self, state: Any, spec: GameSpec, dice: Dice) -> list[Event]: ...

    def decide(self, state: Any, command: Command, dice: Dice) -> list[Event]: ...

    def evolve(self, state: Any, event: Event) -> Any: ...

    def position(self, state: Any) -> str | None: ...

    def whose_turn(self, state: Any) -> str | None: ...

    def legal_commands(self, state: Any) -> tuple[str, ...]: ...

    def summary(self, state: Any) -> dict[str, Any]: ...
