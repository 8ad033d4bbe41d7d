"""Replay, rewind and recording speed on a realistic game, on SQLite and on PostgreSQL.

The game: a seeded random-play game of Divine Right, five players, 20 turns, every command
drawn from what the rules' `legal` offers (common.random_game: moves, sieges, battles,
diplomacy, every question answered; about 3,300 entries), played once per seed and
version of the sources and imported from a cached log file. Each figure is a ratio
against a floor measured in the same run, on the same rows, the two alternated and each
the minimum of --runs (>= 5); the floors keep nothing:

* replay: full replay without snapshots or cache / the honest floor (a plain SELECT of the
  same rows on a connection already open + `msgpack.unpackb` of each, results dropped),
  target <= 3.0 on SQLite, 2.5 on PostgreSQL (CPython over C floors: the targets set for
  this interpreter, with no compiled build; issue 14 asked 2.0);
* peer-replay: the same replay through eventsourcing's stock `Application` (its default
  JSON transcoder and its recorder for the same database, no snapshots, no cache): each
  of the game's stored rows, decoded and made JSON-able (`views.jsonable`), is one event
  of a stock `Aggregate` that keeps the last; `repository.get` reads them back / the same
  honest floor. No target: it places our figure beside the library's own, which folds
  no rules (informational);
* rewind: the state at random earlier positions (snapshots on, no cache) / a full replay,
  target <= 0.05;
* record-head-kept: recording one command (a referee's roll: decide + dice + chain +
  save) in a long-running process (the head of its last command kept) / a raw
  insert+commit of the same rows (the game's id, topic and state bytes the command
  wrote) into a table of the same database shaped as the events table, alternated in
  the same loop, target <= 2.5 on SQLite (set for this interpreter, as the replay's),
  1.5 on PostgreSQL;
* record-cli: the same as a CLI call does it (no head kept: the head is read from the
  newest snapshot and the entries after it) / the raw work of that: the same SELECTs of
  the snapshot row and the rows after it + `msgpack.unpackb` of each, then the raw
  insert+commit, target <= 2.0 (the replay's: reading a head is most of it; the issue's
  1.5 is for the write, `record-head-kept`).

In-process (start-up is benchmarks/startup.py's), under an INSTALLED warscribe: importing
common.py runs the script again under a non-editable `pip install .` of this checkout
(PYTHONDONTWRITEBYTECODE=1 is exported on this machine, so an editable install would
recompile every module on every call).

Run: python benchmarks/replay.py [--runs 9] [--commands 20] [--sqlite-only]
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import HOUSE_ROLL, alternated, drop_pg, machine, pg_store, random_game, report

from warscribe.engine.events import Command
from warscribe.store.app import Warscribe


def _unpackb() -> Callable[[bytes], object]:
    import msgpack  # here: this script may start under a python without it (see common.py)

    unpack: Callable[[bytes], object] = msgpack.unpackb
    return unpack


class Raw:
    """A plain driver connection to the store's database: the floors."""

    def __init__(self, app: Warscribe) -> None:
        recorder: Any = app.recorder
        self.sqlite = app.backend.kind == "sqlite"
        table = recorder.events_table_name
        if self.sqlite:
            import sqlite3

            self.conn: Any = sqlite3.connect(dict(app.backend.env)["SQLITE_DBNAME"])
            self.mark = "?"
            self.table = table
            self.raw = "raw_insert"
        else:
            import psycopg

            env = dict(app.backend.env)
            self.conn = psycopg.connect(
                f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} "
                f"dbname={env['POSTGRES_DBNAME']} user={env['POSTGRES_USER']}"
            )
            self.mark = "%s"
            self.table = f"{recorder.datastore.schema}.{table}"
            self.raw = f"{recorder.datastore.schema}.raw_insert"
        self.conn.execute(self._same_table(table))
        self.conn.commit()
        self.version = 0

    def _same_table(self, table: str) -> str:
        """The DDL of a table shaped as the store's events table (its columns, key and
        indexes): the floor writes what a record writes, where it would write it."""
        if not self.sqlite:
            return f"CREATE TABLE {self.raw} (LIKE {self.table} INCLUDING ALL)"
        (ddl,) = self.conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        return str(ddl).replace(table, self.raw, 1)

    def key(self, game_id: Any) -> Any:
        return game_id.hex if self.sqlite else game_id

    def read(self, game_id: Any) -> Callable[[], None]:
        query = (
            f"SELECT state FROM {self.table} WHERE originator_id = {self.mark} "
            "ORDER BY originator_version"
        )
        key = self.key(game_id)

        def run() -> None:
            unpackb = _unpackb()
            for (state,) in self.conn.execute(query, (key,)).fetchall():
                unpackb(state)
            self.conn.commit()

        return run

    def last_rows(self, game_id: Any, count: int) -> list[tuple[Any, str, bytes]]:
        """(id, topic, state) of the game's newest `count` rows, as stored."""
        query = (
            f"SELECT originator_id, topic, state FROM {self.table} WHERE originator_id = "
            f"{self.mark} ORDER BY originator_version DESC LIMIT {count}"
        )
        found = self.conn.execute(query, (self.key(game_id),))
        rows = [(key, topic, bytes(state)) for key, topic, state in found]
        self.conn.commit()
        return rows[::-1]

    def read_head(self, game_id: Any, snapshots: str) -> None:
        """What reading the head costs raw: the newest snapshot's row, the rows after it,
        each unpacked, nothing kept."""
        unpackb = _unpackb()
        key = self.key(game_id)
        newest = self.conn.execute(
            f"SELECT originator_version, state FROM {snapshots} WHERE originator_id = "
            f"{self.mark} ORDER BY originator_version DESC LIMIT 1",
            (key,),
        ).fetchone()
        version = 0
        if newest is not None:
            version = newest[0]
            unpackb(newest[1])
        rows = self.conn.execute(
            f"SELECT state FROM {self.table} WHERE originator_id = {self.mark} "
            f"AND originator_version > {self.mark} ORDER BY originator_version",
            (key, version),
        )
        for (state,) in rows.fetchall():
            unpackb(state)
        self.conn.commit()

    def insert(self, rows: list[tuple[Any, str, bytes]]) -> None:
        """The same rows (id, topic, state), at versions of their own, in one commit."""
        marks = ", ".join([self.mark] * 4)
        statement = (
            f"INSERT INTO {self.raw} (originator_id, originator_version, topic, state) "
            f"VALUES ({marks})"
        )
        for key, topic, state in rows:
            self.version += 1
            self.conn.execute(statement, (key, self.version, topic, state))
        self.conn.commit()


def bench(store: str, label: str, runs: int, commands: int) -> None:
    builder = Warscribe(store)
    game_id = random_game(builder)
    entries = builder.head(game_id).seq
    builder.close()
    plain = Warscribe(store, snapshots=False, cache=False)
    snap = Warscribe(store, cache=False)
    server = Warscribe(store)
    raw = Raw(plain)
    floor, replay = alternated(raw.read(game_id), lambda: plain.head(game_id), runs)
    rng = random.Random(7)
    versions = [rng.randint(1, entries) for _ in range(40)]
    rewinds = [
        alternated(lambda: None, functools.partial(snap.head, game_id, v), runs)[1]
        for v in versions
    ]
    rewind = statistics.mean(rewinds)
    peer = peer_replay(store, label, raw, game_id, runs)
    snapshots: Any = snap.snapshots
    table = snapshots.recorder.events_table_name
    if not raw.sqlite:
        table = f"{snapshots.recorder.datastore.schema}.{table}"
    record, insert = recording(snap, raw, game_id, runs, commands, table)
    kept, kept_insert = recording(server, raw, game_id, runs, commands, None)
    print(
        f"# {label}: {entries} entries; floor {floor * 1000:.1f} ms, replay "
        f"{replay * 1000:.1f} ms, rewind {rewind * 1000:.2f} ms, record {record * 1000:.2f} ms "
        f"(head kept: {kept * 1000:.2f} ms), raw head read + insert+commit "
        f"{insert * 1000:.2f} ms (raw insert+commit {kept_insert * 1000:.2f} ms)"
    )
    report(f"replay-{label}", replay / floor, 3.0 if label == "sqlite" else 2.5)
    report(f"peer-replay-{label}", peer / floor, None)
    report(f"rewind-{label}", rewind / replay, 0.05)
    report(f"record-head-kept-{label}", kept / kept_insert, 2.5 if label == "sqlite" else 1.5)
    report(f"record-cli-{label}", record / insert, 2.0)
    raw.conn.close()
    for app in (plain, snap, server):
        app.close()


@functools.cache
def peer_aggregate() -> Any:
    """A stock eventsourcing aggregate that keeps the last entry it was given (defined
    once: eventsourcing registers each class by its topic)."""
    from eventsourcing.domain import Aggregate, event

    class Game(Aggregate):
        def __init__(self) -> None:
            self.last: object = None

        @event("Recorded")
        def record(self, entry: object) -> None:
            self.last = entry

    return Game


def peer_replay(store: str, label: str, raw: Raw, game_id: Any, runs: int) -> float:
    """Seconds of the same replay through eventsourcing's stock Application (module
    docstring: peer-replay), the minimum of `runs`, in a database of its own."""
    from eventsourcing.application import Application

    from warscribe.engine import codec
    from warscribe.store.views import jsonable

    rows = raw.conn.execute(
        f"SELECT state FROM {raw.table} WHERE originator_id = {raw.mark} "
        "ORDER BY originator_version",
        (raw.key(game_id),),
    ).fetchall()
    raw.conn.commit()
    own = f"{store}.peer" if label == "sqlite" else pg_store("peer")
    assert own is not None, "the PostgreSQL server answered a moment ago"
    app: Any = Application(env=peer_env(own, label))
    try:
        game = peer_aggregate()()
        for (state,) in rows:
            game.record(jsonable(codec.decode(bytes(state))))
        app.save(game)
        get = functools.partial(app.repository.get, game.id)
        return alternated(lambda: None, get, runs)[1]
    finally:
        app.close()
        if label != "sqlite":
            drop_pg(own)


def peer_env(store: str, label: str) -> dict[str, str]:
    """A stock Application's settings for the store `store` (a SQLite file, or a
    PostgreSQL URL with its own schema)."""
    if label == "sqlite":
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": store}
    from urllib.parse import parse_qs, urlsplit

    url = urlsplit(store)
    schema = parse_qs(url.query)["schema"][0]
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": url.path.lstrip("/"),
        "POSTGRES_HOST": url.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(url.port or 5432),
        "POSTGRES_USER": url.username or "postgres",
        "POSTGRES_PASSWORD": url.password or "",
        "POSTGRES_SCHEMA": schema,
        "CREATE_TABLE": "y",
    }


def recording(
    app: Warscribe, raw: Raw, game_id: Any, runs: int, commands: int, snapshots: str | None
) -> tuple[float, float]:
    """(record, floor) seconds per command: recording a referee's roll with `app`, and a
    raw insert+commit of the rows it wrote (with, if `snapshots` names the snapshots
    table, a raw read of the head's rows just before the record reads them), alternated
    in the same loop, each the minimum over `runs` batches of `commands`."""
    recorded: list[float] = []
    floors: list[float] = []
    for _ in range(max(runs, 5)):
        spent = [0.0, 0.0]
        for _ in range(commands):
            start = time.perf_counter()
            if snapshots is not None:  # the rows the record is about to read
                raw.read_head(game_id, snapshots)
            spent[1] += time.perf_counter() - start
            start = time.perf_counter()
            written = app.issue(game_id, Command("referee", *HOUSE_ROLL))
            spent[0] += time.perf_counter() - start
            rows = raw.last_rows(game_id, len(written))
            start = time.perf_counter()
            raw.insert(rows)
            spent[1] += time.perf_counter() - start
        recorded.append(spent[0] / commands)
        floors.append(spent[1] / commands)
    return min(recorded), min(floors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--commands", type=int, default=20, help="commands per timed batch")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    print(machine(), flush=True)
    folder = Path(tempfile.mkdtemp(prefix="warscribe-bench-"))
    bench(str(folder / "bench.db"), "sqlite", args.runs, args.commands)
    pg = None if args.sqlite_only else pg_store("replay")
    if pg is not None:
        try:
            bench(pg, "postgresql", args.runs, args.commands)
        finally:
            drop_pg(pg)


if __name__ == "__main__":
    main()
