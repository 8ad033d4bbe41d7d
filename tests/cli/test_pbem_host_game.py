"""Issue 32, done when: the play-by-email game of examples/pbem_game.py with host dice
(examples/pbem_host_game.py; examples/pbem.sh plays its ten seeds of three game turns
and enforces the figures over all of them). Here one seed of two game turns, so that a
regression shows in the suite: the referee's dice key is fixed from the seed and never
reaches a player's copy, the bots plan with `status`, `stacks`, `sieges`, `reach` and
the dry run of `orders` alone, and the game costs at most 1.1 orders mails per player
turn and 1.5 referee mails per player per player turn. About 20 s."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from .test_pbem_game import example

SEED = 2


def host_example() -> ModuleType:
    example()  # pbem_game, which the host game builds on
    return example("pbem_host_game")


def test_a_game_of_host_dice_costs_at_most_1_1_mails_per_player_turn(tmp_path: Path) -> None:
    host = host_example()
    game = host.HostGame(tmp_path, SEED, game_turns=2)
    game.set_up()
    game.play()
    found = game.checked()  # every copy verifies, the referee's audit passes
    assert "BattleFought" in found
    average, each = game.figure()
    assert average <= host.TARGET, host.figure_line(average, each)
    mailed, received = game.referee_figure()
    assert mailed <= host.REFEREE_TARGET, host.figure_line(mailed, received, "referee mails")
    for player in host.KINGDOMS:
        status = game.json(player, "status")
        assert status["dice"] == "host" and not status["dice_revealed"]
    assert (tmp_path / "host-secret").exists()
    assert game.json("referee", "status")["dice"] == "host"


def test_the_dry_runs_verdicts_strike_what_would_cost_a_mail() -> None:
    """A move refused under more than RISK of the outcomes (its warnings together) is
    struck, a rarer risk kept; a stop for another player's decision strikes the attack
    that asks it (not the resolution line the dry run names); the turn's own lines are
    never struck."""
    host = host_example()
    declared = "attack declare '1,3>1,4' '2,2>2,3'"
    lines = ["answer x=first", "events roll", "move 1,2 --path 1,3", "move 5,5 --path 5,6"]
    lines += [declared, "attack resolve 1", "attack resolve 2", "end-phase"]
    said = [
        "  line 3: move 1,2 --path 1,3",
        "    refused if RandomEventRolled event=Bad Omens (4 of 47 outcomes, 8.5%): no",
        "    refused if RandomEventRolled event=Mutiny (4 of 47 outcomes, 8.5%): no unit",
        "  line 4: move 5,5 --path 5,6",
        "    refused if RandomEventRolled event=Bad Omens (4 of 47 outcomes, 8.5%): no",
        "  line 7: attack resolve 2",
        "    waits for bob if RandomEventRolled total=7 (40 of 47 outcomes, 90%): bob must",
        "  line 8: end-phase",
        "    refused if RandomEventRolled total=7 (40 of 47 outcomes, 90%): resolve first",
    ]
    assert [n for n, _ in host.risky("\n".join(said), "alice", lines)] == [3, 6]
    plan = host.Plan(list(lines))
    plan.struck(6, "waits for bob")
    assert plan.lines[4:] == ["attack declare '2,2>2,3'", "attack resolve 1", "end-phase"]
