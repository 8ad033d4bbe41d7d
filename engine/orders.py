"""Signed orders: a player's commands, the position they were written against, and an
Ed25519 signature over exactly those bytes.

The signed bytes are the canonical encoding of a map: ``{"format": "warscribe-orders",
"version", "game_id", "player", "position", "seq", "chain", "commands"}``, where `seq` and
`chain` are the last entry of the player's copy of the log when they wrote the orders and
`commands` is a tuple of ``(name, args)``: each command as the rule set reads it, the
values as typed. Orders written as command lines (`move Hothior-A1 --path 10,16`) also
sign ``"lines"``, each line as the player typed it, for the reader: the commands are what
is played and checked, the lines only say how they were written (orders from before lines
have none). Keys are raw 32-byte Ed25519 keys.

A command named `answer` is not played: it is a *standing answer*, `answer KIND=POLICY
[...]`, which the record gives for the player when the rules ask them a decision of that
kind and nothing else in the orders answers it (see `record.record_orders`). A player's
standing answers stand until their next orders are recorded.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from . import codec, typecheck
from .errors import WarscribeError
from .events import Command

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

FORMAT = "warscribe-orders"
ANSWER = "answer"
"""The name of a standing-answer line of orders."""

Args = tuple[tuple[str, Any], ...]
Answers = tuple[tuple[int, Args], ...]
"""Standing answers: (line of the orders, counted from 0; the line's arguments)."""
VERSION = 1


class OrdersError(WarscribeError):
    """An orders file is refused: forged, replayed, stale, out of turn, or unreadable."""


# cryptography is imported when a key is first used, not with the engine: most commands
# never sign or check a signature, and loading it costs a CLI call a good part of its
# start-up (issue 14).


def _private(private_key: bytes | None = None) -> Ed25519PrivateKey:
    """The private key of raw bytes, or a new one."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if private_key is None:
        return Ed25519PrivateKey.generate()
    return Ed25519PrivateKey.from_private_bytes(private_key)


def new_key_pair() -> tuple[bytes, bytes]:
    """(private key, public key), raw 32 bytes each."""
    private = _private()
    return private.private_bytes_raw(), private.public_key().public_bytes_raw()


def sign(private_key: bytes, data: bytes) -> bytes:
    return _private(private_key).sign(data)


def public_key_of(private_key: bytes) -> bytes:
    return _private(private_key).public_key().public_bytes_raw()


def signature_ok(public_key: bytes, data: bytes, signature: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Orders:
    """What a player orders, and where the game stood (in their copy) when they wrote it."""

    game_id: UUID
    player: str
    position: str | None
    seq: int
    chain: bytes
    commands: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    lines: tuple[str, ...] = ()
    """Each command as the player typed it (none in orders written before lines)."""

    def __post_init__(self) -> None:
        if self.lines and len(self.lines) != len(self.commands):
            raise OrdersError("the orders' lines and commands do not match one to one")

    def encode(self) -> bytes:
        shown = {"lines": self.lines} if self.lines else {}
        return codec.encode(
            {
                "format": FORMAT,
                "version": VERSION,
                "game_id": str(self.game_id),
                "player": self.player,
                "position": self.position,
                "seq": self.seq,
                "chain": self.chain,
                "commands": self.commands,
                **shown,
            }
        )

    @classmethod
    def decode(cls, data: bytes) -> Orders:
        """Orders from their signed bytes; OrdersError unless every field has its type."""
        try:
            body = codec.decode(data)
            if type(body) is not dict:
                raise OrdersError("not warscribe orders")
            if body.get("format") != FORMAT or body.get("version") != VERSION:
                raise OrdersError("not warscribe orders (or a version this one cannot read)")
            fields = {f.name: body[f.name] for f in dataclasses.fields(cls) if f.name != "lines"}
            fields["lines"] = body.get("lines", ())
            if type(fields["game_id"]) is not str:
                raise OrdersError("the orders' game id is not text")
            fields["game_id"] = UUID(fields["game_id"])
            typecheck.check_fields(cls, fields)
            return cls(**fields)
        except (codec.CodecError, KeyError, ValueError) as exc:
            raise OrdersError(f"the orders cannot be read: {exc}") from None

    def as_commands(self) -> list[Command]:
        """The commands to play, in order (standing answers are not played)."""
        return [command for _, command in self.steps()]

    def steps(self) -> list[tuple[int, Command]]:
        """(line, command) of each command to play, in order."""
        return [
            (line, Command(actor=self.player, name=name, args=args))
            for line, (name, args) in enumerate(self.commands)
            if name != ANSWER
        ]

    def line(self, index: int) -> str:
        """Line `index` (from 0) as the player wrote it (as `NAME key=value ...` in
        orders from before lines)."""
        if self.lines:
            return self.lines[index]
        name, args = self.commands[index]
        return " ".join([name, *(f"{key}={value}" for key, value in args)])

    def answers(self) -> Answers:
        """The standing answers, with their lines."""
        return tuple(
            (line, args) for line, (name, args) in enumerate(self.commands) if name == ANSWER
        )


@dataclass(frozen=True)
class SignedOrders:
    """Orders as received: what they say, the exact bytes signed, and the signature. The
    latest of a player's, as a log records them, is that player's signed head: the entry
    and chain hash they were written against, vouched for by the player's key."""

    orders: Orders
    signed: bytes
    signature: bytes

    @classmethod
    def of(cls, signed: bytes, signature: bytes) -> SignedOrders:
        """Signed orders from their bytes (OrdersError unless they read as orders)."""
        return cls(Orders.decode(signed), signed, signature)

    def signed_by(self, public_key: bytes) -> bool:
        return signature_ok(public_key, self.signed, self.signature)
