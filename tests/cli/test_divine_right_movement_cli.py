"""Divine Right movement from the command line: a move by space name, a refused move
(exit 1, the step and the rule), and the `stacks` and `map` queries (text, --json, --at)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .club import Club, answer, new_three

# A unit of each kingdom and a legal one-step path for it (Movement Phase).
FIRST_MOVES = {
    "Hothior": ("Farnot", "11,18", "Hothior-A7"),
    "Mivior": ("Boran", "4,15", "Mivior-A9"),
    "Muetar": ("Plibba", "16,13", "Muetar-A9"),
}


def to_movement(club: Club) -> dict[str, Any]:
    club.ok("events", "roll")
    while club.json("status")["pending"]:
        answer(club, club.json("status")["pending"])
    club.ok("end-phase")
    club.ok("diplomacy", "draw")
    club.ok("end-phase")
    club.ok("end-phase")
    status: dict[str, Any] = club.json("status")
    assert "move" in status["commands"]
    return status


def test_a_move_by_space_and_the_stacks_and_map_queries(tmp_path: Path) -> None:
    """Movement Phase; Stacking: any player may examine any stack."""
    club = Club(tmp_path)
    new_three(club, "seeded:1")
    status = to_movement(club)
    kingdom = next(p["kingdom"] for p in status["players"] if p["player"] == status["player"])
    space, step, unit = FIRST_MOVES[kingdom]
    refused = club.run("move", unit, "--path", "0,0")
    assert refused.exit_code == 1
    assert "step 1 (0,0): not a space next to" in refused.output
    assert "(Movement Phase)" in refused.output
    club.ok("move", space, "--path", step)
    stacks = club.json("stacks")
    moved = [s for s in stacks if unit in [u["unit"] for u in s["units"]]]
    assert moved[0]["hex"] == [int(v) for v in step.split(",")]
    text = club.ok("map")
    assert "players: 1 alice, 2 bob, 3 carol" in text
    before = club.json("map", "--at", "1.1.movement")
    placed = [s for s in before["stacks"] if s["place"] == space]
    assert unit in [u["unit"] for u in placed[0]["units"]]
    assert len(before["rows"]) == 31
    assert "Example:" in club.ok("move", "--help")


def test_a_placement_the_rules_leave_to_a_player_is_answered_with_place(tmp_path: Path) -> None:
    """Special Rules for Select Kingdoms › The Trolls: the Trollish monarch "may enter play
    in any of the four scenic spaces"; his player answers with `place`, others may not."""
    club = Club(tmp_path)
    club.ok(
        "new",
        "divine-right",
        "--player",
        "alice=Trolls",
        "--player",
        "bob=Mivior",
        "--dice",
        "seeded:1",
    )
    pending = club.json("status")["pending"]
    assert (pending["player"], pending["kind"]) == ("alice", "troll-monarch")
    assert "Trolls-monarch at The Crag" in pending["options"]
    refused = club.run("place", "--at", "The Crag", "--as", "bob")
    assert refused.exit_code == 1 and "alice must decide" in refused.stderr
    refused = club.run("place", "--at", "Pennol")
    assert refused.exit_code == 1 and "choose one of" in refused.stderr
    club.ok("place", "--at", "The Crag")
    assert club.json("status")["pending"] is None
    stacks = club.json("stacks")
    assert any("Trolls-monarch" in str(s) and "The Crag" in str(s) for s in stacks)
