"""`serve --smtp` (issue 33): the page asks for the signed orders to be sent, and nothing
more. Where they go is the referee's address the player's store records (`address
referee ...`, typed by the player) and through which server the one `--smtp` names: a
page (or another site's script) cannot send them elsewhere, nor send without the
session's token, nor send to nobody's address."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from click.testing import Result

from tests.cli.test_mailbox import Collect, smtp_server
from tests.cli.test_pbem import run
from tests.web.conftest import opened, stores
from warscribe.store.mailbox import SmtpServer

__all__ = ["run", "smtp_server", "stores"]  # the fixtures

ELSEWHERE = {"to": "mallory@evil.example", "smtp": "smtp://evil.example", "from": "x@y.z"}


def _signed(client: tuple[Any, str]) -> None:
    browser, token = client
    offers = browser.get("/api/state").get_json()["offers"]
    header = {"X-Warscribe-Token": token}
    added = browser.post("/api/line", json={"offer": 0, "chosen": {}}, headers=header)
    assert added.status_code == 200
    assert offers[0]["text"] == "events roll"
    assert browser.post("/api/sign", json={}, headers=header).status_code == 200


def test_the_page_cannot_choose_where_the_orders_are_sent(
    stores: tuple[Callable[..., Result], str], smtp_server: tuple[Collect, int]
) -> None:
    run, player = stores
    handler, port = smtp_server
    run("address", "referee", "ref@example.org", store=f"{player}.db")
    with opened(f"{player}.db", SmtpServer(False, "127.0.0.1", port)) as client:
        browser, token = client
        _signed(client)
        assert browser.post("/api/send", json=ELSEWHERE).status_code == 403  # no token
        assert handler.received == []
        header = {"X-Warscribe-Token": token}
        sent = browser.post("/api/send", json=ELSEWHERE, headers=header)
        assert sent.status_code == 200, sent.get_json()
    assert [to for to, _ in handler.received] == [["ref@example.org"]]
    assert b"evil" not in handler.received[0][1]


def test_without_the_referees_address_nothing_is_sent(
    stores: tuple[Callable[..., Result], str], smtp_server: tuple[Collect, int]
) -> None:
    _, player = stores
    handler, port = smtp_server
    with opened(f"{player}.db", SmtpServer(False, "127.0.0.1", port)) as client:
        _signed(client)
        header = {"X-Warscribe-Token": client[1]}
        refused = client[0].post("/api/send", json=ELSEWHERE, headers=header)
    assert refused.status_code == 422
    assert "`warscribe address referee ADDRESS`" in refused.get_json()["error"]
    assert handler.received == []
