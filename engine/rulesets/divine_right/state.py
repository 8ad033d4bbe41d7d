"""The state of a Divine Right game: immutable, rebuilt by folding the log."""

from __future__ import annotations

import dataclasses
from typing import Any

from warscribe.engine.codec import record

Hex = tuple[int, int]

PHASES = ("random-events", "diplomacy", "siege", "movement", "combat")
PHASE_TITLES = {
    "random-events": "Random Events Phase",
    "diplomacy": "Diplomacy Phase",
    "siege": "Siege Phase",
    "movement": "Movement Phase",
    "combat": "Combat Phase",
}
LAST_TURN = 20


@record("dr.Player")
class Player:
    """A player and their player kingdom."""

    name: str
    kingdom: str
    eliminated: bool = False


@record("dr.Unit")
class Unit:
    """A piece on the map: a monarch, a regular army or fleet, or a common mercenary."""

    id: str
    kingdom: str
    kind: str
    hex: Hex


@record("dr.KingdomState")
class KingdomState:
    """A kingdom's standing: whose it is, its ally, its face-down personality card."""

    name: str
    player: str | None = None
    ally: str | None = None
    personality: int | None = None
    personality_revealed: bool = False

    @property
    def status(self) -> str:
        if self.player is not None:
            return "player"
        return "active" if self.ally is not None else "inactive"


@record("dr.Turn")
class Turn:
    """Where play stands: game turn, the player order drawn for it, player-turn and phase."""

    number: int
    order: tuple[str, ...]
    chits: tuple[tuple[str, int], ...]
    player_turn: int = 1
    phase: str = PHASES[0]

    @property
    def player(self) -> str:
        return self.order[self.player_turn - 1]

    @property
    def label(self) -> str:
        return f"{self.number}.{self.player_turn}.{self.phase}"


@record("dr.State")
class State:
    """A Divine Right game: players, kingdoms, units on the map, decks and the turn."""

    players: tuple[Player, ...]
    kingdoms: dict[str, KingdomState]
    units: dict[str, Unit]
    deck: tuple[str, ...] | None = None
    deck_size: int = 0
    personality_pool: tuple[int, ...] | None = None
    turn: Turn | None = None
    data: tuple[tuple[str, str], ...] = ()

    def replace(self, **changes: Any) -> State:
        return dataclasses.replace(self, **changes)

    def player(self, name: str) -> Player | None:
        return next((p for p in self.players if p.name == name), None)

    def units_of(self, kingdom: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units.values() if u.kingdom == kingdom)
