"""The rulebook's worked examples of battle arithmetic (Combat Phase; Siege Phase)."""

from __future__ import annotations

import pytest

from warscribe.engine.rulesets.divine_right.combat.arithmetic import (
    amphibious_withdrawal,
    defence_bonus,
    defence_strength,
    odds,
    plunder_points,
    resolve,
    retreating_groups,
    siege_attack,
    siege_modifier,
    siege_valid,
)


@pytest.mark.parametrize(
    ("attackers", "defenders", "expected"),
    [
        (5, 3, (1, 1)),  # Example 1: 5/3 = 1.66, rounded down: 1 to 1
        (7, 3, (2, 1)),  # Example 2: 7/3 = 2.33: 2 to 1
        (8, 9, (1, 2)),  # Example 3: 9/8 = 1.125, rounded up for the smaller attacker
        (2, 3, (1, 2)),  # Example 4: 3/2 = 1.5, rounded up
        (6, 1, (6, 1)),  # Ties example 2: a 6 to 1 attack
        (8, 4, (2, 1)),  # Ties example 1: a 2 to 1 attack
    ],
)
def test_odds_examples_round_in_favour_of_the_defender(
    attackers: int, defenders: int, expected: tuple[int, int]
) -> None:
    """Combat Phase › Modifying the Combat Roll (Odds), examples 1-4."""
    assert odds(attackers, defenders) == expected


def test_the_loser_removes_the_difference() -> None:
    """Combat Phase › Making Attacks."""
    battle = resolve(7, 3, attacker_roll=5, defender_roll=2)  # 5+2=7 against 2+1=3
    assert (battle.attacker_total, battle.defender_total) == (7, 3)
    assert (battle.attacker_losses, battle.defender_losses) == (0, 3)
    assert resolve(2, 3, attacker_roll=1, defender_roll=6).attacker_losses == 2, (
        "never more than present"
    )


def test_tie_example_1_both_lose_the_weaker_sides_roll() -> None:
    """Combat Phase › Ties, example 1: 8 v 4, rolls 2 and 3, both lose 3."""
    battle = resolve(8, 4, attacker_roll=2, defender_roll=3)
    assert battle.tie and (battle.attacker_total, battle.defender_total) == (4, 4)
    assert (battle.attacker_losses, battle.defender_losses) == (3, 3)


def test_tie_example_2_the_larger_force_loses_at_most_twice() -> None:
    """Combat Phase › Ties, example 2: 6 v 1, rolls 1 and 6, a tie of 7: the defender
    loses its one unit, the attacker 2 (twice the defender's actual losses), not 6."""
    battle = resolve(6, 1, attacker_roll=1, defender_roll=6)
    assert battle.tie and battle.attacker_total == 7
    assert (battle.attacker_losses, battle.defender_losses) == (2, 1)


@pytest.mark.parametrize(
    ("inside", "modifier"),
    [(3, 1), (4, 0), (1, 2)],  # examples 1, 2, 3: 15 besiegers, castle defence 4
)
def test_siege_modifier_examples(inside: int, modifier: int) -> None:
    """Siege Phase › Modifying the Siege Roll, examples 1-3."""
    assert siege_modifier(15, 4, inside) == modifier


def test_example_1_plunders_on_5_or_6() -> None:
    """Siege Phase › Modifying the Siege Roll, example 1: "a roll of 5 or 6 would plunder"."""
    assert [siege_attack(r, 15, 4, 3).result for r in range(1, 7)] == [
        "failed", "nothing", "nothing", "nothing", "plundered", "plundered",
    ]  # fmt: skip


def test_a_natural_1_always_fails() -> None:
    """Siege Phase › Modifying the Siege Roll: a natural roll of 1 is always a failed attack."""
    result = siege_attack(1, 30, 2, 0)
    assert result.total == 1 + 14 and result.result == "failed"


def test_a_siege_needs_defence_plus_inside() -> None:
    """Siege Phase › Declaring a Siege (B)."""
    assert siege_valid(7, 4, 3) and not siege_valid(6, 4, 3)


def test_plunder_points() -> None:
    """Victory: 5 x defence, 10 x for a royal castle."""
    assert plunder_points(3, royal=False) == 15 and plunder_points(4, royal=True) == 40


def test_retreat_example_1_mercenaries_with_elves() -> None:
    """Combat Phase › Retreat Before Combat, example 1: on a 5 both go; on a 2 neither,
    and the elves may roll on their own."""
    stack = {"mercenaries": True, "elves": False}
    assert retreating_groups(stack, 5) == ("mercenaries", "elves")
    assert retreating_groups(stack, 2) == ()
    assert retreating_groups({"elves": False}, 3) == ("elves",)


def test_retreat_example_2_elves_with_dwarves() -> None:
    """Combat Phase › Retreat Before Combat, example 2: a 2 keeps both; a 3 lets either go."""
    stack = {"elves": False, "dwarves": False}
    assert retreating_groups(stack, 2) == ()
    assert retreating_groups(stack, 3) == ("elves", "dwarves")


def test_terrain_mountain_and_pass() -> None:
    """Combat Phase › Effects of Terrain on Combat."""
    assert defence_bonus(frozenset({"MOUNTAIN"})) == 1 and defence_bonus(frozenset()) == 0
    assert defence_strength(3, frozenset({"PASS"})) == 6


def test_failed_amphibious_attack_loses_half_the_survivors() -> None:
    """Combat Phase › Amphibious Attacks: half, rounded down, of the surviving attackers."""
    assert amphibious_withdrawal(7) == 3


def test_relief_example_fleets_fight_fleets_at_2_to_1() -> None:
    """Siege Phase › Mixed-unit Combat During Relief: four relieving fleets against the
    two besieging fleets (the six land besiegers and the two carried units discounted)."""
    assert odds(4, 2) == (2, 1)


def test_amphibious_example_at_thores_is_2_to_1() -> None:
    """Combat Phase › Amphibious Attacks: four fleets and four land units against four
    besiegers outside Thores: 8 vs 4."""
    assert odds(4 + 4, 4) == (2, 1)
