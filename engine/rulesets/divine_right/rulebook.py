"""The whole Divine Right table, in one place: what every event does to the state, the
decisions the rules may ask, and the sequence of play: the phases in order, the commands
each allows, what is due before each ends, what runs as it ends and what begins the next,
each in the order written here (see `tables` for its shape). Which command answers which
decision is said by the commands themselves (`specs`: `CommandSpec.answers`).

To ask "what happens at the end of the Movement Phase?" or "what does event X do?", read
this module: nothing is registered anywhere else, and a rule it does not name does not run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from warscribe.engine.common import RECORD_EVENTS
from warscribe.engine.events import Event
from warscribe.engine.rulebook import Phase, TurnOrder

from . import (
    diplomacy,
    heroes,
    inactive_kingdoms,
    kingdoms,
    random_events,
    reentry,
    setup,
    special_kingdoms,
    state,
    turn,
)
from .combat import declare, fight, resolve, retreat
from .movement import fleets, move
from .placement import choice
from .sections import (
    COMBAT_PHASE,
    DIPLOMACY_PHASE,
    MOVEMENT_PHASE,
    RANDOM_EVENTS_PHASE,
    SIEGE_PHASE,
)
from .siege import declare as siege
from .siege import phase as siege_phase
from .tables import Answer, Evolver, Hook, Placement, Rulebook, bind, due_step


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
    **{kind: Answer(p.stands) for kind, p in PLACEMENTS.items()},
}

# The Game Turn: each player turn plays these phases in this order (The Game Turn). In each
# phase `ready` refuses its end until its player has done what it names, `due` asks
# decisions first (the phase ends once they are answered), `at_end` runs as it ends; the
# same `due` and `at_end` run when its player is eliminated during it (`turn.close`).
PHASES: tuple[Phase[Hook], ...] = (
    Phase(
        "random-events",
        RANDOM_EVENTS_PHASE,
        commands=("events-roll",),
        ready=(turn.events_rolled,),
    ),
    Phase(
        "diplomacy",
        DIPLOMACY_PHASE,
        commands=(
            "diplomacy-draw",
            "diplomacy-activate",
            "diplomacy-deactivate",
            "diplomacy-assassinate",
            "diplomacy-duel",
            "diplomacy-force-peace",
            "diplomacy-pass",
            "discard",
            "prisoner-execute",
            "prisoner-free",
        ),
        # the hand is counted once the card is drawn: the draw may take it over the limit
        ready=(turn.card_drawn, turn.within_hand_limit),
    ),
    Phase("siege", SIEGE_PHASE, commands=("siege-attack", "siege-displace", "breakout")),
    Phase(
        "movement",
        MOVEMENT_PHASE,
        commands=("move", "ferry", "embark", "debark", "inside", "outside", "search", "disband"),
        ready=(due_step(fleets.fleets_beside_enemy_land),),
        due=(due_step(fleets.ports_taken),),
        at_end=(inactive_kingdoms.lingering,),
    ),
    Phase(
        "combat",
        COMBAT_PHASE,
        commands=("attack-declare", "attack-resolve"),
        ready=(due_step(declare.unresolved_attacks),),
    ),
)

if tuple(p.name for p in PHASES) != state.PHASES:
    raise RuntimeError("the phases declared are not the phases a turn goes through")

TURN_ORDER: TurnOrder[Hook] = TurnOrder(
    every_phase=("end-phase",),
    any_time=("rejoin",),
    # "the besieger must displace his forces from the space at the end of the current game
    # turn" (Siege Phase › Besieger Displacement): after the last phase's own due steps
    due_before_game_turn_end=(due_step(siege_phase.invalid_sieges),),
    # As a new game turn begins (after the player order is drawn).
    at_game_turn_start=(special_kingdoms.regenerate,),
    # As a player turn begins (before its Random Events Phase).
    at_player_turn_start=(heroes.inside_enemy_castles,),
)

RULEBOOK = Rulebook(
    evolvers=EVOLVERS,
    informational=INFORMATIONAL,
    decisions=DECISIONS,
    placements=PLACEMENTS,
    phases=PHASES,
    turn_order=TURN_ORDER,
    # Settled after every decision, in this order (then moot decisions are withdrawn).
    after_decision=(
        siege.review,
        heroes.cargo_of_lost_fleets,
        special_kingdoms.lost_to_events,
    ),
    # Decisions asked once the game is set up.
    at_setup=(special_kingdoms.monarch_enters_at_setup, special_kingdoms.spread_at_setup),
    # What follows at once when a kingdom activates (or a re-entering kingdom deploys).
    after_activation=(special_kingdoms.monarch_enters, special_kingdoms.next_spread),
    # What follows at once when a kingdom deactivates.
    after_deactivation=(siege.walls_closed, heroes.jail_deactivated),
)

bind(RULEBOOK)
