"""The board at a past position of the story (`/api/frame`, web/frames.py): stepping the
story's slider back redraws the board as it stood then, the move since the position before
marked, and the panels then; a player's frames fold only what that player may see (another
player's hidden card is in none of them, whatever the store holds); a position the story
does not have is refused with the positions it has."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from click.testing import Result

from tests.cli.test_pbem import send_orders, sync
from warscribe.cli.context import Context

from .conftest import opened
from .test_serve import STACK, TURN_START

MOVED = (*TURN_START, f"move {STACK} --path 9,14", "end-phase", "end-phase")
"""Alice's first turn, her stack at Tadafat moved to 9,14."""


def _hex(overlay: str, units: str) -> str:
    """Where the counter of `units` stands in `overlay`."""
    counter = rf'<g class="counter [^"]*" data-hex="([^"]+)"[^>]*data-units="{units}"'
    found = re.search(counter, overlay)
    assert found is not None, overlay
    return found[1]


def frames(browser: Any) -> list[dict[str, Any]]:
    """Every position of the story as the page's slider asks for it, one a request."""
    count = len(browser.get("/api/story").get_json()["story"])
    return [browser.get(f"/api/frame?at={at}").get_json() for at in range(count)]


def test_a_past_position_shows_the_board_and_panels_as_they_were(
    stores: tuple[Callable[..., Result], str],
) -> None:
    run, player = stores
    assert send_orders(run, player, MOVED).exit_code == 0
    sync(run)
    with opened(f"{player}.db") as (browser, _):
        drawn = frames(browser)
        state = browser.get("/api/state").get_json()
    steps = {frame["position"]: frame for frame in drawn}
    assert [frame["now"] for frame in drawn] == [False] * (len(drawn) - 1) + [True]
    assert _hex(state["overlay"], STACK) == _hex(drawn[-1]["overlay"], STACK) == "9,14"
    before, moved = steps["1.1.siege"], steps["1.1.movement"]
    assert _hex(before["overlay"], STACK) != "9,14"  # at Tadafat then
    arrow = '<line class="move"'
    assert arrow in moved["overlay"] and arrow not in before["overlay"]
    assert moved["seq"] < drawn[-1]["seq"] and moved["panels"][0]["title"]


def test_a_players_frames_never_show_another_players_hidden_card(
    battle: tuple[Callable[..., Result], str],
) -> None:
    """Alice drew black-magic+2#2 in secret (bob drew #3): it is in her frames, folded
    from the referee's whole record, never in bob's, served from his store or folded
    from the referee's (`view --for`'s hiding)."""
    from warscribe.web.frames import Frames
    from warscribe.web.turn import Turn

    with opened("bob.db") as (browser, _):
        served = json.dumps(frames(browser))
    ctx, made = Context("referee.db", None), Frames()
    count = len(json.loads(served))
    folded = {
        who: json.dumps([made.at(Turn(ctx, who), str(at)) for at in range(count)])
        for who in ("alice", "bob")
    }
    ctx.close()
    assert "black-magic+2#2" in folded["alice"] and "black-magic+2#3" in folded["bob"]
    for shown in (served, folded["bob"]):
        assert "black-magic+2#2" not in shown and "black-magic+2#3" in shown
    states = [repr(frame.state) for frame in made.folded["bob"].frames]
    assert "black-magic+2#2" in repr(made.folded["alice"].frames[-1].state)
    assert not any("black-magic+2#2" in state for state in states)  # never folded in


def test_a_position_the_story_does_not_have_is_refused(client: tuple[Any, str]) -> None:
    browser, _ = client
    count = len(browser.get("/api/story").get_json()["story"])
    for asked in (str(count), "-1", "x", "", "1e3", "\u00b2", "\u0661"):  # ², Arabic 1
        answer = browser.get("/api/frame", query_string={"at": asked})
        error = answer.get_json()["error"]
        assert answer.status_code == 404, asked
        assert error == f"at: the number of a position of the story, 0 to {count - 1} " + (
            f"(the slider's), not {asked!r}"
        )
    assert browser.get(f"/api/frame?at={count - 1}").get_json()["now"] is True
