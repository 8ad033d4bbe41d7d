"""The whole Divine Right table, in one place: what every event does to the state, which
commands answer which decision, and what the Game Turn runs at each moment, in the order
written here (see `tables` for its shape).

To ask "what happens at the end of the Movement Phase?" or "what does event X do?", read
this module: nothing is registered anywhere else, and a rule it does not name does not run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from warscribe.engine.common import RECORD_EVENTS
from warscribe.engine.events import Event

from . import (
    diplomacy,
    heroes,
    inactive_kingdoms,
    kingdoms,
    random_events,
    reentry,
    setup,
    special_kingdoms,
    turn,
)
from .combat import declare, fight, resolve, retreat
from .movement import fleets, move
from .placement import choice
from .siege import declare as siege
from .siege import phase as siege_phase
from .tables import Answer, Evolver, Placement, Rulebook, bind


def _one_each(parts: Iterable[Mapping[type[Event], Evolver]]) -> dict[type[Event], Evolver]:
    """The modules' evolvers merged; an event class claimed twice is a mistake."""
    merged: dict[type[Event], Evolver] = {}
    for part in parts:
        twice = merged.keys() & part.keys()
        if twice:
            raise RuntimeError(f"two evolvers for {sorted(c.__name__ for c in twice)}")
        merged.update(part)
    return merged


EVOLVERS = _one_each(
    (
        setup.EVOLVERS,
        turn.EVOLVERS,
        kingdoms.EVOLVERS,
        random_events.EVOLVERS,
        diplomacy.EVOLVERS,
        siege.EVOLVERS,
        siege_phase.EVOLVERS,
        move.EVOLVERS,
        fleets.EVOLVERS,
        inactive_kingdoms.EVOLVERS,
        declare.EVOLVERS,
        retreat.EVOLVERS,
        resolve.EVOLVERS,
        fight.EVOLVERS,
        heroes.EVOLVERS,
        special_kingdoms.EVOLVERS,
        reentry.EVOLVERS,
        choice.EVOLVERS,
    )
)

# Facts for the record that change no state.
INFORMATIONAL = frozenset({*RECORD_EVENTS, random_events.RandomlyPicked})

# Placements left to a player (each answered by `place`).
PLACEMENTS: dict[str, Placement] = {
    **inactive_kingdoms.PLACEMENTS,
    **heroes.PLACEMENTS,
    **fleets.PLACEMENTS,
    **special_kingdoms.PLACEMENTS,
}

# Every kind of decision the rules may ask, and the commands answering it.
DECISIONS: dict[str, Answer] = {
    **random_events.DECISIONS,
    **siege_phase.DECISIONS,
    **retreat.DECISIONS,
    **resolve.DECISIONS,
    **fight.DECISIONS,
    **heroes.DECISIONS,
    **{kind: Answer(("place",), p.stands) for kind, p in PLACEMENTS.items()},
}

RULEBOOK = Rulebook(
    evolvers=EVOLVERS,
    informational=INFORMATIONAL,
    decisions=DECISIONS,
    placements=PLACEMENTS,
    # Checked before a player may close the phase: each refuses, or asks others first.
    due_before_phase_end={
        "movement": (fleets.ports_taken, fleets.fleets_beside_enemy_land),
        "combat": (declare.unresolved_attacks, siege_phase.invalid_sieges),
    },
    # Run as the player closes the phase.
    at_phase_end={"movement": (inactive_kingdoms.lingering,)},
    # Settled after every decision, in this order (then moot decisions are withdrawn).
    after_decision=(
        siege.review,
        heroes.cargo_of_lost_fleets,
        special_kingdoms.lost_to_events,
    ),
    # As a new game turn begins (after the player order is drawn).
    at_game_turn_start=(special_kingdoms.regenerate,),
    # As a player turn begins (before its Random Events Phase).
    at_player_turn_start=(heroes.inside_enemy_castles,),
    # Decisions asked once the game is set up.
    at_setup=(special_kingdoms.monarch_enters_at_setup, special_kingdoms.spread_at_setup),
    # What follows at once when a kingdom activates (or a re-entering kingdom deploys).
    after_activation=(special_kingdoms.monarch_enters, special_kingdoms.next_spread),
    # What follows at once when a kingdom deactivates.
    after_deactivation=(siege.walls_closed, heroes.jail_deactivated),
)

bind(RULEBOOK)
