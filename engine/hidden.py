"""Hidden information: how an event's private part is committed to, and published later.

An event's private part (its `private()` fields) stays out of the chain; a digest of it
stands in. Entries made now use **leaf commitments** (scheme 2): the private part is cut
into leaves, one per private field, or one per item of a tuple field, in declaration
order. Leaf j has its own salt, ``HMAC-SHA256(entry salt, "leaf" || j)[:16]``, and digest
``SHA-256(leaf salt || canonical bytes of (field, item, value))``; the entry's digest is
``SHA-256("warscribe-leaves" || leaf digests)``. Publishing one leaf with its salt, and the
list of leaf digests, proves it against the digest the chain covers and says nothing of
the other leaves: one personality card of a dealt hand can be revealed, and only it.

Logs made before leaf commitments (scheme 1) carry ``SHA-256(salt || canonical bytes of
the private fields)``; they still verify, but their private parts are published whole.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from . import codec
from .errors import LogError
from .events import Disclosed, Event, Leaf, Opening, private_fields

WHOLE = 1
LEAVES = 2
_LEAVES_TAG = b"warscribe-leaves"
_PRIVATE: dict[type, tuple[str, ...]] = {}

LeafValue = tuple[str, int | None, Any]


def private_names(cls: type) -> tuple[str, ...]:
    names = _PRIVATE.get(cls)
    if names is None:
        names = _PRIVATE[cls] = private_fields(cls)
    return names


def split(event: Event) -> tuple[dict[str, Any], dict[str, Any]]:
    """(public fields, private fields) of an event; fields appended to its class later
    (`codec.added`, `events.private(added=True)`) are left out of either while they hold
    their default."""
    cls = type(event)
    hidden = private_names(cls)
    values = codec.field_values(event)
    public = codec.without_defaults(cls, {k: v for k, v in values.items() if k not in hidden})
    return public, codec.without_defaults(cls, {k: values[k] for k in hidden})


def leaves(private: dict[str, Any]) -> list[LeafValue]:
    """The leaves of a private part: (field, item index or None, value), in order."""
    out: list[LeafValue] = []
    for name, value in private.items():
        if type(value) is tuple:
            out += [(name, i, item) for i, item in enumerate(value)]
        else:
            out.append((name, None, value))
    return out


def leaf_salt(salt: bytes, index: int) -> bytes:
    import hashlib
    import hmac

    return hmac.new(salt, b"leaf" + index.to_bytes(4, "big"), hashlib.sha256).digest()[:16]


def leaf_digest(salt: bytes, leaf: LeafValue) -> bytes:
    import hashlib

    return hashlib.sha256(salt + codec.encode(leaf)).digest()


def leaf_digests(salt: bytes, private: dict[str, Any]) -> tuple[bytes, ...]:
    return tuple(leaf_digest(leaf_salt(salt, i), leaf) for i, leaf in enumerate(leaves(private)))


def root(digests: Sequence[bytes]) -> bytes:
    """The entry digest of a list of leaf digests."""
    import hashlib

    return hashlib.sha256(_LEAVES_TAG + b"".join(digests)).digest()


def commit(salt: bytes, private: dict[str, Any], scheme: int) -> bytes:
    """The digest the chain covers for a private part."""
    import hashlib

    if scheme == WHOLE:
        return hashlib.sha256(salt + codec.encode(private)).digest()
    return root(leaf_digests(salt, private))


def redacted(event: Event) -> Event:
    """The event with its private part removed (each private field set to None)."""
    return dataclasses.replace(event, **dict.fromkeys(private_names(type(event))))  # type: ignore[type-var]


def disclose(seq: int, event: Event, salt: bytes, wanted: Iterable[Leaf]) -> Disclosed:
    """Publish parts of the private part of entry `seq` (made with leaf commitments)."""
    private = split(event)[1]
    all_leaves = leaves(private)
    wanted = set(wanted)
    openings = tuple(
        Opening(index=i, field=name, item=item, value=value, salt=leaf_salt(salt, i))
        for i, (name, item, value) in enumerate(all_leaves)
        if (name, item) in wanted
    )
    return Disclosed(seq=seq, openings=openings, leaves=leaf_digests(salt, private))


def check_disclosure(disclosed: Disclosed, digest: bytes | None, seq: int) -> None:
    """Raise LogError unless every opening matches the commitment `digest` of its entry."""
    if digest is None:
        raise LogError(f"discloses entry #{disclosed.seq}, which hides nothing", seq)
    if root(disclosed.leaves) != digest:
        raise LogError(f"the leaves do not match the commitment of entry #{disclosed.seq}", seq)
    for opening in disclosed.openings:
        leaf = (opening.field, opening.item, opening.value)
        if not 0 <= opening.index < len(disclosed.leaves) or (
            leaf_digest(opening.salt, leaf) != disclosed.leaves[opening.index]
        ):
            raise LogError(
                f"the published {opening.field} does not match what entry "
                f"#{disclosed.seq} committed to",
                seq,
            )


def disclosures(
    sealed: Sequence[tuple[int, Event, bytes]], events: Sequence[Event]
) -> list[tuple[int, Disclosed]]:
    """For each public event, the Disclosed that publishes what it makes known of the
    latest sealed entry it concerns; (position after which it goes, Disclosed)."""
    out: list[tuple[int, Disclosed]] = []
    done: set[tuple[int, Leaf]] = set()
    for position, event in enumerate(events):
        for seq, earlier, salt in reversed(sealed):
            made_known = event.discloses(earlier)
            if not made_known:
                continue
            wanted = [leaf for leaf in made_known if (seq, leaf) not in done]
            if wanted:
                done.update((seq, leaf) for leaf in wanted)
                out.append((position, disclose(seq, earlier, salt, wanted)))
            break
    return out
