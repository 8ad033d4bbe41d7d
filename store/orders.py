"""Signed orders files and player key files, and the referee's checks on receiving orders.

A key file is ``{"format": "warscribe-key", "kind": "public"|"private", "player", "key"}``
(raw Ed25519 bytes), armored as `PUBLIC KEY` / `PRIVATE KEY`. An orders file is
``{"format": "warscribe-signed-orders", "orders": signed bytes, "signature"}``, armored as
`ORDERS`; the signed bytes are `warscribe.engine.orders.Orders` encoded.

Receiving orders checks, in this order, and refuses with the reason (nothing recorded):
the game is in the store; the player has a recorded key and the signature is theirs
(else *forged*); the orders were not recorded already (else *replayed*); they were written
against this log (the entry they name has the chain hash they name) and nothing since
makes them stale (else *stale*: `record.stale_reason`); it is that player's turn (else
*out of turn*); their standing answers are ones the rule set knows. Then the rules decide
the commands in turn, with dice derived by the record and the standing answers due given:
recorded up to the first one refused, which is returned with the rest and the reason (see
`record.record_orders`).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from warscribe.engine import codec, rulesets
from warscribe.engine.anchor import fingerprint
from warscribe.engine.codec import frozen
from warscribe.engine.errors import WarscribeError
from warscribe.engine.events import OrdersReceived
from warscribe.engine.orders import Orders, OrdersError, SignedOrders, sign
from warscribe.engine.record import Entry, Head, Refused, stale_reason

from . import armor, mail
from .app import Warscribe

KEY_FORMAT = "warscribe-key"
ORDERS_FORMAT = "warscribe-signed-orders"
ORDERS_KIND = "ORDERS"
KEY_KINDS = {"public": "PUBLIC KEY", "private": "PRIVATE KEY"}
KEY_BYTES = 32
MAX_BYTES = 1024 * 1024
"""The largest orders or key file read (a bound on hostile input)."""


@frozen
class KeyFile:
    """A player's key as a file holds it."""

    kind: str
    player: str
    key: bytes


def write_key(key: KeyFile) -> str:
    data = codec.encode(
        {"format": KEY_FORMAT, "kind": key.kind, "player": key.player, "key": key.key}
    )
    return armor.armor(data, KEY_KINDS[key.kind])


def read_key(raw: bytes | str, kind: str) -> KeyFile:
    """A key file of `kind` ("public" or "private"): armored, pasted from a mail, or the
    mail message itself."""
    data = raw.encode("utf-8") if isinstance(raw, str) else raw
    text = _text(mail.unwrap(_bounded(data), KEY_KINDS[kind]))
    body = _decoded(armor.dearmor(text, KEY_KINDS[kind]), KEY_FORMAT)
    player, key = body.get("player"), body.get("key")
    if body.get("kind") != kind or type(key) is not bytes or len(key) != KEY_BYTES:
        raise OrdersError(f"not a {kind} key file")
    if type(player) is not str:
        raise OrdersError(f"the {kind} key file does not name its player")
    return KeyFile(kind=kind, player=player, key=key)


def _bounded(data: bytes) -> bytes:
    if len(data) > MAX_BYTES:
        raise OrdersError(f"the file is larger than {MAX_BYTES} bytes: not a warscribe file")
    return data


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _decoded(data: bytes, fmt: str) -> dict[str, Any]:
    try:
        body = codec.decode(data)
    except codec.CodecError as exc:
        raise OrdersError(f"unreadable file: {exc}") from None
    if type(body) is not dict or body.get("format") != fmt:
        raise OrdersError(f"not a {fmt} file")
    return body


def write_orders(orders: Orders, private: KeyFile) -> str:
    """The armored orders file, signed with the player's private key."""
    if private.player != orders.player:
        raise OrdersError(f"this is {private.player}'s key, not {orders.player}'s")
    signed = orders.encode()
    data = codec.encode(
        {"format": ORDERS_FORMAT, "orders": signed, "signature": sign(private.key, signed)}
    )
    shown = (("Written-against", fingerprint(orders.seq, orders.chain)),)
    return armor.armor(data, ORDERS_KIND, shown)


def read_orders(raw: bytes) -> SignedOrders:
    """Signed orders: binary, armored, pasted from a mail, or the mail message itself."""
    data = mail.unwrap(_bounded(raw), ORDERS_KIND)
    if armor.is_armored(data, ORDERS_KIND):
        data = armor.dearmor(_text(data), ORDERS_KIND)
    body = _decoded(data, ORDERS_FORMAT)
    signed, signature = body.get("orders"), body.get("signature")
    if type(signed) is not bytes or type(signature) is not bytes:
        raise OrdersError("the orders file lacks its orders or its signature")
    return SignedOrders.of(signed, signature)


def receive(app: Warscribe, received: SignedOrders) -> tuple[list[Entry], Refused | None]:
    """Check signed orders against the store's game and record them (or refuse them):
    the entries recorded, and the commands returned unrecorded with the reason."""
    orders = received.orders
    game_id = app.find(str(orders.game_id)).game_id
    head = app.head(game_id)
    _check_signature(head, received)
    _check_not_replayed(app, game_id, head, received)
    _check_position(app, game_id, head, orders)
    _check_turn(head, orders)
    check_answers(head.ruleset, orders)
    return app.record_orders(game_id, orders, received.signed, received.signature)


def _check_signature(head: Head, received: SignedOrders) -> None:
    player = received.orders.player
    key = dict(head.keys).get(player)
    if key is None:
        raise OrdersError(
            f"the game records no key for {player!r}: orders can be checked only for players "
            "whose public key was given to `new --key`"
        )
    if not received.signed_by(key):
        raise OrdersError(
            f"forged: the signature is not {player}'s (altered after signing, or signed "
            "with another key)"
        )


def _check_not_replayed(app: Warscribe, game_id: UUID, head: Head, received: SignedOrders) -> None:
    if received.orders.seq >= head.seq:
        return
    seq = recorded_at(app, game_id, received)
    if seq is not None:
        raise OrdersError(f"replayed: these orders were already recorded at #{seq}")


def recorded_at(app: Warscribe, game_id: UUID, received: SignedOrders) -> int | None:
    """The entry that recorded these signed orders (None: the game has not recorded them)."""
    for entry in app.entries(game_id, received.orders.seq + 1):
        event = entry.event
        if isinstance(event, OrdersReceived) and event.signature == received.signature:
            return entry.seq
    return None


def _check_position(app: Warscribe, game_id: UUID, head: Head, orders: Orders) -> None:
    if orders.seq > head.seq:
        raise OrdersError(
            f"written against entry #{orders.seq}, but this log ends at #{head.seq}: "
            "import the log the player had first"
        )
    named = next(app.entries(game_id, orders.seq, orders.seq), None)
    if named is None or named.chain != orders.chain:
        raise OrdersError(
            f"written against another log: entry #{orders.seq} here is not the one the "
            "orders name (another line of play, or an altered copy)"
        )
    if orders.seq < head.seq:
        start = app.head(game_id, version=orders.seq)
        reason = stale_reason(start, app.entries(game_id, orders.seq + 1), orders.player)
        if reason is not None:
            raise OrdersError(
                f"stale: written at #{orders.seq} ({orders.position}), but {reason} (the log "
                f"is at #{head.seq}); the player must write them again against the current log"
            )


def check_answers(ruleset_name: str, orders: Orders) -> None:
    """Each standing answer of the orders is one the rule set knows, or an error naming
    its line."""
    check = getattr(rulesets.get(ruleset_name), "check_answer", None)
    for line, args in orders.answers():
        if check is None:
            raise OrdersError(f"line {line + 1}: {ruleset_name} takes no standing answers")
        try:
            check(args)
        except WarscribeError as exc:
            raise type(exc)(
                f"line {line + 1} (`answer`) of the orders: {exc.message}", exc.rule
            ) from None


def _check_turn(head: Head, orders: Orders) -> None:
    ruleset = rulesets.get(head.ruleset)
    whose = ruleset.whose_turn(head.state)
    if whose != orders.player:
        position = ruleset.position(head.state)
        raise OrdersError(
            f"out of turn: it is {whose or 'nobody'}'s turn ({position}), not {orders.player}'s"
        )
