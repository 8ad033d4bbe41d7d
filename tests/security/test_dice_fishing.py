"""Dice fishing through refused orders (issue 10, hole 1). A roll must not depend on
anything a player may vary between tries, a batch of orders is recorded up to the first
command refused (so every roll shown is in the log), and no refusal shows a roll that
nobody recorded."""

from __future__ import annotations

import dataclasses
import json
from uuid import UUID

import pytest

from tests.security.conftest import Table, new_game
from warscribe.engine.dice import seeded_key
from warscribe.engine.errors import IllegalCommand, RuleError
from warscribe.engine.events import Command, DiceRolled, OrdersReceived
from warscribe.engine.orders import Orders, public_key_of, sign
from warscribe.engine.record import Head, fold, open_game, record_command, record_orders
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right import domains
from warscribe.engine.rulesets.divine_right.evolving import Decision

GAME = UUID(int=10)
KEYS = {"alice": bytes(range(32)), "bob": bytes(range(32, 64))}
SEED = "fishing"

VARIANTS = (
    ("events-roll",),
    ("events-roll", "end-phase"),
    ("events-roll", "end-phase", "diplomacy-draw"),
    ("events-roll", "diplomacy-pass"),
    ("events-roll", "note"),
)


def start() -> Head:
    spec = GameSpec("t", (PlayerSpec("alice", "Hothior"), PlayerSpec("bob", "Mivior")))
    keys = tuple((n, public_key_of(k)) for n, k in KEYS.items())
    return fold(
        open_game(get("divine-right"), spec, GAME, f"seeded:{SEED}", seeded_key(SEED), keys)
    )


def send(head: Head, *commands: str) -> tuple[list[DiceRolled], int, object]:
    """The player on turn's signed batch, received by the referee at `head`: the rolls
    recorded, how many commands were recorded, and what came back."""
    player = get("divine-right").whose_turn(head.state)
    assert player is not None
    orders = Orders(GAME, player, None, head.seq, head.chain, tuple((c, ()) for c in commands))
    signed = orders.encode()
    entries, refused = record_orders(
        head, orders, signed, sign(KEYS[player], signed), seeded_key(SEED)
    )
    received = entries[0].event
    assert isinstance(received, OrdersReceived) and received.accepted is not None
    rolls = [e.event for e in entries if isinstance(e.event, DiceRolled)]
    return rolls, received.accepted, refused


def test_variants_of_a_batch_from_the_same_head_roll_the_same_dice() -> None:
    """Hole 1's attack: resending slightly different batches drew a fresh Random Events
    roll each time. Now the first roll of every variant is the same roll."""
    head = start()
    first = {send(head, *variant)[0][0] for variant in VARIANTS}
    assert len(first) == 1, first


def test_a_batch_is_recorded_up_to_the_first_refused_command_and_the_rest_returned() -> None:
    head = start()
    rolls, accepted, refused = send(head, "events-roll", "diplomacy-draw", "end-phase")
    assert accepted == 1 and rolls, "the roll made is recorded"
    assert refused is not None
    assert [c.name for c in refused.commands] == ["diplomacy-draw", "end-phase"]  # type: ignore[attr-defined]
    assert isinstance(refused.reason, RuleError)  # type: ignore[attr-defined]


def test_a_batch_refused_at_its_first_command_records_nothing() -> None:
    head = start()
    player = get("divine-right").whose_turn(head.state)
    assert player is not None
    orders = Orders(GAME, player, None, head.seq, head.chain, (("diplomacy-draw", ()),))
    signed = orders.encode()
    with pytest.raises(RuleError, match=r"command 1 \(`diplomacy-draw`\)"):
        record_orders(head, orders, signed, sign(KEYS[player], signed), seeded_key(SEED))


def test_a_refusal_after_a_roll_withholds_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision the rules refuse after rolling must not show the roll in its reason: the
    roll at this head is fixed, so a player would learn what the next roll is."""

    def rolls_then_refuses(d: Decision) -> None:
        rolled = d.dice.roll("a roll the rules then refuse", 2)
        raise IllegalCommand(f"refused, having rolled {rolled.values}", "Random Events Phase")

    rolling = dataclasses.replace(domains.SPECS["events-roll"], decide=rolls_then_refuses)
    monkeypatch.setitem(domains.SPECS, "events-roll", rolling)
    head = start()
    player = get("divine-right").whose_turn(head.state)
    assert player is not None
    with pytest.raises(IllegalCommand) as refused:
        record_command(head, Command(player, "events-roll"), seeded_key(SEED))
    assert "having rolled" not in str(refused.value)
    assert "withheld" in str(refused.value) and refused.value.rule == "Random Events Phase"


def test_through_the_command_line_the_roll_shown_is_the_roll_recorded(table: Table) -> None:
    """The player on turn mails `events roll` + `diplomacy draw` + `end-phase`: the roll is
    in the referee's log; what comes back names the command refused and those returned.
    (Signed `--unchecked`: the dry run, looking past the roll, refuses line 2 whatever it
    gives.)"""
    new_game(table, "host")
    player = json.loads(table.run("status", "--json").stdout)["whose_turn"]
    table.run("export", "--for", player, "-o", "copy.wlog")
    table.run("import", "copy.wlog", store=player)
    table.run(
        "orders", "--as", player, "--key", f"{player}.key", "-o", "orders.txt", "--unchecked",
        "events roll", "diplomacy draw", "end-phase", store=player,
    )  # fmt: skip
    result = table.run("import-orders", "orders.txt", ok=False)
    assert result.exit_code == 1 and "recorded 1 of 3 commands" in result.stderr
    assert "DiceRolled" in result.stdout, "the roll shown is a recorded entry"
    again = table.run("import-orders", "orders.txt", ok=False)
    assert again.exit_code == 1 and "replayed" in again.stderr
    assert table.run("verify").exit_code == 0
