"""Tampering with a log is caught at the first bad sequence number (DESIGN: "The log,
tamper-evident"); an import of a bad file leaves the store unchanged."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from uuid import UUID

import pytest

from tests.conftest import three_players
from warscribe.engine.errors import LogError
from warscribe.engine.events import Command, DiceRolled, DiceSpec, GameCreated
from warscribe.engine.record import Entry, next_chain, verify
from warscribe.store import logfile
from warscribe.store.app import GameListing, Warscribe


@pytest.fixture
def game(app: Warscribe) -> tuple[Warscribe, UUID, list[Entry]]:
    head = app.create("divine-right", three_players(), "seeded:11")
    for _ in range(3):
        app.issue(head.game_id, Command("alice", "roll", (("dice", "2d6"),)))
    return app, head.game_id, list(app.entries(head.game_id))


def last_roll_seq(entries: list[Entry]) -> int:
    return max(e.seq for e in entries if isinstance(e.event, DiceRolled))


def rechain(entries: list[Entry]) -> list[Entry]:
    """What a forger does after an edit: recompute every chain hash from the start."""
    out: list[Entry] = []
    previous = bytes(32)
    for entry in entries:
        fixed = dataclasses.replace(entry, chain=b"")
        fixed = dataclasses.replace(fixed, chain=next_chain(previous, fixed))
        out.append(fixed)
        previous = fixed.chain
    return out


def edit_roll(entries: list[Entry], seq: int) -> list[Entry]:
    out = list(entries)
    entry = out[seq - 1]
    assert isinstance(entry.event, DiceRolled)
    values = tuple(7 - v if v <= 6 else 1 for v in entry.event.values)
    out[seq - 1] = dataclasses.replace(entry, event=dataclasses.replace(entry.event, values=values))
    return out


def renumber(entries: list[Entry]) -> list[Entry]:
    return [dataclasses.replace(e, seq=i) for i, e in enumerate(entries, start=1)]


TAMPERING: dict[str, Callable[[list[Entry], int], tuple[list[Entry], int]]] = {
    "edit": lambda es, k: (edit_roll(es, k), k),
    "reorder": lambda es, k: ([*es[: k - 1], es[k], es[k - 1], *es[k + 1 :]], k),
    "reorder-renumbered": lambda es, k: (
        renumber([*es[: k - 1], es[k], es[k - 1], *es[k + 1 :]]),
        k,
    ),
    "insert": lambda es, k: ([*es[: k - 1], es[k - 2], *es[k - 1 :]], k),
    "insert-renumbered": lambda es, k: (renumber([*es[: k - 1], es[k - 2], *es[k - 1 :]]), k),
    "drop": lambda es, k: ([*es[: k - 1], *es[k:]], k),
    "drop-renumbered": lambda es, k: (renumber([*es[: k - 1], *es[k:]]), k),
}


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_tampering_is_caught_at_the_first_bad_entry(
    game: tuple[Warscribe, UUID, list[Entry]], kind: str
) -> None:
    _, _, entries = game
    k = last_roll_seq(entries) - 2
    tampered, bad = TAMPERING[kind](entries, k)
    with pytest.raises(LogError) as caught:
        verify(tampered)
    assert caught.value.seq == bad


def test_an_edited_roll_with_a_rebuilt_chain_is_caught_by_the_dice(
    game: tuple[Warscribe, UUID, list[Entry]],
) -> None:
    _, _, entries = game
    k = last_roll_seq(entries)
    with pytest.raises(LogError, match="does not match the dice secret") as caught:
        verify(rechain(edit_roll(entries, k)))
    assert caught.value.seq == k


def test_a_wrong_commitment_is_caught(game: tuple[Warscribe, UUID, list[Entry]]) -> None:
    _, _, entries = game
    created = entries[0].event
    assert isinstance(created, GameCreated)
    forged = dataclasses.replace(created, dice=DiceSpec("seeded", bytes(32), created.dice.seed))
    with pytest.raises(LogError, match="commitment") as caught:
        verify(rechain([dataclasses.replace(entries[0], event=forged), *entries[1:]]))
    assert caught.value.seq == 1


def test_truncation_is_caught_at_the_first_missing_entry(
    game: tuple[Warscribe, UUID, list[Entry]],
) -> None:
    _, game_id, entries = game
    data = logfile.write(game_id, "g", "divine-right", ("alice", "bob", "carol"), entries)
    whole = logfile.read(data)
    assert whole.entries == tuple(entries)
    players = ("alice", "bob", "carol")
    last_three = len(data) - len(logfile.write(game_id, "g", "divine-right", players, entries[:-3]))
    cut = data[: len(data) - last_three + 5]
    with pytest.raises(LogError) as caught:
        logfile.read(cut)
    assert caught.value.seq == entries[-3].seq


def test_cutting_whole_entries_is_caught_by_the_header(
    game: tuple[Warscribe, UUID, list[Entry]],
) -> None:
    _, game_id, entries = game
    full = logfile.write(game_id, "g", "divine-right", (), entries)
    shorter = logfile.write(game_id, "g", "divine-right", (), entries[:-1])
    last_entry_bytes = len(full) - len(shorter)  # headers differ only in to_seq, same width
    with pytest.raises(LogError, match="truncated") as caught:
        logfile.read(full[:-last_entry_bytes])
    assert caught.value.seq == entries[-1].seq


def snapshot(app: Warscribe, game_id: UUID) -> tuple[object, ...]:
    return tuple(app.entries(game_id)), tuple(app.games())


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_a_tampered_import_leaves_the_store_unchanged(
    game: tuple[Warscribe, UUID, list[Entry]], kind: str, tmp_path: object
) -> None:
    app, game_id, entries = game
    k = last_roll_seq(entries) - 2
    tampered, bad = TAMPERING[kind](entries, k)
    extended = [*tampered]
    before = snapshot(app, game_id)
    fresh = Warscribe(str(tmp_path / "fresh.db"))  # type: ignore[operator]
    listing = GameListing(game_id, "g", "divine-right", ("alice", "bob", "carol"))
    with pytest.raises(LogError) as caught:
        fresh.import_entries(game_id, extended, listing)
    assert caught.value.seq == bad
    assert fresh.games() == ()
    with pytest.raises(LogError):
        app.import_entries(game_id, extended, listing)
    assert snapshot(app, game_id) == before
    fresh.close()
