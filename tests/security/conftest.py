"""Attacks replayed through the real `warscribe` command: a referee's store, players'
stores, keys and copies in a temporary folder, and the tools a forger would use."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from warscribe.cli.main import cli
from warscribe.engine import record
from warscribe.engine.record import Entry, next_chain
from warscribe.store import logfile, reading


class Table:
    """A folder of stores (`referee.db`, `alice.db` ...) driven through the command line."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.runner = CliRunner()

    def run(self, *args: str, store: str = "referee", ok: bool = True) -> Result:
        result = self.runner.invoke(cli, ["--store", f"{store}.db", *args])
        if ok:
            assert result.exit_code == 0, (args, result.output, result.exception)
        return result

    def refused(self, *args: str, store: str = "referee") -> str:
        """Run a command that must fail with `Error:` (exit 1) and leave the store as it
        was, byte for byte (a new store is opened first, empty); the error text."""
        self.run("games", store=store)
        before = self.snapshot(store)
        result = self.run(*args, store=store, ok=False)
        assert result.exit_code == 1, (args, result.output, result.exception)
        assert result.stderr.startswith("Error: "), result.output
        assert "Traceback" not in result.output
        assert self.snapshot(store) == before, "a refused command changed the store"
        return result.stderr

    def snapshot(self, store: str) -> dict[str, bytes]:
        """The bytes of a SQLite store's files (the database and its write-ahead log). An
        empty write-ahead log is no log (SQLite reads it so): a read-only connection, which
        cannot delete the one it found missing, leaves it behind, as `status` does."""
        return {
            path.name: path.read_bytes()
            for path in sorted(self.folder.glob(f"{store}.db*"))
            if not path.name.endswith("-shm")
            and not (path.name.endswith("-wal") and path.stat().st_size == 0)
        }


@pytest.fixture(autouse=True)
def long_log_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every attack meets the checks as a long log does: the store read two entries a
    page, and `verify` keeping two entries' chain hashes and commitments at hand (older
    ones looked up), so each check that reaches back (disclosures, orders, snapshots,
    the audit's rulings) is made across pages and out of the window."""
    monkeypatch.setattr(reading, "PAGE", 2)
    monkeypatch.setattr(record, "WINDOW", 2)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield Table(tmp_path)
    finally:
        os.chdir(here)


def new_game(table: Table, dice: str, *extra: str) -> None:
    """The referee sets up Divine Right for alice (Hothior), bob (Mivior) and carol
    (Muetar), with the players' public keys."""
    keys: list[str] = []
    for player in ("alice", "bob", "carol"):
        table.run("keys", "new", player)
        keys += ["--key", f"{player}={player}.pub"]
    players = ["--player", "alice=Hothior", "--player", "bob=Mivior", "--player", "carol=Muetar"]
    table.run("new", "divine-right", *players, "--dice", dice, "--name", "g", *keys, *extra)


def on_turn(table: Table) -> str:
    """The player the rules ask to act now, at the referee's store."""
    whose: str = json.loads(table.run("status", "--json").stdout)["whose_turn"]
    return whose


def host_enters(table: Table, *command: str, reason: str = "the test plays for them") -> str:
    """The host enters `command` for the player on turn, as its act (every player of
    `new_game` has a recorded key, so nobody else may); that player."""
    whose = on_turn(table)
    table.run(*command, "--as", whose, "--host-act", reason)
    return whose


def rebuilt(entries: list[Entry], seq: int, change: Callable[[Entry], Entry]) -> list[Entry]:
    """What a forger does: change entry `seq`, then recompute every chain hash after it."""
    out: list[Entry] = []
    chain = bytes(32)
    for entry in entries:
        if entry.seq == seq:
            entry = change(entry)
        entry = dataclasses.replace(entry, chain=next_chain(chain, entry))
        out.append(entry)
        chain = entry.chain
    return out


def rewrite(log: logfile.LogFile, entries: list[Entry], **header: Any) -> bytes:
    """A log file of `entries` with the header (and checkpoint) of `log`, or as changed."""
    fields = {
        "game_id": log.game_id,
        "name": log.name,
        "ruleset": log.ruleset,
        "players": log.players,
        "checkpoint": log.checkpoint,
        **header,
    }
    return logfile.write(entries=entries, **fields)
