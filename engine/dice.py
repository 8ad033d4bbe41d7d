"""Dice you can check: every random number is derived from the game's dice secret.

A roll's numbers are 32-bit words read from a stream of digests, each mapped into 1..sides
by rejection sampling (words at or above the largest multiple of `sides` are skipped, so
every face is exactly equally likely). Shuffles are Fisher-Yates on derived numbers; a
random pick is one derived number. Each roll is bound to an `opener`, a 32-byte value the
decision making it fixes (see `record.opener`), and the stream depends on the game's record
version (`GameCreated.record_version`):

* **1** (logs made before issue 30, and games of a public seed): the stream of roll k is
  ``HMAC-SHA256(key, game_id || k || opener || block)``, `opener` the chain hash of the
  entry the decision is bound to (GameCreated for set-up; a command's own CommandIssued;
  for signed orders, the head they were received at), k the game's roll number.
* **2**: the roll is the ECVRF output (`vrf`, RFC 9381) of the host's dice key over
  ``"warscribe roll" || game_id || opener || place``, its proof recorded with it, so
  anyone holding the public key checks it. `opener` is, for a command of signed orders,
  SHA-256 of the orders' signature (`batch_opener`): nothing but what the player signed;
  `place` counts the rolls since the opener was fixed (0, 1, 2… through a batch), never
  the game's roll number, which the host moves with free rolls of his own. The stream is
  ``SHA-512("warscribe dice" || beta || block)``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar
from uuid import UUID

from .errors import DiceError
from .events import DiceRolled, DiceSpec

if TYPE_CHECKING:
    import random

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
    """The values of roll `index` of record version 1, one in 1..s for each s in `sides`."""
    import hmac

    prefix = game_id.bytes + index.to_bytes(8, "big") + chain
    return _sample(lambda block: hmac.digest(key, prefix + block, "sha256"), sides)


def roll_input(game_id: UUID, opener: bytes, place: int) -> bytes:
    """The ECVRF input of a roll of record version 2: fixed by the decision, not the log."""
    return b"warscribe roll" + game_id.bytes + opener + place.to_bytes(4, "big")


def batch_opener(signature: bytes) -> bytes:
    """The opener of the rolls of a batch of signed orders (record version 2)."""
    import hashlib

    return hashlib.sha256(b"warscribe orders" + signature).digest()


def output_values(beta: bytes, sides: Sequence[int]) -> tuple[int, ...]:
    """The values an ECVRF output gives a roll of `sides` (record version 2)."""
    import hashlib

    return _sample(lambda block: hashlib.sha512(b"warscribe dice" + beta + block).digest(), sides)


def proved(key: bytes, alpha: bytes, sides: Sequence[int]) -> tuple[tuple[int, ...], bytes]:
    """(values, proof) of the roll of input `alpha` under the dice key (record version 2)."""
    from . import vrf

    proof = vrf.prove(key, alpha)
    return output_values(vrf.proof_to_hash(proof), sides), proof


def _sample(digest: Callable[[bytes], bytes], sides: Sequence[int]) -> tuple[int, ...]:
    """One value in 1..s for each s in `sides`, from the words of `digest(block)` for
    block 0, 1, 2… (4-byte big-endian), by rejection sampling."""
    values: list[int] = []
    block = 0
    words: list[int] = []
    for side in sides:
        if side < 1:
            raise DiceError(f"a die needs at least one side, not {side}")
        limit = _WORD - _WORD % side
        while True:
            if not words:
                data = digest(block.to_bytes(4, "big"))
                words = [int.from_bytes(data[i : i + 4], "big") for i in range(0, len(data), 4)]
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
        version: int = 1,
        opened_at: int = 0,
    ) -> None:
        self.key = key
        self.game_id = game_id
        self.chain = chain
        self.next_index = next_index
        self.entered = [] if entered is None else entered
        self.entered_by = entered_by
        self.version = version
        self.opened_at = opened_at
        """The roll number the opener `chain` was fixed at: a roll's place counts from it."""
        self.derived = 0
        """How many rolls were derived from the dice secret (not entered by hand)."""

    def _draw(self, purpose: str, sides: tuple[int, ...], by_hand: bool) -> DiceRolled:
        index = self.next_index
        if by_hand:
            values, proof, entered_by = self._entered(purpose, sides), None, self.entered_by
        else:
            (values, proof), entered_by = self._derived(index, sides), None
        self.next_index += 1
        return DiceRolled(
            index=index,
            purpose=purpose,
            sides=sides,
            values=values,
            entered_by=entered_by,
            proof=proof,
        )

    def _entered(self, purpose: str, sides: tuple[int, ...]) -> tuple[int, ...]:
        """The next dice entered by hand (`--roll`), checked against their sides."""
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
        return values

    def _derived(self, index: int, sides: tuple[int, ...]) -> tuple[tuple[int, ...], bytes | None]:
        """The dice the secret gives at `index`, with their proof (record version 2)."""
        if self.key is None:
            raise SecretUnknown(
                "this store does not hold the game's dice secret: only the host's store "
                "can record commands that roll dice"
            )
        self.derived += 1
        if self.version >= 2:
            alpha = roll_input(self.game_id, self.chain, index - self.opened_at)
            return proved(self.key, alpha, sides)
        return derive(self.key, self.game_id, index, self.chain, sides), None

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


class Script:
    """The values a branch of a dry run gives the dice its copy cannot roll (host dice in a
    player's copy): draw k takes `given[k]`; a draw past them takes its first outcome (every
    die 1), or values from `rng` when the branches are sampled. `drawn` keeps each draw's
    sides, so the next branch (`following`) is found depth first."""

    def __init__(
        self, given: Sequence[tuple[int, ...]] = (), rng: random.Random | None = None
    ) -> None:
        self.given = list(given)
        self.rng = rng
        self.drawn: list[tuple[int, ...]] = []

    def values(self, sides: tuple[int, ...]) -> tuple[int, ...]:
        place = len(self.drawn)
        self.drawn.append(sides)
        if place < len(self.given):
            return self.given[place]
        if self.rng is None:
            values = (1,) * len(sides)
        else:
            values = tuple(self.rng.randint(1, side) for side in sides)
        self.given.append(values)
        return values

    def following(self) -> Script | None:
        """The script of the next branch, depth first: the last draw with an outcome after
        its own (the dice read as the digits of a number, the last die fastest) takes it,
        and the draws after it are left to the run; None after the last branch."""
        for place in reversed(range(len(self.drawn))):
            values = list(self.given[place])
            for die in reversed(range(len(values))):
                if values[die] < self.drawn[place][die]:
                    values[die] += 1
                    return Script([*self.given[:place], tuple(values)])
                values[die] = 1
        return None


class Chance(Dice):
    """Dice of a dry run in a copy that cannot roll them: each draw's values come from the
    branch's `script` (nothing derived, no proof), so the run goes on past the roll under
    the outcome the branch gives it."""

    def __init__(self, script: Script, game_id: UUID, next_index: int) -> None:
        super().__init__(None, game_id, bytes(32), next_index)
        self.script = script

    def _draw(self, purpose: str, sides: tuple[int, ...], by_hand: bool) -> DiceRolled:
        index = self.next_index
        self.next_index += 1
        return DiceRolled(
            index=index, purpose=purpose, sides=sides, values=self.script.values(sides)
        )
