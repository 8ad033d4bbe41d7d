"""Naming the spaces of the map: a hex as players call it, and a hex from what they typed
(a castle, a location or a named hex, or `COL,ROW`); the kinds of Divine Right's
arguments, a space (`HEX`) and a path (`PATH`) read as hexes of the game's map."""

from __future__ import annotations

from typing import Any

from warscribe.engine.commands import TEXT, Kind
from warscribe.engine.errors import InvalidCommand

from .data import DRData
from .sections import MOVEMENT_PHASE
from .state import Hex


def label(data: DRData, hex_: Hex) -> str:
    """A hex as players name it: its map name, else `COL,ROW`."""
    found = data.map.get(*hex_)
    return found.name if found is not None and found.name else f"{hex_[0]},{hex_[1]}"


def hex_arg(data: DRData, text: str, rule: str) -> Hex:
    """The hex `text` names: `COL,ROW`, a castle or location, or a hex the map names."""
    col, sep, row = text.partition(",")
    if sep and col.strip().isdigit() and row.strip().isdigit():
        return (int(col), int(row))
    try:
        return data.place(text.strip()).hex
    except KeyError:
        pass
    try:
        return data.map.named(text.strip()).coord
    except KeyError:
        raise InvalidCommand(
            f"no place or hex {text!r} (name a castle, a port or COL,ROW)", rule
        ) from None


def path_arg(data: DRData, value: object, rule: str) -> tuple[Hex, ...]:
    """A path: hexes separated by commas (or semicolons), each a name or `COL,ROW`
    (`12,7,13,7,Pennol` is three hexes), or a sequence of hexes already read."""
    if isinstance(value, tuple | list):
        return tuple(_one_hex(data, item, rule) for item in value)
    if not isinstance(value, str) or not value.strip():
        raise InvalidCommand("give the path: hexes by name or COL,ROW, separated by commas", rule)
    tokens = [t.strip() for t in value.replace(";", ",").split(",") if t.strip()]
    hexes: list[Hex] = []
    while tokens:
        token = tokens.pop(0)
        if token.isdigit():
            if not tokens or not tokens[0].isdigit():
                raise InvalidCommand(f"{token!r} in the path is not COL,ROW nor a name", rule)
            hexes.append((int(token), int(tokens.pop(0))))
        else:
            hexes.append(hex_arg(data, token, rule))
    return tuple(hexes)


def _one_hex(data: DRData, item: object, rule: str) -> Hex:
    if isinstance(item, tuple | list) and len(item) == 2 and all(isinstance(v, int) for v in item):
        return (int(item[0]), int(item[1]))
    return hex_arg(data, str(item), rule)


def names(value: object, rule: str, what: str = "unit") -> tuple[str, ...]:
    """Ids given as `A,B,...` or a sequence, each once."""
    if isinstance(value, str):
        found = tuple(v.strip() for v in value.split(",") if v.strip())
    elif isinstance(value, tuple | list):
        found = tuple(str(v) for v in value)
    else:
        found = ()
    if not found:
        raise InvalidCommand(f"name the {what}(s): A,B,...", rule)
    if len(set(found)) != len(found):
        raise InvalidCommand(f"a {what} is named twice", rule)
    return found


def _listed(value: object) -> str | tuple[str, ...] | None:
    """Text as typed (the rules read it: ids, or a space by name or `COL,ROW`), or a
    sequence of names."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, tuple | list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _hexes(value: object) -> str | tuple[object, ...] | None:
    """A path as typed, or a sequence of hexes, each a name, `COL,ROW` or a pair."""
    if isinstance(value, str):
        return value.strip() or None
    if not isinstance(value, tuple | list) or not value:
        return None
    pair = (tuple, list)
    ok = all(
        isinstance(v, str)
        or (isinstance(v, pair) and len(v) == 2 and all(type(n) is int for n in v))
        for v in value
    )
    return tuple(value) if ok else None


UNITS: Kind[Any] = Kind("a list of names", _listed, "UNIT...", many=True)
"""Units (or the space they stand in), typed as several words and sent joined with commas."""
ATTACKS: Kind[Any] = Kind(
    "a list of attacks, ATTACKERS>SPACES", _listed, "ATTACKERS>SPACES...", many=True, joiner=";"
)
PATH: Kind[Any] = Kind(
    "a path: hexes by name or COL,ROW",
    _hexes,
    "HEX,HEX,...",
    resolve=lambda data, value, rule: path_arg(data, value, MOVEMENT_PHASE),
)
"""The spaces a stack enters in turn, read as hexes (refused under the Movement Phase)."""
HEX: Kind[Any] = Kind(
    "text", TEXT.read, "HEX", resolve=lambda data, value, rule: hex_arg(data, value, rule)
)
"""A space by name or `COL,ROW`, read as its hex."""
HEXES: Kind[Any] = Kind("a list of hexes", _hexes, "HEX", many=True, joiner=";")
"""Spaces, one per `--to`, sent joined with semicolons (a hex is `COL,ROW`)."""
