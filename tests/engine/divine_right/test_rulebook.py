"""The rulebook is one table (issue 12, part 1): what each event does, the decisions the
rules may ask, and the phases and hooks the Game Turn runs, in the order it declares them;
nothing is wired by importing a module. Sections: The Game Turn (decisions asked and answered in
turn), and the hooks' own rules as each names them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from warscribe.engine.rulesets.divine_right import RULESET, tables
from warscribe.engine.rulesets.divine_right.events import (
    ChoiceAsked,
    DecisionAsked,
    DecisionWithdrawn,
)

from .board import movement
from .play import Table

ME = "carol"


def test_every_placement_is_a_decision_answered_by_place() -> None:
    """Placements left to a player are decisions like any other, answered by `place`."""
    book = RULESET.rulebook
    assert book.placements
    assert set(RULESET.commands["place"].answers) == set(book.placements)


def test_every_decision_is_answered_and_every_answer_is_to_a_decision() -> None:
    """The Game Turn: a decision asked waits for its answer, so each kind the rules may ask
    has a command answering it, and a command answers only kinds the rules ask (its
    `answers`, the one place that says so: a kind misspelled there answers nothing)."""
    kinds = set(RULESET.rulebook.decisions)
    declared = {kind for spec in RULESET.commands.values() for kind in spec.answers}
    assert declared - kinds == set()
    assert kinds - declared == set()


def test_hooks_run_in_the_order_the_table_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Game Turn: closing the Movement Phase runs what it requires of its player, its
    decisions due, then its end steps, then what every decision settles, each in the
    table's order."""
    table = Table()
    movement(table, ME)
    ran: list[str] = []

    def hook(name: str) -> Callable[..., None]:
        return lambda *args: ran.append(name)

    rules = RULESET.rulebook
    movement_phase = dataclasses.replace(
        rules.phase("movement"),
        ready=(hook("ready 2"), hook("ready 1")),
        due=(hook("due 2"), hook("due 1")),
        at_end=(hook("end 2"), hook("end 1")),
    )
    phases = tuple(movement_phase if p.name == "movement" else p for p in rules.phases)
    book = dataclasses.replace(
        rules, phases=phases, after_decision=(hook("settle 2"), hook("settle 1"))
    )
    monkeypatch.setattr(tables, "_BOUND", [book])
    table.do("end-phase")
    steps = ["ready 2", "ready 1", "due 2", "due 1", "end 2", "end 1"]
    assert ran == [*steps, "settle 2", "settle 1"]


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


def test_a_choice_asked_at_once_is_not_queued_as_logs_before_the_flag_recorded_it() -> None:
    """Random Events Phase: a random event's choice is asked at once (`queue` unset); a
    log written before the flag recorded it as `ChoiceAsked`, which replays the same and
    is audited as the `DecisionAsked` the rules decide now (its upcast)."""
    table = Table()
    waiting = RULESET.evolve(table.state, DecisionAsked("bob", "retreat", ("X",), 0, "asked"))
    now = DecisionAsked("carol", "storm", ("Muetar-F1",), 1, "Storms", queue=False)
    old = ChoiceAsked("carol", "storm", ("Muetar-F1",), 1, "Storms")
    assert old.upcast() == now
    asked = RULESET.evolve(waiting, now)
    assert asked == RULESET.evolve(waiting, old)
    assert asked.turn is not None and asked.turn.progress.pending is not None
    assert asked.turn.progress.pending.kind == "storm"
