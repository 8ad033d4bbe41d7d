"""Two writers on one game: nothing is lost or duplicated (DESIGN: Store, optimistic
concurrency on the stream version). A lost race and its retries:
tests/security/test_concurrent_writers.py."""

from __future__ import annotations

import multiprocessing
from uuid import UUID

from tests.conftest import three_players
from warscribe.engine import record
from warscribe.engine.events import Command, CommandIssued
from warscribe.store.app import ConcurrentWrite, Warscribe
from warscribe.store.backends import StoreError

ROLLS_EACH = 12


def _writer(url: str, game_id: UUID, actor: str) -> None:
    app = Warscribe(url)
    done = 0
    while done < ROLLS_EACH:
        try:
            app.issue(game_id, Command(actor, "roll", (("purpose", f"{actor} {done}"),)))
        except (ConcurrentWrite, StoreError):
            continue
        done += 1
    app.close()


def test_two_processes_writing_at_once_lose_and_duplicate_nothing(store_url: str) -> None:
    app = Warscribe(store_url)
    head = app.create("divine-right", three_players(), "seeded:22")
    context = multiprocessing.get_context("spawn")
    procs = [
        context.Process(target=_writer, args=(store_url, head.game_id, who))
        for who in ("alice", "bob")
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(120)
        assert proc.exitcode == 0
    entries = list(app.entries(head.game_id))
    record.verify(entries)
    purposes = [e.event.args for e in entries if isinstance(e.event, CommandIssued)]
    assert len(purposes) == 2 * ROLLS_EACH
    assert len(set(purposes)) == 2 * ROLLS_EACH
    app.close()
