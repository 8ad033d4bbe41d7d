"""A two-player Divine Right game whose set-up asks a decision: alice plays the Trolls,
so she chooses where the Trollish monarch enters play (Special Rules for Select Kingdoms ›
Trolls) before play begins; signed orders written and recorded at the record's level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from warscribe.engine.dice import seeded_key
from warscribe.engine.orders import Orders, public_key_of, sign
from warscribe.engine.record import Entry, fold, open_game, record_orders
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets import get

KEYS = {"alice": bytes(range(32)), "bob": bytes(range(32, 64))}
PLACE = (("answer", (("troll-monarch", "first"),)),)
"""Alice's standing answer: the first space offered."""

Commands = tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]


@dataclass(frozen=True)
class TrollGame:
    game_id: UUID
    seed: str

    @property
    def key(self) -> bytes:
        return seeded_key(self.seed)

    def start(self) -> list[Entry]:
        spec = GameSpec("t", (PlayerSpec("alice", "Trolls"), PlayerSpec("bob", "Mivior")))
        keys = tuple((n, public_key_of(k)) for n, k in KEYS.items())
        ruleset = get("divine-right")
        return open_game(ruleset, spec, self.game_id, f"seeded:{self.seed}", self.key, keys)

    def written(self, log: list[Entry], player: str, commands: Commands) -> Orders:
        """`player`'s orders, written against the end of `log`."""
        head = fold(log)
        return Orders(self.game_id, player, None, head.seq, head.chain, commands)

    def received(self, log: list[Entry], orders: Orders) -> list[Entry]:
        """The orders recorded at the end of `log` (the referee's checks aside)."""
        signed = orders.encode()
        key = KEYS[orders.player]
        entries, _ = record_orders(fold(log), orders, signed, sign(key, signed), self.key)
        return entries
