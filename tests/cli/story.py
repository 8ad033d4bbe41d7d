"""A seeded Divine Right game of several turns for the pictures: alice (Hothior) marches
Farnot's army to 11,18 in her first movement phase, then everyone plays quiet turns
(`play_turn`) until game turn 3 begins; and an eu-pop game."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .club import Club, new_three, play_turn
from .test_divine_right_movement_cli import FIRST_MOVES, to_movement

WISHES = {"alice": "Neuth", "bob": "Ghem", "carol": "Zorn"}
MOVED = FIRST_MOVES["Hothior"]  # (space, step, unit)
MOVED_AT = "1.1.combat"  # the first position after the move


def play(club: Club) -> None:
    """The game: set up with seeded dice, a move, and quiet turns up to 3.1."""
    new_three(club, "seeded:1")
    status = to_movement(club)
    assert status["player"] == "alice", "seeded:1 draws alice first"
    space, step, _ = MOVED
    club.ok("move", space, "--path", step)
    while club.json("status")["turn"] < 3:
        play_turn(club, WISHES)


def play_eu_pop(club: Club, folder: Path) -> None:
    """An eu-pop game from the example start file (a France, b Austria), its first
    phase ended."""
    sample = resources.files("warscribe.engine.rulesets.eu_pop") / "datafiles/example-start.json"
    start = folder / "start.json"
    start.write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    club.ok("new", "eu-pop", "--player", "a=France", "--player", "b=Austria", "--start", str(start))
    club.ok("end-phase")
