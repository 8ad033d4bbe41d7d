"""The queries read a store through its read-only reader (`store/reading.Reader`), SQLite
or PostgreSQL: no eventsourcing to import and no store to open whole, a quarter of each
call's time on SQLite (issue 14); a command that writes opens the store and reads from
it from then on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import drop_pg_schema, fresh_pg_url, require_postgres
from warscribe.cli.main import cli
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.store.app import Warscribe

QUERIES = (
    ("status",),
    ("show",),
    ("show", "--at", "#3"),
    ("log",),
    ("log", "--from", "2", "--json"),
    ("log", "--story"),
    ("hand", "--as", "alice"),
    ("vp",),
    ("banishments",),
    ("map", "--json"),
    ("games",),
    ("games", "--all", "--json"),
)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    url = None
    if request.param == "postgresql":
        require_postgres()
        url = fresh_pg_url()
    path = url or str(tmp_path / "club.db")
    app = Warscribe(path)
    players = (PlayerSpec("alice"), PlayerSpec("bob"), PlayerSpec("carol"))
    app.create("divine-right", GameSpec(name="club", players=players), "seeded:4")
    app.close()
    try:
        yield path
    finally:
        if url is not None:
            drop_pg_schema(url)


@pytest.mark.parametrize("query", QUERIES, ids=" ".join)
def test_a_query_never_opens_the_store_whole(
    store: str, query: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    def opened(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the store was opened whole")

    monkeypatch.setattr(Warscribe, "__init__", opened)
    result = CliRunner().invoke(cli, ["--store", store, *query], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def test_a_write_after_a_read_reads_from_the_store_it_opened(store: str) -> None:
    """`roll` finds its game through the reader, then opens the store to write: the reader
    is closed then, so the store's writable connection is the last (SQLite's write-ahead
    log is tidied away at its close, as before)."""

    def seq() -> int:
        shown = CliRunner().invoke(cli, ["--store", store, "status", "--json"])
        return int(json.loads(shown.output)["seq"])

    before = seq()
    result = CliRunner().invoke(cli, ["--store", store, "roll", "2d6", "--purpose", "test"])
    assert result.exit_code == 0, result.output
    assert not Path(store + "-wal").exists()
    assert seq() == before + 2, "the roll was recorded and is read back"
