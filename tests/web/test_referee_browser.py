"""The referee's page in a real browser through `warscribe serve` on the host's store (the
Chromium and Playwright of tests/web/test_serve_browser.py): a player's orders signed with
the CLI `orders` are pasted into the page, which records them, lists the mail as
recorded, and shows that the other player must act now; the same mail handed in again as
a file is refused, and the page shows why."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import Result

from tests.cli.test_pbem import QUIET_TURN
from tests.cli.test_viewer_browser import browser

from .test_referee import signed
from .test_serve_browser import _opened, serving

__all__ = ["browser"]  # the fixture


@pytest.fixture
def served(stores: tuple[Callable[..., Result], str]) -> Iterator[str]:
    """`warscribe serve` on the referee's store: its address."""
    with serving("referee.db") as address:
        yield address


def test_the_referee_records_a_players_mail_on_the_page_and_sees_who_acts(
    browser: Any, served: str, stores: tuple[Callable[..., Result], str]
) -> None:
    orders = signed(stores, *QUIET_TURN).decode()
    page, errors = _opened(browser, served)
    page.wait_for_selector("#mail-now:has-text('now: alice to play (1.1.random-events)')")
    assert page.locator("#orders").is_hidden() and page.text_content("#mail-journal") == "none"
    page.fill("#mail-text", orders)
    page.locator("#mail-paste").click()
    page.wait_for_selector("#mail-journal li:not(.none)")
    journal = page.locator("#mail-journal li").first.text_content() or ""
    assert "from ?: alice's orders: 8 of 8 commands recorded" in journal, journal
    assert "(a reply is owed)" in journal and page.input_value("#mail-text") == ""
    page.wait_for_selector("#mail-now:has-text('now: bob to play')")
    page.wait_for_selector("#where:has-text('bob to act')")  # the board's side, redrawn
    assert "alice" in (page.locator("#mail-owed").text_content() or "")
    page.set_input_files("#mail-file", "orders.txt")
    page.locator("#mail-upload").click()
    page.wait_for_selector("#mail-journal li:nth-child(2)")
    refused = page.locator("#mail-journal li.refused").first.text_content() or ""
    assert refused.startswith("20") and "orders.txt (page " in refused, refused
    assert "refused: replayed" in refused, refused
    assert "refused: replayed" in (page.locator("#mail-taken li.refused").text_content() or "")
    assert errors == []
    page.close()
