"""Importing a run that continues a stored game (issue 14): it is checked and re-decided
from the stored head, not from #1, and is still refused, all of it, at the first entry
the rules disagree with."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from tests.conftest import three_players
from warscribe.engine.errors import LogError
from warscribe.engine.events import Command, DiceRolled
from warscribe.engine.record import next_chain
from warscribe.store.app import Warscribe


def played(app: Warscribe, rolls: int) -> UUID:
    game_id = app.create("divine-right", three_players(), "seeded:tail").game_id
    for n in range(rolls):
        app.issue(game_id, Command("alice", "roll", (("dice", "2d6"), ("purpose", f"#{n}"))))
    return game_id


def copied(tmp_path: Path, host: Warscribe, game_id: UUID, upto: int) -> Warscribe:
    """A second store holding the host's log up to `upto`."""
    copy = Warscribe(str(tmp_path / "copy.db"), cache=False)
    copy.import_entries(game_id, list(host.entries(game_id, 1, upto)))
    return copy


def test_a_continuation_is_not_re_read_from_the_first_entry(tmp_path: Path) -> None:
    host = Warscribe(str(tmp_path / "host.db"))
    game_id = played(host, 30)
    copy = copied(tmp_path, host, game_id, 40)
    read: list[tuple[int, int | None]] = []
    entries = copy.entries

    def spy(game: UUID, start: int = 1, stop: int | None = None) -> Any:
        read.append((start, stop))
        return entries(game, start, stop)

    copy.entries = spy  # type: ignore[method-assign]
    tail = list(host.entries(game_id, 41))
    assert copy.import_entries(game_id, tail).added == len(tail)
    assert [(start, stop) for start, stop in read if start < 41 and stop != start] == []
    assert list(entries(game_id)) == list(host.entries(game_id))
    host.close()
    copy.close()


def test_a_continuation_the_rules_disagree_with_is_refused_whole(tmp_path: Path) -> None:
    host = Warscribe(str(tmp_path / "host.db"))
    game_id = played(host, 30)
    copy = copied(tmp_path, host, game_id, 40)
    tail = list(host.entries(game_id, 41))
    rolled = [e for e in tail if isinstance(e.event, DiceRolled)][-1]  # no roll bound after it
    edited, chain = [], next(host.entries(game_id, 40, 40)).chain
    for entry in tail:
        if entry.seq == rolled.seq:
            entry = dataclasses.replace(
                entry, event=dataclasses.replace(entry.event, purpose="a purpose not given")
            )
        entry = dataclasses.replace(entry, chain=next_chain(chain, entry))
        edited.append(entry)
        chain = entry.chain
    with pytest.raises(LogError) as caught:
        copy.import_entries(game_id, edited)
    assert caught.value.seq == rolled.seq
    assert "different outcome" in str(caught.value)
    assert [e.seq for e in copy.entries(game_id)][-1] == 40
    host.close()
    copy.close()
