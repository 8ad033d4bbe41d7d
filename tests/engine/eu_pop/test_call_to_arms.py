"""5.2 Minor Actions › Call to Arms: costs in influence, conditions, what an ally brings."""

from __future__ import annotations

from typing import Any

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.errors import IllegalCommand, InvalidCommand, NotYourTurn
from warscribe.engine.rulesets.eu_pop import rules
from warscribe.engine.rulesets.eu_pop.events import AllyCalled

SAVOY = {"name": "Savoy", "kind": "npr", "tax_value": 5, "influence": 2, "adjacent": True}
GENOA = {"name": "Genoa", "kind": "npr", "tax_value": 12, "influence": 1}
CASTILE = {"name": "Castile", "kind": "pr"}


def table(**france: Any) -> Table:
    allies = {"allies": [SAVOY, GENOA, CASTILE]}
    return Table(position(france={**allies, **france}, austria={"allies": [CASTILE]}))


def test_5_2_offensive_cta_discards_2_influence_per_npr_ally() -> None:
    """5.2 › Call to Arms: Offensive, 2 influence from the ally's areas; units = ½ tax value."""
    game = table()
    events = game.do("alice", "call-to-arms", mode="offensive", allies="Savoy")
    assert events == [AllyCalled("France", "Savoy", "offensive", 2, 2, 0, False)]
    france = game.realm("France")
    savoy = france.ally("Savoy")
    assert savoy is not None and (savoy.influence, savoy.active, savoy.at_peace) == (0, True, False)
    assert france.manpower == 4 + 2 and france.power.mil == 3


def test_5_2_defensive_cta_is_a_reaction_for_1_influence() -> None:
    """5.2 › Call to Arms: Defensive, 1 influence, on another's turn; at most 5 units; +1
    military power for an ally adjacent to a new enemy."""
    game = table()
    game.do("alice", "end-turn")
    events = game.do("alice", "call-to-arms", mode="defensive", allies="Genoa", near_enemy="Genoa")
    assert events == [AllyCalled("France", "Genoa", "defensive", 1, 5, 1, True)]
    france = game.realm("France")
    assert france.manpower == 4 + 5 and france.power.mil == 4


def test_5_2_npr_ally_must_border_the_realm_or_a_new_enemy() -> None:
    game = table()
    error = game.refuse("alice", "call-to-arms", mode="defensive", allies="Genoa")
    assert error.rule == rules.CALL_TO_ARMS and "borders neither" in error.message


def test_5_2_npr_ally_must_be_at_peace() -> None:
    game = table()
    game.do("alice", "call-to-arms", mode="offensive", allies="Savoy")
    error = game.refuse("alice", "call-to-arms", mode="defensive", allies="Savoy")
    assert "at peace" in error.message


def test_5_2_cta_needs_the_influence_in_the_allys_areas() -> None:
    game = table()
    error = game.refuse(
        "alice", "call-to-arms", mode="offensive", allies="Genoa", near_enemy="Genoa"
    )
    assert "discards 2 influence" in error.message


def test_5_2_pr_allies_are_called_free() -> None:
    game = table()
    events = game.do("alice", "call-to-arms", mode="offensive", allies="Castile,Savoy")
    assert events[0] == AllyCalled("France", "Castile", "offensive", 0, 0, 0, False)
    assert game.realm("France").ally("Castile") == game.realm("Austria").ally("Castile")


def test_5_2_a_pr_allied_to_both_sides_answers_only_the_defender() -> None:
    game = table()
    error = game.refuse(
        "alice", "call-to-arms", mode="offensive", allies="Castile", enemy="Austria"
    )
    assert "only the defender" in error.message
    game.do("alice", "end-turn")
    game.do("bob", "call-to-arms", mode="defensive", allies="Castile")


def test_5_2_accepting_an_npr_allys_cta_calls_only_npr_allies() -> None:
    game = table()
    game.do("alice", "end-turn")
    error = game.refuse("alice", "call-to-arms", mode="defensive", accepting=True, allies="Castile")
    assert "other NPR allies" in error.message
    game.do("alice", "call-to-arms", mode="defensive", accepting=True, allies="Savoy")
    assert isinstance(
        game.refuse("alice", "call-to-arms", mode="offensive", accepting=True, allies="Genoa"),
        InvalidCommand,
    )


def test_5_2_offensive_cta_goes_with_your_own_dow_on_your_turn() -> None:
    game = table()
    error = game.refuse("alice", "call-to-arms", mode="offensive", allies="Savoy", reaction=True)
    assert isinstance(error, IllegalCommand) and "not as a Reaction" in error.message
    game.do("alice", "end-turn")
    assert isinstance(
        game.refuse("alice", "call-to-arms", mode="offensive", allies="Savoy"), NotYourTurn
    )


def test_5_2_cta_reads_its_arguments() -> None:
    game = table()
    for args in (
        {"mode": "sneaky", "allies": "Savoy"},
        {"mode": "offensive"},
        {"mode": "offensive", "allies": "Savoy,Savoy"},
        {"mode": "offensive", "allies": "Savoy", "near_enemy": "Genoa"},
        {"mode": "offensive", "allies": "Venice"},
    ):
        assert isinstance(game.refuse("alice", "call-to-arms", **args), InvalidCommand), args
