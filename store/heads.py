"""Signed heads: every player's latest signed orders, mailed beside a copy of the log so
that a player's import checks them against their own chain (issue 30).

Each signed orders batch names the entry, and its chain hash, its player wrote it against,
under the player's signature. A host who keeps two histories and mails each player from
another one must show a player, sooner or later, what the others signed: a signed head
naming an entry of this copy with another chain hash proves that its player was shown
another history, and no host can make one up (`Warscribe.import_log` checks them).

A heads block is ``{"format": "warscribe-heads", "version": 1, "heads": ((signed bytes,
signature), ...)}``, the signed bytes and the signature as the `OrdersReceived` entries
record them, armored as `HEADS` with a checksum, beside the `LOG` block of a mail or of
`export --armor` (a separate block: a reader that knows none still reads the log). A copy
without one imports as before, with nothing checked. Reading checks every key and type,
at most `MAX_HEADS` heads; whatever the bytes, a LogError or an OrdersError, never a crash.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from warscribe.engine import codec
from warscribe.engine.errors import LogError, WarscribeError
from warscribe.engine.events import OrdersReceived
from warscribe.engine.orders import SignedOrders

from . import armor as armoring

if TYPE_CHECKING:
    from .reading import Reading

KIND = "HEADS"
FORMAT = "warscribe-heads"
VERSION = 1
MAX_HEADS = 256
"""The most heads a block holds (a bound on hostile input: one per player)."""
_KEYS = frozenset(("format", "version", "heads"))

Heads = tuple[SignedOrders, ...]


def latest(store: Reading, game_id: UUID, last: int | None = None) -> Heads:
    """The latest signed orders of each player with a recorded key that the game's log
    records up to entry `last` (None: its head) and that name this game (orders recorded
    before a fork name the parent game, and are left out), read back a page at a time
    until each is found."""
    wanted = {player for player, _ in store.head(game_id, last).keys}
    found: dict[str, SignedOrders] = {}
    entries = store.entries_backwards(game_id, last) if wanted else iter(())
    for entry in entries:
        event = entry.event
        if isinstance(event, OrdersReceived) and event.player in wanted:
            wanted.discard(event.player)
            head = SignedOrders.of(event.orders, event.signature)
            if head.orders.game_id == game_id:
                found[event.player] = head
            if not wanted:
                break
    return tuple(found[player] for player in sorted(found))


def write(heads: Heads) -> bytes:
    pairs = tuple((head.signed, head.signature) for head in heads)
    return codec.encode({"format": FORMAT, "version": VERSION, "heads": pairs})


def armor(heads: Heads) -> str:
    """The armored heads block ("" when there are none)."""
    return armoring.armor(write(heads), KIND) if heads else ""


def read(data: bytes) -> Heads:
    """The heads of a block's bytes; LogError (or OrdersError) naming what is wrong."""
    try:
        body: Any = codec.decode(data)
    except WarscribeError:
        raise
    except Exception as exc:
        raise LogError(f"the signed heads cannot be read: {type(exc).__name__}: {exc}") from None
    if type(body) is not dict or set(body) != _KEYS or body["format"] != FORMAT:
        raise LogError("the signed heads are not a warscribe heads block")
    if body["version"] != VERSION:
        raise LogError(f"signed heads of version {body['version']!r} are not supported")
    pairs = body["heads"]
    if type(pairs) is not tuple or len(pairs) > MAX_HEADS:
        raise LogError(f"the signed heads must be a list of at most {MAX_HEADS}")
    heads = []
    for number, pair in enumerate(pairs, start=1):
        if type(pair) is not tuple or len(pair) != 2 or not all(type(p) is bytes for p in pair):
            raise LogError(f"signed head {number} is not (signed orders, signature)")
        heads.append(SignedOrders.of(*pair))
    return tuple(heads)


def found_in(texts: Iterable[str]) -> Heads:
    """The heads of the armored block in `texts` (the same block in several, as in the
    plain and the HTML alternative of a mail, is one; none without one); LogError when
    they hold two different blocks, or a damaged one."""
    blocks = {block for text in texts for block in armoring.blocks(text, KIND)}
    if len(blocks) > 1:
        raise LogError(f"the copy carries {len(blocks)} different signed heads blocks")
    return read(blocks.pop()) if blocks else ()
