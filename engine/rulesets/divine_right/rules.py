"""The Divine Right rule set: decide and evolve over the game state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from warscribe.engine.dice import Dice
from warscribe.engine.errors import InvalidCommand
from warscribe.engine.events import Command, DataRef, Event, GameCreated
from warscribe.engine.ruleset import GameSpec

from . import projections
from .data import DRData, load_builtin
from .events import (
    DiplomacyDeckShuffled,
    IdentityTaken,
    KingdomDeployed,
    PersonalitiesDealt,
    PlayerOrderDrawn,
)
from .setup import check_players, setup_events
from .state import PHASE_TITLES, KingdomState, Player, State, Turn, Unit


class DivineRight:
    """Divine Right, basic game."""

    name = "divine-right"
    projections: Mapping[str, Callable[[Any], Any]] = projections.PROJECTIONS

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]:
        data = load_builtin()
        check_players(spec, data)
        return data.refs

    def setup(self, state: State, spec: GameSpec, dice: Dice) -> list[Event]:
        return setup_events(spec, load_builtin(), dice)

    def decide(self, state: State, command: Command, dice: Dice) -> list[Event]:
        raise InvalidCommand(
            f"unknown command {command.name!r} at {self.position(state)}; "
            f"commands now: {', '.join(self.legal_commands(state))}",
            PHASE_TITLES.get(state.turn.phase, "The Game Turn") if state.turn else "The Game Turn",
        )

    def evolve(self, state: State | None, event: Event) -> State:
        if state is None:
            assert isinstance(event, GameCreated)
            return _created(event, load_builtin())
        handler = _EVOLVE.get(type(event))
        return handler(state, event) if handler else state

    def position(self, state: State) -> str | None:
        return state.turn.label if state.turn else None

    def whose_turn(self, state: State) -> str | None:
        return state.turn.player if state.turn else None

    def legal_commands(self, state: State) -> tuple[str, ...]:
        return ("roll",)

    def summary(self, state: State) -> dict[str, Any]:
        return projections.summary(state)


def _created(event: GameCreated, data: DRData) -> State:
    return State(
        players=(),
        kingdoms={k.name: KingdomState(name=k.name) for k in data.basic_kingdoms()},
        units={},
        data=tuple((ref.name, ref.digest) for ref in event.data),
    )


def _identity(state: State, event: IdentityTaken) -> State:
    kingdoms = dict(state.kingdoms)
    kingdoms[event.kingdom] = KingdomState(name=event.kingdom, player=event.player)
    return state.replace(
        players=(*state.players, Player(name=event.player, kingdom=event.kingdom)),
        kingdoms=kingdoms,
    )


def _deployed(state: State, event: KingdomDeployed) -> State:
    units = dict(state.units)
    for p in event.placements:
        units[p.unit] = Unit(id=p.unit, kingdom=event.kingdom, kind=p.kind, hex=p.hex)
    return state.replace(units=units)


def _dealt(state: State, event: PersonalitiesDealt) -> State:
    kingdoms = dict(state.kingdoms)
    cards = event.cards or (None,) * len(event.kingdoms)
    for kingdom, card in zip(event.kingdoms, cards, strict=True):
        kingdoms[kingdom] = KingdomState(name=kingdom, personality=card)
    return state.replace(kingdoms=kingdoms, personality_pool=event.pool)


def _shuffled(state: State, event: DiplomacyDeckShuffled) -> State:
    return state.replace(deck=event.cards, deck_size=event.size)


def _order(state: State, event: PlayerOrderDrawn) -> State:
    return state.replace(turn=Turn(number=event.turn, order=event.order, chits=event.chits))


_EVOLVE: dict[type, Callable[[State, Any], State]] = {
    IdentityTaken: _identity,
    KingdomDeployed: _deployed,
    PersonalitiesDealt: _dealt,
    DiplomacyDeckShuffled: _shuffled,
    PlayerOrderDrawn: _order,
}
