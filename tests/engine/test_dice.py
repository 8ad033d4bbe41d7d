"""Dice derivation: HMAC, rejection sampling, shuffles, table entries."""

from __future__ import annotations

from collections import Counter
from uuid import UUID

import pytest

from warscribe.engine.dice import Dice, apply_shuffle, commitment, derive, new_key, parse_mode
from warscribe.engine.errors import DiceError

GAME = UUID(int=1)
CHAIN = bytes(32)


def test_derivation_is_deterministic_and_bound_to_its_inputs() -> None:
    key = new_key("seeded", "1")[0]
    first = derive(key, GAME, 0, CHAIN, (6,) * 20)
    assert first == derive(key, GAME, 0, CHAIN, (6,) * 20)
    assert first != derive(key, GAME, 1, CHAIN, (6,) * 20)
    assert first != derive(key, UUID(int=2), 0, CHAIN, (6,) * 20)
    assert first != derive(key, GAME, 0, b"\x01" * 32, (6,) * 20)
    assert first != derive(new_key("seeded", "2")[0], GAME, 0, CHAIN, (6,) * 20)


def test_faces_are_uniform() -> None:
    key = new_key("seeded", "uniform")[0]
    counts = Counter(derive(key, GAME, 0, CHAIN, (6,) * 60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(c - 10000) < 450 for c in counts.values()), counts


def test_odd_sided_draws_stay_in_range() -> None:
    key = new_key("seeded", "x")[0]
    values = derive(key, GAME, 3, CHAIN, (7, 1000, 2, 13) * 50)
    assert all(1 <= v <= s for v, s in zip(values, (7, 1000, 2, 13) * 50, strict=True))


def test_shuffle_is_a_permutation_and_recorded() -> None:
    dice = Dice(key=new_key("seeded", "s")[0], game_id=GAME, chain=CHAIN, next_index=4)
    rolled, deck = dice.shuffle("deck", tuple(range(30)))
    assert sorted(deck) == list(range(30))
    assert rolled.index == 4 and dice.next_index == 5
    assert rolled.sides == tuple(range(30, 1, -1))
    assert apply_shuffle(tuple(range(30)), rolled.values) == deck


def test_host_commitment_is_sha256_of_the_secret() -> None:
    key, spec = new_key("host")
    assert spec.commitment == commitment(key) and spec.seed is None and len(key) == 32


def test_table_dice_take_the_entered_values() -> None:
    dice = Dice(key=None, game_id=GAME, chain=CHAIN, next_index=0, entered=[4, 2], entered_by="bob")
    rolled = dice.roll("random events", 2)
    assert rolled.values == (4, 2) and rolled.entered_by == "bob"
    dice.finish()


def test_table_dice_refuse_missing_bad_and_extra_entries() -> None:
    with pytest.raises(DiceError, match="more dice than were entered"):
        Dice(key=None, game_id=GAME, chain=CHAIN, next_index=0, entered=[4], entered_by="b").roll(
            "x", 2
        )
    with pytest.raises(DiceError, match=r"1\.\.6, not 7"):
        Dice(key=None, game_id=GAME, chain=CHAIN, next_index=0, entered=[7], entered_by="b").roll(
            "x"
        )
    extra = Dice(key=None, game_id=GAME, chain=CHAIN, next_index=0, entered=[1, 2], entered_by="b")
    extra.roll("x")
    with pytest.raises(DiceError, match="not needed"):
        extra.finish()


def test_a_store_without_the_secret_cannot_roll() -> None:
    with pytest.raises(DiceError, match="dice secret"):
        Dice(key=None, game_id=GAME, chain=CHAIN, next_index=0).roll("x")


def test_a_seed_makes_table_shuffles_public_and_reproducible() -> None:
    assert parse_mode("table:club") == ("table", "club")
    key, spec = new_key("table", "club")
    assert key == new_key("seeded", "club")[0] and spec.seed == "club" and spec.mode == "table"
    assert new_key("table")[1].seed is None


@pytest.mark.parametrize("text", ["seeded", "seeded:", "dice", "host:1", "table:"])
def test_bad_modes_are_refused(text: str) -> None:
    with pytest.raises(DiceError):
        parse_mode(text)
