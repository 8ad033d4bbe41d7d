"""A store opened read-only (`Reader`, for `status` and the other queries), SQLite or
PostgreSQL: the same answers as the store, no eventsourcing, no writes, and the whole
store whenever an open must put something right first."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from uuid import NAMESPACE_URL, uuid5

import pytest

from warscribe.engine.events import Command
from warscribe.store.app import Warscribe
from warscribe.store.backends import resolve
from warscribe.store.reading import (
    CATALOG_ID,
    DEFAULTS_ID,
    SETTINGS_ID,
    Reader,
    StoreOwner,
)

from ..conftest import drop_pg_schema, fresh_pg_url, require_postgres, three_players

ROLL = Command("referee", "roll", (("dice", "2d6"), ("purpose", "weather")))


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a store is made: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "club.db")
        return
    require_postgres()
    url = fresh_pg_url()
    try:
        yield url
    finally:
        drop_pg_schema(url)


def _store(path: Path | str, games: int = 2, rolls: int = 0) -> Warscribe:
    app = Warscribe(str(path))
    for n in range(games):
        game_id = app.create("divine-right", three_players(), f"seeded:{n}").game_id
        for _ in range(rolls):
            app.issue(game_id, ROLL)
    return app


def _opened(path: Path | str) -> Reader:
    reader = Reader.open(resolve(str(path)))
    assert reader is not None
    return reader


def test_the_ids_written_out_are_the_ids_derived() -> None:
    assert uuid5(NAMESPACE_URL, "warscribe:catalog") == CATALOG_ID
    assert uuid5(NAMESPACE_URL, "warscribe:settings") == SETTINGS_ID
    assert uuid5(NAMESPACE_URL, "warscribe:defaults") == DEFAULTS_ID


def test_its_tables_are_the_ones_eventsourcing_made(target: str) -> None:
    """The schema is eventsourcing's: a backend names the tables a reader reads (with no
    eventsourcing) as eventsourcing's recorders of the open store name them."""
    app = _store(target, games=0)
    assert app.snapshots is not None
    made = (app.driver.table(app.recorder), app.driver.table(app.snapshots.recorder))
    assert app.driver.tables() == made
    app.close()


def test_it_answers_as_the_store_does(target: str) -> None:
    # two games, the first long enough to have snapshots; the second is the default (the
    # newest of the store's choices); owned by bob, then by alice
    path = target
    app = _store(path, games=2, rolls=130)
    first, second = app.games()[0], app.games()[-1]
    app.set_owner(StoreOwner("bob"))
    app.set_owner(StoreOwner("alice"))
    reader = _opened(path)
    assert reader.settings() == app.settings()
    assert reader.settings().owner == StoreOwner("alice")
    assert reader.settings().default == second.game_id
    app.use(first.game_id)
    assert reader.settings().default == first.game_id
    for ref in (None, first.name, second.name, str(second.game_id)[:8]):
        assert reader.find(ref) == app.find(ref)
    for version in (None, 1, 17, 100, 101, 150):
        assert reader.head(first.game_id, version) == app.head(first.game_id, version)
    assert reader.version_at(first.game_id, "#5") == 5
    assert list(reader.entries(first.game_id, 98, 103)) == list(app.entries(first.game_id, 98, 103))
    reader.close()
    app.close()


def test_it_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    _store(path).close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    reader = _opened(path)
    reader.head(reader.find(None).game_id)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        reader._connection.conn.execute("DELETE FROM warscribe_games")
    reader.close()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert not Path(f"{path}-lock").exists() or Path(f"{path}-lock").stat().st_size == 0


def test_a_store_to_put_right_is_opened_whole(tmp_path: Path) -> None:
    # no file yet; a PostgreSQL address; an index behind its catalog; secrets to move out
    assert Reader.open(resolve(str(tmp_path / "none.db"))) is None
    path = tmp_path / "club.db"
    _store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "DELETE FROM warscribe_games WHERE version = (SELECT max(version) FROM warscribe_games)"
        )
    assert Reader.open(resolve(str(path))) is None
    app = Warscribe(str(path))  # an open rebuilds the index
    app.close()
    assert Reader.open(resolve(str(path))) is not None
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE warscribe_index SET value = 1 WHERE key = 'kept'")
    assert Reader.open(resolve(str(path))) is None


def test_a_file_that_is_no_store_is_opened_whole(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"not a database at all")
    assert Reader.open(resolve(str(path))) is None


def test_a_store_whose_name_has_uri_characters(tmp_path: Path) -> None:
    # `%`, `?` and `#` mean something in a SQLite URI: the reader escapes them
    path = tmp_path / "club #1 ?50%20off.db"
    app = _store(path, games=1)
    reader = _opened(path)
    assert reader.find(None) == app.find(None)
    reader.close()
    app.close()


def test_on_postgresql_it_never_writes() -> None:
    """Every transaction of its connection is read-only: a write through it is refused."""
    require_postgres()
    import psycopg

    url = fresh_pg_url()
    try:
        _store(url).close()
        reader = _opened(url)
        reader.head(reader.find(None).game_id)
        schema = url.rpartition("schema=")[2]
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            reader._connection.conn.execute(f"DELETE FROM {schema}.warscribe_games")
        reader.close()
        app = Warscribe(url)
        assert len(app.games()) == 2
        app.close()
    finally:
        drop_pg_schema(url)


def test_a_postgresql_store_to_make_or_put_right_is_opened_whole() -> None:
    """A schema without the store's tables (a store not made yet), a server that does not
    answer, an index behind its catalog: the store is opened whole, to make or repair it
    or to say what is wrong."""
    require_postgres()
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert Reader.open(resolve(f"postgresql://postgres@127.0.0.1:{port}/test")) is None
    url = fresh_pg_url()
    try:
        assert Reader.open(resolve(url)) is None
        _store(url).close()
        assert Reader.open(resolve(url)) is not None
        schema = url.rpartition("schema=")[2]
        import psycopg

        from ..conftest import PG_URL

        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(
                f"DELETE FROM {schema}.warscribe_games WHERE version = "
                f"(SELECT max(version) FROM {schema}.warscribe_games)"
            )
        assert Reader.open(resolve(url)) is None
        Warscribe(url).close()  # an open rebuilds the index
        assert Reader.open(resolve(url)) is not None
    finally:
        drop_pg_schema(url)
