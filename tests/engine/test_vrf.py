"""ECVRF-EDWARDS25519-SHA512-TAI against RFC 9381's own test vectors (Appendix B.3,
examples 16 to 18: the keys and messages of RFC 8032's Ed25519 tests), and the
properties the dice rely on: one output per input, refused when anything is changed."""

from __future__ import annotations

import pytest

from warscribe.engine import vrf

VECTORS = [
    (
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "8657106690b5526245a92b003bb079ccd1a92130477671f6fc01ad16f26f723f"
        "26f8a57ccaed74ee1b190bed1f479d9727d2d0f9b005a6e456a35d4fb0daab12"
        "68a1b0db10836d9826a528ca76567805",
        "90cf1df3b703cce59e2a35b925d411164068269d7b2d29f3301c03dd757876ff"
        "66b71dda49d2de59d03450451af026798e8f81cd2e333de5cdf4f3e140fdd8ae",
    ),
    (
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "f3141cd382dc42909d19ec5110469e4feae18300e94f304590abdced48aed593"
        "3bf0864a62558b3ed7f2fea45c92a465301b3bbf5e3e54ddf2d935be3b67926d"
        "a3ef39226bbc355bdc9850112c8f4b02",
        "eb4440665d3891d668e7e0fcaf587f1b4bd7fbfe99d0eb2211ccec90496310eb"
        "5e33821bc613efb94db5e5b54c70a848a0bef4553a41befc57663b56373a5031",
    ),
    (
        "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        "af82",
        "9bc0f79119cc5604bf02d23b4caede71393cedfbb191434dd016d30177ccbf80"
        "96bb474e53895c362d8628ee9f9ea3c0e52c7a5c691b6c18c9979866568add7a"
        "2d41b00b05081ed0f58ee5e31b3a970e",
        "645427e5d00c62a23fb703732fa5d892940935942101e456ecca7bb217c61c45"
        "2118fec1219202a0edcf038bb6373241578be7217ba85a2687f7a0310b2df19f",
    ),
]


@pytest.mark.parametrize(("sk", "pk", "alpha", "pi", "beta"), VECTORS, ids=["16", "17", "18"])
def test_rfc_9381_vectors(sk: str, pk: str, alpha: str, pi: str, beta: str) -> None:
    secret, public, message = bytes.fromhex(sk), bytes.fromhex(pk), bytes.fromhex(alpha)
    assert vrf.public_key(secret) == public
    assert vrf.prove(secret, message).hex() == pi
    assert vrf.verify(public, message, bytes.fromhex(pi)).hex() == beta
    assert vrf.proof_to_hash(bytes.fromhex(pi)).hex() == beta


def test_a_proof_changed_anywhere_or_for_another_input_or_key_is_refused() -> None:
    secret, public = bytes.fromhex(VECTORS[2][0]), bytes.fromhex(VECTORS[2][1])
    message = b"roll 7"
    proof = vrf.prove(secret, message)
    for place in (0, 31, 32, 47, 48, 79):  # Gamma, c and s
        changed = bytearray(proof)
        changed[place] ^= 1
        with pytest.raises(vrf.VrfError):
            vrf.verify(public, message, bytes(changed))
    with pytest.raises(vrf.VrfError):
        vrf.verify(public, b"roll 8", proof)
    with pytest.raises(vrf.VrfError):
        vrf.verify(bytes.fromhex(VECTORS[0][1]), message, proof)
    with pytest.raises(vrf.VrfError):
        vrf.verify(public, message, proof[:79])
    assert vrf.verify(public, message, proof) == vrf.proof_to_hash(proof)


def test_s_at_or_above_the_group_order_is_refused() -> None:
    """s and s + q give the same point: a second proof of one output, refused (RFC 9381,
    5.4.4: s must be below q)."""
    secret, public = bytes.fromhex(VECTORS[0][0]), bytes.fromhex(VECTORS[0][1])
    proof = vrf.prove(secret, b"x")
    s = int.from_bytes(proof[48:], "little") + vrf.ORDER
    with pytest.raises(vrf.VrfError, match="not well formed"):
        vrf.verify(public, b"x", proof[:48] + s.to_bytes(32, "little"))
