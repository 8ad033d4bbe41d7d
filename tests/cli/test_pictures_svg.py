"""`map --svg`: the Divine Right board as a picture (issue 15, item 1), drawn from the map
data and the position; a player's picture shows nothing hidden from that player."""

from __future__ import annotations

import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.engine.divine_right.board import DATA
from warscribe.cli import board as svgmap

from .club import Club, new_three
from .story import MOVED, MOVED_AT

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def club(story: Club) -> Club:
    """The seeded game (read only)."""
    return story


def picture(club: Club, path: Path, *args: str) -> ET.Element:
    club.ok("map", "--svg", str(path), *args)
    return ET.parse(path).getroot()


def marked(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if cls in e.get("class", "").split()]


def test_one_polygon_per_map_hex_and_every_edge_numbered(club: Club, tmp_path: Path) -> None:
    """The hex grid: one polygon per hex of the map data, columns and rows numbered."""
    root = picture(club, tmp_path / "now.svg")
    hexes = marked(root, "polygon", "hex")
    assert len(hexes) == len(DATA.map.hexes)
    assert {h.get("data-hex") for h in hexes} == {f"{h.col},{h.row}" for h in DATA.map.hexes}
    numbers = [t.text for t in marked(root, "text", "coord")]
    last_col = max(h.col for h in DATA.map.hexes)
    last_row = max(h.row for h in DATA.map.hexes)
    assert numbers.count(str(last_col)) >= 2 and numbers.count(str(last_row)) >= 2
    assert marked(root, "line", "coast") and marked(root, "line", "border")
    assert marked(root, "line", "navigable") and marked(root, "line", "river")
    names = {t.text for t in marked(root, "text", "kingdom-name")}
    assert {"Hothior", "Mivior", "Muetar"} <= names


def test_a_moved_stack_is_in_its_new_hex_and_highlighted(club: Club, tmp_path: Path) -> None:
    """Movement Phase: Farnot's army marched to 11,18; the picture of the next phase
    shows its counter there, the hex highlighted and an arrow from Farnot."""
    space, step, unit = MOVED
    root = picture(club, tmp_path / "after.svg", "--at", MOVED_AT)
    mine = [g for g in marked(root, "g", "counter") if unit in g.get("data-units", "").split()]
    assert [g.get("data-hex") for g in mine] == [step]
    assert mine[0].get("data-kingdom") == "Hothior"
    assert int(mine[0].get("data-count", "0")) >= 1
    assert step in {p.get("data-hex") for p in marked(root, "polygon", "moved")}
    assert len(marked(root, "line", "move")) == 1
    assert [t.text for t in marked(root, "text", "move-news")] == ["alice: 1 Hothior"]
    # the same game one phase earlier: the army still at Farnot, nothing highlighted
    before = picture(club, tmp_path / "before.svg", "--at", "1.1.movement")
    farnot = "{},{}".format(*DATA.place(space).hex)
    there = [g for g in marked(before, "g", "counter") if unit in g.get("data-units", "").split()]
    assert [g.get("data-hex") for g in there] == [farnot]
    assert not marked(before, "line", "move")
    assert (tmp_path / "before.svg").read_bytes() != (tmp_path / "after.svg").read_bytes()


def test_castles_show_their_defence_and_monarchs_are_marked(club: Club, tmp_path: Path) -> None:
    """Castles with their defence value (castles.json, MAP ERRATA applied), and each
    monarch's counter marked ♚."""
    root = picture(club, tmp_path / "now.svg")
    castles = {g.get("data-hex"): g for g in marked(root, "g", "castle")}
    for castle in (c for c in DATA.castles.values() if c.basic):
        drawn = castles["{},{}".format(*castle.hex)]
        assert drawn.get("data-defence") == str(castle.defence)
        assert drawn.find(SVG + "text") is not None
        assert drawn.find(SVG + "text").text == str(castle.defence)  # type: ignore[union-attr]
    monarchs = [
        g for g in marked(root, "g", "counter") if "Hothior-monarch" in g.get("data-units", "")
    ]
    assert monarchs and "\u265a" in (monarchs[0].find(SVG + "text").text or "")  # type: ignore[union-attr]


def test_names_are_escaped(tmp_path: Path) -> None:
    """A player's name with markup in it is text in the picture, not markup."""
    club = Club(tmp_path)
    name = 'a<b>&"z'
    club.ok("new", "divine-right", "--player", f"{name}=Hothior", "--player", "bob=Mivior")
    path = tmp_path / "start.svg"
    root = picture(club, path)
    assert name.encode() not in path.read_bytes()
    titles = [t.text or "" for t in root.iter(SVG + "title")]
    assert any(f"Hothior-monarch ({name})" in t for t in titles)


def test_a_players_picture_carries_nothing_hidden_and_files_are_kept(
    club: Club, tmp_path: Path
) -> None:
    """Diplomacy Phase: the cards in bob's hand are hidden from alice; her picture holds
    none of them. A file is never replaced without --force; --for names a player."""
    cards = club.json("hand", "--as", "bob")["cards"]
    assert cards
    path = tmp_path / "alice.svg"
    picture(club, path, "--for", "alice")
    data = path.read_bytes()
    assert not [card for card in cards if card.encode() in data]
    refused = club.run("map", "--svg", str(path), "--for", "alice")
    assert refused.exit_code == 1 and "--force" in refused.stderr
    assert path.read_bytes() == data
    club.ok("map", "--svg", str(path), "--force", "--at", "1.1.movement")
    assert path.read_bytes() != data
    stranger = club.run("map", "--svg", str(tmp_path / "x.svg"), "--for", "mallory")
    assert stranger.exit_code == 1 and not (tmp_path / "x.svg").exists()


def test_new_three_draws_the_same_board_twice(tmp_path: Path) -> None:
    """The picture is a pure function of the position: two stores, the same bytes."""
    outputs = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        club = Club(tmp_path / name)
        new_three(club, "seeded:1")
        club.ok("map", "--svg", str(tmp_path / name / "b.svg"))
        outputs.append((tmp_path / name / "b.svg").read_bytes())
    assert outputs[0] == outputs[1]


def test_a_png_is_drawn_by_chromium_and_refused_without_it(
    club: Club, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--png where a converter (Chromium) is installed; never required."""
    if shutil.which("chromium") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no Chromium in CI (.ci/run installs it)")
        pytest.skip("no Chromium to draw a PNG (apt-get install chromium)")
    path = tmp_path / "board.png"
    club.ok("map", "--png", str(path), "--at", MOVED_AT)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000
    monkeypatch.setattr(svgmap, "CHROMIUM", ("no-such-browser",))
    refused = club.run("map", "--png", str(tmp_path / "none.png"), "--svg", str(tmp_path / "a.svg"))
    assert refused.exit_code == 1 and "needs Chromium" in refused.stderr
    assert not (tmp_path / "none.png").exists() and not (tmp_path / "a.svg").exists()
