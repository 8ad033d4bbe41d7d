"""Dice you can check: every random number is derived from the game's dice secret.

Roll k is ``HMAC-SHA256(key, game_id || k || chain || block)`` read as 32-bit words, each
mapped into 1..sides by rejection sampling (words at or above the largest multiple of
`sides` are skipped, so every face is exactly equally likely). `chain` is the chain hash of
the entry the decision making the roll is bound to: GameCreated for set-up; for a command
typed at the host's store, its CommandIssued; for a command of signed orders, the head the
orders were written against (see `record.opener`). Shuffles are Fisher-Yates on derived
numbers; a random pick is one derived number.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar
from uuid import UUID

from .errors import DiceError
from .events import DiceRolled, DiceSpec

T = TypeVar("T")

MODES = ("host", "table", "seeded")
_WORD = 1 << 32


def seeded_key(seed: str) -> bytes:
    import hashlib

    return hashlib.sha256(b"warscribe-seed:" + seed.encode()).digest()


def commitment(key: bytes) -> bytes:
    import hashlib

    return hashlib.sha256(key).digest()


def new_key(mode: str, seed: str | None = None) -> tuple[bytes, DiceSpec]:
    """A dice key for a game and the spec (mode + commitment) to record: derived from a
    public seed (`seeded:SEED`, `table:SEED`), else 32 fresh random bytes."""
    if mode not in MODES:
        raise DiceError(f"unknown dice mode {mode!r}: use {MODE_HELP}")
    if mode == "seeded" and not seed:
        raise DiceError("seeded dice need a seed: --dice seeded:SEED")
    key = seeded_key(seed) if seed else os.urandom(32)
    return key, DiceSpec(mode=mode, commitment=commitment(key), seed=seed)


MODE_HELP = "host, table, table:SEED or seeded:SEED"


def parse_mode(text: str) -> tuple[str, str | None]:
    """`host`, `table`, `table:SEED` or `seeded:SEED` -> (mode, seed).

    A seed makes every derived number public and reproducible: for tests, examples and
    simulations (with `table`, the physical dice are still entered by hand)."""
    mode, sep, seed = text.partition(":")
    if mode not in MODES or (mode == "seeded" and not seed) or (mode == "host" and sep):
        raise DiceError(f"bad dice mode {text!r}: use {MODE_HELP}")
    if sep and not seed:
        raise DiceError(f"bad dice mode {text!r}: the seed after ':' is missing")
    return mode, seed or None


def derive(
    key: bytes, game_id: UUID, index: int, chain: bytes, sides: Sequence[int]
) -> tuple[int, ...]:
    """The values of roll `index`, one in 1..s for each s in `sides`."""
    import hmac

    prefix = game_id.bytes + index.to_bytes(8, "big") + chain
    values: list[int] = []
    block = 0
    words: list[int] = []
    for side in sides:
        if side < 1:
            raise DiceError(f"a die needs at least one side, not {side}")
        limit = _WORD - _WORD % side
        while True:
            if not words:
                digest = hmac.digest(key, prefix + block.to_bytes(4, "big"), "sha256")
                words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
                block += 1
            word = words.pop(0)
            if word < limit:
                values.append(word % side + 1)
                break
    return tuple(values)


def apply_shuffle(items: Sequence[T], values: Sequence[int]) -> tuple[T, ...]:
    """Fisher-Yates: value i (1-based) picks the item to swap into place n-1-i."""
    out = list(items)
    for i, value in enumerate(values):
        place = len(out) - 1 - i
        out[place], out[value - 1] = out[value - 1], out[place]
    return tuple(out)


class SecretUnknown(DiceError):
    """A derived roll was asked of a store that does not hold the game's dice secret."""


class Dice:
    """The dice source a decision draws from. Each draw returns its DiceRolled event,
    which the decision must include in the events it returns. (A plain class: making a
    dataclass's methods was a share of every call's start-up, issue 14.)"""

    def __init__(
        self,
        key: bytes | None,
        game_id: UUID,
        chain: bytes,
        next_index: int,
        entered: list[int] | None = None,
        entered_by: str | None = None,
    ) -> None:
        self.key = key
        self.game_id = game_id
        self.chain = chain
        self.next_index = next_index
        self.entered = [] if entered is None else entered
        self.entered_by = entered_by
        self.derived = 0
        """How many rolls were derived from the dice secret (not entered by hand)."""

    def _draw(self, purpose: str, sides: tuple[int, ...], by_hand: bool) -> DiceRolled:
        index = self.next_index
        if by_hand:
            if len(self.entered) < len(sides):
                raise DiceError(
                    f"{purpose}: this command rolls {len(sides)} more dice than were entered;"
                    " give them with --roll"
                )
            values = tuple(self.entered[: len(sides)])
            del self.entered[: len(sides)]
            for value, side in zip(values, sides, strict=True):
                if not 1 <= value <= side:
                    raise DiceError(f"{purpose}: an entered die must be 1..{side}, not {value}")
            entered_by = self.entered_by
        else:
            if self.key is None:
                raise SecretUnknown(
                    "this store does not hold the game's dice secret: only the host's store "
                    "can record commands that roll dice"
                )
            values = derive(self.key, self.game_id, index, self.chain, sides)
            entered_by = None
            self.derived += 1
        self.next_index += 1
        return DiceRolled(
            index=index, purpose=purpose, sides=sides, values=values, entered_by=entered_by
        )

    def roll(self, purpose: str, count: int = 1, sides: int = 6) -> DiceRolled:
        """Roll `count` dice of `sides` faces (physical dice in table mode)."""
        return self._draw(purpose, (sides,) * count, self.entered_by is not None and sides == 6)

    def pick(self, purpose: str, options: Sequence[T]) -> tuple[DiceRolled, T]:
        """Choose one of `options` at random (always derived)."""
        if not options:
            raise DiceError(f"{purpose}: nothing to choose from")
        rolled = self._draw(purpose, (len(options),), False)
        return rolled, options[rolled.values[0] - 1]

    def shuffle(self, purpose: str, items: Sequence[T]) -> tuple[DiceRolled, tuple[T, ...]]:
        """Shuffle `items` (always derived: cards are shuffled by the record)."""
        sides = tuple(range(len(items), 1, -1))
        rolled = self._draw(purpose, sides, False)
        return rolled, apply_shuffle(items, rolled.values)

    def finish(self) -> None:
        """Refuse entered dice the command did not use."""
        if self.entered:
            raise DiceError(f"{len(self.entered)} entered dice were not needed by this command")
