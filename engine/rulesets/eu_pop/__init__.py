"""Europa Universalis: The Price of Power: minor actions (5.2) and Income & Upkeep (4.4).

A group keeps its realms' economy in the record: treasury, monarch power, manpower,
stability, prestige, loans. What the record does not model (Turn Actions, cards, wars) is
entered with `adjust`. See docs/eu-pop.md for the commands, positions and projections.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from warscribe.engine.codec import topic_of
from warscribe.engine.common import RECORD_EVENTS
from warscribe.engine.dice import Dice
from warscribe.engine.errors import InvalidCommand, LogError
from warscribe.engine.events import Command, DataRef, Event, GameCreated
from warscribe.engine.ruleset import GameSpec, LegalCommand, Projection

from . import adjust, call_to_arms, income, legal, loans, minor_actions, turns
from .arguments import CommandSpec, check_known
from .events import PhaseBegun, RealmEstablished, WorldSet
from .position import bind_players, data_ref, load
from .projections import PROJECTIONS, summary
from .rules import START
from .state import ACTION, INCOME_UPKEEP, EuState

_MODULES = (turns, minor_actions, call_to_arms, loans, income, adjust)
COMMANDS: dict[str, CommandSpec] = {
    name: spec for module in _MODULES for name, spec in module.COMMANDS.items()
}
MINOR_ACTIONS = (*minor_actions.COMMANDS, *call_to_arms.COMMANDS, *loans.COMMANDS)


def _establish(state: EuState, event: RealmEstablished) -> EuState:
    return dataclasses.replace(state, realms=(*state.realms, event.realm))


APPLY: dict[type, Any] = {
    RealmEstablished: _establish,
    **{kind: apply for module in _MODULES for kind, apply in module.APPLY.items()},
}

# Events that change no eu-pop state: the record's own.
INFORMATIONAL = RECORD_EVENTS


def _start_text(spec: GameSpec) -> str:
    text = spec.option("start")
    if not isinstance(text, str):
        raise InvalidCommand("eu-pop needs a starting position: --start FILE", START)
    return text


class EuPop:
    """The eu-pop rule set (see `warscribe.engine.ruleset.RuleSet`)."""

    name = "eu-pop"
    projections: Mapping[str, Projection] = PROJECTIONS

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]:
        text = _start_text(spec)
        position = load(text)
        bind_players(position, spec.players)
        return (data_ref(text, position),)

    def setup(self, state: Any, spec: GameSpec, dice: Dice) -> list[Event]:
        position = load(_start_text(spec))
        realms, order = bind_players(position, spec.players)
        return [
            *(RealmEstablished(realm) for realm in realms),
            WorldSet(position.world, "starting position"),
            PhaseBegun(position.round, position.phase, order),
        ]

    def decide(self, state: Any, command: Command, dice: Dice) -> list[Event]:
        spec = COMMANDS.get(command.name)
        if spec is None:
            known = ", ".join(sorted(COMMANDS))
            raise InvalidCommand(f"eu-pop has no command {command.name!r}; it has: {known}", START)
        check_known(command, spec.args, spec.rule)
        return list(spec.decide(state, command))

    def evolve(self, state: Any, event: Event) -> Any:
        if isinstance(event, GameCreated):
            return EuState()
        apply = APPLY.get(type(event))
        if apply is not None:
            return apply(state, event)
        if isinstance(event, INFORMATIONAL):
            return state
        raise LogError(f"eu-pop has no evolver for {topic_of(type(event))}")

    def position(self, state: Any) -> str | None:
        label: str | None = state.label
        return label

    def whose_turn(self, state: Any) -> str | None:
        """The realm to act in the Action phase; in Phase 4 the first still to record the
        open step; otherwise the first in turn order (any player may end those phases)."""
        if not state.order:
            return None
        name = state.turn or next(iter(turns.waiting(state)), state.order[0])
        player: str = state.realm(name).player
        return player

    def legal(self, state: Any) -> tuple[LegalCommand, ...]:
        return legal.legal(state)

    def legal_commands(self, state: Any) -> tuple[str, ...]:
        if state.phase == ACTION and state.turn:
            return (*MINOR_ACTIONS, "end-turn", "pass", "adjust")
        if state.phase == INCOME_UPKEEP and state.step in income.STEP_COMMANDS:
            return (income.STEP_COMMANDS[state.step], "take-loan", "adjust")
        return ("end-phase", "adjust")

    def summary(self, state: Any) -> dict[str, Any]:
        return summary(state)

    def rule_of(self, command: str) -> str | None:
        """The rule section a command is decided by (the audit cites it)."""
        spec = COMMANDS.get(command)
        return spec.rule if spec else None


RULESET = EuPop()

__all__ = ["COMMANDS", "RULESET", "EuPop"]
