"""Special Rules for Select Kingdoms: the Trolls' regeneration (The Face serving as their
royal castle is in the data: kingdoms.json and castles.json), Hothior's Boom, Rombune's
canals around Parros. Zorn's deployment is `placement.deployment` and the replacements
of `random_events`; Shucassam's Obelisk is unclaimed land in map.json; Ghem's three holds
need no rule of their own.

Readings: the Trolls regenerate as each game turn begins, their controller choosing
which eliminated regular (among those whose deployment space is free of enemies and not
lost through a Random Event in this game turn) when more than one could; the four scenic
spaces the Trollish monarch may enter play in are the Trolls' deployment spaces, the
controller choosing among those free of enemy combat units at set-up, on activation and
on re-entry; the canals cost 2 more to cross into or out of Parros by land.
"""

from __future__ import annotations

from warscribe.engine.dice import Dice
from warscribe.engine.events import Event

from . import sieges
from .data import DRData
from .events import TrollLostToEvents, TrollRegenerated
from .evolving import Outcome, handles
from .forces import at, castle_side, enemy_land, is_hero, spent
from .kingdoms import after_activation
from .placement import monarch_id
from .places import label
from .placing import Choice, ask_place, option_units, placement_asked, placing, relocation
from .random_events import UnitsLost, replacement_spaces
from .setup import at_setup
from .state import Hex, Pending, State, Unit
from .turn import after_decision, at_game_turn_start

TROLLS = "Trolls"
HOTHIOR = "Hothior"
BOOM = "The Boom"
PORT_LORK = "Port Lork"
PARROS = "Parros"
CANALS = 2


# -- the Trolls ----------------------------------------------------------------------------


TROLLS_RULE = "Special Rules for Select Kingdoms › The Trolls"
REGENERATE, TROLL_MONARCH = "troll-regeneration", "troll-monarch"


@at_game_turn_start
def _regenerate(out: Outcome, data: DRData, dice: Dice) -> None:
    """One eliminated Troll regular back at its deployment space, if that is free: the
    Trolls' controller chooses which when more than one could."""
    standing = out.state.kingdoms.get(TROLLS)
    player = standing.controller() if standing else None
    if player is None:
        return
    barred = {unit for unit, turn in out.state.lost_to_events if turn == out.state.number}
    choices: list[Choice] = []
    for spec in sorted(data.player_units(TROLLS), key=lambda s: s.id):
        spaces = replacement_spaces(out.state, data, player, spec)
        if spaces and spec.id not in barred:
            choices.append(((spec.id,), spaces[0][0]))
    why = f"the Trolls regenerate: {player} chooses which eliminated regular returns"
    ask_place(out, data, REGENERATE, player, choices, why)


def _regeneration_stands(state: State, pending: Pending) -> bool:
    """The Trolls' controller chooses while he controls them and an offered regular is
    still eliminated."""
    standing = state.kingdoms[TROLLS]
    offered = (option_units(o)[0] for o in pending.options)
    waiting = any(u in standing.eliminated for u in offered)
    return waiting and standing.controller() == pending.player


@placing(REGENERATE, TROLLS_RULE, _regeneration_stands)
def _regenerated_at(
    out: Outcome, data: DRData, player: str, units: tuple[str, ...], hex_: Hex
) -> None:
    out.add(TrollRegenerated(unit=units[0], hex=hex_, place=label(data, hex_)))


@after_decision
def _lost_to_events(out: Outcome, data: DRData, dice: Dice) -> None:
    """Troll regulars lost through a Random Event are kept in the state for that game turn."""
    lost = tuple(
        unit
        for event in out.events
        if isinstance(event, UnitsLost)
        for unit in event.units
        if unit in out.state.kingdoms[TROLLS].eliminated
    )
    if lost:
        out.add(TrollLostToEvents(units=lost, turn=out.state.number))


@after_activation
def _monarch_enters(out: Outcome, data: DRData, kingdom: str) -> None:
    """The Trollish monarch may enter play in any of the four scenic spaces of the Troll
    kingdom: the controller chooses among those free of enemy combat units."""
    player = out.state.kingdoms[kingdom].controller()
    if kingdom != TROLLS or player is None or monarch_id(kingdom) not in out.state.units:
        return
    spaces = [h for h in _scenic_spaces(data) if not enemy_land(out.state, player, h)]
    ask_place(out, data, TROLL_MONARCH, player, _monarch_choices(spaces), _entry(player))


@at_setup
def _monarch_enters_at_setup(data: DRData, player: str, kingdom: str) -> list[Event]:
    """The same choice for the player whose identity is the Trolls, as the game begins."""
    if kingdom != TROLLS:
        return []
    choices = _monarch_choices(_scenic_spaces(data))
    return [placement_asked(data, TROLL_MONARCH, player, choices, _entry(player))]


def _scenic_spaces(data: DRData) -> list[Hex]:
    """The Troll kingdom's four scenic spaces: where its regulars deploy."""
    return [h for h in dict.fromkeys(data.start_hex(s) for s in data.player_units(TROLLS)) if h]


def _monarch_choices(spaces: list[Hex]) -> list[Choice]:
    return [((monarch_id(TROLLS),), h) for h in spaces]


def _entry(player: str) -> str:
    return f"the Trollish monarch enters play: {player} chooses which scenic space"


relocation(TROLL_MONARCH, TROLLS_RULE, "the Trollish monarch enters play")


@handles(TrollRegenerated)
def _regenerated(state: State, event: TrollRegenerated) -> State:
    unit = Unit(id=event.unit, kingdom=TROLLS, kind="army", hex=event.hex)
    eliminated = state.kingdoms[TROLLS].eliminated - {event.unit}
    return state.with_units([unit]).with_kingdom(TROLLS, eliminated=eliminated)


@handles(TrollLostToEvents)
def _lost(state: State, event: TrollLostToEvents) -> State:
    kept = tuple(entry for entry in state.lost_to_events if entry[1] == event.turn)
    return state.replace(lost_to_events=(*kept, *((u, event.turn) for u in event.units)))


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
    if owner == player or sieges.besieged(state, lork):
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
