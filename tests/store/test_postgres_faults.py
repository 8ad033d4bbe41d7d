"""The store under real faults (issue 31, "the referee never stops and loses nothing"): a
PostgreSQL server of the test's own, stopped and restarted, its sessions ended, a write's
answer lost on the way; a SQLite store locked or damaged. A write's outcome is found out,
never guessed; a command is recorded once; every failure is a clean `Error:` naming the
store, exit 1, with nothing half written."""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner

from tests.conftest import drop_pg_schema, fresh_pg_url, require_postgres, three_players
from tests.store.pg_server import LosingProxy, own_server
from warscribe.cli.main import cli
from warscribe.engine.events import Command, Note
from warscribe.store.app import Warscribe
from warscribe.store.backends import StoreUnavailable

FAULT_SECONDS = float(os.environ.get("WARSCRIBE_FAULT_SECONDS", "8"))  # at most 60 in CI
PLAYERS = ["--player", "alice", "--player", "bob", "--player", "carol"]


def _note(text: str) -> Command:
    return Command("referee", "note", (("text", text), ("first", 1), ("last", 1)))


def _notes(app: Warscribe, game_id: UUID) -> list[str]:
    return [e.event.text for e in app.entries(game_id) if isinstance(e.event, Note)]


def test_a_commit_whose_answer_is_lost_is_found_recorded_and_recorded_once() -> None:
    """The server commits a write and the connection drops before its answer arrives (a
    proxy keeps the answer back and cuts the client off). The write was reported as
    "nothing was written"; a process deciding on the head it kept then decided the
    command again and recorded it twice (for a roll, a second roll). Now the store
    looks on a connection of its own, finds the write and reports it recorded: on the
    kept head's lone insert and on a turn's pipeline alike."""
    with own_server() as server:
        proxy = LosingProxy(server.port)
        kept = Warscribe(proxy.url())
        game_id = kept.create("divine-right", three_players(), "seeded:31").game_id
        kept.issue(game_id, _note("first"))  # the head is kept from here on
        proxy.arm(b"INSERT")
        kept.issue(game_id, _note("answer lost"))
        assert proxy.cut.is_set(), "the answer to the insert never reached the store"
        turns = Warscribe(proxy.url(), cache=False)
        proxy.arm(b"COMMIT")
        turns.issue(game_id, _note("answer lost, in a turn"))
        assert proxy.cut.is_set()
        reader = Warscribe(server.url, cache=False)
        assert _notes(reader, game_id) == ["first", "answer lost", "answer lost, in a turn"]
        kept.issue(game_id, _note("last"))  # its kept head is the store's
        assert kept.head(game_id) == reader.head(game_id)
        assert _notes(reader, game_id)[-1] == "last"
        for app in (reader, turns, kept):
            app.close()
        proxy.close()


def _run(url: str, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--store", url, *args])


def test_a_stopped_server_is_a_clean_error_for_every_command_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """The server stops (immediately: every session cut) under a referee's process and
    under each command: `Error:` naming the store, exit 1, never a traceback; after the
    restart the store is as it was, and the process that kept its head records again."""
    with own_server() as server:
        url = server.url
        assert _run(url, "new", "divine-right", *PLAYERS, "--dice", "seeded:32").exit_code == 0
        for player in ("alice", "bob", "carol"):
            assert _run(url, "address", player, f"{player}@example.org").exit_code == 0
        app = Warscribe(url)
        game_id = app.find(None).game_id
        app.issue(game_id, _note("before"))
        head = app.head(game_id)
        (tmp_path / "inbox").mkdir()
        server.stop()
        with pytest.raises(StoreUnavailable, match=f"postgresql:127.0.0.1:{server.port}"):
            app.issue(game_id, _note("while stopped"))
        with pytest.raises(StoreUnavailable):
            app.head(game_id)
        shown = f"postgresql:127.0.0.1:{server.port}"
        out = str(tmp_path / "out.log")
        for args in (
            ["status"],
            ["games"],
            ["log"],
            ["note", "--at", "#1", "while stopped"],
            ["roll", "2d6", "--purpose", "test"],
            ["verify"],
            ["export", "-o", out],
            ["referee", str(tmp_path / "inbox"), "--outbox", str(tmp_path / "outbox")],
        ):
            result = _run(url, *args)
            assert result.exit_code == 1, (args, result.output)
            assert result.stderr.startswith("Error:") and shown in result.stderr, args
            assert "Traceback" not in result.output, args
        server.start()
        assert Warscribe(url, cache=False).head(game_id) == head, "nothing was written"
        app.issue(game_id, _note("after"))
        assert _notes(app, game_id) == ["before", "after"]
        app.close()


def test_a_write_after_the_server_ended_an_idle_connection_succeeds() -> None:
    """The server ends a session the store keeps idle (a restart, an administrator, an
    idle timeout): the next write uses another, where it failed once."""
    require_postgres()
    import psycopg

    from tests.conftest import PG_URL

    url = fresh_pg_url()
    try:
        app = Warscribe(url, cache=False)
        game_id = app.create("divine-right", three_players(), "seeded:33").game_id
        app.issue(game_id, _note("before"))
        datastore: Any = app.recorder.datastore  # type: ignore[attr-defined]
        pids = [conn.info.backend_pid for _, _, conn in datastore._idle]
        assert pids
        with psycopg.connect(PG_URL, autocommit=True) as admin:
            for pid in pids:
                admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
        app.issue(game_id, _note("after"))
        assert _notes(app, game_id) == ["before", "after"]
        app.close()
    finally:
        drop_pg_schema(url)


def test_under_sessions_ended_every_few_milliseconds_nothing_is_lost_or_recorded_twice() -> None:
    """A seeded fault loop: the server ends every session every 1 to 15 ms while a
    process that keeps its head records notes. Every note acknowledged is in the log
    once, none is there twice, and every failure is a StoreUnavailable (no traceback of
    the driver's or eventsourcing's)."""
    with own_server() as server:
        app = Warscribe(server.url)
        game_id = app.create("divine-right", three_players(), "seeded:34").game_id
        stop = threading.Event()
        ended: list[int] = []

        def kill() -> None:
            rng = random.Random(31)
            while not stop.is_set():
                time.sleep(rng.uniform(0.001, 0.015))
                ended.append(server.end_sessions())

        killer = threading.Thread(target=kill)
        killer.start()
        acknowledged: list[str] = []
        failed: list[str] = []
        deadline = time.monotonic() + FAULT_SECONDS
        try:
            while time.monotonic() < deadline:
                text = f"note {len(acknowledged) + len(failed)}"
                try:
                    app.issue(game_id, _note(text))
                except StoreUnavailable:
                    failed.append(text)
                else:
                    acknowledged.append(text)
        finally:
            stop.set()
            killer.join()
        notes = _notes(Warscribe(server.url, cache=False), game_id)
        assert len(notes) == len(set(notes)), "a note recorded twice"
        assert set(acknowledged) <= set(notes), "an acknowledged note lost"
        assert set(notes) <= set(acknowledged) | set(failed)
        assert acknowledged and failed and sum(ended), "the loop wrote, and faults hit it"
        app.close()


def test_a_locked_or_damaged_sqlite_store_is_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's own failures: another program holding the database locked past the lock
    timeout (a write fails, the reads of the write-ahead log go on), then the file
    damaged: `Error:` naming the store, exit 1, no traceback, nothing written."""
    store = str(tmp_path / "club.db")
    assert _run(store, "new", "divine-right", *PLAYERS, "--dice", "seeded:35").exit_code == 0
    monkeypatch.setenv("WARSCRIBE_LOCK_TIMEOUT", "1")
    commands = (["status"], ["log"], ["note", "--at", "#1", "locked"])
    before = _run(store, "log").output
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    result = _run(store, *commands[-1])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error:") and "club.db" in result.stderr
    assert "nothing was written" in result.stderr and "Traceback" not in result.output
    holder.rollback()
    holder.close()
    assert _run(store, "log").output == before
    with open(store, "r+b") as damaged:
        damaged.seek(4096)
        damaged.write(b"\xff" * 8192)
    for args in commands:
        result = _run(store, *args)
        assert result.exit_code == 1, (args, result.output)
        assert result.stderr.startswith("Error:") and "club.db" in result.stderr, args
        assert "Traceback" not in result.output
