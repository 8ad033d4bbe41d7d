"""Checkpoints: the host's signature over the last entry of every copy of a log it sends.

The chain proves that the entries of a copy follow from one another, not that they are the
host's: whoever edits an entry can rebuild every chain hash after it, and whoever cuts the
tail leaves a shorter chain that is just as whole. A checkpoint anchors a copy: the host's
Ed25519 signature (its public key is recorded in `GameCreated.host_key`) over
``(game id, seq, chain)`` of the copy's last entry. A copy whose chain was rebuilt, or whose
tail was cut, no longer ends at a signed entry, and is refused.

A fingerprint, ``#SEQ`` and the first 16 hex digits of that entry's chain hash, names a head
in a few characters that players can compare out of band (`verify --against`); a host's
key is named by its first 16 hex digits (`key_fingerprint`).
"""

from __future__ import annotations

from uuid import UUID

from . import codec
from .codec import record
from .errors import LogError

_TAG = "warscribe-checkpoint"
FINGERPRINT_DIGITS = 16
SHORTEST_FINGERPRINT = 8


@record("warscribe.Checkpoint")
class Checkpoint:
    """The host's signature over entry `seq` (chain hash `chain`) of a game's log."""

    seq: int
    chain: bytes
    signature: bytes


def _signed(game_id: UUID, seq: int, chain: bytes) -> bytes:
    return codec.encode((_TAG, game_id, seq, chain))


def signed_checkpoint(private_key: bytes, game_id: UUID, seq: int, chain: bytes) -> Checkpoint:
    from .orders import sign  # the signing code: `status` shows a fingerprint, never signs

    return Checkpoint(
        seq=seq, chain=chain, signature=sign(private_key, _signed(game_id, seq, chain))
    )


def check_checkpoint(
    checkpoint: Checkpoint | None, host_key: bytes, game_id: UUID, seq: int, chain: bytes
) -> None:
    """Raise LogError unless `checkpoint` is the host's signature over entry `seq` with
    chain hash `chain` (the last entry of the copy being checked)."""
    from .orders import signature_ok

    if checkpoint is None:
        raise LogError(
            "the copy carries no checkpoint: nothing shows the host sent it as it is "
            "(only the host's export signs the last entry)",
            seq,
        )
    if checkpoint.seq != seq:
        raise LogError(
            f"the host's checkpoint is for entry #{checkpoint.seq}, but the copy ends at "
            f"#{seq} (a cut or extended tail)",
            seq,
        )
    if checkpoint.chain != chain or not signature_ok(
        host_key, _signed(game_id, seq, chain), checkpoint.signature
    ):
        raise LogError(
            "the host's signature does not cover this entry: the copy was edited and its "
            "chain rebuilt, or the checkpoint is another game's",
            seq,
        )


def fingerprint(seq: int, chain: bytes) -> str:
    """`#SEQ` and 16 hex digits of the chain hash: a head to compare out of band."""
    return f"#{seq} {chain.hex()[:FINGERPRINT_DIGITS]}"


def key_fingerprint(public_key: bytes | None) -> str:
    """A host's public key in 16 hex digits (as `keys new` shows a player's), to name it
    in a message and compare it out of band; a game without one says so."""
    return f"key {public_key.hex()[:FINGERPRINT_DIGITS]}" if public_key else "no host key"


def parse_fingerprint(text: str) -> tuple[int, str]:
    """(seq, hex prefix) of a fingerprint `#SEQ HEX`; LogError if malformed."""
    words = text.replace("#", " ").split()
    if (
        len(words) != 2
        or not (words[0].isascii() and words[0].isdigit() and len(words[0]) <= 12)
        or not SHORTEST_FINGERPRINT <= len(words[1]) <= 64
        or any(c not in "0123456789abcdef" for c in words[1].lower())
    ):
        raise LogError(
            f"bad fingerprint {text!r}: write #SEQ followed by at least "
            f"{SHORTEST_FINGERPRINT} hex digits, e.g. '#233 a3f9c1d27be01f44'"
        )
    return int(words[0]), words[1].lower()
