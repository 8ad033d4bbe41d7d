"""The README's pictures of the Divine Right board at a battle and at a siege
(docs/battle.png, docs/siege.png), made from a game played here from the command line.

A fresh store, alice (Hothior), bob (Mivior) and carol (Muetar), table dice from a public
seed (`table:battle`), the combat rolls entered (`--roll`): over three game turns carol
marches four Muetaran armies from Plibba and Beolon next to alice's two Hothiorans, who
have left Castle Lapspell; in carol's turn-3 Combat Phase she attacks them, alice stands
and loses one army. In turn 4 carol's four armies enter the empty castle: a siege
(Siege Phase › Declaring a Siege). `warscribe map --svg` draws the board as the next
phase began, which tells what happened since the phase before in words; the picture is
cut round those words and drawn as PNG by headless Chromium (`map --png`'s own way).

    python3 examples/board_shots.py docs       # writes docs/battle.png and docs/siege.png
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from click.testing import CliRunner

from warscribe.cli.board import to_png
from warscribe.cli.main import cli

QUIET = ("--roll", "3", "--roll", "4")  # random events: 7, no event
Moves = dict[str, list[tuple[str, ...]]]
MARCH: dict[int, Moves] = {  # each game turn's moves, by player (made as their turn comes)
    1: {
        "alice": [("Castle Lapspell", "--path", "13,17")],
        "carol": [
            ("Muetar-A9", "Muetar-A10", "--path", "16,14"),
            ("Beolon", "--path", "20,16,19,16,18,16,17,17"),
        ],
    },
    2: {
        "carol": [("16,14", "--path", "15,15"), ("17,17", "--path", "16,17")],
        "alice": [("13,17", "--path", "14,16")],
    },
    3: {"carol": [("15,15", "--path", "15,16"), ("16,17", "--path", "16,16,15,16")]},
    4: {"carol": [("15,16", "--path", "14,17,13,17,13,18")]},
}
SHOTS = ("battle", "siege-news")  # the words each picture is cut round (their class)
CUT = (440.0, 250.0)  # the part of the board shown, in the board's units round the words
SCALE = 2.0  # drawn at twice the board's size: its words stay readable in the README


class Store:
    """A store in a folder, driven by `warscribe` commands run in this process."""

    def __init__(self, folder: Path) -> None:
        self.store = str(folder / "shots.db")
        self.runner = CliRunner()

    def ok(self, *args: str) -> str:
        result = self.runner.invoke(cli, ["--store", self.store, *args], catch_exceptions=False)
        if result.exit_code != 0:
            raise SystemExit(f"warscribe {' '.join(args)}: {result.output}")
        return result.stdout

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json"))


class Commands(Protocol):
    """What runs `warscribe` commands on a store (`Store`, or the tests' `Club`)."""

    def ok(self, *args: str) -> str: ...

    def json(self, *args: str) -> Any: ...


def to_phase(game: Commands, turn: int, player: str | tuple[str, ...], phase: str) -> str:
    """Play quiet phases (random events rolled 7: no event; a diplomacy card drawn, the
    hand kept to four) until `player`'s `phase` of game turn `turn` (or that of the first
    of several players to come to it, whom it returns)."""
    players = (player,) if isinstance(player, str) else player
    while True:
        status = game.json("status")
        if (status["turn"], status["phase"]) == (turn, phase) and status["player"] in players:
            return str(status["player"])
        if "events roll" in status["commands"]:
            game.ok("events", "roll", *QUIET)
        elif "diplomacy draw" in status["commands"]:
            game.ok("diplomacy", "draw")
            while len(game.json("hand")["cards"]) > 4:
                game.ok("discard", game.json("hand")["cards"][0])
        game.ok("end-phase")


def play(game: Store) -> list[str]:
    """The game: the marches, carol's attack in turn 3, her siege in turn 4; the positions
    that show them, as the phase after each began."""
    game.ok(
        "new",
        "divine-right",
        "--dice",
        "table:battle",
        "--name",
        "shots",
        *("--player", "alice=Hothior", "--player", "bob=Mivior", "--player", "carol=Muetar"),
    )
    shown = []
    for turn, moves in MARCH.items():
        left = dict(moves)
        while left:
            for move in left.pop(to_phase(game, turn, tuple(left), "Movement Phase")):
                game.ok("move", *move)
        game.ok("end-phase")
        if turn == 3:
            game.ok("attack", "declare", "15,16>14,16")
            game.ok("attack", "resolve", "1")
            game.ok("retreat", "stand", "--roll", "3", "--roll", "3", "--as", "alice")
            game.ok("losses", "Hothior-A4", "--as", "alice")
            game.ok("end-phase")
        if turn >= 3:
            shown.append(game.json("status")["position"])
    return shown


def cut(picture: str, words: str) -> str:
    """The board's SVG cut to CUT round the event `words` (its class), drawn at SCALE."""
    found = re.search(rf'<text class="event {words}"[^>]* x="([\d.]+)" y="([\d.]+)"', picture)
    if found is None:
        raise SystemExit(f"the board tells no {words}")
    (width, height), x, y = CUT, float(found[1]), float(found[2])
    window = f'viewBox="{x - width / 2:.1f} {y - height / 3:.1f} {width:.0f} {height:.0f}"'
    outer = f'viewBox="0 0 {width * SCALE:.0f} {height * SCALE:.0f}"'
    inner = f'width="{width * SCALE:.0f}" height="{height * SCALE:.0f}" {window}'
    head = f'<svg xmlns="http://www.w3.org/2000/svg" {outer}><svg {inner}'
    body, made = re.subn(
        r'^<svg xmlns="http://www.w3.org/2000/svg"([^>]*?) viewBox="[^"]*"'
        r' width="\d+" height="\d+"',
        lambda m: head + m[1],
        picture,
        count=1,
    )
    if not made:
        raise SystemExit("the board's SVG no longer opens with its size: cut it anew")
    return body + "</svg>\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Play the game in a temporary folder, write the pictures into the folder given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder the pictures are written to")
    out = parser.parse_args(argv).out
    with tempfile.TemporaryDirectory() as folder:
        game = Store(Path(folder))
        for position, words in zip(play(game), SHOTS, strict=True):
            board, shot = Path(folder) / "board.svg", out / f"{words.split('-')[0]}.png"
            game.ok("map", "--svg", str(board), "--at", position, "--force")
            shot.write_bytes(to_png(cut(board.read_text(encoding="utf-8"), words)))
            print(f"wrote {shot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
