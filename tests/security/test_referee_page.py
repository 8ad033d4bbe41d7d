"""The referee's page of `serve` (web/referee.py) given hostile mail and hostile requests:
orders edited after they were signed, or signed with another player's key, handed to the
page are refused as forged and nothing is recorded; a POST without the session's token
is refused before a byte of the mail is read; a player's page has none of the referee's
routes; a mail nested past the parser's bound is set aside, never a traceback."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

from tests.cli.test_pbem import PRIVATE, run, write_orders
from tests.security.fuzz_cases import nested_mime
from tests.web.conftest import client, stores
from tests.web.test_referee import hand, referee, signed
from warscribe.engine import codec
from warscribe.store import armor
from warscribe.store import orders as orders_file
from warscribe.store.orders import KeyFile, write_key

__all__ = ["client", "referee", "run", "stores"]  # the fixtures


def refused_unrecorded(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str], mail: bytes
) -> dict[str, Any]:
    """Hand `mail` to the referee's page: refused, the log unchanged; the journal's line."""
    run, _ = stores
    before = run("log", "--json").stdout
    answer = hand(referee, mail)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    journal: dict[str, Any] = answer.get_json()["mailbox"]["mails"][0]
    assert journal["ok"] is False and journal["result"].startswith("refused: "), journal
    assert run("log", "--json").stdout == before, "a refused mail recorded something"
    return journal


def test_orders_edited_after_signing_are_refused_as_forged(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    received = orders_file.read_orders(signed(stores, "events roll"))
    edited = dataclasses.replace(
        received.orders, commands=(("diplomacy-pass", ()),), lines=("diplomacy pass",)
    )
    data = {
        "format": orders_file.ORDERS_FORMAT,
        "orders": edited.encode(),
        "signature": received.signature,
    }
    mail = armor.armor(codec.encode(data), orders_file.ORDERS_KIND).encode()
    assert "forged" in refused_unrecorded(referee, stores, mail)["result"]


def test_orders_signed_with_another_players_key_are_refused_as_forged(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    run, player = stores
    Path("forged.key").write_text(write_key(KeyFile("private", player, PRIVATE["bob"])))
    write_orders(run, player, "events roll", key="forged.key")
    mail = Path("orders.txt").read_bytes()
    assert "forged" in refused_unrecorded(referee, stores, mail)["result"]


def test_a_mail_nested_past_the_bound_is_set_aside(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    orders = signed(stores, "events roll")
    poison = b"From: alice@example.org\nMIME-Version: 1.0\n" + nested_mime(orders, 400, "mixed")
    journal = refused_unrecorded(referee, stores, poison)
    assert "more than 64" in journal["result"] and journal["aside"]


def test_a_post_without_the_sessions_token_reads_no_mail(
    referee: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    browser, token = referee
    orders = signed(stores, "events roll")
    assert browser.post("/api/mail", data=orders).status_code == 403
    wrong = {"X-Warscribe-Token": token[::-1]}
    assert browser.post("/api/mail", data=orders, headers=wrong).status_code == 403
    stranger = browser.application.test_client()  # another site's page: no session cookie
    right = {"X-Warscribe-Token": token}
    assert stranger.post("/api/mail", data=orders, headers=right).status_code == 403
    assert stranger.get("/api/mailbox").status_code == 403
    assert browser.get("/api/mailbox").get_json()["mails"] == [], "nothing was read"
    assert browser.get("/api/state").get_json()["position"] == "1.1.random-events"


def test_a_players_page_has_none_of_the_referees_routes(
    client: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    browser, _ = client
    orders = signed(stores, "events roll")
    assert hand(client, orders).status_code == 404
    assert hand(client, orders, "orders.eml").status_code == 404
    assert browser.get("/api/mailbox").status_code == 404
    assert browser.get("/api/state").get_json()["position"] == "1.1.random-events"
