"""Special Rules for Select Kingdoms: the Trolls' regeneration (The Face serving as their
royal castle is in the data: kingdoms.json and castles.json), Hothior's Boom, Rombune's
canals around Parros. Zorn's deployment is `placement.deployment` and the replacements
of `random_events`; Shucassam's Obelisk is unclaimed land in map.json; Ghem's three holds
need no rule of their own.

Readings: the Trolls regenerate as each game turn begins (the eliminated regular with
the lowest number whose deployment space is free); the canals cost 2 more to cross into
or out of Parros by land.
"""

from __future__ import annotations

from warscribe.engine.dice import Dice

from . import sieges
from .data import DRData
from .events import TrollRegenerated
from .evolving import Outcome, handles
from .forces import at, castle_side, is_hero, spent
from .random_events import replacement_spaces
from .state import Hex, State, Unit
from .turn import at_game_turn_start

TROLLS = "Trolls"
HOTHIOR = "Hothior"
BOOM = "The Boom"
PORT_LORK = "Port Lork"
PARROS = "Parros"
CANALS = 2


# -- the Trolls ----------------------------------------------------------------------------


@at_game_turn_start
def _regenerate(out: Outcome, data: DRData, dice: Dice) -> None:
    """One eliminated Troll regular back at its deployment space, if that is free."""
    standing = out.state.kingdoms.get(TROLLS)
    player = standing.controller() if standing else None
    if player is None:
        return
    for spec in sorted(data.player_units(TROLLS), key=lambda s: s.id):
        spaces = replacement_spaces(out.state, data, player, spec)
        if spaces:
            hex_, place = spaces[0]
            out.add(TrollRegenerated(unit=spec.id, hex=hex_, place=place))
            return


@handles(TrollRegenerated)
def _regenerated(state: State, event: TrollRegenerated) -> State:
    unit = Unit(id=event.unit, kingdom=TROLLS, kind="army", hex=event.hex)
    eliminated = state.kingdoms[TROLLS].eliminated - {event.unit}
    return state.with_units([unit]).with_kingdom(TROLLS, eliminated=eliminated)


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
