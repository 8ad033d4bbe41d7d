"""Someone with a store file edits or damages it (docs/security.md: who is trusted with
what): every read of it is an `Error:` naming what is wrong, exit 1, never a traceback,
whether the store is read whole or read-only (`status`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from warscribe.cli.main import cli
from warscribe.engine import codec
from warscribe.store.reading import StoreOwner

PLAYERS = ["--player", "alice", "--player", "bob", "--dice", "seeded:3"]


@pytest.fixture
def store(tmp_path: Path) -> str:
    path = str(tmp_path / "club.db")
    made = CliRunner().invoke(cli, ["--store", path, "new", "divine-right", *PLAYERS])
    assert made.exit_code == 0, made.output
    return path


def _edit(store: str, statement: str, *params: object) -> None:
    with sqlite3.connect(store) as conn:
        conn.execute(statement, params)


def _refused(store: str, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--store", store, *args])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.output


@pytest.mark.parametrize(
    "blob",
    [
        b"\xc1\xc1\xc1",  # no msgpack at all
        codec.encode(("a", "tuple")),  # a value, but no listing
        codec.encode(StoreOwner("alice")),  # a record of another kind
    ],
    ids=["garbage", "tuple", "other-record"],
)
@pytest.mark.parametrize("command", ["status", "games"])
def test_a_damaged_index_row_is_an_error(store: str, blob: bytes, command: str) -> None:
    # the catalog index's only row is overwritten; status reads it read-only, games whole
    _edit(store, "UPDATE warscribe_games SET listing = ?", blob)
    output = _refused(store, command)
    assert "Error: the store's catalog index cannot be read: its row for listing #2" in output


def test_a_damaged_entry_is_an_error_naming_it(store: str) -> None:
    _edit(store, "UPDATE stored_events SET state = ? WHERE originator_version = 5", b"\xc1")
    assert "Error: #5: stored entry cannot be read" in _refused(store, "status")
