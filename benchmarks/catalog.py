"""Many games in one store: 1,000 games against 10, on SQLite and on PostgreSQL; and what
opening a PostgreSQL store costs against a raw connection.

Two stores, one with 10 and one with 1,000 freshly set-up Divine Right games (five
players, seeded dice). Each operation opens the store anew, as a CLI call does, and the
two stores take turns; each figure is the minimum of --runs (>= 5):

* find: open, then find a game by name (the first game created);
* list: open, then list the games as `warscribe games` does (the newest 20, how many
  there are, and the default game);
* record: open, find a game by name, record one command (a referee's roll);

each as a ratio 1,000 games / 10 games, target <= 1.2; and

* open-head (PostgreSQL): open the store and read a game's head (no head cache) / a raw
  psycopg connect + one-row select of the same game's newest row, target <= 3.0.

In-process (start-up is benchmarks/startup.py's), under an INSTALLED warscribe: importing
common.py runs the script again under a non-editable `pip install .` of this checkout
(PYTHONDONTWRITEBYTECODE=1 is exported on this machine, so an editable install would
recompile every module on every call).

Run: python benchmarks/catalog.py [--runs 5] [--games 1000] [--sqlite-only]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from common import HOUSE_ROLL, alternated, new_game, report, started, store_pairs

from warscribe.cli.main import GAMES_SHOWN
from warscribe.engine.events import Command
from warscribe.store.app import Warscribe


def fill(store: str, count: int) -> None:
    app = Warscribe(store)
    for number in range(count):
        new_game(app, f"game-{number}", dice=f"seeded:{number}")
    app.close()


def operations(store: str) -> dict[str, Callable[[], None]]:
    def find() -> None:
        with_app(store, lambda app: app.find("game-0"))

    def listing() -> None:
        def run(app: Warscribe) -> None:
            app.newest_games(GAMES_SHOWN)
            app.find(None)

        with_app(store, run)

    def record() -> None:
        def run(app: Warscribe) -> None:
            game_id = app.find("game-0").game_id
            app.issue(game_id, Command("referee", *HOUSE_ROLL))

        with_app(store, run)

    return {"find": find, "list": listing, "record": record}


def with_app(store: str, work: Callable[[Warscribe], object]) -> None:
    app = Warscribe(store)
    try:
        work(app)
    finally:
        app.close()


def bench(few: str, many: str, label: str, args: argparse.Namespace) -> None:
    fill(few, 10)
    fill(many, args.games)
    small, large = operations(few), operations(many)
    for name in small:
        floor, work = alternated(small[name], large[name], args.runs)
        print(
            f"# {label} {name}: 10 games {floor * 1000:.2f} ms, {args.games} games "
            f"{work * 1000:.2f} ms"
        )
        report(f"{name}-{label}", work / floor, 1.2)


def open_head(store: str, runs: int) -> None:
    import psycopg

    app = Warscribe(store)
    game_id = app.find("game-0").game_id
    schema = store.rpartition("schema=")[2]
    table = f"{schema}.{app.recorder.events_table_name}"  # type: ignore[attr-defined]
    env = dict(app.backend.env)
    app.close()
    conninfo = (
        f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} "
        f"dbname={env['POSTGRES_DBNAME']} user={env['POSTGRES_USER']}"
    )

    def raw() -> None:
        with psycopg.connect(conninfo) as conn:
            conn.execute(
                f"SELECT state FROM {table} WHERE originator_id = %s "
                "ORDER BY originator_version DESC LIMIT 1",
                (game_id,),
            ).fetchone()

    def warscribe() -> None:
        opened = Warscribe(store, cache=False)
        opened.head(game_id)
        opened.close()

    floor, work = alternated(raw, warscribe, runs)
    print(f"# postgresql open-head: raw {floor * 1000:.2f} ms, warscribe {work * 1000:.2f} ms")
    report("open-head-postgresql", work / floor, 3.0)


def main() -> None:
    counts = {"runs": 5, "games": 1_000}
    args, folder = started(__doc__, "catalog", counts, ("sqlite-only",))
    for few, many, label in store_pairs(folder, ("few", "many"), args.sqlite_only):
        bench(few, many, label, args)
        if label == "postgresql":
            open_head(few, args.runs)


if __name__ == "__main__":
    main()
