"""`view`: one self-contained HTML file to step through a game by position.

The file carries the record itself — each entry's canonical bytes (`record.canonical_bytes`)
and its chain hash — and the page recomputes the chain with the browser's SHA-256
(chain = SHA-256(previous chain || canonical bytes), from 32 zero bytes), shows the head's
fingerprint (`anchor.fingerprint`) and whether the chain is intact. Its log shows each
entry's sentence of the story (`store.story.told`, the rule set's words), written here;
the entry's number and the host's mark on a command are decoded from the checked bytes.

Beside the record, for every position (the start of each phase, and the end), what the
game's presenter shows (`warscribe.engine.presenter`): its board, when it has one (the fixed
map once, the position as a small SVG overlay, each different one once), its tables and its
charts (Divine Right's kingdoms, banishments and victory points; eu-pop's realms' treasury
and prestige). A player's view (`--for`) is made from the entries as that player may see
them (`logfile.redact_for`): a hidden part is carried only when it is the reader's own; the
projections drawn are public ones.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from importlib import resources
from typing import Any

import click

from warscribe.engine import rulesets
from warscribe.engine.anchor import fingerprint
from warscribe.engine.codec import frozen
from warscribe.engine.hidden import split
from warscribe.engine.presenter import Presenter, presenter_of
from warscribe.engine.record import Entry, canonical_bytes, fold
from warscribe.store import logfile, story
from warscribe.store.views import jsonable, printable

from .board import check_player
from .context import Context, pass_ctx, say
from .files import Output, force_option, write_file
from .panels import panels

MARK = "/*WARSCRIBE-DATA*/"


@frozen
class Frame:
    """A position of the game: the last entry folded and the state then."""

    seq: int
    position: str
    state: Any


class Shared:
    """Values stored once and referred to by index (most positions repeat the last one's
    tables)."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._index: dict[str, int] = {}

    def add(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True)
        if key not in self._index:
            self._index[key] = len(self.values)
            self.values.append(value)
        return self._index[key]


def frames_of(entries: Iterable[Entry], ruleset: str) -> tuple[list[Frame], dict[int, str]]:
    """The positions (each phase's start, and the last entry) and each entry's position."""
    rs = rulesets.get(ruleset)
    head = None
    frames: list[Frame] = []
    positions: dict[int, str] = {}
    last = None
    for entry in entries:
        head = fold((entry,), head)
        label = rs.position(head.state) or "set-up"
        positions[entry.seq] = label
        if label != last:
            frames.append(Frame(entry.seq, label, head.state))
        else:
            frames[-1] = Frame(entry.seq, label, head.state)
        last = label
    return frames, positions


def page_data(
    title: str, ruleset: str, player: str | None, full: list[Entry], shown: list[Entry]
) -> dict[str, Any]:
    """Everything the page shows, as JSON-able data."""
    frames, positions = frames_of(full, ruleset)
    presenter = presenter_of(rulesets.get(ruleset))
    shared = Shared()
    head = shown[-1]
    return {
        "title": title,
        "ruleset": ruleset,
        "reader": player,
        "fingerprint": fingerprint(head.seq, head.chain),
        "entries": [
            _entry(entry, positions[entry.seq], told.text)
            for entry, told in zip(shown, story.told(shown), strict=True)
        ],
        "board": presenter.board.base(frames[0].state) if presenter.board and frames else None,
        "frames": [
            {
                "seq": frame.seq,
                "position": frame.position,
                **_drawn(presenter, frame, before, shared),
                "panels": _panels(ruleset, frame, player, shared),
            }
            for frame, before in zip(frames, [None, *frames[:-1]], strict=True)
        ],
        "shared": shared.values,
    }


def _panels(ruleset: str, frame: Frame, player: str | None, shared: Shared) -> int | None:
    """The reader's own panels at the position (their hand, the decision asked): none on
    the referee's page, whose tables show everything."""
    if player is None:
        return None
    return shared.add(panels(ruleset, frame.state, player, own=True))


def _entry(entry: Entry, position: str, sentence: str) -> dict[str, Any]:
    """An entry as carried: canonical bytes (base64), the chain hash it claims, its
    position, its sentence of the story (`store.story.told`, as this copy tells it), and
    its hidden part when the reader may see it (the salt is kept only then)."""
    _, hidden = split(entry.event)
    return {
        "bytes": base64.b64encode(canonical_bytes(entry)).decode(),
        "chain": entry.chain.hex(),
        "position": position,
        "told": sentence,
        "own": printable(jsonable(hidden)) if hidden and entry.salt is not None else None,
    }


def _drawn(
    presenter: Presenter, frame: Frame, before: Frame | None, shared: Shared
) -> dict[str, Any]:
    """A position as the presenter shows it: the board's overlay (None: no board), its
    tables, its series and its mark on the charts' axis (every string escaped, `printable`)."""
    board = presenter.board
    overlay = board.overlay(frame.state, before.state if before else None) if board else None
    shown = presenter.frame(frame.state)
    return {
        "overlay": None if overlay is None else shared.add(overlay),
        "tables": {title: shared.add(printable(rows)) for title, rows in shown.tables.items()},
        "series": printable(dict(shown.series)),
        "axis": printable(shown.axis),
    }


def html_page(data: dict[str, Any]) -> bytes:
    """The page: the template with the data inlined as JSON (every `<`, `>` and `&`
    written as a \\u escape, so nothing in it can close the script or open markup)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    template = resources.files("warscribe.cli").joinpath("viewer.html").read_text("utf-8")
    return template.replace(MARK, text).encode()


@click.command()
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The HTML file to write.",
)
@click.option(
    "--for",
    "player",
    default=None,
    metavar="PLAYER",
    help="The view PLAYER may see: their own hidden parts, nobody else's.",
)
@force_option
@pass_ctx
def view(ctx: Context, output: str, player: str | None, force: bool) -> None:
    """Write the game as one HTML page to step through position by position (slider,
    arrow keys, or a click on a log line): the board, the tables, the log with its dice
    and rule citations, and charts; the page checks the record's hash chain itself.

    \b
    Example:
      warscribe view -o game.html
      warscribe view -o alice.html --for alice
    """
    listing = ctx.game()
    check_player(ctx, player)
    full = list(ctx.reads().entries(listing.game_id))
    shown = list(logfile.redact_for(full, player))
    data = page_data(listing.name, listing.ruleset, player, full, shown)
    write_file(Output(output, html_page(data)), force=force, store=ctx.store)
    say(f"wrote {len(data['frames'])} positions to {output}; head {data['fingerprint']}", err=True)
