"""The queries read a SQLite store through its read-only reader (`store/reading.Reader`):
no eventsourcing to import and no store to open whole, a quarter of each call's time
(issue 14); a command that writes opens the store and reads from it from then on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

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
)


@pytest.fixture
def store(tmp_path: Path) -> str:
    path = str(tmp_path / "club.db")
    app = Warscribe(path)
    players = (PlayerSpec("alice"), PlayerSpec("bob"), PlayerSpec("carol"))
    app.create("divine-right", GameSpec(name="club", players=players), "seeded:4")
    app.close()
    return path


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
    result = CliRunner().invoke(cli, ["--store", store, "roll", "2d6", "--purpose", "test"])
    assert result.exit_code == 0, result.output
    assert not Path(store + "-wal").exists()
