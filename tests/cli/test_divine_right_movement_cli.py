"""Divine Right movement from the command line: a move by space name, a refused move
(exit 1, the step and the rule), and the `stacks` and `map` queries (text, --json, --at)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from warscribe.cli.main import cli

# A unit of each kingdom and a legal one-step path for it (Movement Phase).
FIRST_MOVES = {
    "Hothior": ("Farnot", "11,18", "Hothior-A7"),
    "Mivior": ("Boran", "4,15", "Mivior-A9"),
    "Muetar": ("Plibba", "16,13", "Muetar-A9"),
}


class Club:
    def __init__(self, folder: Path) -> None:
        self.store = str(folder / "club.db")
        self.runner = CliRunner()

    def run(self, *args: str) -> Result:
        return self.runner.invoke(cli, ["--store", self.store, *args], catch_exceptions=False)

    def ok(self, *args: str) -> str:
        result = self.run(*args)
        assert result.exit_code == 0, (args, result.output)
        return result.stdout

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json"))


def answer(club: Club, pending: dict[str, Any]) -> None:
    """The player takes the first options the random event offers."""
    if pending["kind"] in ("storm", "mutiny", "epidemic", "desertion"):
        club.ok("events", "lose", *pending["options"][: pending["count"]])
        return
    what, _, place = pending["options"][0].partition(" at ")
    if what in ("army", "fleet"):
        club.ok("events", "reinforce", "--kind", what, "--at", place)
    else:
        club.ok("events", "replace", what, "--at", place)


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
    club.ok(
        "new",
        "divine-right",
        "--player",
        "alice=Hothior",
        "--player",
        "bob=Mivior",
        "--player",
        "carol=Muetar",
        "--dice",
        "seeded:1",
    )
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
