"""`view` (issue 15, item 2): one self-contained HTML page carrying the record it shows,
its positions and charts; a player's page carries nothing hidden from that player."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from .club import Club
from .story import MOVED, play_eu_pop

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


@pytest.fixture
def club(story: Club) -> Club:
    """The seeded game (read only)."""
    return story


def page(club: Club, path: Path, *args: str) -> bytes:
    club.ok("view", "-o", str(path), *args)
    return path.read_bytes()


def carried(html: bytes) -> Any:
    """The data the page carries (its one JSON script)."""
    found = re.search(rb'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


def test_the_page_carries_the_record_and_its_chain(club: Club, tmp_path: Path) -> None:
    """The canonical bytes of every entry, chained from 32 zero bytes with SHA-256, give
    the chain hashes carried and the head `export` reports."""
    data = carried(page(club, tmp_path / "game.html"))
    log = club.json("log")
    assert len(data["entries"]) == len(log)
    chain = bytes(32)
    for entry, line in zip(data["entries"], log, strict=True):
        chain = hashlib.sha256(chain + base64.b64decode(entry["bytes"])).digest()
        assert chain.hex() == entry["chain"] == line["chain"]
    assert data["fingerprint"] == f"#{len(log)} {chain.hex()[:16]}"


def test_positions_step_phase_by_phase_with_the_board_and_the_tables(
    club: Club, tmp_path: Path
) -> None:
    """One position per phase; the board's overlay of the movement phase has the moved
    army in its new hex, the one before it at Farnot."""
    data = carried(page(club, tmp_path / "game.html"))
    positions = [f["position"] for f in data["frames"]]
    assert positions[:7] == [
        "set-up",
        "1.1.random-events",
        "1.1.diplomacy",
        "1.1.siege",
        "1.1.movement",
        "1.1.combat",
        "1.2.random-events",
    ]
    assert len(positions) == len(set(positions)) and positions[-1].startswith("3.1.")
    _, step, unit = MOVED
    moved = data["shared"][data["frames"][4]["overlay"]]
    before = data["shared"][data["frames"][3]["overlay"]]
    assert re.search(rf'data-hex="{step}"[^>]*data-units="[^"]*{unit}', moved)
    assert not re.search(rf'data-hex="{step}"[^>]*data-units="[^"]*{unit}', before)
    assert 'class="move"' in moved
    frame = data["frames"][-1]
    kingdoms = data["shared"][frame["tables"]["Kingdoms"]]
    assert {k["kingdom"] for k in kingdoms} >= {"Hothior", "Mivior", "Muetar"}
    assert set(frame["series"]["Victory points"]) == {"alice", "bob", "carol"}
    assert data["board"].count('class="hex"') > 1000


def test_the_page_is_self_contained(club: Club, tmp_path: Path) -> None:
    """No network: the only address in the page is the SVG namespace, and the page's
    Content-Security-Policy forbids fetching anything."""
    html = page(club, tmp_path / "game.html").decode()
    assert set(re.findall(r"https?://[^\s\"'<>\\]+", html)) == {SVG_NAMESPACE}
    assert "default-src 'none'" in html
    assert "<link" not in html and " src=" not in html


def test_a_players_page_carries_nothing_hidden_from_them(club: Club, tmp_path: Path) -> None:
    """Diplomacy Phase: each player's cards are hidden from the others. Alice's page
    holds her own cards and none of bob's or carol's, nor their salts; the referee's
    holds everyone's."""
    hands = {p: club.json("hand", "--as", p)["cards"] for p in ("alice", "bob", "carol")}
    assert all(hands.values())
    mine = page(club, tmp_path / "alice.html", "--for", "alice")
    everything = page(club, tmp_path / "referee.html")
    others = [c for p in ("bob", "carol") for c in hands[p]]
    assert not [card for card in others if card.encode() in mine]
    assert all(card.encode() in mine for card in hands["alice"])
    assert all(card.encode() in everything for card in others)
    assert carried(mine)["fingerprint"] == carried(everything)["fingerprint"]
    assert carried(mine)["reader"] == "alice"


def test_a_players_page_shows_their_hand_beside_the_board(club: Club, tmp_path: Path) -> None:
    """`view --for bob` (issue 33: "a player's page shows no panel with his hand"): each
    position carries bob's own panels, his hand among them, as `hand --as bob` says it;
    the referee's page, whose tables show everything, carries none."""
    data = carried(page(club, tmp_path / "bob.html", "--for", "bob"))
    last = data["shared"][data["frames"][-1]["panels"]]
    hand = {panel["title"]: panel["text"] for panel in last}["hand"]
    assert hand == club.ok("hand", "--as", "bob").rstrip("\n"), hand
    assert all(card in hand for card in club.json("hand", "--as", "bob")["cards"])
    referee = carried(page(club, tmp_path / "referee.html"))
    assert {frame["panels"] for frame in referee["frames"]} == {None}


def test_a_page_is_never_written_over_without_force(club: Club, tmp_path: Path) -> None:
    path = tmp_path / "game.html"
    path.write_text("mine")
    refused = club.run("view", "-o", str(path))
    assert refused.exit_code == 1 and "--force" in refused.stderr
    assert path.read_text() == "mine"
    club.ok("view", "-o", str(path), "--force")
    assert path.read_bytes().startswith(b"<!DOCTYPE html>")
    stranger = club.run("view", "-o", str(tmp_path / "x.html"), "--for", "mallory")
    assert stranger.exit_code == 1 and not (tmp_path / "x.html").exists()


def test_an_eu_pop_page_charts_treasury_and_prestige(tmp_path: Path) -> None:
    """eu-pop: no board; the realms' table and their treasury and prestige per round."""
    club = Club(tmp_path)
    play_eu_pop(club, tmp_path)
    data = carried(page(club, tmp_path / "eu.html"))
    assert data["ruleset"] == "eu-pop" and data["board"] is None
    series = data["frames"][-1]["series"]
    assert set(series) == {"Treasury (ducats)", "Prestige"}
    assert set(series["Prestige"]) == {"France", "Austria"}
    assert data["frames"][-1]["overlay"] is None


def test_the_eu_pop_realms_are_told_in_words_and_numbers_and_charted_by_round(
    tmp_path: Path,
) -> None:
    """Issue 33: the realms' table showed raw JSON (`{"adm":9,"dip":10,"mil":7}`), the
    charts no round. The table is `treasury`'s own, a column per figure, each cell a word
    or a number; each position past the set-up carries its round for the charts' axis."""
    club = Club(tmp_path)
    play_eu_pop(club, tmp_path)
    data = carried(page(club, tmp_path / "eu.html"))
    realms = data["shared"][data["frames"][-1]["tables"]["Realms"]]
    header = club.ok("treasury").splitlines()[1].split()
    assert [list(row) for row in realms] == [header, header]
    assert header[4:7] == ["adm", "dip", "mil"]
    cells = [cell for row in realms for cell in row.values()]
    assert all(isinstance(cell, str) and not cell.startswith(("{", "[")) for cell in cells)
    france = next(row for row in realms if row["realm"] == "France")
    assert all(france[kind].isdigit() for kind in ("adm", "dip", "mil", "manpower"))
    marks = [(f["position"], f["axis"]) for f in data["frames"]]
    assert marks[0][1] == "" and marks[1:]
    assert all(axis == f"round {position.split('.')[0]}" for position, axis in marks[1:])


def test_the_kingdom_table_leaves_out_the_columns_empty_for_every_kingdom(
    club: Club, tmp_path: Path
) -> None:
    """Issue 33: the kingdom table had many empty columns and scrolled sideways. It
    holds `kingdoms`' words (player or ally in one column, the notes) and the units, and
    no column empty for every kingdom; the charts are marked by game turn."""
    data = carried(page(club, tmp_path / "game.html"))
    first, last = data["frames"][0], data["frames"][-1]
    words = ["kingdom", "status", "player/ally", "monarch", "units", "notes"]
    kingdoms = data["shared"][last["tables"]["Kingdoms"]]
    assert list(kingdoms[0]) == words  # a personality face up: its note
    assert any("personality" in row["notes"] for row in kingdoms)
    at_first = data["shared"][first["tables"]["Kingdoms"]]
    assert list(at_first[0]) == words[:-1]  # no note for any kingdom yet
    for column in words[:-1]:
        assert any(row[column] not in ("", "-", None) for row in kingdoms), column
    hothior = next(row for row in kingdoms if row["kingdom"] == "Hothior")
    assert (hothior["player/ally"], hothior["monarch"]) == ("alice", "on the map")
    assert first["axis"] == "" and last["axis"] == f"turn {last['position'].split('.')[0]}"


def test_the_log_panel_carries_the_storys_sentences(club: Club, tmp_path: Path) -> None:
    """Issue 32: each entry carries its sentence of the story (the rule set's words), the
    one `log --story` tells; none is a dump of fields."""
    data = carried(page(club, tmp_path / "game.html"))
    told = [entry["told"] for entry in data["entries"]]
    story = club.ok("log", "--story")
    assert all(isinstance(text, str) and not re.search(r"\w=\S", text) for text in told)
    ended = [text for text in told if text.endswith("ended the Random Events Phase")]
    assert ended and all(text in story for text in ended)
    assert any(" gave the order end-phase" in text for text in told)
