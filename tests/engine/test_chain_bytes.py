"""What the chain hashes of an entry (`record.canonical_bytes`, issue 14): made from the
event's public fields laid out once per class (`codec.canonical_fields`), the bytes are
those the generic encoding gives of (seq, topic, public fields, digest), for every entry
of random games of both rule sets and for the edge cases of a layout: fields appended
later that hold their default, maps and records nested in a field, a private field, and a
forgery's seq or digest of another type (which takes the generic path)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from warscribe.engine import codec
from warscribe.engine.codec import added, record
from warscribe.engine.events import Event, private
from warscribe.engine.hidden import split
from warscribe.engine.record import Entry, canonical_bytes

from .random_play import new_game, play
from .test_random_play import DR_SPEC, EU_SPEC


def _generic(entry: Entry) -> bytes:
    """The bytes as the chain first made them: the public fields' map, encoded whole."""
    public, _ = split(entry.event)
    return codec.encode((entry.seq, codec.topic_of(type(entry.event)), public, entry.digest))


@pytest.mark.parametrize(("ruleset", "spec"), [("divine-right", DR_SPEC), ("eu-pop", EU_SPEC)])
def test_every_entry_of_a_random_game_hashes_the_bytes_of_its_generic_encoding(
    ruleset: str, spec: Any
) -> None:
    game = play(new_game(ruleset, spec, 21), random.Random(21), 150, lambda _: None)
    assert len(game.log) > 150
    if ruleset == "divine-right":  # eu-pop has no hidden part
        assert any(e.digest is not None for e in game.log), "hidden parts are among them"
    for entry in game.log:
        assert canonical_bytes(entry) == _generic(entry), entry


@record("test.chain.Note")
class _Note:
    zeta: dict[str, int]
    alpha: tuple[Any, ...]


@record("test.chain.Ruling")
class _Ruling(Event):
    """Field names out of the codec's order, a private one, nested maps and records, and
    two fields appended later."""

    why: str
    by: dict[Any, Any]
    notes: tuple[_Note, ...]
    secret: str | None = private(None)
    quorum: int = added(0)
    extra: tuple[int, ...] = added(())


@pytest.mark.parametrize(("quorum", "extra"), [(0, ()), (3, ()), (0, (1, 2)), (5, (7,))])
def test_a_layout_leaves_out_added_defaults_and_sorts_what_it_nests(
    quorum: int, extra: tuple[int, ...]
) -> None:
    event = _Ruling(
        why="tie",
        by={"zz": 1, "a": {"y": 2, "b": 3}, 7: [1, {"d": 4, "c": 5}]},
        notes=(_Note(zeta={"q": 1, "p": 2}, alpha=({"k": 1, "j": 2},)),),
        secret="s",
        quorum=quorum,
        extra=extra,
    )
    entry = Entry(seq=9, event=event, chain=bytes(32), digest=bytes(32), salt=bytes(16))
    assert canonical_bytes(entry) == _generic(entry)
    assert b"secret" not in canonical_bytes(entry), "a private field is not hashed in the clear"


@pytest.mark.parametrize(("seq", "digest"), [("9", None), (9.0, None), (9, "digest"), (True, None)])
def test_a_forgerys_seq_or_digest_of_another_type_is_encoded_as_before(
    seq: Any, digest: Any
) -> None:
    event = _Ruling(why="x", by={}, notes=())
    entry = Entry(seq=seq, event=event, chain=bytes(32), digest=digest)
    assert canonical_bytes(entry) == _generic(entry)


def test_a_field_nested_too_deep_is_refused_as_before() -> None:
    deep: Any = {"end": 1}
    for _ in range(codec.MAX_DEPTH):
        deep = {"k": deep}
    entry = Entry(seq=1, event=_Ruling(why="x", by=deep, notes=()), chain=bytes(32))
    with pytest.raises(codec.CodecError, match="nested more than"):
        _generic(entry)
    with pytest.raises(codec.CodecError, match="nested more than"):
        canonical_bytes(entry)
