"""Replay, rewind and recording speed on a 10,000-event game in a SQLite file.

Each figure is a ratio against a baseline measured in the same run, on the same file:

* replay: full replay without snapshots / raw floor (plain sqlite3 SELECT of the same rows
  plus msgpack.unpackb of each), target <= 3.0;
* rewind: state at random earlier positions with snapshots on / full replay without
  snapshots, target <= 0.05;
* record: recording one command (decide + dice + chain + save) / a raw sqlite3
  insert+commit of the same bytes, target <= 3.0.

Run: python benchmarks/replay.py [--events 10000]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import msgpack

from warscribe.engine.events import Command
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.store.app import Warscribe


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The fastest of `runs` timings: the least disturbed by the rest of the machine."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def build(path: Path, events: int) -> UUID:
    app = Warscribe(str(path))
    spec = GameSpec(name="bench", players=tuple(PlayerSpec(n) for n in ("alice", "bob", "carol")))
    head = app.create("divine-right", spec, "seeded:bench")
    seq = head.seq
    while seq < events:
        seq = app.issue(head.game_id, Command("alice", "roll", (("dice", "2d6"),)))[-1].seq
    app.close()
    return head.game_id


def raw_floor(path: Path, game_id: UUID) -> Callable[[], object]:
    def read() -> object:
        conn = sqlite3.connect(path)
        rows = conn.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? ORDER BY originator_version",
            (game_id.hex,),
        ).fetchall()
        out = [msgpack.unpackb(state) for (state,) in rows]
        conn.close()
        return out

    return read


def raw_insert(path: Path, payloads: list[bytes], commits: int) -> float:
    """Seconds per commit of the rows one command writes, inserted by plain sqlite3."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS raw (id TEXT, version INTEGER, topic TEXT, state BLOB, "
        "PRIMARY KEY (id, version)) WITHOUT ROWID"
    )
    start = time.perf_counter()
    version = 0
    for _ in range(commits):
        conn.execute("BEGIN")
        for payload in payloads:
            version += 1
            conn.execute("INSERT INTO raw VALUES (?, ?, ?, ?)", ("g", version, "t", payload))
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return elapsed / commits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--commands", type=int, default=300, help="commands timed for `record`")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="warscribe-bench-"))
    path = folder / "bench.db"
    game_id = build(path, args.events)

    plain = Warscribe(str(path), snapshots=False, cache=False)
    snap = Warscribe(str(path), cache=False)
    server = Warscribe(str(path))
    head = plain.head(game_id)
    floor = best_of(5, raw_floor(path, game_id))
    replay = best_of(5, lambda: plain.head(game_id))
    rng = random.Random(7)
    versions = [rng.randint(1, head.seq) for _ in range(40)]
    rewind = statistics.mean(best_of(3, lambda v=v: snap.head(game_id, v)) for v in versions)  # type: ignore[misc]

    rows = (
        sqlite3.connect(path)
        .execute(
            "SELECT state FROM stored_events WHERE originator_id = ?"
            " ORDER BY originator_version DESC LIMIT 2",
            (game_id.hex,),
        )
        .fetchall()
    )
    payloads = [state for (state,) in rows]
    start = time.perf_counter()
    for _ in range(args.commands):
        server.issue(game_id, Command("alice", "roll", (("dice", "2d6"),)))
    recording = (time.perf_counter() - start) / args.commands
    baseline = raw_insert(folder / "raw.db", payloads, args.commands)

    print(
        f"# {head.seq} events; floor {floor * 1000:.1f} ms, replay {replay * 1000:.1f} ms, "
        f"rewind {rewind * 1000:.2f} ms, record {recording * 1000:.2f} ms, "
        f"raw insert {baseline * 1000:.2f} ms"
    )
    print(f"replay ratio={replay / floor:.2f} target=3.0")
    print(f"rewind ratio={rewind / replay:.3f} target=0.05")
    print(f"record ratio={recording / baseline:.2f} target=3.0")
    for app in (plain, snap, server):
        app.close()


if __name__ == "__main__":
    main()
