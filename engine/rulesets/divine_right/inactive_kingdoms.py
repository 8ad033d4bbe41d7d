"""Inactive kingdoms and movement: the grace of one Movement Phase after a deactivation or
forced peace (Inactive Kingdoms; Kingdoms › Forced Peace), and the activation of an
invaded inactive kingdom whose castle is besieged (Activation of Invaded Inactive
Kingdoms). The penalty for entering one is `diplomacy.penalty`, called by the moves.

Readings: units of the player still inside a kingdom that went inactive before his
Movement Phase began incur the penalty as that phase ends; units of an invaded kingdom
whose deployment space the enemy holds (other than the castle besieged) are set up in a
space of their kingdom free of enemies that the new ally chooses (`place`).
"""

from __future__ import annotations

import dataclasses

from .arguments import label
from .diplomacy import penalty
from .events import UnitsRelocated
from .evolving import Decision
from .kingdoms import activate, crown
from .movement.terrain import all_sea, geography
from .placement.choice import ask_place, relocation
from .sections import INVADED_INACTIVE
from .state import Hex, State
from .tables import Evolvers, Placement
from .units import castle, enemies, is_fleet

INVADED = "invaded-setup"


def lingering(d: Decision) -> None:
    """The player's units still in a kingdom that went inactive before this Movement Phase
    incur the penalty now."""
    turn = d.state.turn
    assert turn is not None
    player = turn.player
    for kingdom in _lingered_in(d, player):
        why = f"{player}'s units stayed in {kingdom} after the Movement Phase to leave it"
        d.emit(*penalty(d.state, player, kingdom, why))


def _lingered_in(d: Decision, player: str) -> list[str]:
    assert d.state.turn is not None
    found = set()
    for unit in d.state.units.values():
        place = d.data.map.get(*unit.hex)
        if place is None or place.kingdom is None or d.state.controller(unit) != player:
            continue
        standing = d.state.kingdoms.get(place.kingdom)
        inactive = standing is not None and standing.status not in ("player", "active")
        if inactive and standing is not None and standing.deactivated_at != d.state.turn.label:
            found.add(place.kingdom)
    return sorted(found)


def invaded(d: Decision, castle_name: str, besieger: str) -> None:
    """A player besieges a castle of an inactive kingdom (even one in Confusion or under
    Forced Peace): it activates at once for another player picked at random; a kingdom in
    Confusion crowns a new monarch first."""
    kingdom = d.data.place(castle_name).kingdom
    if kingdom is None:
        return
    standing = d.state.kingdoms[kingdom]
    others = [p for p in d.state.active_players() if p != besieger]
    if standing.status in ("player", "active") or not others:
        return
    ally = others[0]
    if len(others) > 1:
        rolled, ally = d.dice.pick(f"which other player the invaded {kingdom} joins", others)
        d.emit(rolled)
    if standing.confusion_until is not None:
        crown(d, kingdom)
    why = f"invaded: {besieger} besieged {castle_name}"
    activate(d, kingdom, ally, why)
    _relocate(d, kingdom, ally)


def _relocate(d: Decision, kingdom: str, ally: str) -> None:
    """Units set up in an enemy-held space that is not a standing castle may be placed in
    any space of their kingdom free of enemies: the new ally chooses which."""
    spaces: dict[Hex, list[str]] = {}
    for unit in d.state.units_of(kingdom):
        if castle(d.state, d.data, unit.hex) is None and enemies(d.state, ally, unit.hex):
            spaces.setdefault(unit.hex, []).append(unit.id)
    for hex_, ids in sorted(spaces.items()):
        fleets = is_fleet(d.state.units[ids[0]])
        free = _free_spaces(d, kingdom, ally, fleets)
        why = f"{label(d.data, hex_)} is held by the enemy: {ally} places {kingdom}'s units"
        ask_place(d, INVADED, ally, [(tuple(ids), h) for h in free], why)


def _free_spaces(d: Decision, kingdom: str, ally: str, fleets: bool) -> list[Hex]:
    geo = geography(d.data)
    return [
        h.coord
        for h in d.data.map.hexes
        if h.kingdom == kingdom
        and not enemies(d.state, ally, h.coord)
        and (geo.floats(h) if fleets else not all_sea(h))
    ]


def _relocated(state: State, event: UnitsRelocated) -> State:
    units = [dataclasses.replace(state.units[u], hex=event.hex) for u in event.units]
    return state.with_units(units)


EVOLVERS: Evolvers = {
    UnitsRelocated: _relocated,
}


PLACEMENTS: dict[str, Placement] = {
    INVADED: relocation(INVADED_INACTIVE, "their deployment space is held by the enemy"),
}
