"""CLI start-up: the CPU time of `warscribe status` on a small game and of `warscribe --help`,
each a fresh process, against the CPU time of a process that only imports what they must.

* status: `warscribe status` on a freshly set-up 5-player Divine Right game in a SQLite
  file / `python -c 'import click, msgpack, eventsourcing.application,
  eventsourcing.sqlite'`, target <= 1.5;
* help: `warscribe --help` / `python -c 'import click'`, target <= 1.5.

Measured on an INSTALLED warscribe (a non-editable `pip install .` into a virtualenv that
common.py makes under the temporary folder, compiled to bytecode): this
machine exports PYTHONDONTWRITEBYTECODE=1, so an editable install would recompile every
module on every call. Runs are alternated floor/command, each figure the minimum of
--runs (>= 5).

Run: python benchmarks/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from pathlib import Path

from common import alternated_cpu, installed, machine, report

STATUS_FLOOR = "import click, msgpack, eventsourcing.application, eventsourcing.sqlite"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(machine(), flush=True)
    python = str(installed())
    warscribe = str(Path(python).parent / "warscribe")
    folder = Path(tempfile.mkdtemp(prefix="warscribe-startup-"))
    # the first call makes the caches of what is installed (engine/installed.py), there
    env = {**os.environ, "WARSCRIBE_STORE": str(folder / "game.db"), "WARSCRIBE_CACHE": str(folder)}
    players = [a for p in ("alice", "bob", "carol", "dave", "erin") for a in ("--player", p)]
    new = [warscribe, "new", "divine-right", *players, "--dice", "seeded:1"]
    subprocess.run(new, env=env, check=True, stdout=subprocess.DEVNULL)
    cases = (
        ("status", [python, "-c", STATUS_FLOOR], [warscribe, "status"]),
        ("help", [python, "-c", "import click"], [warscribe, "--help"]),
    )
    for name, floor_argv, argv in cases:
        floor, work = alternated_cpu(floor_argv, argv, folder, env, args.runs)
        print(f"# {name}: {work * 1000:.0f} ms CPU; floor {floor * 1000:.0f} ms CPU")
        report(name, work / floor, 1.5)


if __name__ == "__main__":
    main()
