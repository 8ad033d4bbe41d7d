"""The stale-orders rule (issue 13): orders stay valid while the only entries after the
one they name are another player's answers to decisions the rules asked of them, notes
and free rolls, at the same position, and none is the sender's. It must stay safe
against replay (the same orders, or orders written before the sender's own last ones,
never apply twice) and against dice fishing (issue 10: the rolls of a batch derive from
the head the orders are received at, whatever head they name).

The game: alice plays the Trolls, so the set-up asks her where the Trollish monarch
enters play; bob is first in the player order and waits for her answer."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from warscribe.engine.errors import LogError
from warscribe.engine.events import Command, DiceRolled
from warscribe.engine.orders import Orders
from warscribe.engine.record import (
    Entry,
    fold,
    record_command,
    stale_reason,
    verify,
)
from warscribe.store.aggregates import Game
from warscribe.store.app import Warscribe, listing_of

from .trolls import PLACE, TrollGame

GAME = TrollGame(UUID(int=14), "s1")
KEY = GAME.key
TURN = (("events-roll", ()), ("end-phase", ()))
written, received = GAME.written, GAME.received


def start() -> list[Entry]:
    log = GAME.start()
    turn = fold(log).state.turn
    assert turn is not None and turn.player == "bob" and turn.progress.pending is not None
    return log


def reason(log: list[Entry], orders: Orders) -> str | None:
    return stale_reason(fold(log[: orders.seq]), log[orders.seq :], orders.player)


def test_orders_written_while_another_player_was_asked_stay_valid() -> None:
    """Bob writes his random events while alice is asked where her monarch enters; her
    answer is recorded first: bob's orders are not stale, and play on."""
    log = start()
    bobs = written(log, "bob", TURN)
    log += received(log, written(log, "alice", PLACE))
    assert reason(log, bobs) is None
    log += received(log, bobs)
    assert verify(log).orders_checked == 2


def test_a_note_leaves_orders_valid_and_their_rolls_are_the_receiving_heads() -> None:
    """A note changes nothing orders depend on. The rolls of orders derive from the head
    they are received at: orders naming the head before the note roll exactly what orders
    naming the note roll, so naming an older head chooses no dice."""
    log = start()
    log += received(log, written(log, "alice", PLACE))
    early = written(log, "bob", TURN)
    note = (("text", "bob is on holiday"), ("first", 1), ("last", 1), ("position", None))
    log += record_command(fold(log), Command("alice", "note", note), KEY)
    assert reason(log, early) is None
    late = written(log, "bob", TURN)

    def rolls(orders: Orders) -> list[tuple[int, ...]]:
        return [e.event.values for e in received(log, orders) if isinstance(e.event, DiceRolled)]

    assert rolls(early) == rolls(late) and rolls(early)


def test_orders_written_before_the_senders_own_last_ones_are_stale() -> None:
    """Bob's first orders are recorded; a second batch written on the same copy (a resend
    of the same intent, or a variant fishing for other dice) is stale, and a log whose
    referee recorded it anyway fails `verify`."""
    log = start()
    log += received(log, written(log, "alice", PLACE))
    first = written(log, "bob", TURN[:1])
    again = written(log, "bob", TURN[1:])
    recorded = received(log, first)
    log += recorded
    assert reason(log, again) == (
        f"bob's own orders or answers were recorded since (#{recorded[0].seq})"
    )
    with pytest.raises(LogError, match="stale orders: bob gave a command or orders after"):
        verify([*log, *received(log, again)])


def test_orders_of_a_position_the_game_has_left_are_stale() -> None:
    """Alice writes orders while bob plays his random events; bob ends the phase: the game
    is at another position, and her orders are stale even though nothing was hers."""
    log = start()
    log += received(log, written(log, "alice", PLACE))
    alices = written(log, "alice", (("events-roll", ()),))
    log += received(log, written(log, "bob", TURN))
    assert reason(log, alices) is not None and "moved on" in str(reason(log, alices))


def test_a_ruling_or_a_command_nobody_asked_for_makes_orders_stale() -> None:
    """Between the head orders name and their receipt only the player the rules ask may
    act: a referee's ruling (which may impose anything) makes them stale; a free roll,
    which changes nothing, does not."""
    log = start()
    bobs = written(log, "bob", TURN)
    log += record_command(fold(log), Command("alice", "roll", (("dice", "1d6"),)), KEY)
    assert reason(log, bobs) is None
    ruling = (("text", "so be it"), ("first", 1), ("last", 1), ("position", None), ("impose", ()))
    log += record_command(fold(log), Command("referee", "ruling", ruling), KEY)
    assert reason(log, bobs) == f"referee gave `ruling` at #{len(log) - 1}, unasked"


def test_orders_naming_another_line_of_play_are_refused_however_far_back(tmp_path: Path) -> None:
    """Orders name the entry they were written against by its chain hash. A referee who
    records bob's orders as written against an entry this log does not have (another line
    of play) is caught by `verify` of a list, by the import of the run that adds them and
    by `verify` of a store holding them, even when that entry is older than the chain
    hashes `verify` keeps at hand (two, in these tests: see conftest)."""
    log = start()
    log += received(log, written(log, "alice", PLACE))
    honest = list(log)
    log += received(log, Orders(GAME.game_id, "bob", None, log[-4].seq, bytes(32), TURN))
    refused = pytest.raises(LogError, match="not written against an entry before them")
    with refused:
        verify(log)
    stores = []
    for name, entries in (("honest", honest), ("forged", log)):
        store = Warscribe(str(tmp_path / f"{name}.db"))
        store._save(Game.start(entries), store._listed(None, listing_of(entries)), what=name)
        stores.append(store)
    with refused:
        stores[0].import_entries(GAME.game_id, log[len(honest) :])
    with refused:
        stores[1].verify_game(GAME.game_id)
