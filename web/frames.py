"""The board at a past position of the story, for the page's slider and arrow keys (issue
33: "the story beside the board ... as today", the `view` page's stepping): the
presenter's overlay at the end of that position, what changed since the one before marked
(battles, sieges, moves: `cli.viewer.frames_of` and the board's `overlay`, as `view`
draws them), and the panels the page shows, at that position.

The positions are those of the story's slider (`turn.steps`): position N is the Nth
heading of the story. The game is folded from the entries as the page's reader may see
them (`logfile.redact_for`, `view --for`'s hiding): a hidden part of another player's
entry is never folded in, so no panel or mark shows it, whatever the store holds.

Each position is drawn once, when first asked (one a request), and kept until the game's
head moves on: the fold behind them once a head, never on `/api/state` or `/api/reach`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, request

from warscribe.cli.panels import panels
from warscribe.cli.viewer import Frame, frames_of
from warscribe.engine import rulesets
from warscribe.engine.presenter import presenter_of
from warscribe.store import logfile

from .turn import Turn, steps


@dataclasses.dataclass
class Folded:
    """The positions of the story at one head, for one reader: each position's label, the
    game's frames (the state at the end of each position, `frames_of`) and, for each
    position of the story, the index of its frame."""

    head: tuple[int, str]
    labels: list[str]
    frames: list[Frame]
    matched: list[int]
    drawn: dict[int, dict[str, Any]] = dataclasses.field(default_factory=dict)


class BadPosition(Exception):
    """A position the story does not have: why, with the positions it has."""


class Frames:
    """The past positions drawn so far, by reader, while the game's head stays where it is."""

    def __init__(self) -> None:
        self.folded: dict[str | None, Folded] = {}

    def at(self, turn: Turn, asked: str) -> dict[str, Any]:
        """What the page shows at the story's position `asked` (its number on the slider,
        from 0): `BadPosition` when there is none."""
        folded = self._folded(turn)
        count = len(folded.labels)
        if not (asked.isascii() and asked.isdigit()) or int(asked) >= count:
            raise BadPosition(
                f"at: the number of a position of the story, 0 to {count - 1} (the slider's), "
                f"not {asked!r}"
            )
        index = int(asked)
        if index not in folded.drawn:
            folded.drawn[index] = _drawn(turn, folded, index)
        return folded.drawn[index]

    def _folded(self, turn: Turn) -> Folded:
        head = turn.head()
        folded = self.folded.get(turn.player)
        if folded is None or folded.head != (head.seq, head.chain.hex()):
            folded = self.folded[turn.player] = _fold(turn)
        return folded


def _fold(turn: Turn) -> Folded:
    """The story's positions at the head, folded from the entries as the reader sees them."""
    head = turn.head()
    entries = turn.ctx.reads().entries(head.game_id)
    frames, _ = frames_of(logfile.redact_for(entries, turn.player), head.ruleset)
    labels = [step["position"] for step in steps(turn)]
    return Folded((head.seq, head.chain.hex()), labels, frames, _matched(labels, frames))


def _matched(labels: list[str], frames: list[Frame]) -> list[int]:
    """For each label in order, the index of the next frame of that position (a position
    the story tells of is one the game was in; the last frame, should one not be)."""
    found: list[int] = []
    at = 0
    for label in labels:
        ahead = (i for i in range(at, len(frames)) if frames[i].position == label)
        found.append(next(ahead, len(frames) - 1))
        at = found[-1] + 1
    return found


def _drawn(turn: Turn, folded: Folded, index: int) -> dict[str, Any]:
    """Position `index` as the page draws it: its label, the entry it ends at, the board's
    overlay (None: no board) and the panels there; `now` when it is the head's."""
    label = folded.labels[index]
    number = folded.matched[index]
    frame, before = folded.frames[number], folded.frames[number - 1] if number else None
    ruleset = turn.head().ruleset
    board = presenter_of(rulesets.get(ruleset)).board
    overlay = board.overlay(frame.state, before.state if before else None) if board else None
    return {
        "at": index,
        "position": label,
        "seq": frame.seq,
        "now": index == len(folded.labels) - 1,
        "overlay": overlay,
        "panels": panels(ruleset, frame.state, turn.player),
    }


def routes(
    app: Flask,
    frames: Frames,
    turn: Callable[[], Turn],
    answer: Callable[[Any, int], Response],
) -> None:
    """The route of a past position: `/api/frame?at=N` (`answer`: JSON with a status)."""

    @app.get("/api/frame")
    def frame() -> Response:
        try:
            return answer(frames.at(turn(), request.args.get("at", "")), 200)
        except BadPosition as exc:
            return answer({"error": str(exc)}, 404)
