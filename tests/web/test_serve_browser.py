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

from tests.cli.test_viewer_browser import browser
from tests.test_startup import CALL

from .test_serve import STACK, TURN_START

__all__ = ["browser"]  # the fixture


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(store: str) -> Iterator[str]:
    """`warscribe serve` on `store`, in a process of its own: its address."""
    port = _free_port()
    args = ["--store", store, "serve", "--port", str(port)]
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


@pytest.fixture
def served(stores: tuple[Callable[..., Result], str]) -> Iterator[str]:
    """`warscribe serve` on the player's store: its address."""
    with serving(f"{stores[1]}.db") as address:
        yield address


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
    page.close()
    assert (
        Path("orders.eml").read_bytes().startswith(b"From: ")
        or b"Subject:" in Path("orders.eml").read_bytes()
    )
