"""The codec's peek at an encoded Entry (`codec.peek_entry`): what a fold needs of it, the
rest left unread; bytes of any other shape give None (the caller decodes them whole), and
a fold of the peeks is the fold of the entries."""

from __future__ import annotations

import random
from functools import cache

import pytest

from warscribe.engine import codec
from warscribe.engine.events import CommandIssued, DiceRolled
from warscribe.engine.record import (
    UNREAD_COMMAND,
    Entry,
    Head,
    Peeked,
    UnreadCommand,
    UnreadRoll,
    fold,
)

from .random_play import new_game, play
from .test_random_play import DR_SPEC

ISSUED = CommandIssued(actor="alice", name="roll", args=(("dice", "2d6"),))
ROLLED = DiceRolled(index=41, purpose="weather", sides=(6, 6), values=(2, 5))
SEQS = (5, 200, 40_000, 5_000_000)  # a seq is one to five bytes (fixint, uint 8, 16, 32)


@cache
def _log() -> tuple[Entry, ...]:
    """A game played at random: commands, rolls, hidden parts, the record's own events."""
    game = play(new_game("divine-right", DR_SPEC, 3), random.Random(3), 120, lambda _: None)  # type: ignore[arg-type]
    return tuple(game.log)


def _fields(entry: Entry) -> Peeked:
    return Peeked(*codec.field_values(entry).values())


def test_a_plain_command_is_left_unread_at_any_size_of_its_seq() -> None:
    for seq in SEQS:
        entry = Entry(seq=seq, event=ISSUED, chain=seq.to_bytes(32, "big"))
        peeked = codec.peek_entry(codec.encode(entry))
        assert peeked == Peeked(seq, UNREAD_COMMAND, entry.chain, None, None, entry.scheme)


def test_a_plain_roll_is_left_unread_but_for_its_number_with_or_without_its_proof() -> None:
    for seq in SEQS:
        for roll in (ROLLED, codec.replace(ROLLED, proof=bytes(80))):
            entry = Entry(seq=seq, event=roll, chain=seq.to_bytes(32, "big"))
            peeked = codec.peek_entry(codec.encode(entry))
            assert peeked == Peeked(seq, UnreadRoll(41), entry.chain, None, None, entry.scheme)


def test_a_command_or_roll_with_a_hidden_part_is_never_left_unread() -> None:
    """Nothing of them is hidden today: one that says otherwise is decoded whole."""
    for event in (ISSUED, ROLLED):
        entry = Entry(seq=7, event=event, chain=bytes(32), digest=bytes(32), salt=bytes(16))
        assert codec.peek_entry(codec.encode(entry)) is None


def test_every_entry_of_a_game_peeks_as_its_fields_or_unread_and_folds_the_same() -> None:
    log = _log()
    peeked = [codec.peek_entry(codec.encode(entry)) for entry in log]
    assert all(p is not None for p in peeked)
    for entry, seen in zip(log, peeked, strict=True):
        assert seen is not None
        if type(seen.event) in (UnreadCommand, UnreadRoll):
            assert entry.salt is None and type(entry.event) in (CommandIssued, DiceRolled)
        else:
            assert seen == _fields(entry)
    assert {type(p.event) for p in peeked if p is not None} >= {UnreadCommand, UnreadRoll}
    assert fold(p for p in peeked if p is not None) == fold(log)


def test_the_bytes_peeked_may_be_a_part_of_larger_ones() -> None:
    entry = Entry(seq=9, event=ISSUED, chain=bytes(32))
    raw = b"before" + codec.encode(entry) + b"after"
    assert codec.peek_entry(raw, 6, len(raw) - 5) == codec.peek_entry(codec.encode(entry))
    assert codec.peek_entry(raw, 6) is None  # bytes after the entry: not an entry alone


@pytest.mark.parametrize(
    "value",
    [Head.__name__, (1, 2, 3), ISSUED, b"", b"\x96"],
)
def test_what_is_no_entry_peeks_as_none(value: object) -> None:
    raw = value if isinstance(value, bytes) else codec.encode(value)
    assert codec.peek_entry(raw) is None


def test_a_damaged_entry_peeks_as_none_or_as_decoding_it_whole_gives() -> None:
    """Bytes changed, taken out or put in (seeded): the peek never raises, and what it
    reads is what decoding whole gives (only the plain values of a command or a roll,
    which change no head, may be edited past what the codec takes)."""
    rng = random.Random(14)
    log = _log()
    for _ in range(3000):
        raw = bytearray(codec.encode(rng.choice(log)))
        at = rng.randrange(len(raw))
        if rng.random() < 0.5:
            raw[at] = rng.randrange(256)
        else:
            del raw[at]
        peeked = codec.peek_entry(bytes(raw))
        if peeked is None or type(peeked.event) in (UnreadCommand, UnreadRoll):
            continue
        try:
            whole = codec.decode(bytes(raw))
        except codec.CodecError:
            pytest.fail(f"peeked {peeked!r} from bytes that do not decode")
        assert type(whole) is Entry and peeked == _fields(whole)
