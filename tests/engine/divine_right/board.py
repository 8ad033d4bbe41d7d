"""Arranging the Divine Right board for movement tests: units put where earlier play
would have brought them, kingdoms activated, the table brought to a Movement Phase."""

from __future__ import annotations

import dataclasses
from uuid import UUID

from warscribe.engine import decision
from warscribe.engine.dice import Dice
from warscribe.engine.rulesets.divine_right.data import load_builtin
from warscribe.engine.rulesets.divine_right.evolving import (
    Decision,
    asking,
    evolve,
    scratch_dice,
)
from warscribe.engine.rulesets.divine_right.kingdoms import activate
from warscribe.engine.rulesets.divine_right.special_kingdoms import SPREAD
from warscribe.engine.rulesets.divine_right.state import MERCENARY, Hex, Siege, State, Unit

from .play import Table

DATA = load_builtin()
SEA = (8, 25)  # an open-sea hex
EVENT_ROLLS = {  # the Random Events Table roll giving each event
    "Untimely Death": (1, 1),
    "Storms": (1, 2),
    "Mutiny": (1, 3),
    "Bad Omens": (2, 3),
    "Replacements": (3, 3),
    "Reinforcements": (4, 4),
    "Epidemic": (4, 5),
    "Replacements / Reinforcements": (5, 5),
    "Desertion": (5, 6),
    "Help from Afar": (6, 6),
}


def deciding(state: State, dice: Dice | None = None) -> Decision:
    """A decision on `state` made by a rule alone, outside any command (set `dice` on it
    for the rolls a test arranges)."""
    return decision.Decision(state, None, DATA, dice or scratch_dice(), evolve, asking)


def hex_of(place: str | Hex) -> Hex:
    if isinstance(place, tuple):
        return place
    try:
        return DATA.place(place).hex
    except KeyError:
        return DATA.map.named(place).coord


def put(table: Table, unit: str, at: str | Hex, **changes: object) -> None:
    """Move a unit already on the map to `at` (as earlier movement would have)."""
    moved = dataclasses.replace(table.state.units[unit], hex=hex_of(at), **changes)  # type: ignore[arg-type]
    table.set_state(table.state.with_units([moved]))


def eliminate(table: Table, *units: str) -> None:
    """Regulars eliminated earlier in the game (by combat, say)."""
    for unit in units:
        kingdom = table.state.units[unit].kingdom
        eliminated = table.state.kingdoms[kingdom].eliminated | {unit}
        table.set_state(
            table.state.without_units([unit]).with_kingdom(kingdom, eliminated=eliminated)
        )


def hire(table: Table, unit: str, at: str | Hex, owner: str) -> None:
    """A common mercenary from the pool into `owner`'s forces at `at`."""
    kind = str(DATA.mercenary(unit).kind)
    state = table.state.with_units([Unit(unit, MERCENARY, kind, hex_of(at), owner)])
    pool = tuple(m for m in state.mercenary_pool if m != unit)
    table.set_state(state.replace(mercenary_pool=pool))


def ally(table: Table, kingdom: str, player: str, fresh: bool = False) -> None:
    """The kingdom activated into `player`'s alliance (as diplomacy would); unless `fresh`,
    as if on an earlier turn (no first-turn limits)."""
    out = deciding(table.state, Dice(table.key, UUID(int=7), bytes(32), 10_000))
    activate(out, kingdom, player, "test")
    table.set_state(out.state)
    if kingdom == "Trolls":  # the Trollish monarch chooses his scenic space
        table.do("place", by=player, at="The Face")
    spread(table)
    if not fresh:
        table.set_kingdom(kingdom, activated_on=0)


def spread(table: Table) -> None:
    """Zorn's goblins placed one by one by their player: each in the first space offered."""
    while table.state.turn and (asked := table.state.turn.progress.pending):
        if asked.kind != SPREAD:
            return
        table.do("place", by=asked.player, at=asked.options[0].partition(" at ")[2])


def clear_hex(table: Table, at: str | Hex) -> None:
    """Take every unit off a space (to make room for a test's own stack)."""
    here = hex_of(at)
    gone = [u.id for u in table.state.units.values() if u.hex == here]
    table.set_state(table.state.without_units(gone))


def movement(table: Table, player: str) -> None:
    table.to_phase(1, player, "movement")


def where(table: Table, unit: str) -> Hex:
    return table.state.units[unit].hex


def spent(table: Table, unit: str) -> int:
    assert table.state.turn is not None
    record = table.state.turn.progress.moved(unit)
    return record.spent if record else 0


def besiege(table: Table, castle: str, player: str, since: int | None = None) -> None:
    """A siege of `castle` by `player` standing (as if declared on an earlier turn)."""
    found = DATA.castles[castle]
    siege = Siege(
        castle=found.name,
        kingdom=found.kingdom,
        hex=found.hex,
        besieger=player,
        defence=found.defence,
        declared_on=table.state.number - 1 if since is None else since,
    )
    table.set_state(table.state.replace(sieges=(*table.state.sieges, siege)))
