"""Soak the rule sets with random games driven only by `legal` (issue 12, part 3).

    python tools/random_play.py --games 1000 --seed 1 [--commands N] [--ruleset divine-right]

Plays GAMES seeded games of each rule set (or of the one named): Divine Right games to
their end (which must come within tests/engine/test_random_play.GAME commands), starting
in turn from the set-up and from each arranged position of tests/engine/test_random_play.py
(sieges, a front, cargo, a captive); eu-pop games (which have no end) for 400 commands;
or each for COMMANDS. Runs the checks of tests/engine/random_play.py after every command
and at the end of each game, and prints the refusal rate of the commands drawn from
`legal` (anything `legal` offers should be accepted: the target is under 1 %), the
refusals by reason, and every game that failed a check or raised anything but a rule
error, with its seed.
"""

from __future__ import annotations

import argparse
import random
import sys
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engine.random_play import (
    Game,
    check_progress,
    check_record,
    new_game,
    play,
    refusal_rate,
)
from tests.engine.test_random_play import (
    ARRANGEMENTS,
    DR_SPEC,
    EU_SPEC,
    GAME,
    HELD,
    arranged_game,
    dr_invariants,
    eu_invariants,
)

GAMES = {
    "divine-right": (DR_SPEC, dr_invariants, GAME),
    "eu-pop": (EU_SPEC, eu_invariants, 400),
}


def _start(ruleset: str, seed: int) -> Game:
    """The game of `seed`: eu-pop's from its example start; Divine Right's from the set-up
    or, in turn, from each arranged position."""
    starts = [None, *ARRANGEMENTS] if ruleset == "divine-right" else [None]
    start = starts[seed % len(starts)]
    return new_game(ruleset, GAMES[ruleset][0], seed) if start is None else arranged_game(start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", type=int)
    parser.add_argument("--ruleset", choices=sorted(GAMES))
    options = parser.parse_args()
    failed = 0
    for ruleset in [options.ruleset] if options.ruleset else sorted(GAMES):
        _, check, bound = GAMES[ruleset]
        played: list[Game] = []
        for seed in range(options.seed, options.seed + options.games):
            game = _start(ruleset, seed)
            try:
                play(game, random.Random(seed), options.commands or bound, check)  # type: ignore[arg-type]
                check_record(game, random.Random(seed))
                check_progress(game, HELD)
                ends = ruleset == "divine-right" and options.commands is None
                assert game.over or not ends, f"not over after {bound} commands"
            except Exception:
                failed += 1
                position = game.head.seq
                print(f"{ruleset} seed {seed}: failed after {game.commands} commands (#{position})")
                traceback.print_exc()
            played.append(game)
        drawn = sum(g.commands for g in played)
        refused = Counter(
            (command.name, str(error)[:160]) for g in played for command, error in g.refused
        )
        print(
            f"{ruleset}: {len(played)} games, {drawn} commands drawn, "
            f"{sum(refused.values())} refused ({refusal_rate(played):.3%})"
        )
        for (name, reason), count in refused.most_common(10):
            print(f"  {count} x {name}: {reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
