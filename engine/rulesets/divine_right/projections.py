"""Queries over a Divine Right state (pure functions, JSON-able answers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .state import PHASE_TITLES, State


def players(state: State) -> list[dict[str, Any]]:
    return [
        {
            "player": p.name,
            "kingdom": p.kingdom,
            "eliminated": p.eliminated,
            "units": len(state.units_of(p.kingdom)),
        }
        for p in state.players
    ]


def kingdoms(state: State) -> list[dict[str, Any]]:
    return [
        {
            "kingdom": k.name,
            "status": k.status,
            "player": k.player,
            "ally": k.ally,
            "personality": k.personality
            if k.personality_revealed
            else ("face down" if k.status != "player" else None),
            "units": len(state.units_of(k.name)),
        }
        for k in state.kingdoms.values()
    ]


def units(state: State) -> list[dict[str, Any]]:
    return [
        {"unit": u.id, "kingdom": u.kingdom, "kind": u.kind, "hex": list(u.hex)}
        for u in sorted(state.units.values(), key=lambda u: u.id)
    ]


def summary(state: State) -> dict[str, Any]:
    turn = state.turn
    return {
        "turn": turn.number if turn else None,
        "order": list(turn.order) if turn else [],
        "chits": {name: chit for name, chit in turn.chits} if turn else {},
        "player": turn.player if turn else None,
        "phase": PHASE_TITLES[turn.phase] if turn else None,
        "players": players(state),
        "diplomacy_deck": state.deck_size,
    }


PROJECTIONS: dict[str, Callable[[State], Any]] = {
    "players": players,
    "kingdoms": kingdoms,
    "units": units,
}
