"""What a unit is and may do on the map: kinds, movement allowances, terrain bonuses,
who its enemies are, castles friendly or hostile to a player, and the movement it has
made this phase (Movement Phase; Heroes › Hero Movement Bonus and Terrain Bonus).

Doubt: the fleets' movement allowance is printed on counters none of our sources read
(kingdoms.json leaves `fleet_ma` empty); a regular fleet without one moves
`FLEET_MA_UNKNOWN` (8), the allowance of the rulebook's example fleet and of the common
mercenary fleets.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warscribe.engine.codec import replace

from .data import Bonus, Castle, DRData, Movement, MovementRule
from .kingdoms import effects
from .state import MERCENARY, Hex, Moved, State, Unit

HERO = "monarch"
ARMY = "army"
FLEET = "fleet"
FLEET_MA_UNKNOWN = 8
ALL_BONUSES = frozenset(Bonus)


def is_hero(unit: Unit) -> bool:
    return unit.kind == HERO


def is_fleet(unit: Unit) -> bool:
    return unit.kind == FLEET


def is_army(unit: Unit) -> bool:
    return unit.kind == ARMY


def home(unit: Unit) -> str | None:
    """The unit's kingdom of origin (None for a common mercenary)."""
    return None if unit.kingdom == MERCENARY else unit.kingdom


def rules_of(state: State, data: DRData, unit: Unit) -> frozenset[MovementRule]:
    """The movement limits of a monarch's personality card."""
    if not is_hero(unit):
        return frozenset()
    return frozenset(e.rule for e in effects(state, data, unit.kingdom) if isinstance(e, Movement))


def allowance(state: State, data: DRData, unit: Unit) -> int:
    """The movement allowance printed on the unit (a personality may slow a monarch)."""
    if unit.kingdom == MERCENARY:
        return data.mercenary(unit.id).movement
    kingdom = data.kingdom(unit.kingdom)
    if is_fleet(unit):
        return kingdom.fleet_ma or FLEET_MA_UNKNOWN
    if is_hero(unit) and MovementRule.MONARCH_MOVES_AS_REGULARS not in rules_of(state, data, unit):
        return kingdom.monarch_ma or 0
    return kingdom.regular_ma or 0


def bonuses(data: DRData, unit: Unit, hex_: Hex) -> frozenset[Bonus]:
    """The unit's terrain bonuses entering `hex_`: those printed on it, and all of them
    inside its home kingdom (Movement Phase › Special Terrain Bonuses, A and C)."""
    kingdom = home(unit)
    if kingdom is None:
        return frozenset()
    place = data.map.get(*hex_)
    if place is not None and place.kingdom == kingdom:
        return ALL_BONUSES
    if is_hero(unit):
        return data.kingdom(kingdom).terrain_bonuses
    return data.unit(unit.id).bonuses


def moved(state: State, unit: str) -> Moved | None:
    return state.turn.progress.moved(unit) if state.turn else None


def spent(state: State, unit: str) -> int:
    record = moved(state, unit)
    return record.spent if record else 0


def with_moves(state: State, changes: Iterable[Moved]) -> State:
    """The state with these units' movement records replaced."""
    return state.with_progress(moves=moves_with(state, changes))


def moves_with(state: State, changes: Iterable[Moved]) -> tuple[Moved, ...]:
    """The movement records with these units' replaced (one record a unit)."""
    assert state.turn is not None
    new = {m.unit: m for m in changes}
    kept = tuple(m for m in state.turn.progress.moves if m.unit not in new)
    return kept + tuple(new.values())


def record_of(state: State, unit: str) -> Moved:
    return moved(state, unit) or Moved(unit=unit)


def bump(state: State, unit: str, points: int, **changes: Any) -> Moved:
    """The unit's movement record after spending `points` more (and these changes)."""
    record = record_of(state, unit)
    return replace(record, spent=record.spent + points, **changes)


# -- who is where --------------------------------------------------------------------------


def at(state: State, hex_: Hex) -> list[Unit]:
    return [u for u in state.units.values() if u.hex == hex_]


def enemies(state: State, player: str, hex_: Hex) -> list[Unit]:
    """Units of other players in the space (those aboard fleets included)."""
    return [u for u in at(state, hex_) if state.controller(u) not in (player, None)]


def enemy_land(state: State, player: str, hex_: Hex) -> list[Unit]:
    """Enemy land combat units in the space (not aboard a fleet)."""
    return [u for u in enemies(state, player, hex_) if is_army(u) and u.aboard is None]


def enemy_fleets(state: State, player: str, hex_: Hex) -> list[Unit]:
    return [u for u in enemies(state, player, hex_) if is_fleet(u)]


def lone_heroes(state: State, player: str, hex_: Hex) -> list[Unit]:
    """Other players' heroes in the space with no combat unit of their side, outside any
    castle walls and not at sea: heroes a search can find."""
    found = []
    for unit in enemies(state, player, hex_):
        side = state.controller(unit)
        escorts = [u for u in at(state, hex_) if state.controller(u) == side and not is_hero(u)]
        if is_hero(unit) and not escorts and not unit.inside and unit.aboard is None:
            found.append(unit)
    return found


# -- castles -------------------------------------------------------------------------------


def castle(state: State, data: DRData, hex_: Hex) -> Castle | None:
    """The castle standing in the space: a castle of the basic game, not plundered."""
    found = data.castle_at(*hex_)
    return None if found is None or found.name in state.plundered else found


def castle_side(state: State, found: Castle) -> str | None:
    """The player whose alliance the castle belongs to (None: a neutral castle)."""
    standing = state.kingdoms.get(found.kingdom or "")
    return standing.controller() if standing else None


def hostile_castle(state: State, data: DRData, player: str, hex_: Hex) -> Castle | None:
    """A standing castle of another alliance, or of an inactive kingdom (Movement Phase ›
    Castles)."""
    found = castle(state, data, hex_)
    return found if found is not None and castle_side(state, found) != player else None


def friendly_castles(state: State, data: DRData, player: str | None) -> list[Castle]:
    """Standing castles of the player's alliance."""
    if player is None:
        return []
    return [
        c
        for c in data.castles.values()
        if c.basic and c.name not in state.plundered and castle_side(state, c) == player
    ]


def nearest(data: DRData, origin: Hex, castles: Iterable[Castle]) -> Castle | None:
    """The castle nearest `origin`; among equally near ones, the first by name."""
    ranked = sorted(castles, key=lambda c: (data.map.distance(origin, c.hex), c.name))
    return ranked[0] if ranked else None


# -- losing units --------------------------------------------------------------------------


def remove(state: State, ids: Iterable[str]) -> State:
    """Units leave the map for good: regulars become eliminated units of their kingdom
    (replaceable later), common mercenaries go back to the mercenary force pool."""
    ids = tuple(ids)
    pool = state.mercenary_pool
    kingdoms = state.kingdoms
    for unit_id in ids:
        unit = state.units[unit_id]
        if unit.kingdom == MERCENARY:
            pool = (*pool, unit_id)
        else:
            if kingdoms is state.kingdoms:
                kingdoms = dict(kingdoms)  # only kingdoms it has: order kept
            standing = kingdoms[unit.kingdom]
            kingdoms[unit.kingdom] = replace(standing, eliminated=standing.eliminated | {unit_id})
    return replace(state, mercenary_pool=pool, kingdoms=kingdoms, units=state.units_without(ids))
