"""A player's signed orders carried the referee's commands (issue 10, hole 3): a `ruling`
imposing 50 victory points, in alice's own orders, was recorded, and `verify` and `audit`
passed. Who may give each command is one table (engine/authority.py), checked in one
place for the command line, signed orders, `import` and `audit`."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from tests.security.conftest import Table, new_game, rebuilt, rewrite
from warscribe.engine.authority import ANYONE, REFEREE, TURN, authority
from warscribe.engine.events import CommandIssued, Note
from warscribe.engine.orders import Orders
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right.events import PointsScored
from warscribe.store import logfile
from warscribe.store.orders import read_key, write_orders

BONUS = PointsScored(player="alice", deed="a ruling in her own orders", points=50)


def ruling_args(first: int) -> tuple[tuple[str, object], ...]:
    return (
        ("text", "alice rules in her own favour"),
        ("first", first),
        ("last", first),
        ("position", None),
        ("impose", (BONUS,)),
    )


def test_every_command_has_one_authority() -> None:
    """Authority table (docs/pbem.md): the referee alone rules; notes and free rolls are
    anyone's; the rules' commands belong to the player whose turn or decision it is."""
    dr = get("divine-right")
    assert authority(dr, "ruling") == REFEREE
    assert authority(dr, "note") == ANYONE and authority(dr, "roll") == ANYONE
    assert authority(dr, "move") == TURN and authority(get("eu-pop"), "take-loan") == TURN


def test_a_ruling_in_a_players_signed_orders_is_refused(table: Table) -> None:
    new_game(table, "seeded:authority")
    status = json.loads(table.run("status", "--json").stdout)
    player = status["whose_turn"]
    orders = Orders(
        game_id=__import__("uuid").UUID(status["game_id"]),
        player=player,
        position=status["position"],
        seq=status["seq"],
        chain=bytes.fromhex(status["chain"]),
        commands=(("ruling", ruling_args(status["seq"])),),
    )
    key = read_key(Path(f"{player}.key").read_text(), "private")
    Path("orders.txt").write_text(write_orders(orders, key))
    error = table.refused("import-orders", "orders.txt")
    assert "`ruling` may be given by the referee only" in error
    assert "warscribe authority" in error


def test_a_log_whose_ruling_a_player_gave_fails_import_and_audit(table: Table) -> None:
    """A forger rewrites a referee's ruling as alice's and rebuilds the chain: the record
    re-decides it, and the authority table refuses it."""
    new_game(table, "seeded:authority")
    table.run(
        "note", "--ruling", "--at", "#3", "a ruling of the referee's",
        "--impose", 'dr.PointsScored {"player": "alice", "deed": "ruled", "points": 5}',
    )  # fmt: skip
    table.run("export", "-o", "full.wlog")
    log = logfile.read(Path("full.wlog").read_bytes())
    seq = next(e.seq for e in log.entries if isinstance(e.event, CommandIssued))
    as_alice = rebuilt(
        list(log.entries),
        seq,
        lambda e: dataclasses.replace(e, event=dataclasses.replace(e.event, actor="alice")),
    )
    note = as_alice[seq]
    assert isinstance(note.event, Note)
    as_alice = rebuilt(
        as_alice,
        seq + 1,
        lambda e: dataclasses.replace(e, event=dataclasses.replace(e.event, author="alice")),
    )
    Path("forged.wlog").write_bytes(rewrite(log, as_alice))
    error = table.refused("import", "forged.wlog", store="victim")
    assert f"#{seq}:" in error and "referee only" in error
    audited = table.run("audit", "--file", "forged.wlog", "--json", store="victim", ok=False)
    assert audited.exit_code == 1
    found = json.loads(audited.stdout)["findings"]
    assert any("referee only" in (f["rules_give"] or "") for f in found)


def test_a_ruling_typed_as_a_player_is_refused(table: Table) -> None:
    new_game(table, "seeded:authority")
    alice = ("--as", "alice", "--host-act", "she asked by phone")  # she has a recorded key
    error = table.refused("note", "--ruling", *alice, "--at", "#3", "mine")
    assert "`ruling` may be given by the referee only, not by 'alice'" in error
    table.run("note", *alice, "--at", "#3", "a note is anyone's")
