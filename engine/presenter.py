"""How a game presents itself: the text of its queries, its board (SVG and terminal text),
its viewer's frames and its story's words, behind one small protocol the command line, the
viewer and the story (`store.story`, through `RuleBook.sentence`) ask.

A rule set names its presenter as `"module:ATTRIBUTE"` (`RuleBook.presenter`); it is
imported on first use (`presenter_of`), never with the rules: a `status` or a replay draws
nothing. Nothing here is drawn: a presenter returns data and text, the caller decides where
they go (a terminal, a file, a page). See docs/developing.md, "How a game presents itself".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import Any, Protocol

from warscribe.engine.codec import frozen

from .events import Command, Event
from .names import UNPRINTABLE

# What a query's parameter is, as the command line takes it
FLAG = "flag"
"""A bare flag (`--chart`): True when given."""
COUNT = "count"
"""A whole number from 1 (`--round 2`): a smaller one is a usage error."""
WORDS = "words"
"""One or more words after the query (`reach Muetar-A1 Muetar-A2`)."""
VALUE = "value"
"""A value given to an option (`--reach STACK`)."""
READER = "reader"
"""The player the answer is for: `--as PLAYER`, else the store's owner, else the player
whose turn it is (`Param.missing` says what to do when there is none)."""


@frozen
class Param:
    """A parameter of a query beyond `--at` and `--json`: its name (the key its value has
    in `Asked.values`), its kind (`FLAG`, `COUNT`, `WORDS`, `VALUE`, `READER`), its option on
    the command line (`--NAME` unless given), its metavar and help."""

    name: str
    kind: str
    help: str = ""
    option: str | None = None
    metavar: str | None = None
    missing: str = ""
    """`READER` only: the usage error when no player is found."""


@frozen
class Asked:
    """What a query was asked: its parameters' values (None, False or () when not given; a
    `READER` as the player found), and `words`, a command as the player would type it."""

    values: Mapping[str, Any]
    words: Callable[[Command], str]


@frozen
class Query:
    """A query of the game: its help (paragraphs in the game's words) and examples, `data`
    (the state and what was asked -> JSON-able data; None: the projection of the query's
    name), and `text`: that data, every string in it already escaped, and what was asked ->
    the lines a player reads."""

    help: str
    example: tuple[str, ...]
    text: Callable[[Any, Asked], str]
    data: Callable[[Any, Asked], Any] | None = None
    params: tuple[Param, ...] = ()


class Board(Protocol):
    """A game's board: as SVG (for a file, a PNG, a page) and as text for a terminal."""

    title: str
    """The picture's title, before its position (`Divine Right at 3.2.combat (#120)`)."""
    help: str
    """The help of `map` for this board (its words: what the picture shows)."""
    example: tuple[str, ...]
    params: tuple[Param, ...]
    """What it draws beyond the position (`--reach STACK`): given only with a picture."""

    def svg(self, state: Any, before: Any, title: str, asked: Asked) -> str:
        """The whole picture of `state`, what changed since `before` (None: nothing) marked."""
        ...

    def base(self, state: Any) -> str:
        """The fixed part of the picture (the map), with room for `overlay`."""
        ...

    def overlay(self, state: Any, before: Any) -> str:
        """What `state` puts on `base` (the stacks, the sieges, the changes since `before`)."""
        ...

    def data(self, state: Any) -> Any:
        """The board as JSON-able data (`map --json`)."""
        ...

    def text(self, data: Any, colour: bool) -> str:
        """`data` (every string escaped) as terminal text, with ANSI colours when `colour`."""
        ...


@frozen
class Frame:
    """What the viewer shows at a position beside the log and the board: tables (title ->
    rows of JSON-able data, best in words and numbers), series charted position by
    position (title -> name -> number), and the position's mark on the charts' axis in the
    game's words (`round 2`, `turn 3`; the axis is marked where it changes; "": none)."""

    tables: Mapping[str, list[Any]]
    series: Mapping[str, Mapping[str, Any]]
    axis: str = ""


def filled(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`rows` without the columns empty in every row (None, "", "-" or nothing)."""
    kept = [k for k in (rows[0] if rows else {}) if any(r[k] not in (None, "", "-") for r in rows)]
    return [{k: row[k] for k in kept} for row in rows]


NO_FRAME = Frame({}, {})


@frozen
class Presenter:
    """A game's presentation: the text of its queries, its board (None: it has none), the
    viewer's tables and charts at a position (`frame(state)`), the help of `--at` in its
    positions' words, and its story's words for its events (`sentences`)."""

    queries: Mapping[str, Query]
    at_help: str
    board: Board | None = None
    frame: Callable[[Any], Frame] = lambda state: NO_FRAME
    sentences: Mapping[type, Callable[[Any, Any], str | None]] | None = None
    """The story's words for each of the game's event classes (`sentence`); None: none."""

    def sentence(self, event: Event, state: Any) -> str | None:
        """`event` as a sentence of the story, in the rulebook's words, told on the state
        before it (None: the story's generic words, `store.story`)."""
        told = self.sentences.get(type(event)) if self.sentences else None
        return told(event, state) if told is not None else None


BARE = Presenter({}, "A position or #SEQ.")
"""The presenter of a game that declares none: its projections as JSON, no board."""


def presenter_of(ruleset: Any) -> Presenter:
    """The presenter `ruleset` names (`"module:ATTRIBUTE"`, imported on first use), or
    `BARE` when it names none."""
    named: str | None = getattr(ruleset, "presenter", None)
    if named is None:
        return BARE
    found = _FOUND.get(named)
    if found is None:
        module, _, attribute = named.partition(":")
        found = _FOUND[named] = getattr(import_module(module), attribute)
    return found


_FOUND: dict[str, Presenter] = {}
"""Each presenter found, by the name its rule set gives (a story asks once an event)."""


def plain(text: Callable[[Any], str]) -> Callable[[Any, Asked], str]:
    """A query's text made of its data alone."""
    return lambda data, asked: text(data)


def columns(rows: Sequence[Sequence[str]], right_from: int = 1) -> list[str]:
    """Rows aligned in columns; columns from `right_from` on are right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(width) if i >= right_from else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped(text: str) -> str:
    """`text` as one printable line: every control or format character (a newline, a
    terminal escape code, a bell, a right-to-left override...) shown as an escape such as
    `\\n`, `\\x1b` or `\\u202e`, so text from a log can neither forge a line nor drive the
    terminal it is printed on."""
    if text.isprintable():
        return text
    return "".join(_escape(c) if unicodedata.category(c) in UNPRINTABLE else c for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    named = _NAMED_ESCAPES.get(char)
    if named is not None:
        return named
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def escaped_lines(text: str) -> str:
    """Text of several lines, each line `escaped` (the line breaks kept)."""
    return "\n".join(escaped(line) for line in text.split("\n"))


def printable(value: Any) -> Any:
    """A copy of plain data (dicts, lists, tuples) with every string `escaped`."""
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, dict):
        return {printable(k): printable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [printable(v) for v in value]
    if isinstance(value, tuple):
        return tuple(printable(v) for v in value)
    return value
