"""Divine Right's presentation (`warscribe.engine.presenter`): its queries as text, its
board (`board.py`), the viewer's tables and charts at a position, and its events in the
story's words (`story.py`)."""

from __future__ import annotations

from typing import Any

from warscribe.engine.presenter import (
    FLAG,
    READER,
    WORDS,
    Asked,
    Frame,
    Param,
    Presenter,
    Query,
    filled,
    plain,
)

from ..projections import PROJECTIONS
from ..projections import hand as hand_of
from ..state import State
from . import story, text
from .board import BOARD
from .terminal import chart_text, per_turn


def _hand(state: State, asked: Asked) -> dict[str, Any]:
    player = asked.values["player"]
    return {"player": player, "cards": hand_of(state, player)}


def _reach(state: State, asked: Asked) -> list[dict[str, Any]]:
    """Each space the stack reaches: the space, its cost, the path and the command."""
    from ..movement.reach import reach
    from ..specs import data_of

    found = reach(state, data_of(state), ",".join(asked.values["units"]))
    typed = [asked.words(r.command) for r in found]
    return [
        {
            "space": list(r.space),
            "cost": r.route.cost,
            "path": [list(h) for h in r.route.path],
            "command": line,
        }
        for r, line in zip(found, typed, strict=True)
    ]


def _vp(state: State, asked: Asked) -> Any:
    return per_turn(state) if asked.values["chart"] else PROJECTIONS["vp"](state)


def _vp_text(data: Any, asked: Asked) -> str:
    return chart_text(data) if asked.values["chart"] else text.vp_text(data)


QUERIES = {
    "sieges": Query(
        "Each siege: castle, besieger, besieging and inside strengths, defence, whether it "
        "is still valid and whether it is displaced at the end of the game turn.",
        ("sieges --at 3.2.siege --json",),
        plain(text.sieges_text),
    ),
    "hand": Query(
        "Your own diplomacy cards (nobody else's): --as PLAYER, else the store's owner (see "
        "`init`), else the player whose turn it is.",
        ("hand --as alice",),
        plain(text.hand_text),
        _hand,
        (
            Param(
                "player",
                READER,
                "Whose hand (default: the store's owner, else the player whose turn it is).",
                option="--as",
                metavar="PLAYER",
                missing="say whose hand with --as PLAYER",
            ),
        ),
    ),
    "reach": Query(
        "Where a stack can go this Movement Phase: each space, its movement cost, and the "
        "command moving the stack there.\n\nOne line per space it can reach, cheapest first: "
        "the movement points it costs and the `move` (or `ferry`) to type, by one legal "
        "path: alone, led by a monarch among its units, or ferried over a friendly fleet on "
        "the river; a stack of fleets carries the units aboard. Earlier in your player turn, "
        "for the coming Movement Phase as the board stands. STACK: its units, or the space "
        "it stands in.",
        ("reach Muetar-A1 Muetar-A2", 'reach "Port Lork" --json'),
        lambda data, asked: text.reach_text(data, asked.values["units"]),
        _reach,
        (Param("units", WORDS, metavar="STACK..."),),
    ),
    "vp": Query(
        "Victory points: totals and the ledger of deeds; with --chart, each player's points "
        "at the end of every game turn as a bar of Unicode blocks.",
        ("vp --at 5.1.diplomacy", "vp --chart"),
        _vp_text,
        _vp,
        (Param("chart", FLAG, "A chart of each player's points turn by turn."),),
    ),
    "banishments": Query(
        "Each player's banishments in force: kingdom, until when, why.",
        ("banishments --json",),
        plain(text.banishments_text),
    ),
    "kingdoms": Query(
        "Each kingdom: status, ally, monarch, Confusion or Forced Peace.",
        ("kingdoms",),
        plain(text.kingdoms_text),
    ),
    "stacks": Query(
        "Who is where: every stack on the map, inside the walls or aboard.",
        ("stacks --at 3.2.movement",),
        plain(text.stacks_text),
    ),
}


def frame(state: State) -> Frame:
    """The kingdom table in words (its columns empty for every kingdom left out), the
    banishments in force and the victory points, charted by game turn."""
    banishments = PROJECTIONS["banishments"](state)
    return Frame(
        tables={
            "Kingdoms": filled(text.kingdom_rows(PROJECTIONS["kingdoms"](state))),
            "Banishments": [
                {"player": player, **row} for player, rows in banishments.items() for row in rows
            ],
        },
        series={"Victory points": PROJECTIONS["vp"](state)["totals"]},
        axis=f"turn {state.turn.number}" if state.turn else "",
    )


PRESENTER = Presenter(
    QUERIES,
    "TURN.PLAYER-TURN.PHASE or #SEQ (default: now).",
    board=BOARD,
    frame=frame,
    sentences=story.SENTENCES,
)
