"""A player's turn played in a real browser through `warscribe serve` (issue 33): the
distribution's Chromium, headless, driven by Playwright, on a player's store served by
the command in a process of its own. Events rolled, diplomacy drawn and passed, phases
ended from the offers; a stack clicked and one of the spaces it lights up clicked; the
orders signed, the mail downloaded and recorded by the referee's `import-orders`.
Skipped with a reason where Chromium or Playwright is missing, never with CI=true (the
fixture `browser` of tests/cli/test_viewer_browser.py)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from tests.cli.test_mailbox import Collect, smtp_server
from tests.cli.test_pbem import sync
from tests.cli.test_viewer_browser import browser
from tests.test_startup import CALL

from .test_serve import ATTACK, BATTLE_STACK, CARD, LOST, STACK, TURN_START

__all__ = ["browser", "smtp_server"]  # the fixtures


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def served(stores: tuple[Callable[..., Result], str]) -> Iterator[str]:
    """`warscribe serve` on the player's store: its address."""
    with serving(f"{stores[1]}.db") as address:
        yield address


@contextmanager
def serving(store: str, *options: str) -> Iterator[str]:
    """`warscribe serve` on `store` with `options` in a process of its own: its address."""
    port = _free_port()
    args = ["--store", store, "serve", "--port", str(port), *options]
    server = subprocess.Popen([sys.executable, "-c", CALL, *args], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(10)


def _opened(browser: Any, address: str) -> tuple[Any, list[str]]:
    """The page open at `address`, and the errors its console reports."""
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(address)
    return page, errors


def _add(page: Any, line: str) -> None:
    """Click the offer `line` and wait for it to be listed among the orders."""
    before = page.locator("#lines li").count()
    page.locator("#offers button.offer-add", has_text=line).first.click()
    page.wait_for_selector(f"#lines li:nth-child({before + 1})")  # no script: the CSP forbids eval


def test_a_players_turn_is_played_signed_and_recorded(
    browser: Any, served: str, stores: tuple[Callable[..., Result], str]
) -> None:
    run, _ = stores
    page, errors = _opened(browser, served)
    page.wait_for_selector("#offers button.offer-add")
    for line in TURN_START:
        _add(page, line)
    page.locator(f'#board .counter[data-units="{STACK}"]').click()
    page.wait_for_selector("#board .hex.reachable")
    page.locator('#board .hex.reachable[data-hex="9,14"]').dispatch_event("click")
    page.wait_for_selector("#lines li:nth-child(7)")
    assert page.locator("#lines li").last.text_content() == f"move {STACK} --path 9,14"
    for _ in range(2):
        _add(page, "end-phase")
    page.locator("#sign").click()
    page.wait_for_selector("#eml")
    assert (page.text_content("#signed") or "").startswith("-----BEGIN WARSCRIBE ORDERS-----")
    with page.expect_download() as downloading:
        page.locator("#eml").click()
    downloading.value.save_as("orders.eml")
    recorded = run("import-orders", "orders.eml").stdout
    assert f"StackMoved: player=alice units={STACK.split()}" in recorded, recorded
    assert "now: bob to play" in recorded and errors == []
    sync(run)
    page.reload()
    siege = _stepped_back_to_the_old_space(page)
    assert errors == []
    page.close()
    _linked(browser, served, siege)
    assert (
        Path("orders.eml").read_bytes().startswith(b"From: ")
        or b"Subject:" in Path("orders.eml").read_bytes()
    )


def test_a_whole_divine_right_turn_is_played_by_clicking_and_mailed_three_ways(
    browser: Any, battle: tuple[Callable[..., Result], str], smtp_server: tuple[Collect, int]
) -> None:
    """Issue 33, done when: bob's whole turn in the browser: random events rolled, a card
    from his hand played on a kingdom chosen from a list, his stack moved by clicking a
    space it reaches, an attack declared and resolved (alice's standing answer stands),
    the losses he must choose ticked; signed; the armored text shown and copied, the .eml
    downloaded, the mail sent through `serve --smtp` to the referee's address; the mail
    that arrived handed to the referee's page, which records it. The story steps back
    with the arrow keys."""
    run, _ = battle
    handler, port = smtp_server
    run("address", "referee", "ref@example.org", store="bob.db")
    with serving("bob.db", "--smtp", f"smtp://127.0.0.1:{port}") as address:
        page, errors = _opened(browser, address)
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        _story_steps(page)
        _battle_turn(page)
        _mailed(page)
        assert errors == []
        page.close()
    ((to, message),) = handler.received
    assert to == ["ref@example.org"] and b"-----BEGIN WARSCRIBE ORDERS-----" in message
    assert b"Subject: orders of bob in pbem" in Path("downloaded.eml").read_bytes()
    Path("orders.eml").write_bytes(message)
    _handed_to_the_referee(browser, "orders.eml")
    recorded = " ".join(run("log").stdout.split())
    assert "DiplomacyAttempted player=bob kingdom=Mivior" in recorded, recorded
    assert "BattleFought" in recorded and f"player=bob units={LOST.split()}" in recorded


def _handed_to_the_referee(browser: Any, mail: str) -> None:
    """The referee's page (`serve` on the host's store) takes the file `mail` and records
    it: all of bob's orders recorded, alice to act."""
    with serving("referee.db") as address:
        page, errors = _opened(browser, address)
        page.wait_for_selector("#mail-now:has-text('now: bob to play (2.1.random-events)')")
        page.set_input_files("#mail-file", mail)
        page.locator("#mail-upload").click()
        page.wait_for_selector("#mail-journal li:not(.none)")
        journal = page.locator("#mail-journal li").first.text_content() or ""
        assert "bob's orders: 12 of 12 commands recorded" in journal, journal
        page.wait_for_selector("#mail-now:has-text('now: alice to play')")
        assert errors == []
        page.close()


def _battle_turn(page: Any) -> None:
    """Bob's turn of the battle game, clicked (tests/web/test_serve.py's, by its routes)."""
    page.wait_for_selector("#offers button.offer-add")
    for line in ("events roll", "end-phase", "diplomacy draw"):
        _add(page, line)
    assert "black-magic+2#3" in (page.text_content("#panels") or "")
    row = page.locator("#offers .offer", has=page.locator(f'button[data-line="{CARD}"]'))
    row.locator("select").select_option(label="Mivior")
    _add(page, CARD)
    for _ in range(2):
        _add(page, "end-phase")
    _moved_by_clicking(page)
    for line in ("end-phase", ATTACK, "attack resolve 1"):
        _add(page, line)
    assert "bob must answer losses: choose the 3 unit(s)" in (page.text_content("#panels") or "")
    assert "alice's standing answer: retreat stand" in (page.text_content("#plan") or "")
    for unit in LOST.split():
        page.locator(f'#offers input[type="checkbox"][value="{unit}"]').check()
    _add(page, "losses UNIT...")
    _add(page, "end-phase")
    assert page.locator("#lines li").count() == 12
    assert page.locator("#offers .offer").count() == 0


def _moved_by_clicking(page: Any) -> None:
    """Bob's stack clicked lights the spaces it reaches; a step back to the position
    before clears them, and there the board ignores clicks (no `reach` asked, no line
    added at the space lit before); back to now, the stack clicked and then 1,1 moves it."""
    reaches: list[str] = []
    page.on("request", lambda r: "/api/reach" in r.url and reaches.append(r.url))
    stack = page.locator(f'#board .counter[data-units="{BATTLE_STACK}"]')
    stack.click()
    page.wait_for_selector("#board .hex.reachable")
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#past:not([hidden])")
    stack.click()
    page.locator('#board .hex[data-hex="1,1"]').first.dispatch_event("click")
    page.locator("#now").click()
    page.wait_for_selector("#past", state="hidden")
    assert len(reaches) == 1 and page.locator("#lines li").count() == 6, reaches
    assert page.locator("#board .reachable, #board .chosen").count() == 0
    stack.click()
    page.wait_for_selector("#board .hex.reachable")
    page.locator('#board .hex.reachable[data-hex="1,1"]').dispatch_event("click")
    page.wait_for_selector("#lines li:nth-child(7)")
    assert len(reaches) == 2, reaches


def _mailed(page: Any) -> None:
    """Sign; the armored text shown and copied, the .eml downloaded (to downloaded.eml),
    the mail sent through `serve --smtp`."""
    page.locator("#sign").click()
    page.wait_for_selector("#eml")
    assert (page.text_content("#signed") or "").startswith("-----BEGIN WARSCRIBE ORDERS-----")
    page.locator("#copy").click()
    page.wait_for_selector("#sent:has-text('copied')")
    with page.expect_download() as downloading:
        page.locator("#eml").click()
    downloading.value.save_as("downloaded.eml")
    page.locator("#send").click()
    page.wait_for_selector("#sent:has-text('sent to ref@example.org')")


def _story_steps(page: Any) -> None:
    """The story's slider is at its newest position, which is now; the left arrow steps
    back one, the board and panels as they were then (bob held no card yet two positions
    back), a button goes back to now, where the turn's lines are written."""
    page.wait_for_selector("#offers button.offer-add")
    count = int(page.get_attribute("#slider", "max") or "0") + 1
    assert (page.text_content("#at") or "").endswith(f"({count} of {count})") and count > 2
    newest = page.text_content("#story") or ""
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'body[data-frame="{count - 2}"]')
    assert (page.text_content("#at") or "").endswith(f"({count - 1} of {count})")
    assert newest.startswith(page.text_content("#story") or "-") and page.input_value(
        "#slider"
    ) == str(count - 2)
    assert "Viewing 1.2.movement as it ended" in (page.text_content("#past") or "")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'body[data-frame="{count - 5}"]')
    assert "bob: no cards" in (page.text_content("#panels") or "")
    page.locator("#now").click()
    page.wait_for_selector("#past", state="hidden")
    assert page.input_value("#slider") == str(count - 1) and "black-magic+2#3" in (
        page.text_content("#panels") or ""
    )


def _stepped_back_to_the_old_space(page: Any) -> int:
    """Alice's move recorded: her stack at 9,14 now, marked moved at the end of the
    Movement Phase, at Tadafat in the Siege Phase before it, the address naming that
    position (`#frame=N`); the right arrow comes back to now, whose address has no
    fragment. The Siege Phase's number on the slider."""
    moved = f'#board .counter[data-units="{STACK}"]'
    page.wait_for_selector(f'{moved}[data-hex="9,14"]')
    page.wait_for_selector("#at:has-text('1.1.combat')")
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#past-at:has-text('Viewing 1.1.movement')")
    assert page.locator("#board line.move").count() == 1
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'{moved}:not([data-hex="9,14"])')
    assert "1.1.siege" in (page.text_content("#past-at") or "")
    siege = int(page.input_value("#slider"))
    assert page.url.endswith(f"/#frame={siege}"), page.url
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("#past", state="hidden")
    page.wait_for_selector(f'{moved}[data-hex="9,14"]')
    assert "#" not in page.url, page.url
    return siege


def _linked(browser: Any, served: str, siege: int) -> None:
    """The address `#frame=N` opens the page at position N (the Siege Phase's, before
    alice's move), and the page follows a fragment changed (the Movement Phase's, next);
    a fragment asking no position of the story (-1, 99) leaves the page at now, quietly."""
    page, errors = _opened(browser, f"{served}#frame={siege}")
    page.wait_for_selector(f'body[data-frame="{siege}"]')
    assert "Viewing 1.1.siege" in (page.text_content("#past-at") or "")
    assert page.input_value("#slider") == str(siege)
    page.goto(f"{served}#frame={siege + 1}")
    page.wait_for_selector("#past-at:has-text('Viewing 1.1.movement')")
    page.goto(f"{served}#frame=-1")
    page.wait_for_selector("#past", state="hidden")
    assert "#" not in page.url, page.url
    page.goto(f"{served}#frame=99")
    page.wait_for_url(lambda url: "#" not in url)
    page.close()
    page, more = _opened(browser, f"{served}#frame=99")
    page.wait_for_selector("#where:not(:empty)")
    assert page.is_hidden("#past") and "#" not in page.url, page.url
    assert page.input_value("#slider") == page.get_attribute("#slider", "max")
    assert errors + more == []
    page.close()
