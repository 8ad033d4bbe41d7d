"""How a replay reads a game's stored rows (issue 14), through the codec's peek
(`codec.peek_entry`, tested on its own in tests/engine/test_peek.py): a plain command's
row is folded without its command being decoded (`record.UnreadCommand`), a roll's without
its dice (`record.UnreadRoll`), every other entry's row is read as its fields
(`record.Peeked`, no Entry made unless the fold needs one), and the head is the
same either way. A row that is anything but a well-formed entry of its own version is
decoded whole, so it fails as it always did."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime
from itertools import starmap
from pathlib import Path

import pytest

from warscribe.engine import codec
from warscribe.engine.errors import LogError
from warscribe.engine.events import Command, CommandIssued, DiceRolled
from warscribe.engine.hidden import WHOLE
from warscribe.engine.record import (
    UNREAD_COMMAND,
    Entry,
    EntryView,
    Peeked,
    UnreadCommand,
    UnreadRoll,
    fold,
)
from warscribe.store import logfile
from warscribe.store.app import Warscribe
from warscribe.store.backends.sqlite import EVENTS
from warscribe.store.reading import ROW_START, STAMP_KEY, _decode_entry, _views

from ..conftest import three_players
from ..engine.random_play import new_game, play
from ..engine.test_random_play import DR_SPEC, EU_SPEC

ROLL = Command("referee", "roll", (("dice", "2d6"), ("purpose", "weather")))
UNREAD = (UnreadCommand, UnreadRoll)


def _issued(seq: int, chain: bytes, scheme: int = WHOLE) -> Peeked:
    """A plain command's entry as the replay reads it."""
    return Peeked(seq, UNREAD_COMMAND, chain, None, None, scheme)


def _rolled(seq: int, chain: bytes, roll: int, scheme: int = WHOLE) -> Peeked:
    """A plain roll's entry as the replay reads it."""
    return Peeked(seq, UnreadRoll(roll), chain, None, None, scheme)


def _rows(
    tmp_path: Path, dice: str = "seeded:5"
) -> tuple[Warscribe, object, list[tuple[int, bytes]]]:
    """A game with rolls and a phase ended, and its stored (version, state) rows."""
    path = tmp_path / "club.db"
    app = Warscribe(str(path), snapshots=False, cache=False)
    game_id = app.create("divine-right", three_players(), dice).game_id
    for _ in range(3):
        app.issue(game_id, ROLL)
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            f"SELECT originator_version, state FROM {EVENTS} WHERE originator_id = ? "
            "ORDER BY originator_version",
            (game_id.hex,),  # type: ignore[attr-defined]
        ).fetchall()
    return app, game_id, rows


def _replayed(version: int, state: bytes) -> EntryView:
    """The entry of one stored row as a replay reads it."""
    return next(_views([(version, state)]))


def _row(entry: Entry) -> bytes:
    """A stored row as the store writes one (`writing.stored_events`)."""
    stamp = datetime(2026, 12, 2, 20, 15, 0, 123456, tzinfo=UTC)  # (32 bytes of text)
    return b"".join((ROW_START, codec.encode(entry), STAMP_KEY, codec.encode(stamp)))


@pytest.mark.parametrize("dice", ["seeded:5", "host"])
def test_a_plain_commands_row_is_read_unread_and_the_head_is_the_same(
    tmp_path: Path, dice: str
) -> None:
    """Rolls with no proof (record version 1, a seed) and with one (host dice)."""
    app, game_id, rows = _rows(tmp_path, dice)
    whole = list(starmap(_decode_entry, rows))
    replayed = list(starmap(_replayed, rows))
    # every CommandIssued of the game comes back unread, with its seq and chain
    commands = [e for e in whole if type(e.event) is CommandIssued]
    assert len(commands) >= 3
    assert [r for r in replayed if type(r.event) is UnreadCommand] == [
        _issued(e.seq, e.chain, e.scheme) for e in commands
    ]
    # every roll comes back unread but for its roll number, with its seq and chain
    rolls = [e for e in whole if type(e.event) is DiceRolled]
    assert len(rolls) >= 3
    assert [r for r in replayed if type(r.event) is UnreadRoll] == [
        _rolled(e.seq, e.chain, e.event.index, e.scheme) for e in rolls
    ]
    # every other row of a recorded entry is its fields, in their order (the first, the
    # game's creation, is stored in another shape: it is decoded whole)
    others = [e for e in whole if type(e.event) not in (CommandIssued, DiceRolled)]
    assert replayed[0] == whole[0]
    assert [r for r in replayed[1:] if type(r.event) not in UNREAD] == [
        tuple(codec.field_values(e).values()) for e in others[1:]
    ]
    # and the fold of either is the store's head
    assert fold(replayed) == fold(whole) == app.head(game_id)
    app.close()


def test_a_command_row_of_another_version_is_refused_as_before(tmp_path: Path) -> None:
    app, _, rows = _rows(tmp_path)
    version, state = next(r for r in rows if type(_decode_entry(*r).event) is CommandIssued)
    with pytest.raises(LogError, match="not the entry of its version"):
        _replayed(version + 1, state)
    app.close()


@pytest.mark.parametrize("cut", [1, 20, 40])
def test_a_damaged_command_row_is_decoded_whole_and_refused(tmp_path: Path, cut: int) -> None:
    """Bytes taken out of a plain command's row (from its command, or its chain): it is not
    read unread, and decoding it whole fails as it always did."""
    app, _, rows = _rows(tmp_path)
    version, state = next(r for r in rows if type(_decode_entry(*r).event) is CommandIssued)
    at = len(state) - 45 - 37 - cut  # before the chain, the digest, the salt, the scheme
    damaged = state[:at] + state[at + 1 :]
    with pytest.raises(LogError, match="stored entry"):
        _replayed(version, damaged)
    app.close()


@pytest.mark.parametrize("cut", [1, 20, 40])
def test_a_damaged_entry_row_is_decoded_whole_and_refused(tmp_path: Path, cut: int) -> None:
    """Bytes taken out of another entry's row (its event, or its chain): it is not read as
    its fields, and decoding it whole fails as it always did; nor is a row of another
    version."""
    app, _, rows = _rows(tmp_path)
    version, state = next(r for r in rows if type(_decode_entry(*r).event) is not CommandIssued)
    at = len(state) - 45 - 37 - cut  # before the chain, the digest, the salt, the scheme
    with pytest.raises(LogError, match="stored entry"):
        _replayed(version, state[:at] + state[at + 1 :])
    with pytest.raises(LogError, match="not the entry of its version"):
        _replayed(version + 1, state)
    app.close()


def test_fields_with_a_hidden_part_or_a_record_event_fold_as_their_entry() -> None:
    """A fold given an entry's fields makes the entry where it needs more than the event
    (a hidden part, the record's own events): the head is the fold of the entries."""
    game = play(new_game("divine-right", DR_SPEC, 3), random.Random(3), 120, lambda _: None)  # type: ignore[arg-type]
    log = game.log
    hidden = [e for e in log if e.salt is not None]
    assert hidden, "the game holds hidden parts"
    fields = [Peeked(*codec.field_values(e).values()) for e in log]
    assert fold(fields) == fold(log)


def test_a_command_row_of_no_entry_is_decoded_whole_and_refused(tmp_path: Path) -> None:
    """A row holding a command under another marker than an entry's (an unknown record):
    decoding it whole refuses it, and so does the replay."""
    app, _, rows = _rows(tmp_path)
    version, state = next(r for r in rows if type(_decode_entry(*r).event) is CommandIssued)
    other = state.replace(b"warscribe.Entry", b"warscribe.Entrx", 1)
    with pytest.raises(LogError, match="stored entry cannot be read"):
        _replayed(version, other)
    app.close()


def test_a_command_entry_with_a_hidden_part_is_decoded_whole() -> None:
    """Nothing of a command is hidden today; an entry that says otherwise (a salt, a
    digest) is folded whole (`record._step`), never unread."""
    issued = CommandIssued(actor="alice", name="roll", args=(("dice", "2d6"),))
    entry = Entry(seq=7, event=issued, chain=bytes(32), digest=bytes(32), salt=bytes(16))
    read = _replayed(7, _row(entry))
    assert type(read) is Entry and read == entry


def test_a_roll_is_read_unread_at_any_size_of_its_seq_and_a_damaged_one_is_refused() -> None:
    """A roll's row is read as plain values too; one that does not read so (bytes taken
    out of its dice) is decoded whole and refused, and a hidden one is decoded whole."""
    rolled = DiceRolled(index=41, purpose="weather", sides=(6, 6), values=(2, 5))
    for seq in (5, 200, 40_000, 5_000_000):
        chain = seq.to_bytes(32, "big")
        row = _row(Entry(seq=seq, event=rolled, chain=chain))
        assert _replayed(seq, row) == _rolled(seq, chain, 41)
        at = row.index(b"weather")
        with pytest.raises(LogError, match="stored entry"):
            _replayed(seq, row[:at] + row[at + 1 :])
    hidden = Entry(seq=7, event=rolled, chain=bytes(32), digest=bytes(32), salt=bytes(16))
    assert _replayed(7, _row(hidden)) == hidden


def test_a_plain_command_entry_is_read_unread_at_any_size_of_its_seq() -> None:
    """A seq is one to five bytes in msgpack (fixint, uint 8, 16, 32)."""
    issued = CommandIssued(actor="alice", name="roll", args=(("dice", "2d6"),))
    for seq in (5, 200, 40_000, 5_000_000):
        chain = seq.to_bytes(32, "big")
        assert _replayed(seq, _row(Entry(seq=seq, event=issued, chain=chain))) == _issued(
            seq, chain
        )


@pytest.mark.parametrize(("ruleset", "spec"), [("divine-right", DR_SPEC), ("eu-pop", EU_SPEC)])
def test_a_random_games_stored_rows_replay_to_its_head(
    tmp_path: Path, ruleset: str, spec: object
) -> None:
    """A game played at random (moves, battles, diplomacy, questions answered; every command
    a row read unread), imported into a store: a full replay of its rows, and a rewind
    from a snapshot to sampled positions, give the heads the fold of its entries gives."""
    game = play(new_game(ruleset, spec, 11), random.Random(11), 150, lambda state: None)  # type: ignore[arg-type]
    log = logfile.read(
        logfile.write(game.head.game_id, "random", ruleset, game.head.players, game.log)
    )
    store = str(tmp_path / "club.db")
    with_snapshots = Warscribe(store, cache=False)
    with_snapshots.import_log(log)
    plain = Warscribe(store, snapshots=False, cache=False)
    assert plain.head(log.game_id) == game.head
    for length in random.Random(11).sample(range(2, len(game.log) + 1), 5):
        expected = fold(game.log[:length])
        assert plain.head(log.game_id, length) == expected
        assert with_snapshots.head(log.game_id, length) == expected
    plain.close()
    with_snapshots.close()


def test_a_damaged_row_is_never_read_otherwise_than_decoding_it_whole(tmp_path: Path) -> None:
    """Rows of a random game with bytes changed, taken out or put in (seeded, 4,000 of
    them): what the replay reads of one is refused, or is what decoding it whole gives
    (the entry, or for a plain command or a roll the seq, chain and roll number of it).
    Only the plain values of a command or a roll may be edited past what the codec takes:
    they change no head."""
    game = play(new_game("divine-right", DR_SPEC, 4), random.Random(4), 150, lambda _: None)  # type: ignore[arg-type]
    log = logfile.read(
        logfile.write(game.head.game_id, "random", "divine-right", game.head.players, game.log)
    )
    path = tmp_path / "club.db"
    Warscribe(str(path), cache=False).import_log(log)
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            f"SELECT originator_version, state FROM {EVENTS} WHERE originator_id = ?",
            (log.game_id.hex,),
        ).fetchall()[1:]
    rng = random.Random(14)
    for _ in range(4000):
        version, state = rng.choice(rows)
        damaged = bytearray(state)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(damaged))
            if rng.random() < 0.5:
                damaged[at] = rng.randrange(256)
            elif rng.random() < 0.5:
                del damaged[at]
            else:
                damaged.insert(at, rng.randrange(256))
        version += rng.random() < 0.1  # now and then, a row of another version
        try:
            read = _replayed(version, bytes(damaged))
        except LogError:
            continue
        try:
            whole: Entry | None = _decode_entry(version, bytes(damaged))
        except LogError:
            whole = None
        if type(read.event) in UNREAD:
            if whole is None:  # refused whole: by the codec only, never for its version
                with pytest.raises(codec.CodecError):
                    codec.decode(bytes(damaged))
                continue
            assert whole.salt is None
            if type(read.event) is UnreadCommand:
                assert type(whole.event) is CommandIssued
                assert read == _issued(whole.seq, whole.chain, whole.scheme)
            else:
                assert type(whole.event) is DiceRolled
                assert read == _rolled(whole.seq, whole.chain, whole.event.index, whole.scheme)
            continue
        assert whole is not None
        assert (Entry(*read) if type(read) is Peeked else read) == whole  # type: ignore[misc]
