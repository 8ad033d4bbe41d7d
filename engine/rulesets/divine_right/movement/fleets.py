"""Fleets carrying troops and heroes (Movement Phase › Transporting Troops): embarking and
debarking, what a fleet carries, the river hexsides enemy fleets control, and the
rescue of castaways from the Isle of Fright.

Each fleet carries one land combat unit and any number of heroes; nobody embarks or
debarks in a coastal space with mountains; units the fleet carried while it moved may
not move again that turn once ashore (read for river transport as for sea transport).
Fleets sharing a space with enemy land units leave it: displaced from a non-castle port
the enemy took as his Movement Phase ends (their owner choosing where), and otherwise
moved away in their owner's next Movement Phase (Non-Castle Ports; Mixed-Type Combat).
"""

from __future__ import annotations

from warscribe.engine.codec import replace
from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand

from ..arguments import label, names
from ..data import DRData
from ..diplomacy import penalty
from ..events import DecisionAsked, HeroRescued, UnitsDebarked, UnitsEmbarked
from ..evolving import Decision
from ..heroes import entry_trigger, fate
from ..placement.choice import placement_asked, relocation
from ..sections import (
    ACTIVATION_OF_KINGDOMS,
    ENEMY_UNITS,
    MIXED_TYPE_COMBAT,
    NON_CASTLE_PORTS,
    TERRAIN_CHART,
    TRANSPORTING_TROOPS,
)
from ..siege import declare as siege
from ..state import Hex, State, Unit
from ..tables import Evolvers, Placement
from ..turn import playing
from ..units import (
    at,
    enemies,
    enemy_fleets,
    enemy_land,
    hostile_castle,
    is_army,
    is_fleet,
    is_hero,
    lone_heroes,
    moved,
)
from .stacks import own
from .terrain import all_sea, geography, is_isle, mountain_coast

CARRIES = 1


def aboard(state: State, fleet: Unit) -> tuple[Unit, ...]:
    """The land units and heroes `fleet` carries."""
    return tuple(sorted((u for u in state.units.values() if u.aboard == fleet.id), key=_id))


def _id(unit: Unit) -> str:
    return unit.id


def side_controller(state: State, player: str, a: Hex, b: Hex) -> Unit | None:
    """An enemy fleet controlling the river hexside between a and b (a fleet controls
    every navigable-river hexside of its space), if any."""
    found = enemy_fleets(state, player, a) + enemy_fleets(state, player, b)
    return found[0] if found else None


def first_turn_limit(state: State, data: DRData, units: list[Unit], hex_: Hex) -> str | None:
    """The unit of a kingdom activated this turn that may not be in `hex_` (outside its
    kingdom, the sea and unclaimed land), if any."""
    place = data.map.get(*hex_)
    if place is None or all_sea(place) or place.kingdom is None:
        return None
    for unit in units:
        standing = state.kingdoms.get(unit.kingdom)
        new = standing is not None and standing.ally and standing.activated_on == state.number
        if new and place.kingdom != unit.kingdom:
            return unit.id
    return None


def embark(d: Decision) -> None:
    """Land units and heroes in the fleet's space go aboard (no movement point cost)."""
    player = playing(d.state).player
    fleet = _fleet(d.state, d.call, player)
    units = [
        own(d.state, u, player, TRANSPORTING_TROOPS)
        for u in names(d.call.get("units"), TRANSPORTING_TROOPS)
    ]
    for unit in units:
        _check_boarding(d.state, fleet, unit)
    place = geography(d.data).place(fleet.hex)
    if place is not None and mountain_coast(place):
        raise IllegalCommand(
            f"{label(d.data, fleet.hex)} is a coastal space with mountains: nobody embarks there",
            TRANSPORTING_TROOPS,
        )
    combat = [u for u in (*aboard(d.state, fleet), *units) if not is_hero(u)]
    if len(combat) > CARRIES:
        raise IllegalCommand(
            f"{fleet.id} may carry one combat unit (and any heroes), not {len(combat)}",
            TRANSPORTING_TROOPS,
        )
    d.emit(UnitsEmbarked(fleet=fleet.id, units=tuple(u.id for u in units)))


def _fleet(state: State, command: Call, player: str) -> Unit:
    fleet = own(state, str(command.get("fleet", "")), player, TRANSPORTING_TROOPS)
    if not is_fleet(fleet):
        raise IllegalCommand(f"{fleet.id} is not a fleet", TRANSPORTING_TROOPS)
    return fleet


def _check_boarding(state: State, fleet: Unit, unit: Unit) -> None:
    if is_fleet(unit):
        raise IllegalCommand(f"{unit.id} is a fleet: fleets carry land units", TRANSPORTING_TROOPS)
    if unit.hex != fleet.hex:
        raise IllegalCommand(f"{unit.id} is not in {fleet.id}'s space", TRANSPORTING_TROOPS)
    if unit.aboard is not None:
        raise IllegalCommand(f"{unit.id} is already aboard {unit.aboard}", TRANSPORTING_TROOPS)
    record = moved(state, unit.id)
    if record is not None and record.done:
        raise IllegalCommand(
            f"{unit.id} was transported by sea this turn: it may not move further",
            TRANSPORTING_TROOPS,
        )


def debark(d: Decision) -> None:
    """Units aboard leave the fleet into its space (all of them unless named). Heroes
    landing alone roll as if they entered the space by land: an enemy or neutral castle
    (6 or 7; they are then within its walls), else enemy land combat units (2)."""
    player = playing(d.state).player
    fleet = _fleet(d.state, d.call, player)
    cargo = aboard(d.state, fleet)
    chosen = d.call.get("units")
    units = list(cargo) if chosen is None else [own(d.state, u, player) for u in names(chosen, "")]
    for unit in units:
        if unit.aboard != fleet.id:
            raise IllegalCommand(f"{unit.id} is not aboard {fleet.id}", TRANSPORTING_TROOPS)
    if not units:
        raise IllegalCommand(f"{fleet.id} carries nobody", TRANSPORTING_TROOPS)
    _check_landing(d, player, fleet, units)
    ids = tuple(u.id for u in units)
    lone = all(is_hero(u) for u in units)
    walled = lone and siege.walls_close_on(d.state, d.data, player, fleet.hex)
    # what the heroes landing alone meet, as the space was before they landed
    trigger, by = entry_trigger(d.state, d.data, player, fleet.hex) if lone else (0, None)
    d.emit(UnitsDebarked(fleet=fleet.id, units=ids, hex=fleet.hex, inside=fleet.inside or walled))
    kingdom = d.data.map.get(*fleet.hex)
    if kingdom is not None and kingdom.kingdom:
        why = f"{', '.join(u.id for u in units)} landed at {label(d.data, fleet.hex)}"
        d.emit(*penalty(d.state, player, kingdom.kingdom, why))
    if any(not is_hero(u) for u in units):
        if hostile_castle(d.state, d.data, player, fleet.hex) and not siege.besieged(
            d.state, fleet.hex
        ):
            siege.declare(d, player, fleet.hex, "landing")
        for hero in lone_heroes(d.state, player, fleet.hex):
            fate(d, hero.id, 3, player)
    for landed in ids if trigger else ():
        if landed in d.state.units and d.state.units[landed].hex == fleet.hex:
            fate(d, landed, trigger, by)


def _check_landing(d: Decision, player: str, fleet: Unit, units: list[Unit]) -> None:
    hex_ = fleet.hex
    place = geography(d.data).place(hex_)
    assert place is not None
    where = label(d.data, hex_)
    combat = [u for u in units if not is_hero(u)]
    if all_sea(place):
        raise IllegalCommand(
            f"{where} is open water: debark on a coast or in a port", TRANSPORTING_TROOPS
        )
    if is_isle(place) and combat:
        raise IllegalCommand(
            "fleets may not unload combat units on the Isle of Fright", TERRAIN_CHART
        )
    if mountain_coast(place):
        raise IllegalCommand(
            f"{where} is a coastal space with mountains: nobody debarks there", TRANSPORTING_TROOPS
        )
    hostile = combat and hostile_castle(d.state, d.data, player, hex_)
    if hostile and not siege.may_besiege(d.state, d.data, player, hex_, combat):
        refused = siege.refusal(d.state, d.data, player, hex_, combat)
        raise IllegalCommand(
            f"{where} is an enemy castle-port: units debark there only to besiege it, and "
            f"{refused}",
            TRANSPORTING_TROOPS,
        )
    relief = fleet.inside and siege.relieving(d.state, d.data, player, hex_)
    if combat and enemy_land(d.state, player, hex_) and not relief:
        raise IllegalCommand(f"enemy land units hold {where}", ENEMY_UNITS)
    limited = first_turn_limit(d.state, d.data, units, hex_)
    if limited is not None:
        raise IllegalCommand(
            f"{limited}'s kingdom was activated this turn: it may not land outside its kingdom",
            ACTIVATION_OF_KINGDOMS,
        )


def rescue(d: Decision, fleets: list[Unit], player: str) -> None:
    """Castaways of the player's picked up by his fleet entering the Isle of Fright."""
    if not fleets:
        return
    here = fleets[0].hex
    castaways = tuple(
        sorted(
            u.id
            for u in d.state.units.values()
            if u.hex == here and is_hero(u) and u.aboard is None and d.state.controller(u) == player
        )
    )
    if castaways:
        d.emit(HeroRescued(fleet=fleets[0].id, heroes=castaways))


def can_rescue(state: State, player: str, hex_: Hex) -> bool:
    return any(
        u.hex == hex_ and is_hero(u) and u.aboard is None and state.controller(u) == player
        for u in state.units.values()
    )


# -- fleets sharing a space with enemy land units ------------------------------------------


DISPLACED = "port-displacement"


def ports_taken(state: State, data: DRData) -> list[DecisionAsked]:
    """Land combat units entering a non-castle port held solely by enemy fleets make it
    theirs: the fleets are displaced as the Movement Phase ends, their owner choosing to
    which next space fleets may be in, free of his enemies (with their cargo)."""
    assert state.turn is not None
    player, geo = state.turn.player, geography(data)
    asks = []
    for loc in sorted((p for p in data.locations.values() if p.port), key=lambda p: p.name):
        held = [u for u in at(state, loc.hex) if is_army(u) and u.aboard is None]
        fleets = enemy_fleets(state, player, loc.hex)
        if not fleets or not held or any(state.controller(u) != player for u in held):
            continue
        for owner in sorted({str(state.controller(f)) for f in fleets}):
            ids = tuple(
                u.id for f in fleets if state.controller(f) == owner for u in (f, *aboard(state, f))
            )
            spaces = [
                h
                for h in data.map.neighbours(*loc.hex)
                if (near := geo.place(h)) is not None
                and geo.floats(near)
                and not enemies(state, owner, h)
            ]
            why = f"{player}'s land units took {loc.name}: {owner}'s fleets there are displaced"
            asks.append(placement_asked(data, DISPLACED, owner, [(ids, h) for h in spaces], why))
    return [a for a in asks if a.options]


def fleets_beside_enemy_land(state: State, data: DRData) -> list[DecisionAsked]:
    """The player's fleets in a space with enemy land combat units must leave it in his
    Movement Phase (move them, or disband them), except in siege situations."""
    assert state.turn is not None
    player = state.turn.player
    stuck = sorted(
        u.id
        for u in state.units.values()
        if is_fleet(u)
        and not u.inside
        and state.controller(u) == player
        and any(not e.inside for e in enemy_land(state, player, u.hex))
        and not siege.besieged(state, u.hex)
    )
    if stuck:
        raise IllegalCommand(
            f"{', '.join(stuck)} {'shares' if len(stuck) == 1 else 'share'} a space with "
            "enemy land units: fleets must leave as soon as possible (move them away, or "
            "disband them)",
            MIXED_TYPE_COMBAT,
        )
    return []


# -- evolve --------------------------------------------------------------------------------


def _embarked(state: State, event: UnitsEmbarked) -> State:
    units = [replace(state.units[u], aboard=event.fleet, inside=False) for u in event.units]
    return state.with_units(units)


def _debarked(state: State, event: UnitsDebarked) -> State:
    units = [
        replace(state.units[u], aboard=None, hex=event.hex, inside=event.inside)
        for u in event.units
    ]
    return state.with_units(units)


def _rescued(state: State, event: HeroRescued) -> State:
    units = [replace(state.units[u], aboard=event.fleet) for u in event.heroes]
    return state.with_units(units)


EVOLVERS: Evolvers = {
    UnitsEmbarked: _embarked,
    UnitsDebarked: _debarked,
    HeroRescued: _rescued,
}


PLACEMENTS: dict[str, Placement] = {
    DISPLACED: relocation(NON_CASTLE_PORTS, "enemy land units took the non-castle port"),
}
