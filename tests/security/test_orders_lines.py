"""Orders written as command lines (issue 13, item 2): what a signature binds, and what is
played. The orders sign both the commands as the rule set reads them and the lines as the
player typed them; the commands are what is played, verified and audited, the lines are
never read again. So a new CLI (an option renamed, another click) cannot change what
signed orders mean, and orders signed before lines existed keep their bytes."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from uuid import UUID

from tests.security.conftest import Table, new_game
from warscribe.engine import codec
from warscribe.engine.events import CommandIssued
from warscribe.engine.orders import FORMAT, VERSION, Orders, sign, signature_ok
from warscribe.engine.record import fold, record_orders, verify
from warscribe.store.orders import read_orders

from .trolls import KEYS, PLACE, TrollGame

GAME = TrollGame(UUID(int=21), "a")


def test_the_signed_commands_are_played_whatever_the_lines_say() -> None:
    """A line the CLI would read otherwise (here: not at all) changes nothing: the record
    plays, and `verify` checks, the signed commands (here alice's standing answer, which
    places the Trollish monarch)."""
    log = GAME.start()
    head = fold(log)
    orders = Orders(
        GAME.game_id, "alice", None, head.seq, head.chain, PLACE, ("no such command --x",)
    )
    signed = orders.encode()
    entries, refused = record_orders(head, orders, signed, sign(KEYS["alice"], signed), GAME.key)
    assert refused is None
    issued = [e.event for e in entries if isinstance(e.event, CommandIssued)]
    assert [c.actor for c in issued] == ["alice"], "the signed answer was given"
    verify([*log, *entries])


def test_a_line_altered_after_signing_is_a_forgery() -> None:
    """The lines are signed with the commands: a referee who rewrites what the player is
    shown to have typed breaks the signature."""
    head = fold(GAME.start())
    orders = Orders(GAME.game_id, "alice", None, head.seq, head.chain, PLACE, ("place",))
    signature = sign(KEYS["alice"], orders.encode())
    altered = dataclasses.replace(orders, lines=("place --at elsewhere",))
    public = dict(fold(GAME.start()).keys)["alice"]
    assert signature_ok(public, orders.encode(), signature)
    assert not signature_ok(public, altered.encode(), signature)


def test_orders_signed_before_lines_keep_their_bytes() -> None:
    """Orders without lines encode exactly as before lines existed (no `lines` key), and
    those bytes read back as the same commands: old signatures and old logs still verify."""
    commands = (("events-roll", ()), ("place", (("at", "Zorn"),)))
    before = codec.encode(
        {
            "format": FORMAT,
            "version": VERSION,
            "game_id": str(UUID(int=1)),
            "player": "alice",
            "position": None,
            "seq": 3,
            "chain": bytes(32),
            "commands": commands,
        }
    )
    read = Orders.decode(before)
    assert read.encode() == before and read.lines == ()
    assert read.line(1) == "place at=Zorn", "shown as it was written then"


def test_a_line_that_does_not_read_is_refused_before_signing(table: Table) -> None:
    """Through the command line: a typo is refused naming its line, exit 2, nothing written;
    what is signed reads back as the lines typed and the commands they give."""
    new_game(table, "seeded:lines")
    player = json.loads(table.run("status", "--json").stdout)["whose_turn"]
    table.run("export", "--for", player, "-o", "copy.wlog")
    table.run("import", "copy.wlog", store=player)
    signing = ("orders", "--as", player, "--key", f"{player}.key", "-o", "orders.txt")
    typo = table.run(*signing, "events roll", "mvoe x", store=player, ok=False)
    assert typo.exit_code == 2 and "line 2 (`mvoe x`)" in typo.stderr
    table.run(*signing, "events roll", store=player)
    orders = read_orders(Path("orders.txt").read_bytes()).orders
    assert orders.lines == ("events roll",) and orders.commands == (("events-roll", ()),)
