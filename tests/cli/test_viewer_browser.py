"""The `view` page in a real browser (issue 15, item 4): the distribution's Chromium,
headless, driven by Playwright for Python through the system browser (no browser is
downloaded). Skipped with a reason where Chromium or Playwright is missing, but never
with CI=true (`.ci/run` installs the `chromium` package)."""

from __future__ import annotations

import os
import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from warscribe.cli.board import CHROMIUM_FLAGS

from .club import Club
from .story import MOVED, play_eu_pop

CHROMIUM = "/usr/bin/chromium"
ARGS = [flag for flag in CHROMIUM_FLAGS if flag != "--hide-scrollbars"]  # as `map --png`


def _unavailable() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (the test extra)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = _unavailable()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run in CI: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def pages(story: Club, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of the seeded game of several turns."""
    folder = tmp_path_factory.mktemp("browser")
    story.ok("view", "-o", str(folder / "game.html"))
    return folder


class Opened:
    """A page open in the browser, with the errors its console reported."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1400, "height": 1000})
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(path.as_uri())
        self.page.wait_for_selector("#verdict:not([data-state=checking])", timeout=15000)

    def verdict(self) -> tuple[str, str]:
        element = self.page.locator("#verdict")
        return element.get_attribute("data-state"), element.text_content()

    def hex_of(self, unit: str) -> str | None:
        result: str | None = self.page.evaluate(
            """unit => {
                const g = Array.from(document.querySelectorAll('#overlay g.counter'))
                    .find(c => c.dataset.units.split(' ').includes(unit));
                return g ? g.dataset.hex : null;
            }""",
            unit,
        )
        return result

    def frame(self) -> int:
        return int(self.page.evaluate("document.body.dataset.frame"))


def test_the_page_opens_without_errors_and_its_chain_is_intact(browser: Any, pages: Path) -> None:
    opened = Opened(browser, pages / "game.html")
    state, text = opened.verdict()
    assert (state, opened.errors) == ("intact", []), text
    head = opened.page.text_content("#fingerprint")
    assert head == opened.page.evaluate("D.fingerprint")
    assert opened.page.locator("#board svg polygon.hex").count() > 1000
    assert opened.page.locator("#log div").count() == len(opened.page.evaluate("D.entries"))


def test_an_address_ending_frame_n_opens_the_page_at_that_position(
    browser: Any, pages: Path
) -> None:
    """docs/using.md: `game.html#frame=N` opens at position N counted from 0 (the page
    says N+1 of ...), so a link can send a player straight to a battle."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto((pages / "game.html").as_uri() + "#frame=2")
    page.wait_for_selector("#verdict:not([data-state=checking])", timeout=15000)
    assert int(page.evaluate("document.body.dataset.frame")) == 2
    assert "; 3 of " in (page.text_content("#position") or "")


def test_the_board_takes_the_width_and_zooms(browser: Any, pages: Path) -> None:
    """The board spans the page's width; + and the wheel zoom in (the picture grows
    within its scrolling box), fit shows the whole board again."""
    opened = Opened(browser, pages / "game.html")
    page = opened.page
    width = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    assert width > 0.9 * page.evaluate("document.body.clientWidth")
    page.click("#zoom-in")
    zoomed = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    assert zoomed > 1.4 * width
    corner = "(() => { const r = $('board').getBoundingClientRect(); return [r.x, r.y]; })()"
    x, y = page.evaluate(corner)
    page.mouse.move(x + 50, y + 50)
    page.mouse.wheel(0, -100)
    page.wait_for_function(
        f"document.querySelector('#board svg').getBoundingClientRect().width > {zoomed * 1.1}"
    )
    page.click("#zoom-fit")
    assert (
        page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width") == width
    )
    assert opened.errors == []


def test_a_copy_with_one_byte_changed_is_reported_broken(browser: Any, pages: Path) -> None:
    """One character of one entry's canonical bytes changed: the recomputed chain no
    longer matches, and the page says so."""
    html = (pages / "game.html").read_bytes()
    starts = [m.end() for m in re.finditer(rb'"bytes":"', html)]
    at = starts[len(starts) // 2] + 8  # inside the base64 of an entry halfway down the log
    changed = bytes([html[at] ^ 0x01]) if html[at : at + 1] not in (b"+", b"/") else b"A"
    copy = pages / "changed.html"
    copy.write_bytes(html[:at] + changed + html[at + 1 :])
    opened = Opened(browser, copy)
    state, text = opened.verdict()
    assert state == "broken" and "BROKEN" in text


def test_stepping_moves_the_stack_and_the_chart(browser: Any, pages: Path) -> None:
    """The slider to the siege phase of 1.1: Farnot's army at Farnot; the right arrow
    key to the movement phase: the army in its new hex, the chart's cursor moved; a
    click on a log line jumps to its position."""
    opened = Opened(browser, pages / "game.html")
    page = opened.page
    positions = [f["position"] for f in page.evaluate("D.frames")]
    siege = positions.index("1.1.siege")
    page.fill("#slider", str(siege))
    assert opened.frame() == siege
    _, step, unit = MOVED
    before = opened.hex_of(unit)
    cursor = page.locator("#charts line.cursor").first.get_attribute("x1")
    page.keyboard.press("ArrowRight")
    assert opened.frame() == siege + 1
    assert opened.hex_of(unit) == step != before
    assert page.locator("#charts line.cursor").first.get_attribute("x1") != cursor
    assert page.locator("#overlay polygon.moved").count() >= 1
    page.keyboard.press("ArrowLeft")
    assert opened.hex_of(unit) == before
    diplomacy = page.evaluate("D.frames")[positions.index("1.1.diplomacy")]["seq"]
    page.locator(f"#log div[data-seq='{diplomacy}']").click()
    assert opened.frame() == positions.index("1.1.diplomacy")
    assert opened.errors == []


def test_an_eu_pop_page_draws_its_charts_without_errors(browser: Any, tmp_path: Path) -> None:
    """eu-pop: no board; the treasury and prestige charts and the realms' table."""
    club = Club(tmp_path)
    play_eu_pop(club, tmp_path)
    club.ok("view", "-o", str(tmp_path / "eu.html"))
    opened = Opened(browser, tmp_path / "eu.html")
    assert (opened.verdict()[0], opened.errors) == ("intact", [])
    titles = [c.get_attribute("data-title") for c in opened.page.locator("#charts svg").all()]
    assert titles == ["Treasury (ducats)", "Prestige"]
    assert opened.page.locator("#board svg").count() == 0
    assert "France" in (opened.page.text_content("#tables") or "")
    assert "{" not in (opened.page.text_content("#tables") or "")  # words, not JSON
    for chart in opened.page.locator("#charts svg").all():  # the axis marked by round
        assert chart.locator("text.axis").all_text_contents() == ["round 1"]


def test_a_host_act_reads_as_the_hosts_in_the_log(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host rolls the random events for a keyed player (issue 30): the page's log
    line of that command, its mark decoded from the carried bytes, names the host and its
    reason; the line is the command's sentence of the story."""
    monkeypatch.chdir(tmp_path)
    club = Club(tmp_path)
    keys = []
    for player in ("alice", "bob"):
        club.ok("keys", "new", player)
        keys += ["--key", f"{player}={player}.pub"]
    players = ["--player", "alice=Hothior", "--player", "bob=Mivior"]
    club.ok("new", "divine-right", *players, "--dice", "seeded:view", *keys)
    whose = club.json("status")["whose_turn"]
    club.ok("events", "roll", "--as", whose, "--host-act", "no orders by the deadline")
    club.ok("view", "-o", "bob.html", "--for", "bob")
    opened = Opened(browser, tmp_path / "bob.html")
    lines = opened.page.locator("#log div").all_text_contents()
    marked = f"the host for {whose} (no orders by the deadline), not signed: {whose} gave the order"
    assert sum(marked in line for line in lines) == 1, lines
    assert (opened.verdict()[0], opened.errors) == ("intact", [])
    assert "bob: " in (opened.page.text_content("#panels") or "")  # his hand, beside the board


def test_a_screenshot_is_not_blank(browser: Any, pages: Path) -> None:
    opened = Opened(browser, pages / "game.html")
    shot = opened.page.screenshot(clip={"x": 0, "y": 80, "width": 400, "height": 300})
    assert len(_colours(shot)) > 20, "a blank page has a handful of colours"


def _colours(png: bytes) -> set[bytes]:
    """The distinct pixels of an 8-bit RGB or RGBA PNG (every row's filter undone)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, header = 8, b"", b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6)
    size = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * size
    previous, seen = bytearray(stride), set()
    for row in range(height):
        start = row * (stride + 1)
        line = _unfilter(raw[start], bytearray(raw[start + 1 : start + 1 + stride]), previous, size)
        seen.update(bytes(line[i : i + size]) for i in range(0, stride, size * 7))
        previous = line
    return seen


def _unfilter(kind: int, line: bytearray, up: bytearray, size: int) -> bytearray:
    for i in range(len(line)):
        left = line[i - size] if i >= size else 0
        corner = up[i - size] if i >= size else 0
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up[i]) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up[i]) // 2) & 0xFF
        elif kind == 4:
            p = left + up[i] - corner
            pa, pb, pc = abs(p - left), abs(p - up[i]), abs(p - corner)
            best = left if pa <= pb and pa <= pc else up[i] if pb <= pc else corner
            line[i] = (line[i] + best) & 0xFF
    return line
