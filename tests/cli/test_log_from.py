"""`log --from N` (issue 14): the lines from #N, as the whole log shows them, read from
the position before #N (a snapshot) rather than from #1."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from warscribe.store.aggregates import Game
from warscribe.store.app import Warscribe
from warscribe.store.reading import Reading
from warscribe.store.registry import Catalog

from .club import Club, new_three, play_turn


def test_log_from_reads_only_what_it_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = 20  # a snapshot every 20 entries, so that one game turn holds a few
    monkeypatch.setattr(Warscribe, "snapshotting_intervals", {Game: every, Catalog: every})
    club = Club(tmp_path)
    new_three(club, "seeded:log-from")
    play_turn(club, {})
    whole = club.ok("log").splitlines()
    start = 2 * every + 5
    assert len(whole) > start + 5
    read: list[int] = []
    entries = Reading.entries  # the store's and its read-only reader's

    def spy(self: Reading, game_id: UUID, first: int = 1, stop: int | None = None) -> Any:
        read.append(first)
        return entries(self, game_id, first, stop)

    monkeypatch.setattr(Reading, "entries", spy)
    tail = club.ok("log", "--from", str(start), "--to", str(start + 3)).splitlines()
    assert tail == whole[start - 1 : start + 3]
    assert min(read) > 2 * every, "no entry before the snapshot is read"
