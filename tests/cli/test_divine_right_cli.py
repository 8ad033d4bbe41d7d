"""Divine Right from the command line: a three-player game with seeded dice through all
20 turns of random events and diplomacy, queried at several positions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .club import Club, new_three, play_turn


def test_twenty_turns_of_random_events_and_diplomacy(tmp_path: Path) -> None:
    """The Game Turn, Random Events, Diplomacy and Victory, from the command line."""
    club = Club(tmp_path)
    # the referee sets up: alice is Hothior, bob Mivior, carol Muetar
    new_three(club, "seeded:20")
    wishes = {"alice": "Neuth", "bob": "Ghem", "carol": "Zorn"}
    seen: list[dict[str, Any]] = []
    for turn in range(1, 21):
        # turn N: each player in the drawn order rolls events and tries diplomacy
        assert club.json("status")["turn"] == turn
        play_turn(club, wishes)
        seen.append({"turn": turn, "kingdoms": club.json("kingdoms"), "vp": club.json("vp")})
    # after turn 20 the game is over, with a winner by victory points
    final = club.json("status")
    assert final["game_over"] and final["game_over"]["winners"]
    assert club.run("events", "roll").exit_code == 1
    # the queries answer the same at any earlier position as they did then
    for record in seen[4::5]:
        turn = record["turn"] + 1
        if turn <= 20:
            at = f"{turn}.1.random-events"
            assert club.json("kingdoms", "--at", at) == record["kingdoms"]
            assert club.json("vp", "--at", at) == record["vp"]
    # the whole record verifies, every die re-derived from the seed
    report = club.json("verify")
    assert report["rolls_checked"] == report["rolls"] > 60
    # somebody won an ally along the way, and every ally is someone's
    statuses = {k["kingdom"]: k for k in club.json("kingdoms")}
    assert all(k["ally"] in (None, "alice", "bob", "carol") for k in statuses.values())
    activations = [e for e in club.json("log") if e["event"] == "KingdomActivated"]
    assert activations


def test_kingdoms_text_has_a_header_row_and_the_json_is_unchanged(story: Club) -> None:
    """Issue 32: `kingdoms` printed its rows with no header; its text now opens with one
    naming the columns, a row under it per kingdom, and `--json` keeps its fields."""
    rows = story.json("kingdoms")
    assert [set(row) for row in rows] == [
        {
            "kingdom", "status", "player", "ally", "monarch", "personality",
            "personality_name", "confusion_until", "forced_peace_until", "activated_on",
            "units",
        }
    ] * len(rows)  # fmt: skip
    header, *lines = story.ok("kingdoms").splitlines()
    assert header.split() == ["kingdom", "status", "player/ally", "monarch", "notes"]
    assert [line.split()[0] for line in lines] == [row["kingdom"] for row in rows]
    hothior = lines[[row["kingdom"] for row in rows].index("Hothior")]
    assert hothior.split()[1:3] == ["player", "alice"]
    assert hothior.index("alice") == header.index("player/ally")
    assert hothior.index("on the map") == header.index("monarch")


def test_queries_refuse_a_game_of_another_rule_set(tmp_path: Path) -> None:
    club = Club(tmp_path)
    start = (
        Path(__file__).resolve().parents[2] / "engine/rulesets/eu_pop/datafiles/example-start.json"
    )
    club.ok("new", "eu-pop", "--player", "a=France", "--player", "b=Austria", "--start", str(start))
    result = club.run("kingdoms")
    assert result.exit_code == 1 and "divine-right" in result.stderr


def test_a_groups_own_deck_is_recorded_and_bad_files_are_refused(tmp_path: Path) -> None:
    """Cards as data: a group loads its own deck (validated on load, recorded in the log)."""
    deck = json.loads(
        (
            Path(__file__).resolve().parents[2]
            / "engine/rulesets/divine_right/datafiles/diplomacy-cards-2024.json"
        ).read_text()
    )
    deck["cards"] = deck["cards"][:5]
    (tmp_path / "small.json").write_text(json.dumps(deck))
    club = Club(tmp_path)
    new_with_deck = ("new", "divine-right", "--player", "a", "--player", "b", "--deck")
    club.ok(*new_with_deck, str(tmp_path / "small.json"), "--dice", "seeded:3")
    assert club.json("status")["diplomacy_deck"] == 5
    club.ok("export", "-o", str(tmp_path / "small.wlog"))
    other = Club(tmp_path / "elsewhere") if (tmp_path / "elsewhere").mkdir() is None else None
    assert other is not None
    other.ok("import", str(tmp_path / "small.wlog"))
    assert other.json("status")["diplomacy_deck"] == 5, (
        "the log carries the deck: replay reads no file"
    )
    (tmp_path / "bad.json").write_text('{"format": "nonsense"}')
    bad = club.run(*new_with_deck, str(tmp_path / "bad.json"))
    assert bad.exit_code == 1 and bad.stderr.startswith("Error: ") and "deck" in bad.stderr
