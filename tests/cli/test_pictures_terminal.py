"""Terminal pictures (issue 15, item 3): `vp --chart`, the text map's row and column
numbers, and colour only on a terminal (never with NO_COLOR, --no-color or a pipe)."""

from __future__ import annotations

import sys

import pytest

from warscribe.cli import board
from warscribe.engine.rulesets.divine_right.present import terminal

from .club import Club


@pytest.fixture
def club(story: Club) -> Club:
    """The seeded game (read only)."""
    return story


def test_vp_chart_has_a_column_per_game_turn(club: Club) -> None:
    """Victory: each player's running total per game turn, from the ledger of deeds."""
    points = club.json("vp", "--chart")
    totals = club.json("vp")["totals"]
    assert set(points) == {"alice", "bob", "carol"}
    assert {name: series[-1] for name, series in points.items()} == totals
    assert all(len(series) == 3 for series in points.values())
    text = club.ok("vp", "--chart")  # nobody has scored in this game: no bars drawn
    assert "turns 1..3" in text
    assert all(f"{name}: {totals[name]} VP" in text for name in totals)


def test_chart_blocks_scale_to_the_highest_total() -> None:
    text = terminal.chart_text({"ann": [0, 4, 8], "ben": [0, 0, 2]})
    ann = [line for line in text.splitlines() if "│" in line][:4]
    assert ann[0].endswith("  █│") and ann[-1].endswith(" ██│")
    assert "8 VP" in text and "2 VP" in text


def test_vp_chart_with_no_points_yet_says_so(club: Club) -> None:
    """Issue 32: with every player at 0 the chart drew empty boxes; it says nobody has
    victory points yet and gives each player's 0. The JSON is the series, as ever."""
    at = ("--at", "1.1.random-events")
    assert club.json("vp", "--chart", *at) == {name: [0] for name in ("alice", "bob", "carol")}
    assert club.ok("vp", "--chart", *at).splitlines() == [
        "nobody has victory points yet (turns 1..1)",
        "alice: 0 VP",
        "  bob: 0 VP",
        "carol: 0 VP",
    ]


def test_the_text_map_numbers_rows_and_columns(club: Club) -> None:
    lines = club.ok("map").splitlines()
    assert lines[1].split()[:12] == [str(c % 10) for c in range(12)]
    assert "1 1 1" in lines[0]
    assert lines[2].startswith("  0 ") and lines[2].rstrip().endswith(" 0")
    assert lines[32].startswith(" 30 ") and lines[32].rstrip().endswith("30")
    assert "\x1b" not in "\n".join(lines), "no colour through a pipe"


def test_colour_only_on_a_terminal_and_never_when_asked_not_to(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = club.json("map")
    assert "\x1b[" in terminal.text_map(view, True)
    assert "\x1b" not in terminal.text_map(view, False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert board.use_colour(False)
    assert not board.use_colour(True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not board.use_colour(False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    monkeypatch.delenv("NO_COLOR")
    assert not board.use_colour(False)


def test_no_color_is_an_option_of_map(club: Club) -> None:
    assert "\x1b" not in club.ok("map", "--no-color")
