"""Whole-log commands in bounded memory and linear time: `verify`, `audit`, `export`
(binary and armored) and `log` (text and --json) on a 1,000-, a 10,000- and a
100,000-entry game, each a fresh `warscribe` process, and `log --from` near the head.

Three SQLite stores each hold one game of quiet play (common.play) with seeded dice,
grown past the ~2,200 entries of its 20 turns by the referee's house rolls after each
command (SIZE // 1800 of them). They are built in a RAM-backed folder where there is one
(/dev/shm: building commits once per entry, and fsync would make the 100k-entry game take
minutes; the commands measured read, and write only their output there).

* rss-COMMAND: peak resident memory (the process's own VmHWM as it exits) on the large
  game / on the small game, target <= 1.5;
* growth-COMMAND: the exponent k of time ~ entries^k between the middle and the large
  game, each time less the fixed cost of a call on that store (`warscribe status`:
  start-up, open, the head from a snapshot), target <= 1.05;
* log-from: `log --from HEAD-9` (ten lines) on the large game / on the small game, target
  <= 1.3 (it costs what it prints plus a snapshot load, not the entries before).

Times are CPU times (user + system, from wait4: this machine is shared and busy, and the
commands do no waiting of their own), each the minimum of --runs (at least 5); the fixed
cost is measured on each store in the same turns as each command's calls, just before
each; the sizes take turns.
The processes run the INSTALLED warscribe (common.installed: a non-editable
`pip install .`, compiled to bytecode; PYTHONDONTWRITEBYTECODE=1 is exported on this
machine, so an editable install would recompile every module on every call).

Run: python benchmarks/stream.py [--runs 5] [--small 1000] [--middle 10000]
                                 [--large 100000] [--folder DIR] [--postgresql]
(--folder: SQLite games built there by an earlier run are used again, whatever their
size. --postgresql: the same on fresh PostgreSQL schemas instead, built anew each run,
which takes minutes at 100,000 entries; the peak memory is the client's.)
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import RUNS, drop_pg, new_game, pg_store, play, report

from warscribe.store.app import Warscribe

COMMANDS = {
    "verify": ["verify"],
    "audit": ["audit"],
    "export": ["export", "--force", "-o", "{out}.wlog"],
    "export-armor": ["export", "--force", "--armor", "-o", "{out}.txt"],
    "log": ["log"],
    "log-json": ["log", "--json"],
}


def build(store: str, entries: int) -> int:
    """A game of at least `entries` entries in `store` (kept when it is there); its size."""
    app = Warscribe(store)
    try:
        if app.games():
            return int(app.head(app.games()[0].game_id).seq)
        game_id = new_game(app, "game").game_id
        return play(app, game_id, entries, house_rolls=entries // 1800)
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


def measure(
    stores: dict[str, str], folder: Path, args: list[str], runs: int
) -> dict[str, tuple[float, int, float]]:
    """Per size: (the minimum CPU time, the maximum peak RSS) of `runs` calls, and the
    minimum CPU time of a `status` call on the same store just before each (the call's
    fixed cost, taken in the same turns: a figure measured minutes apart saw another
    machine, and the middle game's work is barely more than it); the sizes take turns.
    Files a command writes go to FOLDER/SIZE.*."""
    times: dict[str, list[float]] = {size: [] for size in stores}
    fixed: dict[str, list[float]] = {size: [] for size in stores}
    peaks: dict[str, list[int]] = {size: [] for size in stores}
    for _ in range(runs):
        for size, store in stores.items():
            out = str(folder / size)
            fixed[size].append(run(store, ["status"])[0])
            elapsed, peak = run(store, [a.replace("{out}", out) for a in args])
            times[size].append(elapsed)
            peaks[size].append(peak)
    return {size: (min(times[size]), max(peaks[size]), min(fixed[size])) for size in stores}


def bench(
    stores: dict[str, str], sizes: dict[str, int], folder: Path, label: str, runs: int
) -> None:
    held = {size: build(stores[size], entries) for size, entries in sizes.items()}
    print(f"# {label}: games of {held['small']}, {held['middle']} and {held['large']} entries")
    for name, command in COMMANDS.items():
        found = measure(stores, folder, command, max(runs, RUNS))
        (t_small, m_small, _), (t_mid, _, f_mid), (t_large, m_large, f_large) = (
            found[s] for s in sizes
        )
        growth = math.log((t_large - f_large) / (t_mid - f_mid)) / math.log(
            held["large"] / held["middle"]
        )
        print(
            f"# {label} {name}: {t_small:.2f} / {t_mid:.2f} / {t_large:.2f} s (calls cost "
            f"{f_mid:.2f} / {f_large:.2f} s without the work), peak {m_small / 1024:.1f} / "
            f"{m_large / 1024:.1f} MB"
        )
        report(f"rss-{name}-{label}", m_large / m_small, 1.5)
        report(f"growth-{name}-{label}", growth, 1.05)
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
    parser.add_argument("--middle", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument(
        "--folder", type=Path, default=None, help="Where the games are (built when missing)."
    )
    parser.add_argument("--postgresql", action="store_true", help="On PostgreSQL instead.")
    args = parser.parse_args()
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
