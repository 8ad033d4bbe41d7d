"""Issue 32: the dry run of orders looks past dice the player's copy cannot roll, and
decides with the standing answers the referee's store would use.

The positions are play.Table's (carol, Muetar, plays first on turn 1), in a game of host
dice: the copy the dry run is given has no dice secret, as a player's has none."""

from __future__ import annotations

import dataclasses
from itertools import product
from typing import Any

import pytest

from warscribe.engine import dryrun
from warscribe.engine.dryrun import DECISION, REFUSED, DryRun, dry_run
from warscribe.engine.orders import Orders
from warscribe.engine.record import Head
from warscribe.engine.rulesets.divine_right.random_events import RandomEventRolled

from .divine_right.board import hire, put
from .divine_right.play import Table

Commands = tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
ACTIVATE_BOBS = (
    ("events-roll", ()),
    ("end-phase", ()),
    ("diplomacy-draw", ()),
    ("diplomacy-activate", (("kingdom", "Mivior"),)),
)
"""Carol's turn: the random events, then an activation of bob's own kingdom."""
FRONT, ENEMY = (21, 12), (22, 12)


def host_dice(table: Table) -> Head:
    """The table's head as a player's copy of a game of host dice holds it."""
    head = table.head
    return dataclasses.replace(head, dice=dataclasses.replace(head.dice, mode="host", seed=None))


def run(head: Head, commands: Commands, player: str = "carol") -> DryRun:
    orders = Orders(head.game_id, player, None, head.seq, head.chain, commands)
    return dry_run(head, orders, None)


def first_rolls(run: DryRun) -> set[tuple[int, ...]]:
    return {branch.rolls[0][0].values for branch in run.branches}


def test_a_line_refused_whatever_the_roll_is_refused_naming_its_line_and_rule() -> None:
    """`events roll, end-phase, diplomacy draw, diplomacy activate Mivior` stopped at the
    roll; the referee then refused line 4, whatever the roll. Every outcome of the 2d6
    (and of the picks some events make) is decided: line 4 is run by none that reach it."""
    found = run(host_dice(Table()), ACTIVATE_BOBS)
    assert found.sampled is None and found.rolled
    assert first_rolls(found) == set(product(range(1, 7), repeat=2)), "all 36, not 11 totals"
    assert sum(b.chance for b in found.branches) == pytest.approx(1)
    refused = found.refusal()
    assert refused is not None and (refused.line, refused.kind) == (3, REFUSED)
    assert "Mivior is not a non-allied non-player kingdom (it is bob's)" in str(refused.reason)
    assert getattr(refused.reason, "rule", None) == "Diplomacy Phase › Activation Attempts"
    # the events that ask carol a choice stop the batch at line 2, under those outcomes only
    choices = {
        after.event
        for stop, branches in found.stops_at(1)
        for branch in branches
        for _, after in branch.rolls
        if stop.kind == DECISION and isinstance(after, RandomEventRolled)
    }
    assert {"Mutiny", "Reinforcements", "Epidemic"} <= choices
    assert "No Event" not in choices


def combat(table: Table, *attacks: tuple[tuple[int, int], tuple[int, int]]) -> Head:
    """Carol's Combat Phase: two armies of hers beside a mercenary of alice's for each
    attack (from, on)."""
    table.to_phase(1, "carol", "combat")
    units = iter(("Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4"))
    for (front, enemy), mercenary in zip(attacks, ("A", "B"), strict=False):
        put(table, next(units), front)
        put(table, next(units), front)
        hire(table, mercenary, enemy, "alice")
    return host_dice(table)


def declare(*attacks: tuple[tuple[int, int], tuple[int, int]]) -> Commands:
    said = tuple(f"{f[0]},{f[1]}>{e[0]},{e[1]}" for f, e in attacks)
    return (("attack-declare", (("attacks", said),)),)


CAROLS_ANSWERS = (("answer", (("losses", "cheapest"), ("advance", "none"))),)
ALICES_ANSWERS = (0, (("retreat", "stand"), ("losses", "cheapest")))


def test_the_defenders_standing_answer_lets_the_attackers_next_lines_pass() -> None:
    """After `attack resolve 1` the dry run refused `end-phase` with "alice must first
    decide: attack 1: try to retreat before combat", though alice's last orders answered
    `retreat=stand` and the referee recorded the batch whole: her answer's command starts
    the battle, whose dice the copy could not roll, so the answer failed and the decision
    stayed asked. Now it is given under each outcome of the battle's dice."""
    head = combat(Table(), (FRONT, ENEMY))
    head = dataclasses.replace(head, standing=(("alice", 1, (ALICES_ANSWERS,)),))
    batch = (*declare((FRONT, ENEMY)), ("attack-resolve", (("number", 1),)), ("end-phase", ()))
    found = run(head, (*batch, *CAROLS_ANSWERS))
    assert found.refusal() is None
    assert first_rolls(found) == set(product(range(1, 7), repeat=1))
    assert len(found.branches) == 36 and found.sampled is None, "the two combat dice"
    for branch in found.branches:
        assert branch.stop is None, branch.stop
        assert (None, "retreat-stand", "alice") in [(ln, c.name, a) for ln, c, a in branch.ran]
        assert [ln for ln, _, _ in branch.ran if ln is not None] == [0, 1, 2]
    # without her answer the batch waits for her there: a stop, not a refusal
    head = dataclasses.replace(head, standing=())
    waits = run(head, (*batch, *CAROLS_ANSWERS))
    assert waits.refusal() is None and not waits.rolled
    stop = waits.branches[0].stop
    assert stop is not None and (stop.line, stop.kind, stop.who) == (2, "waiting", "alice")


def test_a_line_refused_under_some_outcomes_only_is_reported_with_them() -> None:
    """Bad Omens (a total of 5) keep Muetar's regulars from attacking: carol's attack,
    written at her random events, is refused under those outcomes only, so the orders are
    signed (the player may take the risk) and the outcomes named."""
    table = Table()
    combat(table, (FRONT, ENEMY))
    table.to_phase(2, "carol", "random-events")  # her units stay where they were put
    head = host_dice(table)
    turn = (
        ("events-roll", ()),
        ("end-phase", ()),
        ("diplomacy-draw", ()),
        *(("end-phase", ()),) * 3,
        *declare((FRONT, ENEMY)),
    )
    found = run(head, (*turn, *CAROLS_ANSWERS))
    assert found.refusal() is None
    refused = [(stop, branches) for stop, branches in found.stops_at(6) if stop.kind == REFUSED]
    assert len(refused) == 1
    stop, branches = refused[0]
    assert "Bad Omens" in str(stop.reason)
    totals = {after.total for b in branches for _, after in b.rolls[:1] if after is not None}
    assert totals == {5}
    assert sum(b.chance for b in branches) == pytest.approx(4 / 36)
    assert any(b.stop is None for b in found.branches), "it runs under other outcomes"


def test_the_bound_on_branches_is_a_seeded_sample_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past `MOST_BRANCHES` outcomes the dry run decides that many drawn at random, from
    a seed the orders give: the same orders, the same sample."""
    monkeypatch.setattr(dryrun, "MOST_BRANCHES", 8)
    head = host_dice(Table())
    found = run(head, ACTIVATE_BOBS)
    assert found.sampled is not None and len(found.branches) == 8
    again = run(head, ACTIVATE_BOBS)
    assert again.sampled == found.sampled and first_rolls(again) == first_rolls(found)
    refused = found.refusal()
    assert refused is not None and refused.line == 3


def test_a_copy_that_rolls_its_dice_decides_one_branch() -> None:
    """A copy holding the dice secret (a seeded game, the referee's store) rolls them:
    one branch, no chance node."""
    table = Table()
    head = table.head
    orders = Orders(head.game_id, "carol", None, head.seq, head.chain, ACTIVATE_BOBS)
    found = dry_run(head, orders, table.key)
    assert len(found.branches) == 1 and not found.rolled
