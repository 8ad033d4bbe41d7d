"""A verifiable random function: ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381, suite 0x03).

Whoever holds the secret key computes, for any input `alpha`, a proof `pi` and from it an
output `beta`; anyone holding the public key checks that `beta` is *the* output for
`alpha`. There is one: with a key that passes `key_problem`, no second proof of another
output exists (the RFC's "full uniqueness"), so the host, who holds the key, cannot
choose a roll, only compute it. The group arithmetic is libsodium's (PyNaCl's bindings of
its Ed25519 point and scalar operations), the scalar algebra modulo the group order is
Python's; the steps are the RFC's, checked against its test vectors (Appendix B.3).
"""

from __future__ import annotations

import hashlib
from typing import Any

SUITE = b"\x03"
PROOF_SIZE = 80
"""Gamma (32 bytes), c (16), s (32)."""
KEY_SIZE = 32
ORDER = 2**252 + 27742317777372353535851937790883648493
"""q, the order of the prime-order subgroup of edwards25519."""
_FIELD = 2**255 - 19
_IDENTITY = (1).to_bytes(32, "little")
_C_SIZE = 16


class VrfError(ValueError):
    """A proof or key that is not one (refused, never an output)."""


def _nacl() -> Any:
    """libsodium's bindings, imported when a roll is made or checked (not by every call)."""
    import nacl.bindings

    return nacl.bindings


def _secret_scalar(secret: bytes) -> tuple[int, bytes]:
    """(x, the second half of SHA-512(secret)): RFC 8032's secret scalar and nonce key."""
    digest = hashlib.sha512(secret).digest()
    head = bytearray(digest[:32])
    head[0] &= 248
    head[31] &= 127
    head[31] |= 64
    return int.from_bytes(head, "little"), digest[32:]


def public_key(secret: bytes) -> bytes:
    """The public key (Y = x*B, encoded) of a 32-byte secret key."""
    if len(secret) != KEY_SIZE:
        raise VrfError("a VRF secret key is 32 bytes")
    x, _ = _secret_scalar(secret)
    point: bytes = _nacl().crypto_scalarmult_ed25519_base_noclamp(_scalar(x))
    return point


def _scalar(value: int) -> bytes:
    return value.to_bytes(32, "little")


def _decodes(encoded: bytes) -> bool:
    """RFC 8032's decoding rules libsodium does not apply: y below the field prime, and
    no sign bit on the two points whose x is 0."""
    y = int.from_bytes(encoded, "little") & ((1 << 255) - 1)
    if y >= _FIELD:
        return False
    return not (encoded[31] >> 7 and y in (1, _FIELD - 1))


def _times_cofactor(point: bytes) -> bytes | None:
    """8 * point for any point of the curve (three doublings), or None if the 32 bytes
    decode to no point. libsodium's scalar multiplication takes only points of the prime
    subgroup; its addition takes every point of the curve."""
    if not _decodes(point):
        return None
    nacl = _nacl()
    try:
        for _ in range(3):
            point = nacl.crypto_core_ed25519_add(point, point)
    except Exception:  # libsodium: not a point of the curve
        return None
    return point


def _encode_to_curve(public: bytes, alpha: bytes) -> bytes:
    """ECVRF_encode_to_curve_try_and_increment (RFC 9381, 5.4.1.1), salt = the public key."""
    for counter in range(256):
        digest = hashlib.sha512(
            SUITE + b"\x01" + public + alpha + bytes((counter,)) + b"\x00"
        ).digest()
        point = _times_cofactor(digest[:32])
        if point is not None and point != _IDENTITY:
            return point
    raise VrfError("no point found for this input")  # probability 2**-256


def _challenge(*points: bytes) -> int:
    """ECVRF_challenge_generation (RFC 9381, 5.4.3)."""
    digest = hashlib.sha512(SUITE + b"\x02" + b"".join(points) + b"\x00").digest()
    return int.from_bytes(digest[:_C_SIZE], "little")


def prove(secret: bytes, alpha: bytes) -> bytes:
    """The proof pi of `alpha` under `secret` (RFC 9381, 5.1): deterministic."""
    nacl = _nacl()
    x, nonce_key = _secret_scalar(secret)
    public = public_key(secret)
    h = _encode_to_curve(public, alpha)
    gamma = nacl.crypto_scalarmult_ed25519_noclamp(_scalar(x), h)
    k = int.from_bytes(hashlib.sha512(nonce_key + h).digest(), "little") % ORDER
    c = _challenge(
        public,
        h,
        gamma,
        nacl.crypto_scalarmult_ed25519_base_noclamp(_scalar(k)),
        nacl.crypto_scalarmult_ed25519_noclamp(_scalar(k), h),
    )
    s = (k + c * x) % ORDER
    proof: bytes = gamma + c.to_bytes(_C_SIZE, "little") + _scalar(s)
    return proof


def proof_to_hash(proof: bytes) -> bytes:
    """beta of a proof (RFC 9381, 5.2); check the proof with `verify` before trusting it."""
    gamma = _times_cofactor(proof[:32])
    if len(proof) != PROOF_SIZE or gamma is None:
        raise VrfError("not an ECVRF proof")
    return hashlib.sha512(SUITE + b"\x03" + gamma + b"\x00").digest()


def key_problem(public: bytes) -> str | None:
    """What makes `public` unfit to prove rolls against, or None (RFC 9381, 5.4.5, made
    stricter: the key must be a point of the prime-order subgroup, which rules out every
    key with a small-order part, not only the small-order points)."""
    if type(public) is not bytes or len(public) != KEY_SIZE:
        return "it is not 32 bytes"
    if not _decodes(public) or _times_cofactor(public) is None:
        return "it is not a point of edwards25519"
    if not _nacl().crypto_core_ed25519_is_valid_point(public):
        return "it is not a point of the prime-order subgroup (or it has small order)"
    return None


def verify(public: bytes, alpha: bytes, proof: bytes) -> bytes:
    """beta, once `proof` is checked as the proof of `alpha` under `public` (RFC 9381,
    5.3, with the key validated); VrfError otherwise."""
    problem = key_problem(public)
    if problem is not None:
        raise VrfError(f"the VRF key is unfit: {problem}")
    if type(proof) is not bytes or len(proof) != PROOF_SIZE:
        raise VrfError("an ECVRF proof is 80 bytes")
    gamma, c, s = proof[:32], int.from_bytes(proof[32:48], "little"), proof[48:]
    if int.from_bytes(s, "little") >= ORDER or not _decodes(gamma):
        raise VrfError("the proof is not well formed")
    nacl = _nacl()
    h = _encode_to_curve(public, alpha)
    try:
        u = nacl.crypto_core_ed25519_sub(
            nacl.crypto_scalarmult_ed25519_base_noclamp(s),
            nacl.crypto_scalarmult_ed25519_noclamp(_scalar(c), public),
        )
        v = nacl.crypto_core_ed25519_sub(
            nacl.crypto_scalarmult_ed25519_noclamp(s, h),
            nacl.crypto_scalarmult_ed25519_noclamp(_scalar(c), gamma),
        )
    except Exception:  # libsodium refuses Gamma off the prime subgroup, or a zero result
        raise VrfError("the proof does not check") from None
    if _challenge(public, h, gamma, u, v) != c:
        raise VrfError("the proof does not check")
    return proof_to_hash(proof)
