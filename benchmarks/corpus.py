"""A host's scale, by hand (not in CI): many realistic games in one PostgreSQL store.

A fresh schema of the PostgreSQL store (common.PG_URL, WARSCRIBE_BENCH_PG to change it)
gets --games games (10,000 by default), made as a host makes them: five players, host
dice (a dice secret and a signing key each, sealed in the store under the store key of
its secrets file, kept under a temporary XDG_DATA_HOME), and each game played on for a
random number of entries, up to --entries (common.play: quiet turns of Divine Right,
about 110 entries a game turn; a new game holds 16, so --entries 16 plays none), so the
store holds games at every stage of their first turns. Then --probes times, a
random game is opened as a CLI call opens it (a fresh store object, no head cache),
found by name, and one command recorded (a referee's roll).

Printed:

* create: games created per second, in batches of --batch (so a rate that falls as the
  store grows shows), and the play that follows, in entries per second;
* `corpus-create ratio=X target=1.2`: the time to create a game among the last thousand
  over the time among the first thousand (the median of each; the first and last tenth
  of a run under 2,000 games): creating the 10,000th game costs what the first did;
* open+record: the p50 and p99 of opening a random game and recording one command;
* size: the store's size on disk per game (tables, indexes and TOAST of the schema, and
  the secrets file), and per entry.

A short run: python benchmarks/corpus.py --games 300. The full one (--games 10000) takes
hours on a development machine. --keep leaves the schema (its name is printed).

Run: python benchmarks/corpus.py [--games 10000] [--entries 400] [--probes 200]
                                 [--batch 100] [--seed 1] [--keep]
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path
from uuid import UUID

from common import HOUSE_ROLL, PG_URL, drop_pg, new_game, pg_store, play, report, started

from warscribe.engine.events import Command
from warscribe.store.app import Warscribe

CREATE_TARGET = 1.2  # a game among the last thousand over one among the first


def create(store: str, count: int, batch: int) -> list[tuple[str, UUID]]:
    """Create `count` games, printing the rate of each batch and how the time of one
    game at the end compares with one at the start; (name, id) of each."""
    made: list[tuple[str, UUID]] = []
    times: list[float] = []
    app = Warscribe(store)
    started = time.perf_counter()
    lap = started
    for number in range(count):
        name = f"game-{number}"
        before = time.perf_counter()
        made.append((name, new_game(app, name, dice="host").game_id))
        now = time.perf_counter()
        times.append(now - before)
        if (number + 1) % batch == 0 or number + 1 == count:
            done = (number % batch) + 1
            print(f"#   games {number + 2 - done}..{number + 1}: {done / (now - lap):.1f}/s")
            lap = now
    app.close()
    elapsed = time.perf_counter() - started
    print(f"# created {count} games in {elapsed:.1f} s: {count / elapsed:.1f} games/s")
    span = min(1000, max(1, count // 10)) if count < 2000 else 1000
    first, last = statistics.median(times[:span]), statistics.median(times[-span:])
    print(
        f"# the first {span} games: {1 / first:.1f}/s, the last {span}: {1 / last:.1f}/s "
        "(medians of each game's time)"
    )
    report("corpus-create", last / first, CREATE_TARGET)
    return made


def grow(store: str, games: list[tuple[str, UUID]], most: int, rng: random.Random) -> int:
    """Play each game on for a random number of entries (up to `most`); entries in all."""
    app = Warscribe(store)
    started = time.perf_counter()
    total = 0
    for _, game_id in games:
        total += play(app, game_id, rng.randint(12, most), seed=rng.randrange(1 << 30))
    app.close()
    elapsed = time.perf_counter() - started
    print(f"# played to {total} entries in {elapsed:.1f} s: {total / elapsed:.0f} entries/s")
    return total


def probe(store: str, games: list[tuple[str, UUID]], probes: int, rng: random.Random) -> None:
    """Open a random game as a CLI call does and record one command, `probes` times."""
    times = []
    for _ in range(probes):
        name, _ = rng.choice(games)
        start = time.perf_counter()
        app = Warscribe(store, cache=False)
        game_id = app.find(name).game_id
        app.issue(game_id, Command("referee", *HOUSE_ROLL))
        app.close()
        times.append(time.perf_counter() - start)
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    print(
        f"open+record: p50 {cuts[49] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms "
        f"({probes} random games)"
    )


def size(store: str, games: int, entries: int, secrets: Path) -> None:
    import psycopg

    schema = store.rpartition("schema=")[2]
    with psycopg.connect(PG_URL) as conn:
        row = conn.execute(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'",
            (schema,),
        ).fetchone()
    tables = int(row[0]) if row and row[0] else 0
    kept = sum(f.stat().st_size for f in secrets.rglob("*.secrets"))
    print(
        f"size: {(tables + kept) / games / 1024:.1f} KiB per game ({tables / 2**20:.1f} MiB "
        f"of tables and indexes, {kept / 2**20:.2f} MiB of secrets; "
        f"{tables / max(entries, 1):.0f} bytes per entry)"
    )


def main() -> None:
    counts = {"games": 10_000, "entries": 400, "probes": 200, "batch": 100, "seed": 1}
    args, secrets = started(__doc__, "corpus", counts, ("keep",))
    os.environ["XDG_DATA_HOME"] = str(secrets)
    store = pg_store("corpus")
    if store is None:
        sys.exit("corpus.py needs PostgreSQL")
    rng = random.Random(args.seed)
    print(f"# {store}")
    try:
        games = create(store, args.games, args.batch)
        entries = grow(store, games, args.entries, rng)
        probe(store, games, args.probes, rng)
        size(store, args.games, entries, secrets)
    finally:
        if not args.keep:
            drop_pg(store)


if __name__ == "__main__":
    main()
