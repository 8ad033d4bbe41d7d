"""Importing one mailed turn: into a 30,000-entry game against into a 1,000-entry game.

A host's store holds two games with host dice (so every mail carries the host's signed
checkpoint): a 1,000-entry game of quiet play (common.play) and a 30,000-entry game (quiet
play with 25 house rolls by the referee after each command, which is how a game grows
past the ~2,200 entries its 20 turns hold). A player's store holds alice's copy of each,
imported from #1. Then, alternately for each game, the host plays one player turn and
exports the tail from the player's head on for alice (`export --for alice --from N`), and
the player's store imports it; each figure is the minimum of --runs (>= 5) imports,
parsing the file included; before each pair of imports the shorter of the two turns is
topped up with the referee's house rolls to the other's length (`level`). The ratio is
of CPU time (the process's, in-process): the import's commit waits for the disk the
same in both games, and on a shared machine that wait swung the wall-time ratio from 0.6
to 2.2 between runs; wall times are printed too. The player's store runs without the
in-memory head cache, as a fresh `warscribe import` process does.

* mail: import into the 30k game / import into the 1k game, target <= 1.3.

In-process (start-up is benchmarks/startup.py's), under an INSTALLED warscribe: importing
common.py runs the script again under a non-editable `pip install .` of this checkout
(PYTHONDONTWRITEBYTECODE=1 is exported on this machine, so an editable install would
recompile every module on every call).

Run: python benchmarks/mail.py [--runs 5] [--small 1000] [--large 30000] [--sqlite-only]
"""

from __future__ import annotations

import argparse
import time
from uuid import UUID

from common import HOUSE_ROLL, new_game, play, play_turn, report, started, store_pairs

from warscribe.engine.events import Command
from warscribe.store import logfile
from warscribe.store.app import Warscribe


def mail(host: Warscribe, game_id: UUID, start: int) -> bytes:
    """What `export --for alice --from START` writes: the tail, signed by the host."""
    listing = host.find(str(game_id))
    entries = list(logfile.redact_for(host.entries(game_id, start), "alice"))
    last = entries[-1]
    checkpoint = host.checkpoint(game_id, last.seq, last.chain)
    return logfile.write(
        game_id, listing.name, listing.ruleset, listing.players, entries, checkpoint
    )


def level(host: Warscribe, games: dict[str, UUID], starts: dict[str, int]) -> None:
    """Play a player turn in each game, then house rolls in the one with the shorter tail
    until the two mails hold the same number of entries (a turn's length depends on the
    random events drawn: a 2-entry mail against a 20-entry one measured the mails, not
    the games)."""
    ends = {size: play_turn(host, game_id) for size, game_id in games.items()}
    while True:
        lengths = {size: ends[size] - starts[size] for size in games}
        short = min(lengths, key=lengths.__getitem__)
        if max(lengths.values()) - lengths[short] < 2:
            return
        host.issue(games[short], Command("referee", *HOUSE_ROLL))
        ends[short] = host.head(games[short]).seq


def bench(host_store: str, player_store: str, label: str, args: argparse.Namespace) -> None:
    host = Warscribe(host_store)
    sizes = {"small": (args.small, 0), "large": (args.large, 25)}
    games: dict[str, UUID] = {}
    for size, (entries, rolls) in sizes.items():
        game_id = new_game(host, size, dice="host").game_id
        games[size] = game_id
        play(host, game_id, entries, house_rolls=rolls)
    player = Warscribe(player_store, cache=False)
    for game_id in games.values():
        player.import_log(logfile.read(mail(host, game_id, 1)))
    times: dict[str, list[float]] = {size: [] for size in games}
    cpus: dict[str, list[float]] = {size: [] for size in games}
    counts: dict[str, list[int]] = {size: [] for size in games}
    for _ in range(max(args.runs, 5)):
        starts = {size: player.head(game_id).seq + 1 for size, game_id in games.items()}
        level(host, games, starts)
        for size, game_id in games.items():
            data = mail(host, game_id, starts[size])
            start, cpu = time.perf_counter(), time.process_time()
            added = player.import_log(logfile.read(data)).added
            times[size].append(time.perf_counter() - start)
            cpus[size].append(time.process_time() - cpu)
            counts[size].append(added)
    small, large = min(times["small"]), min(times["large"])
    print(
        f"# {label}: one-turn mails of {min(counts['small'])}-{max(counts['small'])} and "
        f"{min(counts['large'])}-{max(counts['large'])} entries; into "
        f"{player.head(games['small']).seq} entries {small * 1000:.1f} ms, into "
        f"{player.head(games['large']).seq} entries {large * 1000:.1f} ms (wall; "
        f"ratio {large / small:.2f}); CPU {min(cpus['small']) * 1000:.1f} / "
        f"{min(cpus['large']) * 1000:.1f} ms"
    )
    report(f"mail-{label}", min(cpus["large"]) / min(cpus["small"]), 1.3)
    host.close()
    player.close()


def main() -> None:
    counts = {"runs": 5, "small": 1_000, "large": 30_000}
    args, folder = started(__doc__, "mail", counts, ("sqlite-only",))
    for host, player, label in store_pairs(folder, ("mail_host", "mail_alice"), args.sqlite_only):
        bench(host, player, label, args)


if __name__ == "__main__":
    main()
