"""A store in a temporary folder driven through the command line, a player who answers
the questions the rules ask with the first options offered, and a quiet game turn
(random events, one diplomacy attempt each)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from warscribe.cli.main import cli


class Club:
    """A store in a folder and a way to run commands in it."""

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


def new_three(club: Club, dice: str) -> None:
    """The referee sets up Divine Right for three: alice is Hothior, bob Mivior and carol
    Muetar, with `dice`."""
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
        dice,
    )


def answer(club: Club, pending: dict[str, Any]) -> None:
    """The player takes the first options the rules offer."""
    kind, options, count = pending["kind"], pending["options"], pending["count"]
    if kind in ("storm", "mutiny", "epidemic", "desertion"):
        club.ok("events", "lose", *options[:count])
        return
    what, _, place = options[0].partition(" at ")
    if club.json("status")["commands"] == ["place"]:
        club.ok("place", *what.split(","), "--at", place)
        return
    if what.startswith("steal "):
        club.ok("events", "reinforce", "--unit", what.split()[1], "--at", place)
    elif what in ("army", "fleet"):
        club.ok("events", "reinforce", "--kind", what, "--at", place)
    elif club.run("events", "replace", what, "--at", place).exit_code != 0:
        club.ok("events", "reinforce", "--unit", what, "--at", place)


def play_turn(club: Club, diplomacy: dict[str, str]) -> None:
    """Every player's five phases: random events, a card and an activation attempt on
    the kingdom named for them (or a pass), then end the later phases; every question
    the rules ask (the goblins of a Zorn won, say) answered with the first options."""
    start = club.json("status")["turn"]
    while True:
        status = club.json("status")
        if status["turn"] != start or status["game_over"]:
            return
        if status["pending"]:
            answer(club, status["pending"])
        elif "events roll" in status["commands"]:
            club.ok("events", "roll")
        elif "diplomacy draw" in status["commands"]:
            club.ok("diplomacy", "draw")
            target = diplomacy.get(status["whose_turn"])
            kingdoms = {k["kingdom"]: k for k in club.json("kingdoms")}
            if (
                target
                and "diplomacy activate" in club.json("status")["commands"]
                and kingdoms[target]["status"] == "inactive"
                and not any(
                    b["kingdom"] == target for b in club.json("banishments")[status["whose_turn"]]
                )
            ):
                club.ok("diplomacy", "activate", target)
        elif "discard" in status["commands"] and "end-phase" not in status["commands"]:
            club.ok("discard", club.json("hand")["cards"][0])  # down to the hand limit
        else:
            club.ok("end-phase")
