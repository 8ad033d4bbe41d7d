"""The catalog of a store of many games (issue 14): a game is listed without reading the
others, found by name or id through the catalog's index, exactly one."""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

import pytest

from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.store.aggregates import Game
from warscribe.store.app import (
    ConcurrentWrite,
    GameListing,
    Warscribe,
)
from warscribe.store.backends import StoreError
from warscribe.store.index import statement
from warscribe.store.registry import Catalog


def spec(name: str) -> GameSpec:
    return GameSpec(name=name, players=(PlayerSpec("alice"), PlayerSpec("bob")))


def test_creating_a_game_reads_no_other_games_listing_nor_the_settings_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store's thousandth game decoded the 999 listings before it (the catalog, from a
    snapshot every ten listings) and replayed a DefaultChosen event per game (the
    settings): creating games slowed as the store grew (benchmarks/corpus.py). Listing a
    game appends to the catalog at its stored version; the index says if a name is taken."""
    store = str(tmp_path / "club.db")
    app = Warscribe(store)
    ids = [app.create("divine-right", spec(f"g{n}"), f"seeded:{n}").game_id for n in range(13)]
    read: list[object] = []
    monkeypatch.setattr(app.repository, "get", lambda *args, **kwargs: read.append(args))
    ids.append(app.create("divine-right", spec("g13"), "seeded:13").game_id)
    ids.append(app.fork(ids[0], app.head(ids[0]).seq, "g0-b").game_id)
    app.use(ids[5])
    assert read == [], "no aggregate of the store was read whole"
    with pytest.raises(StoreError, match="already has a game named 'g3'"):
        app.create("divine-right", spec("g3"), "seeded:99")
    app.close()
    opened = Warscribe(store)
    assert [g.game_id for g in opened.games()] == ids
    catalog = opened._catalog()
    assert catalog is not None and [g.game_id for g in catalog.games] == ids
    assert opened.find("g12").game_id == ids[12] and opened.find(str(ids[3])).game_id == ids[3]
    assert opened.find(None).game_id == ids[5]
    opened.close()


def test_a_name_spelling_another_games_id_is_ambiguous(tmp_path: Path) -> None:
    app = Warscribe(str(tmp_path / "club.db"))
    first = app.create("divine-right", spec("first"), "seeded:1").game_id
    app.create("divine-right", spec(str(first)), "seeded:2")
    with pytest.raises(StoreError, match="names 2 games"):
        app.find(str(first))
    app.close()


# -- the catalog's index (issue 14: find and list with one indexed query) ----------------------


def index_rows(app: Warscribe) -> list[tuple[int, str, str]]:
    """(catalog version, game id, name) of every row of the store's catalog index."""
    with app.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
        cursor.execute(statement(app.driver, "SELECT version, game_id, name FROM {games}"))
        return sorted((r["version"], r["game_id"], r["name"]) for r in cursor.fetchall())


def drop_index(app: Warscribe) -> None:
    """The store as a version before the index left it: no index tables."""
    with app.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
        for template in ("DROP TABLE {games}", "DROP TABLE {state}"):
            cursor.execute(statement(app.driver, template))


def test_the_index_lists_each_game_at_its_catalog_version(store_url: str) -> None:
    app = Warscribe(store_url)
    one = app.create("divine-right", spec("one"), "seeded:1").game_id
    two = app.create("divine-right", spec("two"), "seeded:2").game_id
    fork = app.fork(one, app.head(one).seq, "one-b").game_id
    assert index_rows(app) == [(2, str(one), "one"), (3, str(two), "two"), (4, str(fork), "one-b")]
    assert app.find("two").game_id == two and app.find(str(one)[:8]).game_id == one
    assert app.find(None).game_id == two, "the default game: last created (a fork is not made it)"
    app.close()


def test_a_save_whose_index_row_is_refused_writes_neither_game_nor_listing(store_url: str) -> None:
    # a listing under a name the index already holds (past the catalog's own check): the
    # index refuses the row, and the game saved with it is not written either
    app = Warscribe(store_url)
    app.create("divine-right", spec("taken"), "seeded:1")
    rows = index_rows(app)
    twin = app.create("divine-right", spec("twin"), "seeded:2")
    game = Game.start(list(app.entries(twin.game_id, 1, 1)), game_id=uuid4())
    catalog = app._catalog_tip()
    assert catalog is not None
    listing = GameListing(game.id, "taken", "divine-right", ("alice", "bob"))
    catalog.trigger_event(Catalog.Listed, listing=listing)
    with pytest.raises(ConcurrentWrite):
        app._save(game, catalog, what="the test")
    with pytest.raises(StoreError, match="not in this store"):
        app.load(game.id)
    assert [r[2] for r in index_rows(app)] == [r[2] for r in rows] + ["twin"]
    app.close()


def test_an_index_row_never_names_a_game_whose_save_failed(store_url: str) -> None:
    # a listing saved with a game whose events collide with a stored game's: nothing of the
    # save is written, so the index has no row for the listing
    app = Warscribe(store_url)
    head = app.create("divine-right", spec("first"), "seeded:1")
    again = Game.start(list(app.entries(head.game_id, 1, 1)))
    listing = GameListing(head.game_id, "second", "divine-right", ("alice", "bob"))
    with pytest.raises(ConcurrentWrite):
        app._save(again, app._listed(app._catalog_tip(), listing), what="the test")
    assert [r[2] for r in index_rows(app)] == ["first"]
    with pytest.raises(StoreError, match="no game 'second'"):
        app.find("second")
    app.close()


def test_a_store_without_the_index_has_it_built_when_first_opened(store_url: str) -> None:
    app = Warscribe(store_url)
    ids = [app.create("divine-right", spec(f"g{n}"), f"seeded:{n}").game_id for n in range(3)]
    built = index_rows(app)
    drop_index(app)
    app.close()
    opened = Warscribe(store_url)
    assert index_rows(opened) == built
    assert [g.game_id for g in opened.games()] == ids and opened.find("g1").game_id == ids[1]
    opened.close()


def test_an_index_behind_its_catalog_is_rebuilt_on_open(store_url: str) -> None:
    # an older version writing to the store lists a game without an index row
    app = Warscribe(store_url)
    ids = [app.create("divine-right", spec(f"g{n}"), f"seeded:{n}").game_id for n in range(2)]
    with app.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
        cursor.execute(statement(app.driver, "DELETE FROM {games} WHERE name = 'g1'"))
    assert [g.game_id for g in app.games()] == ids[:1]
    app.close()
    opened = Warscribe(store_url)
    assert [g.game_id for g in opened.games()] == ids
    opened.close()


def test_the_default_game_is_chosen_in_a_stream_of_its_own(store_url: str) -> None:
    """Each game created chose the default in the settings stream, so finding the owner
    set by `init` long before passed every one of them; the choices have their own stream
    now, and a store written before it still has its default read from the settings."""
    from warscribe.store.app import DEFAULTS_ID, SETTINGS_ID, StoreOwner
    from warscribe.store.registry import Settings

    app = Warscribe(store_url)
    one = app.create("divine-right", spec("one"), "seeded:1").game_id
    two = app.create("divine-right", spec("two"), "seeded:2").game_id
    # as a version before the defaults stream left it: the choices in the settings stream
    app._delete_streams([DEFAULTS_ID])
    older = app._settings(SETTINGS_ID)
    older.trigger_event(Settings.OwnerSet, owner=StoreOwner("alice"))
    older.trigger_event(Settings.DefaultChosen, game_id=one)
    app._save(older, what="the test")
    assert app.settings().default == one and app.settings().owner == StoreOwner("alice")
    three = app.create("divine-right", spec("three"), "seeded:3").game_id
    assert app.settings().default == three, "a choice in the defaults stream wins"
    app.use(two)
    assert app.find(None).game_id == two and app.settings().owner == StoreOwner("alice")
    topics = [e.topic for e in app.recorder.select_events(SETTINGS_ID)]
    assert topics.count("warscribe:Settings.DefaultChosen") == 1, "the old one only"
    app.close()


def test_a_page_of_the_newest_games_decodes_only_that_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing a host's store (issue 14: 1,000 games listed in 4-7x the time of 10) reads
    the newest games' index rows only, and how many games there are from the newest one's
    catalog version (a count of the rows grew with the store), also once the index is
    rebuilt from the catalog."""
    from warscribe.store import index

    app = Warscribe(str(tmp_path / "club.db"))
    assert app.newest_games(5) == ((), 0)
    ids = [app.create("divine-right", spec(f"g{n}"), f"seeded:{n}").game_id for n in range(12)]
    decoded: list[int] = []
    listing = index._listing
    monkeypatch.setattr(index, "_listing", lambda v, b: decoded.append(v) or listing(v, b))
    page, total = app.newest_games(5)
    assert [g.game_id for g in page] == ids[7:] and total == 12
    assert len(decoded) == 5
    assert app.newest_games(12) == (app.games(), 12)
    assert app.newest_games(50) == (app.games(), 12)
    catalog = app._catalog()
    assert catalog is not None
    app.index.rebuild(catalog.games)
    assert app.newest_games(5)[1] == 12 and len(app.games()) == 12
    app.close()


def test_a_store_made_before_the_marks_has_them_built_when_first_opened(store_url: str) -> None:
    # the games' marks (names compared by likeness, host keys) came after the index: a
    # store without them is found out by the open's one query and its index rebuilt
    app = Warscribe(store_url)
    app.create("divine-right", spec("g1"), "seeded:1")
    host = app.create("divine-right", spec("h"), "host").host_key
    with app.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
        cursor.execute(statement(app.driver, "DROP TABLE {marks}"))
    app.close()
    opened = Warscribe(store_url)
    assert host is not None and opened.index.host_seen(host)
    with pytest.raises(StoreError, match="named 'g1', alike to 'G1'"):
        opened.create("divine-right", spec("G1"), "seeded:2")
    opened.close()
