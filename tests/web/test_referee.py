"""The referee's page of `warscribe serve` (web/referee.py) through Flask's test client, on
the host's store of tests/web/conftest.py: the mailbox beside the board; a player's
signed orders handed to the page, pasted or as the mail their page downloads, recorded
as `import-orders` records them and journalled as `referee` journals a mail; a refused
mail journalled with its reason and nothing recorded; who must act and what will be
mailed; none of it on a player's page."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import Result

from tests.cli.test_pbem import write_orders
from warscribe.cli.context import Context
from warscribe.store import mailbox as mb

TOKEN = re.compile(r'name="warscribe-token" content="([^"]+)"')


@pytest.fixture
def referee(stores: tuple[Callable[..., Result], str]) -> Iterator[tuple[Any, str]]:
    """The test client of the app on the referee's store, its page loaded: (client,
    token)."""
    from warscribe.web.app import make_app

    ctx = Context("referee.db", None)
    with make_app(ctx).test_client() as browser:
        found = TOKEN.search(browser.get("/").get_data(as_text=True))
        assert found is not None
        yield browser, found[1]
    ctx.close()


def hand(referee: tuple[Any, str], data: bytes, name: str = "") -> Any:
    """Hand the mail `data` to the referee's page (as its file `name`, else pasted)."""
    browser, token = referee
    kind = "message/rfc822" if name else "text/plain; charset=utf-8"
    headers = {"X-Warscribe-Token": token, "Content-Type": kind}
    return browser.post(f"/api/mail?name={quote(name)}", data=data, headers=headers)


def taken(referee: tuple[Any, str], data: bytes, name: str = "") -> dict[str, Any]:
    """What became of the mail handed in, and the mailbox after."""
    answer = hand(referee, data, name)
    assert answer.status_code == 200, answer.get_json()
    said: dict[str, Any] = answer.get_json()
    return said


def signed(stores: tuple[Callable[..., Result], str], *commands: str, **how: Any) -> bytes:
    """The player's orders signed with the CLI `orders` (the player's store and key)."""
    run, player = stores
    write_orders(run, player, *commands, **how)
    return Path("orders.txt").read_bytes()


def test_the_referees_page_shows_the_mailbox_beside_the_board(
    referee: tuple[Any, str],
) -> None:
    browser, _ = referee
    answer = browser.get("/")
    page = answer.get_data(as_text=True)
    nonce = re.search(r"script-src 'nonce-([^']+)'", answer.headers["Content-Security-Policy"])
    assert nonce is not None and page.count(f'<script nonce="{nonce[1]}">') == 2
    assert page.count("<script") == 2 and f'<style nonce="{nonce[1]}">\n#orders' in page
    assert 'id="mailroom"' in page and 'class="board"' in page
    mailbox = browser.get("/api/mailbox").get_json()
    assert mailbox["now"] == "now: alice to play (1.1.random-events)"
    assert mailbox["mails"] == [] and mailbox["decided"] == mailbox["posted"] == []
    owed = {reply["to"]: reply for reply in mailbox["owed"]}
    alice = "alice (no address: record one with `warscribe address alice ADDRESS`)"
    assert owed[alice]["entries"].startswith("#1..") and owed[alice]["mails"] == []


def test_orders_pasted_on_the_page_are_recorded_as_import_orders_records_them(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    run, _ = stores
    orders = signed(stores, "events roll", "end-phase")
    with sqlite3.connect("referee.db") as source, sqlite3.connect("twin.db") as twin:
        source.backup(twin)
    said = taken(referee, orders)
    assert [m["ok"] for m in said["mails"]] == [True]
    assert re.fullmatch(
        r"pasted \(page [0-9a-f]{8}\): alice's orders: 2 of 2 commands recorded \(#13\.\.#\d+\)",
        said["mails"][0]["text"],
    ), said["mails"][0]["text"]
    run("import-orders", "orders.txt", store="twin.db")
    assert run("log", "--json").stdout == run("log", "--json", store="twin.db").stdout
    journal = said["mailbox"]["mails"]
    assert [(m["from"], m["player"], m["ok"], m["untold"]) for m in journal] == [
        ("?", "alice", True, True)
    ]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", journal[0]["when"])
    owed = [r for r in said["mailbox"]["owed"] if r["to"].startswith("alice ")]
    assert owed[0]["mails"] == [journal[0]["name"]], "the next run tells alice of her mail"
    assert said["mailbox"]["now"] == "now: alice to play (1.1.diplomacy)"
    assert referee[0].get("/api/state").get_json()["position"] == "1.1.diplomacy"


def test_the_mail_a_players_page_downloads_is_recorded(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    from warscribe.web.turn import Turn

    _, player = stores
    ctx = Context(f"{player}.db", None)
    turn = Turn(ctx, player)
    for line in ("events roll", "end-phase", "diplomacy draw"):
        turn.add(line)
    turn.sign()
    eml = turn.mail()
    ctx.close()
    said = taken(referee, eml, "../orders\n<b>.eml")
    assert said["mails"][0]["text"].startswith("..ordersb.eml (page "), "a plain name"
    assert "alice's orders: 3 of 3 commands recorded" in said["mails"][0]["text"]
    mail = said["mailbox"]["mails"][0]
    assert mail["from"] == "alice@warscribe.invalid" and mail["player"] == "alice"


def test_a_refused_mail_is_journalled_with_its_reason_and_records_nothing(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    run, _ = stores
    write_orders(run, "bob", "events roll", checked=False)
    before = run("log", "--json").stdout
    said = taken(referee, Path("orders.txt").read_bytes(), "bobs-orders.txt")
    assert said["mails"][0]["ok"] is False
    assert "refused: " in said["mails"][0]["text"] and "out of turn" in said["mails"][0]["text"]
    assert run("log", "--json").stdout == before
    mail = said["mailbox"]["mails"][0]
    assert mail["ok"] is False and mail["player"] == "bob" and mail["untold"]
    assert mail["result"] == said["mails"][0]["text"].partition(": ")[2]
    assert said["mailbox"]["now"] == "now: alice to play (1.1.random-events)"


def test_commands_the_rules_refuse_come_back_in_the_players_words_with_the_rule(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    orders = signed(stores, "events roll", "diplomacy draw", "end-phase", checked=False)
    result = taken(referee, orders)["mailbox"]["mails"][0]["result"]
    assert result.startswith("alice's orders: 1 of 3 commands recorded"), result
    assert "`diplomacy-draw` belongs to the Diplomacy Phase" in result
    assert "(The Game Turn)" in result  # the rule it breaks
    assert result.endswith("Returned unrecorded: diplomacy draw; end-phase")


def test_a_mail_too_large_is_not_read_and_set_aside(
    referee: tuple[Any, str],
    stores: tuple[Callable[..., Result], str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run, _ = stores
    orders = signed(stores, "events roll")
    monkeypatch.setattr(mb, "MAX_MAIL_BYTES", len(orders) - 1)
    before = run("log", "--json").stdout
    mail = taken(referee, orders)["mailbox"]["mails"][0]
    assert mail["result"] == f"refused: the mail is larger than {len(orders) - 1} bytes: not read"
    assert mail["aside"] and mail["player"] == "referee" and run("log", "--json").stdout == before
    owed = taken(referee, b"hello")["mailbox"]["owed"]
    told = [r for r in owed if r["referee"]]
    assert told and told[0]["mails"] == [mail["name"]], "the referee's own address is told"


@pytest.fixture
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock held elsewhere is waited for a second (set before the stores
    open)."""
    monkeypatch.setenv("WARSCRIBE_LOCK_TIMEOUT", "1")


def test_no_mail_is_read_while_a_referee_run_takes_the_stores_mail(
    short_waits: None, referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    other = Context("referee.db", None)
    with other.app.referee_run():
        answer = hand(referee, signed(stores, "events roll"))
    other.close()
    assert answer.status_code == 409
    assert "another `referee` run is taking the mail" in answer.get_json()["error"]
    assert referee[0].get("/api/mailbox").get_json()["mails"] == []


def test_a_players_page_has_no_mailbox(client: tuple[Any, str]) -> None:
    browser, _ = client
    assert 'id="mailroom"' not in browser.get("/").get_data(as_text=True)
    assert browser.get("/api/mailbox").status_code == 404
    assert hand(client, b"-----BEGIN WARSCRIBE ORDERS-----").status_code == 404


def test_pasted_text_is_the_body_of_a_mail_even_where_it_reads_as_a_header(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    """Text pasted from a mail client's quote ("Orders: ..." over the block indented)
    would be one long header line were it read as a mail: it is a mail's body."""
    orders = signed(stores, "events roll").decode()
    pasted = "Orders: my turn\n" + "".join(f"    {line}\n" for line in orders.splitlines())
    said = taken(referee, pasted.encode())
    assert "alice's orders: 1 of 1 commands recorded" in said["mails"][0]["text"], said
