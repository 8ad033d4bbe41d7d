"""Reading the units a movement command names: a stack by its units' ids, or by its
space (all of the player's units there not aboard a fleet)."""

from __future__ import annotations

from warscribe.engine.errors import IllegalCommand, InvalidCommand

from ..arguments import hex_arg, label, names
from ..data import DRData
from ..sections import MOVEMENT_PHASE, STACKING
from ..state import State, Unit
from ..units import at


def own(state: State, unit_id: str, player: str, rule: str = MOVEMENT_PHASE) -> Unit:
    """The unit, after checking it is on the map and one of the player's forces."""
    unit = state.units.get(unit_id)
    if unit is None:
        raise InvalidCommand(f"no unit {unit_id!r} on the map", rule)
    if state.controller(unit) != player:
        raise IllegalCommand(f"{unit_id} is not one of {player}'s forces", rule)
    return unit


def stack(state: State, data: DRData, value: object, player: str) -> list[Unit]:
    """The units named (ids, or a space: the player's units there not aboard a fleet),
    all the player's and in one space."""
    ids = _ids_or_none(state, value)
    if ids is None:
        hex_ = hex_arg(data, str(value), MOVEMENT_PHASE)
        units = [u for u in at(state, hex_) if state.controller(u) == player and not u.aboard]
        if not units:
            raise IllegalCommand(f"{player} has no units at {label(data, hex_)}", MOVEMENT_PHASE)
        return sorted(units, key=lambda u: u.id)
    units = [own(state, unit_id, player) for unit_id in ids]
    places = {u.hex for u in units}
    if len(places) > 1:
        where = ", ".join(label(data, h) for h in sorted(places))
        raise IllegalCommand(f"the units named are not in one space ({where})", STACKING)
    return units


def _ids_or_none(state: State, value: object) -> tuple[str, ...] | None:
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",") if p.strip()]
        if not parts or not all(p in state.units or "-" in p for p in parts):
            return None
    return names(value, MOVEMENT_PHASE)
