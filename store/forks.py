"""Forks a store found: the evidence that the host showed two histories (issue 30).

An import that finds a player's signed head naming an entry of this copy with another
chain hash (see `heads`) keeps the evidence here and is refused: both signed heads, the
other player's signed orders (which name the conflicting chain) and what this copy holds
at that entry with the host's checkpoint covering it. Anyone can check it: the orders'
signature against the player's key recorded in the game, and the checkpoint against the
host's; `audit` and `verify` show it. An aggregate of its own, beside the game's log (as
the checkpoints kept, `anchors`), defined only by the calls that keep or read one.
"""

from __future__ import annotations

from typing import Any

from warscribe.engine.anchor import Checkpoint
from warscribe.engine.codec import record
from warscribe.engine.errors import WarscribeError
from warscribe.engine.orders import SignedOrders

from .views import escaped, printable


class ForkError(WarscribeError):
    """A signed head names an entry of this copy with another chain hash: the host showed
    its player another history."""


@record("warscribe.ForkFound")
class ForkFound:
    """A player's signed orders (`orders`, `signature`) name entry `seq` with a chain hash
    other than `ours`, which this copy holds there, covered by the host's `checkpoint`
    (None in a game with no host key)."""

    seq: int
    orders: bytes
    signature: bytes
    ours: bytes
    checkpoint: Checkpoint | None

    def signed(self) -> SignedOrders:
        return SignedOrders.of(self.orders, self.signature)


def refusal(fork: ForkFound, where: str) -> ForkError:
    """The import's error naming the fork; `where`: what holds `ours` ("this copy")."""
    orders = fork.signed().orders
    player, position = escaped(orders.player), escaped(orders.position or "the set-up")
    covered = (
        f", which the host's checkpoint at #{fork.checkpoint.seq} covers"
        if fork.checkpoint is not None
        else ""
    )
    return ForkError(
        f"a fork: {player}'s signed orders (written at {position}) "
        f"name entry #{fork.seq} with chain hash {orders.chain.hex()[:16]}, but {where} "
        f"holds {fork.ours.hex()[:16]} there{covered}: the host showed {player} "
        "another history. The evidence is kept in this store (`audit` shows it); nothing "
        "of this copy was imported"
    )


def shown(fork: ForkFound) -> dict[str, Any]:
    """The evidence as JSON: both signed heads, whole, so anyone can check them."""
    orders = fork.signed().orders
    checkpoint = fork.checkpoint
    return {
        "player": orders.player,
        "seq": fork.seq,
        "position": orders.position,
        "their_chain": orders.chain.hex(),
        "orders": fork.orders.hex(),
        "signature": fork.signature.hex(),
        "our_chain": fork.ours.hex(),
        "checkpoint": None
        if checkpoint is None
        else {
            "seq": checkpoint.seq,
            "chain": checkpoint.chain.hex(),
            "signature": checkpoint.signature.hex(),
        },
    }


def told(fork: ForkFound) -> str:
    """The evidence as text, both signed heads whole."""
    data = printable(shown(fork))
    checkpoint = fork.checkpoint
    host = (
        f"\n    covered by the host's checkpoint over #{checkpoint.seq} with chain "
        f"{checkpoint.chain.hex()}, signature {checkpoint.signature.hex()}"
        if checkpoint is not None
        else "\n    (a game with no host key: no checkpoint covers it)"
    )
    return (
        f"FORK at #{fork.seq}: the host showed {data['player']} another history\n"
        f"    {data['player']}'s signed orders (written at {data['position']}) name "
        f"#{fork.seq} with chain {data['their_chain']}\n"
        f"    orders {data['orders']}\n"
        f"    signature {data['signature']}\n"
        f"    this copy holds #{fork.seq} with chain {data['our_chain']}{host}"
    )


def summary(found: tuple[ForkFound, ...]) -> str:
    """The error `audit` and `verify` end with when the store holds evidence of a fork."""
    named = ", ".join(f"{escaped(fork.signed().orders.player)}'s at #{fork.seq}" for fork in found)
    return (
        f"this store holds evidence of a fork: the host showed two histories (signed heads "
        f"{named}; see `audit`)"
    )
