"""Whole-log commands in bounded memory and linear time: `verify`, `audit`, `export`
(binary and armored) and `log` (text and --json) on a 1,000-, a 30,000- and a
100,000-entry game, each a fresh `warscribe` process, and `log --from` near the head.

Three SQLite stores each hold one game of quiet play (common.play) with seeded dice and
the same mix of entries: after each command the referee's house rolls, LARGE // 1800 of
them in all three games, which lets the large game grow past the ~2,200 entries of its 20
turns. (Rolls in proportion to each game's size made a small game of play and a large one
of rolls, and the growth compared the two mixes: 5 rolls a command at 10k, 55 at 100k.)
They are built in a RAM-backed folder where there is one
(/dev/shm: building commits once per entry, and fsync would make the 100k-entry game take
minutes; the commands measured read, and write only their output there).

* rss-COMMAND: peak resident memory (the process's own VmHWM as it exits) on the large
  game / on the small game, target <= 1.5;
* growth-COMMAND: the exponent k of a call's time t = a + b * entries^k, a the call's
  fixed cost (start-up, open, the head, whatever the command does once), through the
  three games' times of one turn of calls (the sizes in turn), the median over the
  turns, target <= 1.05;
* log-from: `log --from HEAD-9` (ten lines) on the large game / on the small game, target
  <= 1.3 (it costs what it prints plus a snapshot load, not the entries before).

Times are CPU times (user + system, from wait4: this machine is shared and busy, and the
commands do no waiting of their own), each printed the minimum of --runs (at least 5).
The exponent is fitted a turn at a time, its three calls a few seconds apart, not through
the sizes' minima, which may come from different minutes of the machine; and the fixed
cost is the command's own, not that of another call (a `status` before each call, as
before, left out what `export` does once, and gave it 0.77 against verify's 0.99; the
minima gave verify 0.97 in one run and 1.19 in the next). The middle game holds 30,000
entries: at 10,000 its work beyond the small game's was 0.15-0.5 s, within the machine's
swing, and one run's fit read 1.19 for export and 0.83 for export --armor, which does
more.
The processes run the INSTALLED warscribe (common.installed: a non-editable
`pip install .`, compiled to bytecode; PYTHONDONTWRITEBYTECODE=1 is exported on this
machine, so an editable install would recompile every module on every call).

Run: python benchmarks/stream.py [--runs 5] [--small 1000] [--middle 30000]
                                 [--large 100000] [--folder DIR] [--postgresql]
(--folder: SQLite games built there by an earlier run are used again, whatever their
size, if they have this run's mix of rolls. --postgresql: the same on fresh PostgreSQL
schemas instead, built anew each run, which takes minutes at 100,000 entries; the peak
memory is the client's.)
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

from common import RUNS, drop_pg, machine, new_game, pg_store, play, report

from warscribe.store.app import Warscribe

COMMANDS = {
    "verify": ["verify"],
    "audit": ["audit"],
    "export": ["export", "--force", "-o", "{out}.wlog"],
    "export-armor": ["export", "--force", "--armor", "-o", "{out}.txt"],
    "log": ["log"],
    "log-json": ["log", "--json"],
}


def build(store: str, entries: int, house_rolls: int) -> int:
    """A game of at least `entries` entries in `store`, `house_rolls` after each command
    (kept when it is there: a game of another mix is refused); its size."""
    name = f"quiet-{house_rolls}-rolls"
    app = Warscribe(store)
    try:
        held = app.games()
        if held and held[0].name != name:
            raise SystemExit(f"{store} holds {held[0].name!r}, not {name!r}: use another --folder")
        if held:
            return int(app.head(held[0].game_id).seq)
        game_id = new_game(app, name).game_id
        return play(app, game_id, entries, house_rolls=house_rolls)
    finally:
        app.close()


_PEAK = """
import atexit, os, sys

def peak():
    with open("/proc/self/status") as status:
        kb = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    os.write(2, f"\\npeak {kb}\\n".encode())

atexit.register(peak)
sys.argv = ["warscribe", *sys.argv[1:]]
from warscribe.cli.main import main
main()
"""
"""`warscribe ARGS` that says its own peak resident memory (VmHWM) on standard error as it
exits. The child's ru_maxrss would not do: a child started with vfork, as subprocess
starts it, carries its parent's peak across exec."""


def run(store: str, args: list[str]) -> tuple[float, int]:
    """(CPU seconds, peak resident KB) of a fresh `warscribe --store STORE ARGS`."""
    argv = [sys.executable, "-c", _PEAK, "--store", store, *args]
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    child.returncode = 0  # reaped by wait4 below
    errors = child.stderr.read().decode() if child.stderr else ""
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"warscribe {' '.join(args)} failed: {errors}")
    return usage.ru_utime + usage.ru_stime, int(errors.rsplit("peak ", 1)[1])


class Measured(NamedTuple):
    """A command's calls on one size: the CPU time and the peak RSS of each turn's call."""

    times: list[float]
    peaks: list[int]


def measure(
    stores: dict[str, str], folder: Path, args: list[str], runs: int
) -> dict[str, Measured]:
    """Per size, the `Measured` of `runs` turns of calls; in each turn the sizes take
    turns. Files a command writes go to FOLDER/SIZE.*."""
    found = {size: Measured([], []) for size in stores}
    for _ in range(runs):
        for size, store in stores.items():
            elapsed, peak = run(store, [a.replace("{out}", str(folder / size)) for a in args])
            found[size].times.append(elapsed)
            found[size].peaks.append(peak)
    return found


def growth(entries: tuple[int, int, int], turns: list[tuple[float, float, float]]) -> float:
    """The median over `turns` (the small, middle and large game's times of one turn) of
    the exponent k of t = a + b * entries^k through the three: (L^k - S^k) / (M^k - S^k)
    = (t_L - t_S) / (t_M - t_S), which grows with k, found by bisection. A turn whose
    middle or large call cost no more than its small one says nothing and is left out."""
    small, middle, large = entries

    def spread(k: float) -> float:
        return (math.pow(large, k) - math.pow(small, k)) / (
            math.pow(middle, k) - math.pow(small, k)
        )

    exponents = []
    for t_small, t_middle, t_large in turns:
        if min(t_middle, t_large) <= t_small:
            continue
        target, low, high = (t_large - t_small) / (t_middle - t_small), 0.05, 4.0
        for _ in range(60):
            k = (low + high) / 2
            low, high = (k, high) if spread(k) < target else (low, k)
        exponents.append((low + high) / 2)
    if not exponents:
        raise RuntimeError("no turn's larger games cost more than its small one")
    return statistics.median(exponents)


def bench(
    stores: dict[str, str], sizes: dict[str, int], folder: Path, label: str, runs: int
) -> None:
    rolls = sizes["large"] // 1800
    held = {size: build(stores[size], entries, rolls) for size, entries in sizes.items()}
    print(f"# {label}: games of {held['small']}, {held['middle']} and {held['large']} entries")
    counts = (held["small"], held["middle"], held["large"])
    for name, command in COMMANDS.items():
        found = measure(stores, folder, command, max(runs, RUNS))
        low, mid, high = (found[s] for s in sizes)
        small_peak, large_peak = max(low.peaks), max(high.peaks)
        print(
            f"# {label} {name}: {min(low.times):.2f} / {min(mid.times):.2f} / "
            f"{min(high.times):.2f} s, peak {small_peak / 1024:.1f} / {large_peak / 1024:.1f} MB"
        )
        report(f"rss-{name}-{label}", large_peak / small_peak, 1.5)
        exponent = growth(counts, list(zip(low.times, mid.times, high.times, strict=True)))
        report(f"growth-{name}-{label}", exponent, 1.05)
    tail = {size: ["log", "--from", str(max(held[size] - 9, 1))] for size in ("small", "large")}
    times: dict[str, list[float]] = {"small": [], "large": []}
    for _ in range(max(runs, RUNS)):
        for size in times:
            times[size].append(run(stores[size], tail[size])[0])
    small, large = min(times["small"]), min(times["large"])
    print(f"# {label} log --from HEAD-9: {small * 1000:.0f} ms / {large * 1000:.0f} ms")
    report(f"log-from-{label}", large / small, 1.3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--middle", type=int, default=30_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument(
        "--folder", type=Path, default=None, help="Where the games are (built when missing)."
    )
    parser.add_argument("--postgresql", action="store_true", help="On PostgreSQL instead.")
    args = parser.parse_args()
    print(machine(), flush=True)
    ram = Path("/dev/shm")
    folder = args.folder or Path(
        tempfile.mkdtemp(prefix="warscribe-stream-", dir=ram if ram.is_dir() else None)
    )
    sizes = {"small": args.small, "middle": args.middle, "large": args.large}
    if not args.postgresql:
        print(f"# SQLite games in {folder}")
        sqlite = {size: str(folder / f"{size}.db") for size in sizes}
        bench(sqlite, sizes, folder, "sqlite", args.runs)
        return
    stores = {size: pg_store(f"stream_{size}") for size in sizes}
    try:
        if all(stores.values()):
            bench({k: v for k, v in stores.items() if v}, sizes, folder, "postgresql", args.runs)
    finally:
        for store in stores.values():
            if store is not None:
                drop_pg(store)


if __name__ == "__main__":
    main()
