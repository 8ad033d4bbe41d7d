"""The golden log of three played Divine Right turns and the answers it is checked
against (tests/data/golden-three-turns.wlog and .json), made here so that they can be
made again:

    python -m tests.cli.golden tests/data

Three game turns played from the command line in a fresh store (`Club`): alice
(Hothior), bob (Mivior) and carol (Muetar) with seeded dice (`seeded:golden-1`, game name
`golden`: the game and its dice are the same on every run; the seed is one under which
carol's ambassador wins Zorn and she places its goblins). Each player turn is
`play_turn`: random events, a diplomacy card, the ambassador sent to the player's kingdom
of choice (alice Neuth, bob Ghem, carol Zorn) while it is inactive, the other phases
ended, every question answered with the first options offered. Written: the log, and the
answers of `banishments`, `kingdoms` and `vp` at four positions, which test_golden.py
replays on every backend.

Make them again whenever a change of the rules or of the data files changes what a new
game does (new data files alone redraw every shuffle: the dice are bound to the record's
first entry, which holds the files' digests), and say why in the commit.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from .club import Club, play_turn

PLAYERS = ("alice=Hothior", "bob=Mivior", "carol=Muetar")
AMBASSADORS = {"alice": "Neuth", "bob": "Ghem", "carol": "Zorn"}
SEED, TURNS = "golden-1", 3
POSITIONS = ("#60", "2.1.random-events", "3.1.diplomacy", "end")
QUERIES = ("banishments", "kingdoms", "vp")


def make(out: Path) -> None:
    """Play the three turns and write the golden log and its answers into `out`."""
    with tempfile.TemporaryDirectory() as folder:
        club = Club(Path(folder))
        players = [arg for player in PLAYERS for arg in ("--player", player)]
        club.ok("new", "divine-right", *players, "--dice", f"seeded:{SEED}", "--name", "golden")
        for _ in range(TURNS):
            play_turn(club, AMBASSADORS)
        club.ok("export", "--force", "-o", str(out / "golden-three-turns.wlog"))
        answers = {
            at: {q: club.json(q, *([] if at == "end" else ["--at", at])) for q in QUERIES}
            for at in POSITIONS
        }
    text = json.dumps(answers, indent=1, ensure_ascii=False) + "\n"
    (out / "golden-three-turns.json").write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder of the golden files (tests/data)")
    make(parser.parse_args(argv).out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
