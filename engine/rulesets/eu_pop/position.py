"""Starting-position files: JSON text read and checked field by field.

The CLI reads the file and passes its text as the game option `start`; set-up records the
checked realms and world as events, so replay never reads a file. The format is described
in docs/eu-pop.md; `datafiles/example-start.json` is a sample for two realms.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from warscribe.engine.codec import frozen
from warscribe.engine.errors import DataError, InvalidCommand
from warscribe.engine.events import DataRef
from warscribe.engine.ruleset import PlayerSpec

from .ledger import to_ducats
from .rules import START
from .state import PHASES, POWER_TYPES, Advisor, Ally, Leader, Power, Realm, Ruler, World

_TOP = ("name", "notes", "round", "phase", "turn_order", "papacy", "empire")
_REALM = ("ducats", "monarch_power", "manpower", "stability", "prestige", "ruler", "tax")
_REALM_OPTIONAL = (
    "loans", "advisors", "leaders", "armies", "fleets", "units", "idea_income", "allies",
    "influence", "tokens", "ideas",
)  # fmt: skip
_ALLY_OPTIONAL = ("tax_value", "influence", "adjacent", "at_peace", "active")
_UNITS = ("regulars", "mercenaries", "ships_at_sea", "ships_in_port")


@frozen
class StartingPosition:
    """A checked starting-position file; realms have no player until players are bound."""

    name: str
    round: int
    phase: str
    order: tuple[str, ...]
    world: World
    realms: tuple[Realm, ...]


class _Map:
    """One JSON object being read; every error names its path in the file."""

    def __init__(
        self, value: Any, path: str, required: Sequence[str], optional: Sequence[str] = ()
    ) -> None:
        if not isinstance(value, dict):
            raise DataError(f"{path}: expected an object, not {value!r}", START)
        missing = [key for key in required if key not in value]
        unknown = [key for key in value if key not in required and key not in optional]
        problems = [f"missing {', '.join(missing)}"] if missing else []
        problems += [f"unknown {', '.join(unknown)}"] if unknown else []
        if problems:
            raise DataError(f"{path}: {'; '.join(problems)}", START)
        self.value, self.path = value, path

    def fail(self, key: str, message: str) -> DataError:
        return DataError(f"{self.path}.{key}: {message}", START)

    def integer(
        self, key: str, low: int | None = 0, high: int | None = None, default: int = 0
    ) -> int:
        value = self.value.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"expected a whole number, not {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{'' if low is None else low}..{'' if high is None else high}"
            raise self.fail(key, f"{value} is outside {bounds}")
        return value

    def text(self, key: str, default: str | None = None) -> str:
        value = self.value.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected a name, not {value!r}")
        return value.strip()

    def optional_text(self, key: str) -> str | None:
        return None if self.value.get(key) is None else self.text(key)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.value.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, not {value!r}")
        return value

    def ducats(self, key: str) -> Fraction:
        value = self.value.get(key)
        amount = None if isinstance(value, str) else to_ducats(value)
        if amount is None or amount < 0:
            raise self.fail(key, f"expected whole or half ducats, at least 0, not {value!r}")
        return amount

    def items(self, key: str) -> list[Any]:
        value = self.value.get(key, [])
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list, not {value!r}")
        return value

    def entries(self, key: str) -> list[tuple[str, Any]]:
        """The (name, value) pairs of an object whose keys are names (e.g. realms)."""
        value = self.value.get(key, {})
        if not isinstance(value, dict) or not value:
            raise self.fail(key, f"expected an object with at least one entry, not {value!r}")
        return list(value.items())

    def names(self, key: str) -> tuple[str, ...]:
        found = tuple(self.items(key))
        if not all(isinstance(item, str) and item.strip() for item in found):
            raise self.fail(key, f"expected a list of names, not {found!r}")
        _unique(found, f"{self.path}.{key}")
        return found

    def child(self, key: str, required: Sequence[str], optional: Sequence[str] = ()) -> _Map:
        return _Map(self.value.get(key, {}), f"{self.path}.{key}", required, optional)

    def children(
        self, key: str, required: Sequence[str], optional: Sequence[str] = ()
    ) -> list[_Map]:
        return [
            _Map(item, f"{self.path}.{key}[{i}]", required, optional)
            for i, item in enumerate(self.items(key))
        ]


def _unique(names: Sequence[str], path: str) -> None:
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise DataError(f"{path}: {', '.join(twice)} appear more than once", START)


def _power(field: _Map, key: str) -> Power:
    block = field.child(key, POWER_TYPES)
    return Power(*(block.integer(kind) for kind in POWER_TYPES))


def _ruler(field: _Map) -> Ruler | None:
    if field.value["ruler"] is None:
        return None
    block = field.child("ruler", ("name", *POWER_TYPES))
    return Ruler(block.text("name"), Power(*(block.integer(kind) for kind in POWER_TYPES)))


def _advisors(field: _Map) -> tuple[Advisor, ...]:
    advisors = []
    for block in field.children("advisors", ("name", "slot", "skill", "upkeep")):
        slot = block.text("slot")
        if slot not in POWER_TYPES:
            raise block.fail("slot", f"expected one of {', '.join(POWER_TYPES)}, not {slot!r}")
        advisors.append(
            Advisor(block.text("name"), slot, block.integer("skill"), block.integer("upkeep", 1, 4))
        )
    _unique([a.slot for a in advisors], f"{field.path}.advisors (one per slot)")
    return tuple(advisors)


def _leaders(field: _Map, armies: tuple[str, ...], fleets: tuple[str, ...]) -> tuple[Leader, ...]:
    leaders = []
    for block in field.children("leaders", ("name", "kind", "mat")):
        kind, mat = block.text("kind"), block.text("mat")
        mats = {"general": armies, "admiral": fleets}.get(kind)
        if mats is None:
            raise block.fail("kind", f"expected general or admiral, not {kind!r}")
        if mat not in mats:
            raise block.fail("mat", f"{mat!r} is not one of the realm's {kind} mats {list(mats)}")
        leaders.append(Leader(block.text("name"), kind, mat))
    _unique([lead.name for lead in leaders], f"{field.path}.leaders")
    _unique([lead.mat for lead in leaders], f"{field.path}.leaders (one per mat)")
    return tuple(leaders)


def _allies(field: _Map) -> tuple[Ally, ...]:
    allies = []
    for block in field.children("allies", ("name", "kind"), _ALLY_OPTIONAL):
        kind = block.text("kind")
        if kind not in ("npr", "pr"):
            raise block.fail("kind", f"expected npr or pr, not {kind!r}")
        allies.append(
            Ally(
                name=block.text("name"),
                kind=kind,
                tax_value=block.integer("tax_value"),
                influence=block.integer("influence"),
                adjacent=block.boolean("adjacent", False),
                at_peace=block.boolean("at_peace", True),
                active=block.boolean("active", False),
            )
        )
    _unique([a.name for a in allies], f"{field.path}.allies")
    return tuple(allies)


def _realm(name: str, value: Any) -> Realm:
    field = _Map(value, f"realms.{name}", _REALM, _REALM_OPTIONAL)
    realm = _figures(name, field)
    if realm.tax_problem:
        raise field.fail("tax.plague", realm.tax_problem)
    return realm


def _figures(name: str, field: _Map) -> Realm:
    manpower = field.child("manpower", ("available", "exhausted"))
    tax = field.child("tax", ("base",), ("vassal", "plague"))
    units = field.child("units", (), _UNITS)
    armies, fleets = field.names("armies"), field.names("fleets")
    return Realm(
        name=name,
        player="",
        ducats=field.ducats("ducats"),
        power=_power(field, "monarch_power"),
        manpower=manpower.integer("available"),
        exhausted=manpower.integer("exhausted"),
        stability=field.integer("stability", -3, 3),
        prestige=field.integer("prestige", None),
        loans=field.integer("loans"),
        ruler=_ruler(field),
        advisors=_advisors(field),
        leaders=_leaders(field, armies, fleets),
        armies=armies,
        fleets=fleets,
        regulars=units.integer("regulars"),
        mercenaries=units.integer("mercenaries"),
        ships_at_sea=units.integer("ships_at_sea"),
        ships_in_port=units.integer("ships_in_port"),
        base_tax=tax.integer("base"),
        vassal_tax=tax.integer("vassal"),
        plague_tax=tax.integer("plague"),
        idea_income=field.integer("idea_income"),
        allies=_allies(field),
        influence=field.integer("influence"),
        tokens=field.integer("tokens"),
        ideas=field.names("ideas"),
    )


def _world(top: _Map) -> World:
    papacy = top.child("papacy", (), ("controller", "contested", "catholic_prs"))
    empire = top.child("empire", (), ("emperor", "imperial_authority"))
    return World(
        papal_controller=papacy.optional_text("controller"),
        papal_contested=papacy.boolean("contested", False),
        catholic_prs=papacy.integer("catholic_prs"),
        emperor=empire.optional_text("emperor"),
        imperial_authority=empire.integer("imperial_authority"),
    )


def load(text: str) -> StartingPosition:
    """Parse and check a starting-position file's text (raises DataError)."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise DataError(f"the starting position is not JSON: {exc}", START) from None
    top = _Map(data, "starting position", ("realms",), _TOP)
    phase = top.text("phase", "draw")
    if phase not in PHASES:
        raise top.fail("phase", f"expected one of {', '.join(PHASES)}, not {phase!r}")
    return StartingPosition(
        name=top.text("name", "starting position"),
        round=top.integer("round", 1, default=1),
        phase=phase,
        order=top.names("turn_order"),
        world=_world(top),
        realms=tuple(_realm(name, value) for name, value in top.entries("realms")),
    )


def data_ref(text: str, position: StartingPosition) -> DataRef:
    return DataRef(
        kind="start", name=position.name, digest=hashlib.sha256(text.encode()).hexdigest()
    )


def bind_players(
    position: StartingPosition, players: Sequence[PlayerSpec]
) -> tuple[tuple[Realm, ...], tuple[str, ...]]:
    """The played realms, each with its player, in the players' order; and the turn order
    (the file's, restricted to played realms, else the players' order)."""
    known = {realm.name: realm for realm in position.realms}
    if not players:
        raise InvalidCommand("eu-pop needs players: --player NAME=REALM", START)
    for player in players:
        if player.choice not in known:
            raise InvalidCommand(
                f"player {player.name} must name a realm of the starting position "
                f"({', '.join(known)}), not {player.choice!r}: --player NAME=REALM",
                START,
            )
    _unique_players(players)
    realms = tuple(replace(known[p.choice], player=p.name) for p in players if p.choice)
    played = [realm.name for realm in realms]
    order = tuple(name for name in position.order if name in played) or tuple(played)
    if sorted(order) != sorted(played):
        missing = sorted(set(played) - set(order))
        raise DataError(f"starting position.turn_order: misses {', '.join(missing)}", START)
    return realms, order


def _unique_players(players: Sequence[PlayerSpec]) -> None:
    for what, values in (
        ("player", [p.name for p in players]),
        ("realm", [p.choice or "" for p in players]),
    ):
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice:
            raise InvalidCommand(f"each {what} may appear once: {', '.join(twice)}", START)
