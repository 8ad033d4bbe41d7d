"""Two histories were caught only by hand (issue 30): a host who keeps two copies of his
store, a ruling in one only, and mails alice from one and bob from the other, was caught
only if the players compared fingerprints by another channel (`verify --against`).

Every mail the referee sends (and every `export --armor`) now carries every player's
latest signed head beside the log: their latest signed orders as recorded, which name
the entry and chain hash they were written against. A player's `import` checks each
against their own chain, so the first mail that crosses the two histories is refused
naming the fork, and the player's store keeps the evidence for `audit` and `verify`."""

from __future__ import annotations

import dataclasses
import json
import mailbox
import shutil
import sqlite3
from pathlib import Path
from uuid import UUID

import pytest

from tests.cli.mailing import PLAYERS, addresses, drop, orders_text, whose_turn, written
from tests.security.conftest import Table, new_game
from warscribe.engine.orders import Orders, SignedOrders, new_key_pair, sign
from warscribe.store import armor, heads, logfile
from warscribe.store.orders import read_key


def copied_store(table: Table, source: str, copy: str) -> None:
    """The host copies his store (and its secrets file): two stores of one game."""
    with sqlite3.connect(f"{source}.db") as old, sqlite3.connect(f"{copy}.db") as new:
        old.backup(new)
    shutil.copy(f"{source}.db.secrets", f"{copy}.db.secrets")
    table.run("games", store=copy)


def mails_from(table: Table, store: str) -> dict[str, bytes]:
    """The host runs `referee` on `store` (its own inbox and outbox): each reply's bytes by
    the player it is for. The host chooses which of them to send."""
    drop(f"{store}-in")
    table.run("referee", f"{store}-in", "--outbox", f"{store}-out", store=store)
    box = mailbox.Maildir(f"{store}-out", create=True)
    replies = {str(box[k]["To"]).partition("@")[0]: box.get_bytes(k) for k in box.iterkeys()}
    box.clear()
    return replies


def delivered(table: Table, player: str, mail: bytes, ok: bool = True) -> str:
    """The mail arrives in the player's mbox; the player imports the whole mbox."""
    box = mailbox.mbox(f"{player}.mbox")
    box.add(mail)
    box.close()
    return str(table.run("import", f"{player}.mbox", store=player, ok=ok).output)


@pytest.fixture
def game(table: Table) -> Table:
    """A game of three with host dice, keys and addresses; each player has their copy and
    asked for a mail on every run (`--notify every`): the attack shows in the first one."""
    new_game(table, "host")
    addresses(table)
    for player in PLAYERS:
        table.run("address", player, "--notify", "every")
    for player, mail in mails_from(table, "referee").items():
        delivered(table, player, mail)
    return table


def two_histories(table: Table) -> tuple[str, str, int, bytes]:
    """The attack: the host copies his store, records a ruling in the copy only, and mails
    bob (the player on turn) from the copy and alice from the original, which records a
    note of the referee's at the same entry; bob's orders, written against the ruling,
    are recorded in the copy. (bob, alice, the entry bob's orders name, the copy's next
    mail to alice): that mail is the first to cross the two histories."""
    bob = whose_turn(table)
    alice = next(p for p in PLAYERS if p != bob)
    copied_store(table, "referee", "ruled")
    at = ("--at", "1.1.random-events")
    table.run("note", "--ruling", *at, f"{bob} may move twice", store="ruled")
    table.run("note", *at, "a quiet start")
    delivered(table, bob, mails_from(table, "ruled")[bob])
    delivered(table, alice, mails_from(table, "referee")[alice])
    seen = json.loads(table.run("status", "--json", store=bob).stdout)["head"]
    drop("ruled-in", written(orders_text(table, bob, "events roll"), sender=f"{bob}@x.org"))
    return bob, alice, int(seen.split()[0][1:]), mails_from(table, "ruled")[alice]


def chain_at(table: Table, store: str, seq: int) -> str:
    """The chain hash (hex) of entry `seq` of a store's log."""
    table.run("export", "--from", str(seq), "-o", f"{store}-{seq}.wlog", "--force", store=store)
    return logfile.read(Path(f"{store}-{seq}.wlog").read_bytes()).entries[0].chain.hex()


def log_of(table: Table, store: str) -> str:
    return str(table.run("log", "--json", store=store).stdout)


def test_the_first_mail_that_crosses_two_histories_is_refused_naming_the_fork(
    game: Table,
) -> None:
    bob, alice, seq, crossing = two_histories(game)
    before = log_of(game, alice)
    said = delivered(game, alice, crossing, ok=False)
    theirs, mine = chain_at(game, "ruled", seq), chain_at(game, alice, seq)
    assert theirs != mine
    assert "Traceback" not in said
    assert "fork" in said and f"{bob}'s signed orders" in said and f"#{seq} " in said, said
    assert theirs[:16] in said and mine[:16] in said, said
    assert log_of(game, alice) == before, "the import that found the fork wrote entries"
    # the evidence stays in alice's store: audit and verify show both signed heads
    audited = game.run("audit", "--json", store=alice, ok=False)
    assert audited.exit_code == 1 and audited.stderr.startswith("Error: ")
    assert "fork" in audited.stderr and bob in audited.stderr
    (fork,) = json.loads(audited.stdout)["forks"]
    assert fork["player"] == bob and fork["seq"] == seq
    assert fork["their_chain"] == theirs and fork["our_chain"] == mine
    assert fork["orders"] and fork["signature"] and fork["checkpoint"]["seq"] >= seq
    verified = game.run("verify", store=alice, ok=False)
    assert verified.exit_code == 1 and "fork" in verified.stderr and bob in verified.stderr
    # the same mailbox imported again: refused again, the evidence kept once
    again = game.run("import", f"{alice}.mbox", store=alice, ok=False)
    assert again.exit_code == 1 and "fork" in again.output
    forks = json.loads(game.run("audit", "--json", store=alice, ok=False).stdout)["forks"]
    assert len(forks) == 1


def test_an_honest_games_mails_carry_signed_heads_and_import_as_before(game: Table) -> None:
    bob = whose_turn(game)
    drop("referee-in", written(orders_text(game, bob, "events roll"), sender=f"{bob}@x.org"))
    for player, mail in mails_from(game, "referee").items():
        assert armor.begin(heads.KIND).encode() in mail
        assert "refused" not in delivered(game, player, mail)
    game.run("export", "--for", bob, "--armor", "-o", "bob.txt")
    assert armor.begin(heads.KIND) in Path("bob.txt").read_text()
    game.run("import", "bob.txt", store="fresh")
    for store in (*PLAYERS, "fresh"):
        assert game.run("verify", store=store).stdout.startswith("ok: ")
        assert json.loads(game.run("audit", "--json", store=store).stdout)["forks"] == []


def forged_copy(table: Table, bob: str, forge: str) -> str:
    """carol's armored copy (`export --for carol --armor`) with bob's signed head forged."""
    table.run("export", "--for", "carol", "--armor", "-o", "carol.txt")
    text = Path("carol.txt").read_text()
    begin, end = armor.begin(heads.KIND), armor.end(heads.KIND)
    start, stop = text.index(begin), text.index(end) + len(end) + 1
    real = heads.read(armor.dearmor(text[start:stop], heads.KIND))
    mine = next(h for h in real if h.orders.player == bob)
    orders, signed = mine.orders, mine.signed
    key = read_key(Path(f"{bob}.key").read_bytes(), "private").key
    if forge == "altered byte":
        signed = signed.replace(orders.chain, bytes(32))
        fake = SignedOrders(Orders.decode(signed), signed, mine.signature)
    elif forge == "wrong key":
        fake = SignedOrders(orders, signed, sign(new_key_pair()[0], signed))
    else:
        other = dataclasses.replace(orders, game_id=UUID(int=1))
        signed = other.encode()
        fake = SignedOrders(other, signed, sign(key, signed))
    forged = heads.armor(tuple(fake if h is mine else h for h in real))
    return text[:start] + forged + text[stop:]


@pytest.mark.parametrize("forge", ["altered byte", "wrong key", "another game"])
def test_a_forged_signed_head_is_refused_and_not_kept(game: Table, forge: str) -> None:
    bob = whose_turn(game)
    drop("referee-in", written(orders_text(game, bob, "events roll"), sender=f"{bob}@x.org"))
    mails_from(game, "referee")
    Path("forged.txt").write_text(forged_copy(game, bob, forge))
    error = game.refused("import", "forged.txt", store="carol")
    assert f"{bob}'s signed head" in error and "fork" not in error, error
    assert json.loads(game.run("audit", "--json", store="carol").stdout)["forks"] == []


def heads_block(text: str) -> tuple[int, int]:
    """Where the heads block of an armored copy begins and ends (its last line included)."""
    end = armor.end(heads.KIND)
    return text.index(armor.begin(heads.KIND)), text.index(end) + len(end) + 1


def test_a_head_beyond_the_copy_is_checked_against_the_log_it_came_with(game: Table) -> None:
    """The third player's copy ends before the fork; a copy of the original's entries
    since then comes with bob's signed head from the copy: it names an entry that player
    does not hold yet, so it is checked against the entries it came with, before any is
    written."""
    bob, alice, seq, _ = two_histories(game)
    (third,) = (p for p in PLAYERS if p not in (bob, alice))
    game.run("export", "--for", third, "--from", "15", "--armor", "-o", "tail.txt")
    game.run("export", "--armor", "-o", "ruled.txt", store="ruled")
    ruled = Path("ruled.txt").read_text()
    start, stop = heads_block(ruled)
    Path("spliced.txt").write_text(Path("tail.txt").read_text() + ruled[start:stop])
    before = log_of(game, third)
    said = game.run("import", "spliced.txt", store=third, ok=False)
    assert said.exit_code == 1 and "Traceback" not in said.output
    assert "a fork" in said.stderr and "the log it came with" in said.stderr, said.stderr
    assert log_of(game, third) == before
    (fork,) = json.loads(game.run("audit", "--json", store=third, ok=False).stdout)["forks"]
    assert fork["player"] == bob and fork["seq"] == seq
    assert fork["our_chain"] == chain_at(game, "referee", seq)


def test_a_damaged_heads_block_is_refused_and_a_copy_without_one_imports(game: Table) -> None:
    """A damaged block is refused by its checksum. A copy stripped of its heads block is
    refused in a game of record version 2 when it records signed orders (a host who strips
    the block would be caught by no crossing mail); in a game of version 1 (a seeded one,
    or an older referee's) a copy without one imports, unchecked."""
    bob = whose_turn(game)
    drop("referee-in", written(orders_text(game, bob, "events roll"), sender=f"{bob}@x.org"))
    mails_from(game, "referee")
    game.run("export", "--for", "carol", "--armor", "-o", "carol.txt")
    text = Path("carol.txt").read_text()
    start, stop = heads_block(text)
    lines = text[start:stop].split("\n")
    lines[3] = ("A" if lines[3][0] != "A" else "B") + lines[3][1:]
    damaged = text[:start] + "\n".join(lines) + text[stop:]
    Path("damaged.txt").write_text(damaged)
    assert "damaged" in game.refused("import", "damaged.txt", store="carol")
    Path("stripped.txt").write_text(text[:start] + text[stop:])
    said = game.refused("import", "stripped.txt", store="carol")
    assert f"records signed orders of {bob} but carries no signed head" in said
    game.run("import", "carol.txt", store="carol")
    assert game.run("verify", store="carol").stdout.startswith("ok: ")


def test_a_copy_without_heads_of_a_version_1_game_imports(table: Table) -> None:
    """Games of record version 1 (a public seed, older logs) keep importing copies from
    referees that send no heads."""
    new_game(table, "seeded:4")
    table.run("export", "--for", "carol", "--armor", "-o", "first.txt")
    table.run("import", "first.txt", store="carol")
    player = whose_turn(table)
    table.run("export", "--for", player, "--armor", "-o", "mine.txt")
    table.run("import", "mine.txt", store=player)
    table.run("init", "--as", player, "--key", f"{player}.key", store=player)
    table.run("orders", "-o", "orders.txt", "events roll", store=player)
    table.run("import-orders", "orders.txt")
    table.run("export", "--for", "carol", "--armor", "--force", "-o", "carol.txt")
    text = Path("carol.txt").read_text()
    start, stop = heads_block(text)
    Path("older.txt").write_text(text[:start] + text[stop:])
    table.run("import", "older.txt", store="carol")
    assert table.run("verify", store="carol").stdout.startswith("ok: ")
