"""Special Rules for Select Kingdoms: the Trolls' regeneration (The Face serving as their
royal castle is in the data: kingdoms.json and castles.json), Zorn's deployment, Hothior's
Boom, Rombune's canals around Parros. Zorn's spaces are worked out in `placement.deployment` (its
replacements in `random_events`); Shucassam's Obelisk is unclaimed land in map.json;
Ghem's three holds need no rule of their own.

Readings: the Trolls regenerate as each game turn begins, their controller choosing
which eliminated regular (among those whose deployment space is free of enemies and not
lost through a Random Event in this game turn) when more than one could; the Trollish
monarch enters play in one of the four scenic spaces of the Troll kingdom (flagged SCENIC
in map.json), the controller choosing among those free of enemy combat units at set-up,
on activation and on re-entry; Zorn's controller places its goblins one by one on its
mountain and pass spaces (set-up, activation, re-entry), each space offered free of
enemies, of other goblins and of their neighbours, and leaving room for as many of the
goblins still to come as can be placed (those left without a space stay out, eliminated);
the canals cost 2 more to cross into or out of Parros by land.
"""

from __future__ import annotations

from .arguments import label
from .data import DRData, Terrain, UnitSpec
from .events import (
    PlacementBlocked,
    TrollLostToEvents,
    TrollRegenerated,
    UnitPlaced,
    UnitsAwaitPlacement,
)
from .evolving import Decision
from .placement.choice import Choice, ask_place, option_units, placement_asked, relocation
from .placement.deployment import deployment, kin_spaces, monarch_id, spread_refusal, spread_spaces
from .random_events import UnitsLost, replacement_spaces
from .sections import TROLLS_RULES, ZORN_RULES
from .siege import declare as siege
from .state import Hex, Pending, State, Unit
from .tables import Evolvers, Placement
from .units import at, castle_side, enemies, enemy_land, is_hero, spent

TROLLS = "Trolls"
HOTHIOR = "Hothior"
BOOM = "The Boom"
PORT_LORK = "Port Lork"
PARROS = "Parros"
CANALS = 2


# -- the Trolls ----------------------------------------------------------------------------


REGENERATE, TROLL_MONARCH = "troll-regeneration", "troll-monarch"


def regenerate(d: Decision) -> None:
    """One eliminated Troll regular back at its deployment space, if that is free: the
    Trolls' controller chooses which when more than one could."""
    standing = d.state.kingdoms.get(TROLLS)
    player = standing.controller() if standing else None
    if player is None:
        return
    barred = {unit for unit, turn in d.state.lost_to_events if turn == d.state.number}
    choices: list[Choice] = []
    for spec in sorted(d.data.player_units(TROLLS), key=lambda s: s.id):
        spaces = replacement_spaces(d.state, d.data, player, spec)
        if spaces and spec.id not in barred:
            choices.append(((spec.id,), spaces[0][0]))
    why = f"the Trolls regenerate: {player} chooses which eliminated regular returns"
    ask_place(d, REGENERATE, player, choices, why)


def _regeneration_stands(state: State, pending: Pending) -> bool:
    """The Trolls' controller chooses while he controls them and an offered regular is
    still eliminated."""
    standing = state.kingdoms[TROLLS]
    offered = (option_units(o)[0] for o in pending.options)
    waiting = any(u in standing.eliminated for u in offered)
    return waiting and standing.controller() == pending.player


def _regenerated_at(d: Decision, player: str, units: tuple[str, ...], hex_: Hex) -> None:
    d.emit(TrollRegenerated(unit=units[0], hex=hex_, place=label(d.data, hex_)))


def lost_to_events(d: Decision) -> None:
    """Troll regulars lost through a Random Event are kept in the state for that game turn."""
    lost = tuple(
        unit
        for event in d.events
        if isinstance(event, UnitsLost)
        for unit in event.units
        if unit in d.state.kingdoms[TROLLS].eliminated
    )
    if lost:
        d.emit(TrollLostToEvents(units=lost, turn=d.state.number))


def monarch_enters(d: Decision, kingdom: str) -> None:
    """The Trollish monarch may enter play in any of the four scenic spaces of the Troll
    kingdom: the controller chooses among those free of enemy combat units."""
    player = d.state.kingdoms[kingdom].controller()
    if kingdom != TROLLS or player is None or monarch_id(kingdom) not in d.state.units:
        return
    spaces = [h for h in _scenic_spaces(d.data) if not enemy_land(d.state, player, h)]
    ask_place(d, TROLL_MONARCH, player, _monarch_choices(spaces), _entry(player))


def monarch_enters_at_setup(d: Decision, player: str, kingdom: str) -> None:
    """The same choice for the player whose identity is the Trolls, as the game begins."""
    if kingdom == TROLLS:
        choices = _monarch_choices(_scenic_spaces(d.data))
        d.emit(placement_asked(d.data, TROLL_MONARCH, player, choices, _entry(player)))


def _scenic_spaces(data: DRData) -> list[Hex]:
    """The Troll kingdom's scenic spaces (four on the map: where its regulars deploy)."""
    return [h.coord for h in data.map.hexes if h.kingdom == TROLLS and Terrain.SCENIC in h.terrain]


def _monarch_choices(spaces: list[Hex]) -> list[Choice]:
    return [((monarch_id(TROLLS),), h) for h in spaces]


def _entry(player: str) -> str:
    return f"the Trollish monarch enters play: {player} chooses which scenic space"


def _regenerated(state: State, event: TrollRegenerated) -> State:
    unit = Unit(id=event.unit, kingdom=TROLLS, kind="army", hex=event.hex)
    eliminated = state.kingdoms[TROLLS].eliminated - {event.unit}
    return state.with_units([unit]).with_kingdom(TROLLS, eliminated=eliminated)


def _lost(state: State, event: TrollLostToEvents) -> State:
    kept = tuple(entry for entry in state.lost_to_events if entry[1] == event.turn)
    return state.replace(lost_to_events=(*kept, *((u, event.turn) for u in event.units)))


# -- Zorn ----------------------------------------------------------------------------------


SPREAD = "spread-deployment"


def next_spread(d: Decision, kingdom: str) -> None:
    """Ask the kingdom's controller where the next of its units still to place goes (Zorn:
    a mountain or pass space of Zorn), among the spaces leaving room for as many of the
    others as can still be placed; with no space left for it, those units do not enter
    play and count as eliminated (they may come back as replacements)."""
    standing = d.state.kingdoms[kingdom]
    player = standing.controller()
    if player is None or not standing.unplaced:
        return
    spec = d.data.unit(standing.unplaced[0])
    kin, barred = kin_spaces(d.state, kingdom), _barred(d.state, d.data, player, spec)
    choices = _spread_choices(d.data, spec, kin, barred, len(standing.unplaced) - 1)
    if not choices:
        why = f"no mountain or pass space of {kingdom} is left free for them"
        d.emit(PlacementBlocked(kingdom=kingdom, units=standing.unplaced, why=why))
        return
    why = _spreading(player, spec, len(standing.unplaced) - 1)
    ask_place(d, SPREAD, player, choices, why)


def _spread_choices(
    data: DRData, spec: UnitSpec, kin: list[Hex], barred: list[Hex], to_come: int
) -> list[Choice]:
    """The unit at each space leaving room for as many of the `to_come` as can be placed."""
    spaces: list[Hex] = []
    while not spaces and to_come >= 0:
        spaces = spread_spaces(data, spec, kin, barred, to_come)
        to_come -= 1
    return [((spec.id,), h) for h in spaces]


def _barred(state: State, data: DRData, player: str, spec: UnitSpec) -> list[Hex]:
    """The spaces of the start area held by the player's enemies."""
    return [h for h in data.spread_hexes(spec) if enemies(state, player, h)]


def spread_at_setup(d: Decision, player: str, kingdom: str) -> None:
    """The same question for the player whose identity is Zorn, as the game begins."""
    _, to_place = deployment(d.data, kingdom)
    if to_place:
        spec = d.data.unit(to_place[0])
        choices = _spread_choices(d.data, spec, [], [], len(to_place) - 1)
        why = _spreading(player, spec, len(to_place) - 1)
        d.emit(placement_asked(d.data, SPREAD, player, choices, why))


def _spreading(player: str, spec: UnitSpec, to_come: int) -> str:
    return (
        f"{spec.kingdom}'s units deploy one per mountain or pass space, none adjacent: "
        f"{player} chooses where {spec.id} goes ({to_come} more to place)"
    )


def _spread_refusal(state: State, data: DRData, units: tuple[str, ...], hex_: Hex) -> str:
    spec = data.unit(units[0])
    barred = _barred(state, data, state.kingdoms[spec.kingdom].controller() or "", spec)
    return spread_refusal(data, spec, hex_, kin_spaces(state, spec.kingdom), barred)


def _spread_stands(state: State, pending: Pending) -> bool:
    """A unit is placed while it is still to be placed and its kingdom's controller is the
    player asked."""
    unit = option_units(pending.options[0])[0] if pending.options else None
    return any(
        unit in standing.unplaced and standing.controller() == pending.player
        for standing in state.kingdoms.values()
    )


def _spread_placed(d: Decision, player: str, units: tuple[str, ...], hex_: Hex) -> None:
    spec = d.data.unit(units[0])
    place = label(d.data, hex_)
    d.emit(
        UnitPlaced(unit=spec.id, kingdom=spec.kingdom, kind=str(spec.kind), hex=hex_, place=place)
    )
    next_spread(d, spec.kingdom)


def _awaiting(state: State, event: UnitsAwaitPlacement) -> State:
    return state.with_kingdom(event.kingdom, unplaced=event.units)


def _placed(state: State, event: UnitPlaced) -> State:
    unit = Unit(id=event.unit, kingdom=event.kingdom, kind=event.kind, hex=event.hex)
    unplaced = tuple(u for u in state.kingdoms[event.kingdom].unplaced if u != event.unit)
    return state.with_units([unit]).with_kingdom(event.kingdom, unplaced=unplaced)


def _blocked(state: State, event: PlacementBlocked) -> State:
    eliminated = state.kingdoms[event.kingdom].eliminated | set(event.units)
    return state.with_kingdom(event.kingdom, unplaced=(), eliminated=eliminated)


# -- Hothior's Boom ------------------------------------------------------------------------


def boom_refusal(
    state: State, data: DRData, player: str, fleets: list[Unit], a: Hex, b: Hex, last: bool
) -> str | None:
    """Why the player's fleets may not make the step a→b past the Boom, if they may not:
    while the Boom is closed to them they stop in it, and enter Port Lork only from it
    after a turn there."""
    boom, lork = data.map.named(BOOM).coord, data.place(PORT_LORK).hex
    if not boom_closed(state, data, player):
        return None
    if b == boom and not last:
        return "the Boom is closed in enemy turns: enemy fleets stop in it"
    waited = a == boom and all(spent(state, f.id) == 0 for f in fleets)
    if b == lork and not waited:
        return "enemy fleets enter Port Lork only from the Boom, after stopping there a turn"
    return None


def boom_closed(state: State, data: DRData, player: str) -> bool:
    """Closed to fleets enemy to Hothior, unless Port Lork is besieged or enemy-held."""
    owner = state.kingdoms[HOTHIOR].controller()
    lork = data.place(PORT_LORK).hex
    if owner == player or siege.besieged(state, lork):
        return False
    held = {state.controller(u) for u in at(state, lork) if not is_hero(u)} - {owner}
    return not held


# -- Rombune's canals ----------------------------------------------------------------------


def canal_extra(state: State, data: DRData, player: str, a: Hex, b: Hex) -> int:
    """+2 to cross the canals into or out of Parros by land, unless Parros is a friendly
    castle (a plundered Parros counts as friendly to its occupier)."""
    parros = data.place(PARROS)
    if parros.hex not in (a, b) or _friendly_parros(state, data, player, parros.hex):
        return 0
    return CANALS


def _friendly_parros(state: State, data: DRData, player: str, hex_: Hex) -> bool:
    if PARROS in state.plundered:
        holders = {state.controller(u) for u in at(state, hex_) if not is_hero(u)}
        return holders == {player}
    castle = data.castle_at(*hex_)
    return castle is not None and castle_side(state, castle) == player


def canal_defence(data: DRData, hex_: Hex, land_attackers: int, fleets: int) -> int:
    """The combat-roll bonus of the stack defending outside Parros: +2, unless the
    invader attacks with fleets enough to carry his attacking force (a seam for the
    combat rules)."""
    if hex_ != data.place(PARROS).hex or fleets >= land_attackers:
        return 0
    return CANALS


EVOLVERS: Evolvers = {
    TrollRegenerated: _regenerated,
    TrollLostToEvents: _lost,
    UnitsAwaitPlacement: _awaiting,
    UnitPlaced: _placed,
    PlacementBlocked: _blocked,
}


PLACEMENTS: dict[str, Placement] = {
    TROLL_MONARCH: relocation(TROLLS_RULES, "the Trollish monarch enters play"),
    REGENERATE: Placement(_regenerated_at, TROLLS_RULES, _regeneration_stands),
    SPREAD: Placement(_spread_placed, ZORN_RULES, _spread_stands, _spread_refusal),
}
