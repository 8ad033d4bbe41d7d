"""The rulebook is one table (issue 12, part 1): what each event does, which commands answer
which decision, and the hooks the Game Turn runs, in the order it declares them; nothing is
wired by importing a module. Sections: The Game Turn (decisions asked and answered in
turn), and the hooks' own rules as each names them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from warscribe.engine.rulesets.divine_right import RULESET, tables
from warscribe.engine.rulesets.divine_right.events import DecisionAsked, DecisionWithdrawn

from .board import movement
from .play import Table

ME = "carol"


def _names(hooks: Iterable[Callable[..., Any]]) -> list[str]:
    return [f"{hook.__module__.rsplit('divine_right.', 1)[1]}.{hook.__name__}" for hook in hooks]


def test_the_rulebook_declares_each_moments_hooks_in_order() -> None:
    """What runs at each moment of the Game Turn, read off the one table."""
    book = RULESET.rulebook
    assert _names(book.after_decision) == [
        "siege.declare.review",
        "heroes.cargo_of_lost_fleets",
        "special_kingdoms.lost_to_events",
    ]
    assert {phase: _names(due) for phase, due in book.due_before_phase_end.items()} == {
        "movement": ["movement.fleets.ports_taken", "movement.fleets.fleets_beside_enemy_land"],
        "combat": ["combat.declare.unresolved_attacks", "siege.phase.invalid_sieges"],
    }
    assert {phase: _names(end) for phase, end in book.at_phase_end.items()} == {
        "movement": ["inactive_kingdoms.lingering"]
    }
    assert _names(book.at_game_turn_start) == ["special_kingdoms.regenerate"]
    assert _names(book.at_player_turn_start) == ["heroes.inside_enemy_castles"]
    assert _names(book.after_activation) == [
        "special_kingdoms.monarch_enters",
        "special_kingdoms.next_spread",
    ]
    assert _names(book.after_deactivation) == [
        "siege.declare.walls_closed",
        "heroes.jail_deactivated",
    ]


def test_every_placement_is_a_decision_answered_by_place() -> None:
    """Placements left to a player are decisions like any other, answered by `place`."""
    book = RULESET.rulebook
    assert book.placements
    for kind in book.placements:
        assert book.decisions[kind].answered_by == ("place",)


def test_hooks_run_in_the_order_the_table_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Game Turn: closing the Movement Phase runs its checks, then its end-of-phase
    hooks, then what every decision settles, each in the table's order."""
    table = Table()
    movement(table, ME)
    ran: list[str] = []

    def check(name: str) -> Callable[..., list[DecisionAsked]]:
        def due(*args: Any) -> list[DecisionAsked]:
            ran.append(name)
            return []

        return due

    def hook(name: str) -> Callable[..., None]:
        return lambda *args: ran.append(name)

    book = dataclasses.replace(
        RULESET.rulebook,
        due_before_phase_end={"movement": (check("due 2"), check("due 1"))},
        at_phase_end={"movement": (hook("end 2"), hook("end 1"))},
        after_decision=(hook("settle 2"), hook("settle 1")),
    )
    monkeypatch.setattr(tables, "_BOUND", [book])
    table.do("end-phase")
    assert ran == ["due 2", "due 1", "end 2", "end 1", "settle 2", "settle 1"]


def test_decisions_queued_are_asked_first_in_first_out() -> None:
    """The Game Turn: a decision asked while another waits is queued behind it; once the
    one asked is settled, the first queued is asked next, then the one after it."""
    table = Table()
    state = table.state
    for kind, player in (("losses", "alice"), ("retreat", "bob"), ("advance", "carol")):
        state = RULESET.evolve(state, DecisionAsked(player, kind, ("X",), 1, f"{kind} asked"))
    assert state.turn is not None and state.turn.progress.pending is not None
    assert state.turn.progress.pending.kind == "losses"
    state = RULESET.evolve(state, DecisionWithdrawn("alice", "losses", ("X",), "settled"))
    assert state.turn is not None and state.turn.progress.pending is not None
    assert state.turn.progress.pending.kind == "retreat"
    state = RULESET.evolve(state, DecisionWithdrawn("bob", "retreat", ("X",), "settled"))
    assert state.turn is not None and state.turn.progress.pending is not None
    assert state.turn.progress.pending.kind == "advance"
