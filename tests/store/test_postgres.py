"""The PostgreSQL store's own machinery (what SQLite has no counterpart of)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import pytest

from tests.conftest import drop_pg_schema, fresh_pg_url, require_postgres, three_players
from warscribe.engine.events import Command
from warscribe.store.app import Warscribe


def test_a_fresh_stores_first_snapshot_is_inserted_with_the_composite_type_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """eventsourcing inserts snapshots as an array of a composite row type whose adapter
    is fetched on a pooled connection. Fetched lazily in the middle of the first insert,
    it reached the pool's other connections but not the one holding the insert's
    pipeline, which then sent rows of a type it did not know (a benchmark's import once
    hung there, the server waiting for the rest of the message)."""
    require_postgres()
    from warscribe.store.aggregates import Game
    from warscribe.store.backends import postgresql_factory as postgres
    from warscribe.store.registry import Catalog

    seen: list[bool] = []
    insert = postgres.SnapshotRecorder._insert_stored_events

    def spy(self: Any, curs: Any, stored_events: Sequence[Any], **kwargs: Any) -> None:
        types = self.datastore.psycopg_type_adapters.values()
        seen.append(bool(types) and all(curs.connection.adapters.types.get(t.oid) for t in types))
        insert(self, curs, stored_events, **kwargs)

    monkeypatch.setattr(postgres.SnapshotRecorder, "_insert_stored_events", spy)
    monkeypatch.setattr(Warscribe, "snapshotting_intervals", {Game: 2, Catalog: 10})
    url = fresh_pg_url()
    try:
        app = Warscribe(url)
        app.create("divine-right", three_players(), "seeded:3")
        app.close()
    finally:
        drop_pg_schema(url)
    assert seen and all(seen)


def test_a_write_that_lost_its_race_lets_the_turn_go_and_leaves_its_connection_sound() -> None:
    """A write takes its turn's connection: its inserts, COMMIT and the release of the
    advisory lock go in one round trip, and a write that fails there (another writer took
    the versions, so the insert aborts the transaction and the release after it is not
    run) must roll back and let the lock go before the command is decided again."""
    require_postgres()
    import psycopg

    from tests.conftest import PG_URL

    url = fresh_pg_url()
    try:
        first, second = Warscribe(url), Warscribe(url)
        game_id = first.create("divine-right", three_players(), "seeded:5").game_id
        first.issue(game_id, _roll())  # first keeps the head it wrote
        second.issue(game_id, _roll())  # the game moves on behind first's back
        written = first.issue(game_id, _roll())  # lost on the kept head, then decided again
        assert written[0].seq == second.head(game_id).seq - 1
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            lock = _turn_lock(first, game_id)
            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (lock,)).fetchone()
            assert row == (True,), "the turn was let go"
            conn.execute("SELECT pg_advisory_unlock(%s)", (lock,))
        first.issue(game_id, _roll())  # the pool's connections are fit to write again
        assert first.head(game_id).seq == second.head(game_id).seq
        first.close()
        second.close()
    finally:
        drop_pg_schema(url)


def _turn_lock(app: Warscribe, game_id: UUID) -> int:
    """The advisory lock the writers of a game take turns by."""
    from warscribe.store.backends.postgresql import PostgreSQL

    assert isinstance(app.driver, PostgreSQL)
    return app.driver.advisory_key(str(game_id))


def _roll() -> Command:
    return Command("referee", "roll", (("dice", "2d6"), ("purpose", "test")))


def test_a_command_decided_on_a_kept_head_takes_the_turn_in_its_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long-running process decides on the head it kept with no round trip for the turn
    first: its write takes the turn in its own transaction (issue 14, one round trip a
    command). While another writer holds the turn it writes nothing: the command is
    decided again in a turn of its own, which waits, and lands once the turn is let go.
    A process with no head kept takes the turn before reading. (Every write snapshots
    here, on either path.)"""
    require_postgres()
    import threading

    import psycopg

    from tests.conftest import PG_URL
    from warscribe.store.aggregates import Game
    from warscribe.store.backends import postgresql
    from warscribe.store.registry import Catalog

    monkeypatch.setattr(Warscribe, "snapshotting_intervals", {Game: 2, Catalog: 10})

    taken: list[int] = []
    advisory_turn = postgresql.advisory_turn

    def counted(datastore: Any, lock: int, timeout: float) -> Any:
        taken.append(lock)
        return advisory_turn(datastore, lock, timeout)

    monkeypatch.setattr(postgresql, "advisory_turn", counted)
    url = fresh_pg_url()
    try:
        app = Warscribe(url)
        game_id = app.create("divine-right", three_players(), "seeded:9").game_id
        app.issue(game_id, _roll())  # the head read in a turn, then kept
        assert len(taken) == 1
        taken.clear()
        app.issue(game_id, _roll())  # decided on the head the first one kept
        assert taken == [], "no turn was taken before deciding on a kept head"
        seq = app.head(game_id).seq
        reader = Warscribe(url, cache=False)
        with psycopg.connect(PG_URL, autocommit=True) as other:
            other.execute("SELECT pg_advisory_lock(%s)", (_turn_lock(app, game_id),))
            done: list[int] = []
            writer = threading.Thread(
                target=lambda: done.append(app.issue(game_id, _roll())[0].seq)
            )
            writer.start()
            writer.join(0.5)
            assert writer.is_alive(), "the command waits while another writer holds the turn"
            assert reader.head(game_id).seq == seq, "and nothing of it is written"
            other.execute("SELECT pg_advisory_unlock(%s)", (_turn_lock(app, game_id),))
            writer.join(10)
        assert done == [seq + 1]
        assert reader.head(game_id).seq == app.head(game_id).seq == seq + 2
        assert len(taken) == 1  # the command decided again, in a turn of its own
        reader.issue(game_id, _roll())
        assert len(taken) == 2  # without a kept head: the turn first, then the read
        plain = Warscribe(url, snapshots=False, cache=False)
        assert app.snapshots is not None
        for snapshot in app.snapshots.get(game_id):
            head = snapshot.mutate(None).head  # type: ignore[attr-defined]
            assert head == plain.head(game_id, snapshot.originator_version)
        plain.close()
        reader.close()
        app.close()
    finally:
        drop_pg_schema(url)


def test_opening_a_store_reading_and_recording_connects_once_and_starts_no_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A CLI call opens the store, reads one head (and records a command on it) and exits:
    eventsourcing's pool opened five connections from three worker threads for it (most
    of the call's time), and a write read the head on a second connection beside the one
    holding its turn's lock."""
    require_postgres()
    import threading

    import psycopg

    made: list[Any] = []
    connect = psycopg.Connection.connect

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(connect(*args, **kwargs))
        return made[-1]

    url = fresh_pg_url()
    try:
        maker = Warscribe(url)
        game_id = maker.create("divine-right", three_players(), "seeded:7").game_id
        maker.close()
        monkeypatch.setattr(psycopg.Connection, "connect", counted)
        threads = threading.active_count()
        for work in (lambda app: app.head(game_id), lambda app: app.issue(game_id, _roll())):
            made.clear()
            app = Warscribe(url, cache=False)
            work(app)
            assert threading.active_count() == threads
            assert len(made) == 1
            app.close()
            assert made[0].closed, "closing the store closes its connection"
    finally:
        drop_pg_schema(url)


def test_a_connection_the_server_ended_while_idle_is_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long-running process (a referee's mailbox) keeps idle connections: one the server
    ended meanwhile (a restart, an administrator) is found out and replaced before it is
    used, and the command goes through."""
    require_postgres()
    from warscribe.store.backends import postgresql_factory as postgres

    monkeypatch.setattr(postgres, "CHECK_AFTER", 0.0)
    url = fresh_pg_url()
    try:
        app = Warscribe(url)
        game_id = app.create("divine-right", three_players(), "seeded:8").game_id
        datastore: Any = app.recorder.datastore  # type: ignore[attr-defined]
        pids = [conn.info.backend_pid for _, _, conn in datastore._idle]
        assert pids
        with _admin() as admin:
            for pid in pids:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        app.issue(game_id, _roll())
        assert app.head(game_id).seq == Warscribe(url, cache=False).head(game_id).seq
        app.close()
    finally:
        drop_pg_schema(url)


def _admin() -> Any:
    """A connection of the test's own to the server, to end the store's."""
    import psycopg

    from tests.conftest import PG_URL

    return psycopg.connect(PG_URL, autocommit=True)


def test_a_connection_given_back_inside_a_transaction_is_closed_not_kept() -> None:
    """A use that left a transaction open (an error between BEGIN and COMMIT) must not
    hand the next use a connection inside it: its reads would see an old snapshot and its
    locks would be held on."""
    require_postgres()
    url = fresh_pg_url()
    try:
        app = Warscribe(url)
        datastore: Any = app.recorder.datastore  # type: ignore[attr-defined]
        with datastore.get_connection() as conn:
            conn.execute("BEGIN")
        assert conn.closed and all(kept is not conn for _, _, kept in datastore._idle)
        with datastore.get_connection() as sound:
            sound.execute("SELECT 1")
        assert [kept for _, _, kept in datastore._idle] == [sound]
        app.close()
        assert sound.closed, "closing the store closes its idle connections"
    finally:
        drop_pg_schema(url)


def test_a_server_that_does_not_answer_is_an_error_naming_the_store() -> None:
    """No server at the address (a port nothing listens on): `Error: cannot open store`,
    exit 1, never a traceback, whatever the command."""
    import socket

    from click.testing import CliRunner

    from warscribe.cli.main import cli

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://postgres@127.0.0.1:{port}/test"
    for args in (["status"], ["games"], ["roll", "2d6", "--purpose", "test"]):
        result = CliRunner().invoke(cli, ["--store", url, *args])
        assert result.exit_code == 1, (args, result.output)
        assert result.stderr.startswith(f"Error: cannot open store postgresql:127.0.0.1:{port}")
        assert "Traceback" not in result.output


def test_a_write_decided_ahead_writes_neither_rows_nor_snapshot_while_the_turn_is_held() -> None:
    """The insert of a write decided ahead of its turn runs only if it takes the turn, and
    so does the snapshot it carries: with the turn held elsewhere the transaction writes
    nothing and the write fails (to be decided again); once the turn is free it lands."""
    require_postgres()
    import psycopg
    from eventsourcing.persistence import IntegrityError

    from tests.conftest import PG_URL
    from warscribe.engine import record
    from warscribe.store import writing
    from warscribe.store.aggregates import Game
    from warscribe.store.backends.postgresql import Writer, ahead_turn

    url = fresh_pg_url()
    try:
        app = Warscribe(url)
        game_id = app.create("divine-right", three_players(), "seeded:11").game_id
        game = app.load(game_id)
        seq = game.head.seq
        game.append(record.record_command(game.head, _roll(), app.secret(game_id)))
        rows = writing.stored_events(game.collect_events(), app.mapper.to_stored_event)
        assert app.snapshots is not None and app._snapshots_table is not None
        taken = app.snapshots.mapper.to_stored_event(Game.Snapshot.take(game))
        writer = Writer(app.driver, app.recorder, app._snapshots_table)  # type: ignore[arg-type]
        turn = _turn_lock(app, game_id)
        with psycopg.connect(PG_URL, autocommit=True) as other:
            other.execute("SELECT pg_advisory_lock(%s)", (turn,))
            with pytest.raises(IntegrityError, match="holds the game's turn"):
                writer.insert(rows, [taken], ahead_turn(turn))
            other.execute("SELECT pg_advisory_unlock(%s)", (turn,))
        reader = Warscribe(url, cache=False)
        assert reader.head(game_id).seq == seq
        assert [s.originator_version for s in app.snapshots.get(game_id, gt=seq)] == []
        writer.insert(rows, [taken], ahead_turn(turn))
        assert reader.head(game_id).seq == seq + len(rows)
        assert [s.originator_version for s in app.snapshots.get(game_id, gt=seq)] == [seq + 2]
        reader.close()
        app.close()
    finally:
        drop_pg_schema(url)


def test_a_lone_insert_decided_ahead_is_one_statement_that_survives_its_failures() -> None:
    """A write decided on a kept head with no snapshot or index row is its insert alone,
    in a transaction of its own (issue 14: no BEGIN, COMMIT or pipeline), which psycopg
    prepares once it has run a few times. Its failures, the versions taken by another
    writer or the turn held by one, write nothing and leave that statement usable: every
    write after them lands."""
    require_postgres()
    import psycopg
    from eventsourcing.persistence import IntegrityError

    from tests.conftest import PG_URL
    from warscribe.engine import record
    from warscribe.store import writing
    from warscribe.store.backends.postgresql import Writer, ahead_turn

    url = fresh_pg_url()
    try:
        app = Warscribe(url)  # no write here reaches a snapshot's interval
        game_id = app.create("divine-right", three_players(), "seeded:12").game_id
        turn = _turn_lock(app, game_id)
        game = app.load(game_id)
        writer = Writer(app.driver, app.recorder, None)  # type: ignore[arg-type]
        statements: list[str] = []
        with app.recorder.datastore.holding() as conn:  # the connection every write uses
            execute = conn.execute

            def counted(query: Any, params: Any = None, **kwargs: Any) -> Any:
                statements.append(str(query))
                return execute(query, params, **kwargs)

            conn.execute = counted  # type: ignore[method-assign]
            for step in range(12):
                game.append(record.record_command(game.head, _roll(), app.secret(game_id)))
                rows = writing.stored_events(game.collect_events(), app.mapper.to_stored_event)
                if step == 7:  # another writer took these versions: nothing is written
                    writer.insert(rows, (), ahead_turn(turn))
                    with pytest.raises(IntegrityError, match="duplicate key"):
                        writer.insert(rows, (), ahead_turn(turn))
                    continue
                if step == 9:  # another writer holds the turn: nothing is written
                    with psycopg.connect(PG_URL, autocommit=True) as other:
                        other.execute("SELECT pg_advisory_lock(%s)", (turn,))
                        with pytest.raises(IntegrityError, match="holds the game's turn"):
                            writer.insert(rows, (), ahead_turn(turn))
                        # let the turn go before the next write: a closed connection's
                        # session ends when the server gets to it, which a busy machine delays
                        other.execute("SELECT pg_advisory_unlock(%s)", (turn,))
                    game = app.load(game_id)
                    continue
                writer.insert(rows, (), ahead_turn(turn))
            prepared = conn.execute(
                "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE %s",
                ("%pg_try_advisory_xact_lock%",),
            ).fetchone()
        inserts = [q for q in statements if q.startswith("WITH turn AS")]
        assert inserts == statements[:-1] and len(inserts) == 13, "a write is its insert alone"
        assert prepared is not None and prepared["n"] == 1, "psycopg prepared the insert"
        reader = Warscribe(url, cache=False)
        assert reader.head(game_id) == game.head, "every write but the refused ones landed"
        record.verify(list(reader.entries(game_id)))  # raises on a gap or a broken chain
        reader.close()
        app.close()
    finally:
        drop_pg_schema(url)
