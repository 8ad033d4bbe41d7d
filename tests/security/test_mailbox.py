"""Hostile mail in the referee's mailbox (issue 13, item 4): a mail for another game, an
old mail replayed, a mail with two armored blocks, a huge mail; each is refused with a
clear line and changes nothing, and the other mails of the same run are still taken.
Replies go only to the recorded address, and credentials never come from the command
line."""

from __future__ import annotations

import json

import pytest

from tests.cli.mailing import drop, mailed_game, orders_text, outbox, whose_turn, written
from tests.security.conftest import Table, new_game
from warscribe.store import mailbox as mb


@pytest.fixture
def game(table: Table) -> Table:
    """A game of three with addresses; every player has their copy."""
    return mailed_game(table)


def log_of(table: Table) -> str:
    return table.run("log", "--json").stdout


def refused_mail(table: Table, *mails: bytes) -> str:
    """Run the referee on `mails` alone: exit 1, a `refused:` line, the log unchanged."""
    before = log_of(table)
    drop("inbox", *mails)
    result = table.run("referee", "inbox", "--outbox", "out", ok=False)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert log_of(table) == before, "a refused mail recorded something"
    return result.stdout


def test_a_mail_for_another_game_is_refused(game: Table) -> None:
    game.run("new", "divine-right", "--player", "alice", "--player", "bob", store="other")
    whose = whose_turn(game)
    other = json.loads(game.run("games", "--json", store="other").stdout)[0]["game_id"]
    armored = game.run(
        "--game", other, "orders", "--as", "alice", "--key", "alice.key", "roll", store="other"
    )
    said = refused_mail(game, written(armored.stdout))
    assert "refused: not for this game" in said
    drop("inbox", written(orders_text(game, whose, "events roll")))
    taken = game.run("referee", "inbox", "--outbox", "out")
    assert "1 of 1 commands recorded" in taken.stdout, "the next good mail is taken"


def test_a_replayed_old_mail_is_refused(game: Table) -> None:
    whose = whose_turn(game)
    mail = written(orders_text(game, whose, "events roll"))
    drop("inbox", mail)
    game.run("referee", "inbox", "--outbox", "out")
    said = refused_mail(game, mail)
    assert "refused: replayed" in said


def test_a_mail_with_two_armored_orders_is_refused(game: Table) -> None:
    whose = whose_turn(game)
    first = orders_text(game, whose, "events roll")
    second = orders_text(game, whose, "roll")
    good = written(orders_text(game, whose, "events roll"), sender="x@example.org")
    said = refused_mail(game, written(first, second))
    assert "holds 2 different orders blocks" in said
    drop("inbox", good)
    assert "1 of 1 commands recorded" in game.run("referee", "inbox", "--outbox", "out").stdout


def test_the_same_block_twice_is_one_block(game: Table) -> None:
    """The plain and the HTML alternative, or a quote of one's own orders, repeat one block."""
    whose = whose_turn(game)
    armored = orders_text(game, whose, "events roll")
    drop("inbox", written(armored, "> " + armored.replace("\n", "\n> ")))
    assert "1 of 1 commands recorded" in game.run("referee", "inbox", "--outbox", "out").stdout


def test_a_huge_mail_is_refused_unread(game: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mb, "MAX_MAIL_BYTES", 64 * 1024)
    whose = whose_turn(game)
    huge = written(orders_text(game, whose, "events roll"), "x" * (64 * 1024))
    said = refused_mail(game, huge)
    assert "refused: the mail is larger than 65536 bytes: not read" in said


def test_replies_go_to_the_recorded_address_not_the_sender(game: Table) -> None:
    """A player's copy holds their hidden cards: orders mailed from elsewhere (forwarded,
    or a sender's address forged) are taken on their signature, but the reply goes to the
    address the referee recorded."""
    whose = whose_turn(game)
    drop("inbox", written(orders_text(game, whose, "events roll"), sender="mallory@evil.test"))
    game.run("referee", "inbox", "--outbox", "out")
    to = sorted(str(m["To"]) for m in outbox())
    assert to == [f"{whose}@example.org"]  # the only player the run concerns


def test_an_address_is_one_plain_address(table: Table) -> None:
    new_game(table, "seeded:1")
    for bad in ("a@example.org, b@example.org", "x@y.org\nBcc: m@evil.test", "nobody"):
        assert "is not one mail address" in table.refused("address", "alice", bad)


def test_no_credentials_on_the_command_line(game: Table) -> None:
    said = game.refused("referee", "inbox", "--outbox", "out", "--smtp", "smtp://u:pw@127.0.0.1")
    assert "no credentials in the URL" in said
