"""Forged hidden values with the salt removed (issue 10, hole 2): a file kept every chain
hash and digest, swapped a private value (the deck order, the dealt personality cards)
and cleared the salt; `import` took it and `verify` said ok. A hidden value without its
opening is never accepted."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tests.security.conftest import Table, new_game, rewrite
from warscribe.engine.errors import LogError
from warscribe.engine.record import Entry, verify
from warscribe.engine.rulesets.divine_right.events import (
    DiplomacyDeckShuffled,
    PersonalitiesDealt,
)
from warscribe.store import logfile

FORGERIES: dict[str, tuple[type, Any]] = {
    "the deck order": (DiplomacyDeckShuffled, lambda e: {"cards": e.cards[::-1]}),
    "the dealt personality cards": (PersonalitiesDealt, lambda e: {"cards": e.cards[::-1]}),
}


def forged(log: logfile.LogFile, cls: type, change: Any) -> tuple[list[Entry], int]:
    """The log with `cls`'s hidden values changed and its salt dropped; chain untouched."""
    out = list(log.entries)
    index = next(i for i, e in enumerate(out) if type(e.event) is cls)
    entry = out[index]
    event = dataclasses.replace(entry.event, **change(entry.event))
    out[index] = dataclasses.replace(entry, event=event, salt=None)
    return out, entry.seq


@pytest.mark.parametrize("what", sorted(FORGERIES))
def test_a_hidden_value_without_its_salt_is_refused(table: Table, what: str) -> None:
    new_game(table, "seeded:hidden")
    table.run("export", "-o", "full.wlog")
    log = logfile.read(Path("full.wlog").read_bytes())
    entries, seq = forged(log, *FORGERIES[what])
    with pytest.raises(LogError, match="without its opening") as caught:
        verify(entries)
    assert caught.value.seq == seq
    Path("forged.wlog").write_bytes(rewrite(log, entries))
    error = table.refused("import", "forged.wlog", store="victim")
    assert f"#{seq}:" in error and "without its opening" in error


def test_a_redacted_copy_hides_values_without_salt_and_still_verifies(table: Table) -> None:
    """The honest counterpart: a player's copy drops both the value and the salt."""
    new_game(table, "seeded:hidden")
    table.run("export", "--for", "alice", "-o", "alice.wlog")
    table.run("import", "alice.wlog", store="alice")
    assert table.run("verify", store="alice").stdout.startswith("ok: ")
