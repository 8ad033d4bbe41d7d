"""Queries over a Divine Right state (pure functions, JSON-able answers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .data import load_custom
from .kingdoms import totals
from .mapview import board, stacks
from .siege.declare import listing as sieges
from .state import State
from .tables import phase_title


def players(state: State) -> list[dict[str, Any]]:
    return [
        {
            "player": p.name,
            "kingdom": p.kingdom,
            "eliminated": p.eliminated,
            "units": len(state.units_of(p.kingdom)),
            "cards": len(p.hand),
            "ambassador": "dead" if p.ambassador_dead(state.number) else "alive",
            "ambassador_back_on": p.ambassador_back if p.ambassador_dead(state.number) else None,
            "assassination_used": p.assassination_used,
            "penalties": sorted(p.penalties),
        }
        for p in state.players
    ]


def kingdoms(state: State) -> list[dict[str, Any]]:
    """Each kingdom, by name: status, ally, monarch, its personality card where it is face up (by
    number and name), Confusion or Forced Peace and until when."""
    names = {card.number: card.name for card in load_custom(state.custom_data).personalities}
    rows = []
    for _, k in sorted(state.kingdoms.items()):
        shown = k.personality if k.revealed else None
        monarch = "on the map" if f"{k.name}-monarch" in state.units else "off the map"
        if k.captive_of:
            monarch = f"captive of {k.captive_of}"
        elif k.confusion_until is not None:
            monarch = "none (Confusion)"
        rows.append(
            {
                "kingdom": k.name,
                "status": k.status,
                "player": k.player,
                "ally": k.ally,
                "monarch": monarch,
                "personality": shown,
                "personality_name": names.get(shown) if shown is not None else None,
                "confusion_until": k.confusion_until,
                "forced_peace_until": k.peace_until,
                "activated_on": k.activated_on,
                "units": len(state.units_of(k.name)),
            }
        )
    return rows


def vp(state: State) -> dict[str, Any]:
    """Victory points: each player's total and the ledger of deeds (rulebook: Victory)."""
    return {
        "totals": totals(state),
        "ledger": [
            {"turn": d.turn, "player": d.player, "deed": d.deed, "points": d.points}
            for d in state.ledger
        ],
    }


def banishments(state: State) -> dict[str, list[dict[str, Any]]]:
    """Each player's banishments in force: kingdom, turns left (None: until the monarch
    dies) and why (Diplomacy Phase › Banishing Ambassadors).

    The turns left are the full game turns still to pass under the banishment, the
    current one included once it is not the turn the banishment was incurred on: a +1
    Threat failed on turn 1 banishes for turns 2 and 3, so 2 turns are left on turns 1
    and 2 and 1 on turn 3."""
    now = state.number
    out: dict[str, list[dict[str, Any]]] = {p.name: [] for p in state.players}
    for b in state.banishments:
        if b.until is not None and b.until <= now:
            continue
        out[b.player].append(
            {
                "kingdom": b.kingdom,
                "until_turn": b.until,
                "turns_left": None if b.until is None else b.until - max(now, b.since + 1),
                "why": b.why,
                "since_turn": b.since,
            }
        )
    return out


def units(state: State) -> list[dict[str, Any]]:
    return [
        {
            "unit": u.id,
            "kingdom": u.kingdom,
            "kind": u.kind,
            "hex": list(u.hex),
            "owner": state.controller(u),
        }
        for u in sorted(state.units.values(), key=lambda u: u.id)
    ]


def hand(state: State, player: str) -> list[str]:
    """The diplomacy cards `player` holds (hidden from everyone else)."""
    return list(state.player(player).hand)


def _pending(state: State) -> dict[str, Any] | None:
    pending = state.turn.progress.pending if state.turn else None
    if pending is None:
        return None
    return {
        "kind": pending.kind,
        "player": pending.player,
        "count": pending.count,
        "options": list(pending.options),
        "why": pending.why,
    }


def summary(state: State) -> dict[str, Any]:
    turn = state.turn
    result = state.outcome
    return {
        "turn": turn.number if turn else None,
        "order": list(turn.order) if turn else [],
        "chits": {name: chit for name, chit in turn.chits} if turn else {},
        "player": turn.player if turn else None,
        "phase": phase_title(turn.phase) if turn else None,
        "pending": _pending(state),
        "players": players(state),
        "diplomacy_deck": state.deck_size,
        "game_over": None
        if result is None
        else {"winners": list(result.winners), "why": result.why},
    }


PROJECTIONS: dict[str, Callable[[State], Any]] = {
    "players": players,
    "kingdoms": kingdoms,
    "vp": vp,
    "banishments": banishments,
    "units": units,
    "stacks": stacks,
    "map": board,
    "sieges": sieges,
}
