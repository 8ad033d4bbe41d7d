"""`log --story` (issue 13, item 5; issue 32): a sentence per thing that happened in the
rulebook's words, the positions as headings; in a player's copy what is hidden reads
hidden."""

from __future__ import annotations

from warscribe.store import logfile
from warscribe.store.app import Warscribe
from warscribe.store.story import story as tell

from .club import Club


def test_log_story_tells_a_players_copy_with_hidden_cards(story: Club) -> None:
    app = Warscribe(story.store)
    game = app.find(None)
    lines = list(tell(logfile.redact_for(app.entries(game.game_id), "alice")))
    assert "== 1.1.random-events ==" in lines
    assert any(" rolled " in line and " for the random event: " in line for line in lines)
    drawn = [line for line in lines if " drew a diplomacy card: " in line]
    assert any(
        line.endswith("a card hidden from this copy") for line in drawn if "alice" not in line
    )
    assert all("hidden" not in line for line in drawn if line.startswith("alice "))
    told = story.ok("log", "--story")
    assert told.count("== ") >= 10 and "hidden from this copy" not in told, "the referee sees all"
