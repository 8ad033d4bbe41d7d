"""`log --story` (issue 13, item 5): one sentence per decision in the rulebook's words,
the positions as headings; in a player's copy what is hidden reads hidden."""

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
    assert any("Random Events Phase: events-roll, random events 2d6=" in line for line in lines)
    drawn = [line for line in lines if "diplomacy card drawn:" in line]
    assert any("card hidden (1 card)" in line for line in drawn if ", alice:" not in line)
    assert all("hidden" not in line for line in drawn if ", alice:" in line)
    told = story.ok("log", "--story")
    assert told.count("== ") >= 10 and "card hidden" not in told, "the referee sees every card"
