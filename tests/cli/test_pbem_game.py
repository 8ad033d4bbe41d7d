"""Issue 13, items 1 and 8: the scripted three-player Divine Right game of two full game
turns played by email (examples/pbem_game.py, which examples/pbem.sh runs): every player
mails at most 1.3 orders mails per player turn on average, and receives at most 1.5 of
the referee's mails per player turn of the game (issue 32), the games hold battles and
sieges, every copy verifies and the referee's audit passes. About 4 s a seed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pbem_game.py"
# examples/pbem.sh's seeds: the first ten of 1-28 whose game has a siege as well as a battle
# (in 1, 2, 4, 5, 7, 9, 12 and others the bots' stacks meet the enemy before any castle;
# seed 2 had its siege until a random event's question took its one recorded shape,
# DecisionAsked, whose bytes feed the dice derived after it)
SEEDS = (3, 6, 8, 10, 11, 13, 14, 15, 16, 17)


def example(name: str = "pbem_game") -> ModuleType:
    """examples/NAME.py, loaded as the module NAME (the host game imports pbem_game)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLE.with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", SEEDS)
def test_two_turns_by_mail_cost_at_most_1_3_mails_per_player_turn(
    seed: int, tmp_path: Path
) -> None:
    pbem = example()
    # the referee, three players and their mailboxes play two game turns (verify and
    # audit run at the end, and raise if anything fails)
    game, found = pbem.played(seed, tmp_path)
    average, each = game.figure()
    # a battle and a siege by play (no unit put by hand), and the figure
    assert found == ["BattleFought", "SiegeDeclared"], found
    assert average <= pbem.TARGET, pbem.figure_line(average, each)
    mailed, received = game.referee_figure()
    assert mailed <= pbem.REFEREE_TARGET, pbem.figure_line(mailed, received, "referee mails")
    assert sum(game.turns.values()) >= 5  # two game turns of three (or two) players


def test_orders_lines_are_written_in_one_place() -> None:
    """Orders lines as typed on the command line: a list as words, a path as COL,ROW,...,
    several attacks as words (quoted for the shell)."""
    pbem = example()
    move = pbem.Command("alice", "move", (("units", ("A1", "A2")), ("path", ((8, 17), (7, 17)))))
    assert pbem.order_line(move) == "move A1 A2 --path 8,17,7,17"
    attack = pbem.Command("alice", "attack-declare", (("attacks", ("A1>6,19", "A2>6,13")),))
    assert pbem.order_line(attack) == "attack declare 'A1>6,19' 'A2>6,13'"


def test_a_battle_turning_on_a_face_down_personality_is_hidden_in_players_copies(
    tmp_path: Path,
) -> None:
    """Kingdoms (personality cards are face down): in seed 18 a battle's odds turn on the
    card of a monarch no player has seen. Each player's import of the referee's mail
    re-decides it on a copy without the card: it must not be refused as a difference (it
    was), and each player's audit reports it as hidden, not as a contradiction."""
    pbem = example()
    game, _ = pbem.played(18, tmp_path)
    for player in ("alice", "bob", "carol"):
        report = json.loads(game.ws(player, "audit", "--json"))
        kinds = [f["kind"] for f in report["findings"]]
        assert "difference" not in kinds, report["findings"]
        assert any("face down" in json.dumps(f) for f in report["findings"]), kinds
