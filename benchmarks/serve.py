"""`warscribe serve`'s answers on a long game: a click on a stack and a line added, each
within 150 ms at the 95th percentile on a game of over 3,000 entries (issue 33).

The games: random-play games of Divine Right as replay.py's (common.random_game: five
players, every command drawn from what the rules' `legal` offers), each played up to the
start of a turn (over 3,000 entries, a player with several stacks that move to act), and
imported into a SQLite store owned by the player to act (`init --as`: the page opens as
them). Two games (`GAMES`): one of seeded dice (the copy rolls them: a dry run decides one
way), one of the host's dice (a player's copy of a host game: it cannot roll them, and a
dry run past a roll decides every outcome, `engine/dryrun.py`; figures `serve-*-host`). Their
turn is written on the page up to its Movement Phase (the first offer taken each time:
the random event, the diplomacy, the phases ended), then the app is driven through
Flask's test client (in process: no browser, no socket) as the page drives it, the three
interactions taken in turns, --samples times each:

* serve-click: a click on one of the player's stacks (`GET /api/reach`), each of those
  that reach a space in turn (the page keeps the last stack's reach: a click on another
  works it out);
* serve-add-line: the stack moved to a space lit (`POST /api/line`, which answers with
  the page's whole state: the page shows it as it comes), another space each time the
  stack comes round again (the page keeps the plan of every line it added at a position:
  a line added again would not be dry-run again);
* serve-undo: the line taken back (`POST /api/undo`, answered with the state too: the
  plan of the lines before it is the one kept since they were added).

Each prints its 95th percentile and its median of wall time against an absolute target
(`serve-click p95=XXms target=150ms`), of the run (of --runs, each on a fresh page: a
new session keeps nothing of the last) whose 95th percentile is the least, as the other
benchmarks take the least of their runs; not a ratio: the issue asks an answer a player
does not wait for, whatever the floor. Under an INSTALLED warscribe, as every benchmark
(common.py).

Run: python benchmarks/serve.py [--samples 60] [--runs 3]
"""

from __future__ import annotations

import itertools
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import random_game, report_time, started

from warscribe.cli.context import Context
from warscribe.engine import rulesets
from warscribe.store.app import Warscribe
from warscribe.store.reading import StoreOwner

TARGET = 0.150
"""The 95th percentile of an answer, in seconds (issue 33)."""
TOKEN = re.compile(r'name="warscribe-token" content="([^"]+)"')
UNITS = re.compile(r'class="counter[^"]*"[^>]*data-units="([^"]+)"')


class Page:
    """The page of the app on a store, as a browser drives it (Flask's test client)."""

    def __init__(self, store: str) -> None:
        from warscribe.web.app import make_app

        self.ctx = Context(store, None)
        self.browser = make_app(self.ctx).test_client()
        found = TOKEN.search(self.browser.get("/").get_data(as_text=True))
        assert found is not None, "the page gives no token"
        self.headers = {"X-Warscribe-Token": found[1]}

    def get(self, url: str) -> Any:
        answer = self.browser.get(url)
        assert answer.status_code == 200, (url, answer.get_json())
        return answer.get_json()

    def post(self, url: str, body: Any = None) -> Any:
        answer = self.browser.post(url, json=body or {}, headers=self.headers)
        assert answer.status_code == 200, (url, answer.get_json())
        return answer.get_json()


def player_store(folder: Path, seed: int, turns: int, dice: str) -> tuple[str, str, int]:
    """The game in a SQLite store owned by the player to act: (store, player, entries)."""
    store = str(folder / f"player-{dice}.db")
    app = Warscribe(store)
    game_id = random_game(app, seed, turns, dice)
    head = app.head(game_id)
    player = rulesets.get(head.ruleset).whose_turn(head.state)
    assert player is not None, "the game does not end at a player's turn: try other --turns"
    app.set_owner(StoreOwner(player=player, key_file=None))
    app.close()
    return store, player, int(head.seq)


def to_movement(page: Page) -> dict[str, Any]:
    """Write the turn up to its Movement Phase, the first offer taken each time (its
    choices' first values); the state then."""
    state: dict[str, Any] = page.get("/api/state")
    while not str(state["ahead"]).endswith("movement"):
        offer = state["offers"][0]
        chosen = {choice["key"]: 0 for choice in offer["choices"]}
        state = page.post("/api/line", {"offer": 0, "chosen": chosen})
    return state


def moves(page: Page, state: dict[str, Any]) -> list[tuple[str, str]]:
    """Moves of the player's stacks that reach a space, (units, space), each stack's in turn
    (the first space of each, then the second...): no line added twice at one position."""
    reached = []
    for units in dict.fromkeys(UNITS.findall(state["overlay"])):
        answer = page.browser.get(f"/api/reach?stack={units}")
        reach = answer.get_json().get("reach") if answer.status_code == 200 else None
        if reach:
            reached.append([(units, ",".join(map(str, found["space"]))) for found in reach])
    assert reached, "no stack of the player's reaches a space"
    return [move for row in itertools.zip_longest(*reached) for move in row if move]


def timed(samples: dict[str, list[float]], name: str, call: Callable[[], object]) -> None:
    start = time.perf_counter()
    call()
    samples[name].append(time.perf_counter() - start)


def interact(page: Page, samples: dict[str, list[float]], units: str, space: str) -> None:
    """A click on the stack of `units`, a line moving it to `space`, the line taken back."""
    timed(samples, "click", lambda: page.get(f"/api/reach?stack={units}"))
    timed(samples, "add-line", lambda: page.post("/api/line", {"stack": units, "space": space}))
    timed(samples, "undo", lambda: page.post("/api/undo"))


def p95(times: list[float]) -> float:
    """The 95th percentile (the nearest rank above: never better than the samples)."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, -(-len(ordered) * 95 // 100) - 1)]


def bench(folder: Path, game: tuple[str, int, int], count: int, runs: int) -> None:
    """Drive the page on the game (`GAMES`) and print its figures: of each interaction, the
    run of `count` samples whose 95th percentile is the least, each run a fresh page."""
    dice, seed, turns = game
    store, player, entries = player_store(folder, seed, turns, dice)
    assert entries >= 3000, f"the game holds {entries} entries: give more turns"
    found: dict[str, list[list[float]]] = {"click": [], "add-line": [], "undo": []}
    for _ in range(max(runs, 1)):
        page = Page(store)
        state = to_movement(page)
        made = moves(page, state)
        samples: dict[str, list[float]] = {name: [] for name in found}
        for sample in range(max(count, 50)):
            units, space = made[sample % len(made)]
            interact(page, samples, units, space)
        page.ctx.close()
        for name, times in samples.items():
            found[name].append(times)
    print(
        f"# {dice} dice: {entries} entries, {player}'s page, {len(state['lines'])} lines "
        f"written, {len({units for units, _ in made})} stacks clicked in turn"
    )
    label = "" if dice == "seeded" else f"-{dice}"
    for name, rounds in found.items():
        best = min(rounds, key=p95)
        report_time(f"serve-{name}{label}", p95(best), statistics.median(best), TARGET)


GAMES = (("seeded", 1, 18), ("host", 3, 19))
"""The games (dice, seed, turns played): the first seeds and turns whose game holds over
3,000 entries and stops where the player to act has stacks to move."""


def main() -> None:
    args, folder = started(__doc__, "serve", {"samples": 60, "runs": 3})
    for game in GAMES:
        bench(folder, game, args.samples, args.runs)


if __name__ == "__main__":
    main()
