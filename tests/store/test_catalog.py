"""The catalog of a store of many games (issue 14): read from a snapshot, not replayed
from its first listing, and finding a game by name or id still finds exactly one."""

from __future__ import annotations

from pathlib import Path

import pytest

from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.store.app import CATALOG_ID, CATALOG_SNAPSHOT_INTERVAL, Warscribe
from warscribe.store.backends import StoreError


def spec(name: str) -> GameSpec:
    return GameSpec(name=name, players=(PlayerSpec("alice"), PlayerSpec("bob")))


def test_the_catalog_of_many_games_is_read_from_a_snapshot(tmp_path: Path) -> None:
    store = str(tmp_path / "club.db")
    app = Warscribe(store)
    count = CATALOG_SNAPSHOT_INTERVAL + 3
    ids = [app.create("divine-right", spec(f"g{n}"), f"seeded:{n}").game_id for n in range(count)]
    app.close()
    opened = Warscribe(store)
    assert opened.snapshots is not None
    taken = list(opened.snapshots.get(CATALOG_ID))
    assert [s.originator_version for s in taken] == [CATALOG_SNAPSHOT_INTERVAL]
    assert [g.game_id for g in opened.games()] == ids, "the listings after it are read too"
    assert opened.find("g12").game_id == ids[12] and opened.find(str(ids[3])).game_id == ids[3]
    opened.close()


def test_a_name_spelling_another_games_id_is_ambiguous(tmp_path: Path) -> None:
    app = Warscribe(str(tmp_path / "club.db"))
    first = app.create("divine-right", spec("first"), "seeded:1").game_id
    app.create("divine-right", spec(str(first)), "seeded:2")
    with pytest.raises(StoreError, match="names 2 games"):
        app.find(str(first))
    app.close()
