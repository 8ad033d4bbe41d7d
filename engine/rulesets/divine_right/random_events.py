"""The Random Events Phase: the 2d6 table, its results, and the choices it asks for."""

from __future__ import annotations

from collections.abc import Callable

from warscribe.engine.codec import record
from warscribe.engine.dice import Dice
from warscribe.engine.errors import IllegalCommand
from warscribe.engine.events import Command, Event

from .data import DRData
from .evolving import Outcome, handles
from .state import State
from .turn import current

PHASE = "random-events"
RULE = "Random Events Phase"

TABLE = {
    2: "Untimely Death",
    3: "Storms",
    4: "Mutiny",
    5: "Bad Omens",
    6: "Replacements",
    7: "No Event",
    8: "Reinforcements",
    9: "Epidemic",
    10: "Replacements / Reinforcements",
    11: "Desertion",
    12: "Help from Afar",
}


@record("dr.RandomEventRolled")
class RandomEventRolled(Event):
    """The player's two dice on the Random Events Table."""

    player: str
    total: int
    event: str


Result = Callable[[Outcome, DRData, str, Dice], None]

RESULTS: dict[int, Result] = {}


def roll(state: State, command: Command, data: DRData, dice: Dice) -> Outcome:
    turn = current(state, command, PHASE)
    if turn.progress.rolled:
        raise IllegalCommand(f"{turn.player} has already rolled the random events this turn", RULE)
    rolled = dice.roll("random events", 2)
    total = rolled.total
    out = Outcome(state)
    out.add(rolled, RandomEventRolled(player=turn.player, total=total, event=TABLE[total]))
    result = RESULTS.get(total)
    if result is not None:
        result(out, data, turn.player, dice)
    return out


COMMANDS: dict[str, Callable[[State, Command, DRData, Dice], Outcome]] = {"events-roll": roll}


@handles(RandomEventRolled)
def _rolled(state: State, event: RandomEventRolled) -> State:
    return state.with_progress(rolled=True)
