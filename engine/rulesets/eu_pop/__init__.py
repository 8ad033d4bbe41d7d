"""Europa Universalis: The Price of Power: minor actions (5.2) and Income & Upkeep (4.4).

A group keeps its realms' economy in the record: treasury, monarch power, manpower,
stability, prestige, loans. What the record does not model (Turn Actions, cards, wars) is
entered with `adjust`. See docs/eu-pop.md for the commands, positions and projections.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from warscribe.engine.commands import FILE_TEXT, SWITCH, Arg, CommandSpec, ranged, table
from warscribe.engine.decision import Decision
from warscribe.engine.dice import Dice
from warscribe.engine.errors import InvalidCommand
from warscribe.engine.events import DataRef, Event, GameCreated
from warscribe.engine.rulebook import Evolvers, Hook, NewSpec, Phase, RuleBook, TurnOrder
from warscribe.engine.ruleset import GameSpec, PlayerSpec

from . import adjust, call_to_arms, domains, income, loans, minor_actions, turns
from .events import PhaseBegun, RealmEstablished, StepClosedItself, WorldSet
from .position import bind_players, data_ref, load
from .projections import PROJECTIONS, summary
from .rules import INCOME, MINOR, ROUND, START
from .state import EuState

_MODULES = (turns, minor_actions, call_to_arms, loans, income, adjust)
COMMANDS = ranged(table(*(spec for m in _MODULES for spec in m.COMMANDS)), domains.DOMAINS)
CLOSE_STEPS = "close_steps"


def _establish(state: EuState, event: RealmEstablished) -> EuState:
    return dataclasses.replace(state, realms=(*state.realms, event.realm))


def _created(event: GameCreated) -> EuState:
    """No state yet but the game's option: whether steps close themselves (absent from the
    games recorded before it, which keep every step as a command)."""
    return EuState(closing=dict(event.options).get(CLOSE_STEPS, False) is True)


EVOLVERS = Evolvers(
    "eu-pop",
    _created,
    {
        RealmEstablished: _establish,
        **{kind: apply for module in _MODULES for kind, apply in module.APPLY.items()},
    },
    informational=(StepClosedItself,),
)


def _start_text(spec: GameSpec) -> str:
    text = spec.option("start")
    if not isinstance(text, str):
        raise InvalidCommand("eu-pop needs a starting position: --start FILE", START)
    return text


# The round's four phases, in order (ROUND). Their commands are not declared phase by
# phase: a minor action may be taken in any phase as a Reaction (5.2), and the rules
# check each (`guards.require_window`); `end-phase` ends each once it is complete.
SEQUENCE: tuple[Phase[None], ...] = (
    Phase("draw", ROUND),
    Phase("action", MINOR),
    Phase("peace", ROUND),
    Phase("income-upkeep", INCOME),
)


def _trial() -> GameSpec:
    """France and Austria from the example starting position (datafiles/)."""
    from importlib.resources import files

    start = files(__package__).joinpath("datafiles/example-start.json").read_text()
    players = (PlayerSpec("alice", "France"), PlayerSpec("bob", "Austria"))
    return GameSpec("trial", players, (("start", start),))


class EuPop(RuleBook[EuState]):
    """The eu-pop rule set (see `warscribe.engine.rulebook.RuleBook`)."""

    name = "eu-pop"
    prefix = "eu"
    rule = ROUND
    commands = COMMANDS
    evolvers = EVOLVERS
    hooks = (Hook("Phase 4 steps with no choice close themselves", income.close_steps),)
    projections = PROJECTIONS
    sequence = SEQUENCE
    turn_order: TurnOrder[None] = TurnOrder(every_phase=("end-phase",))
    presenter = f"{__name__}.present:PRESENTER"
    new = NewSpec(
        "Set up an EU: The Price of Power economy from a starting-position file: the realms, "
        "the papacy and the empire are recorded; the file is not needed again.",
        ("new eu-pop --player alice=France --player bob=Austria --start my-start.json",),
        player="NAME=REALM",
        player_help="A player and the realm they play (repeat for each player).",
        options=(
            Arg(
                "start",
                FILE_TEXT,
                "The starting-position file (JSON; see docs/eu-pop.md).",
                required=True,
            ),
            Arg(
                CLOSE_STEPS,
                SWITCH,
                "Whether a Phase 4 step closes itself for a realm with no choice in it "
                "(nothing to cut, under 50 ducats, stability not +3 or -3, no crusade); "
                "false: every realm records every step.",
                default=True,
                rule=INCOME,
            ),
        ),
        trial=_trial,
    )

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]:
        text = _start_text(spec)
        position = load(text)
        bind_players(position, spec.players)
        return (data_ref(text, position),)

    def setup(self, state: EuState, spec: GameSpec, dice: Dice) -> list[Event]:
        position = load(_start_text(spec))
        realms, order = bind_players(position, spec.players)
        events: list[Event] = [
            *(RealmEstablished(realm) for realm in realms),
            WorldSet(position.world, "starting position"),
            PhaseBegun(position.round, position.phase, order),
        ]
        made = Decision(state, None, None, dice, self.evolve)
        made.emit(*events)
        income.close_steps(made)
        return made.events

    def current_phase(self, state: EuState) -> str | None:
        return state.phase or None

    def position(self, state: EuState) -> str | None:
        return state.label

    def whose_turn(self, state: EuState) -> str | None:
        """The realm to act in the Action phase; in Phase 4 the first still to record the
        open step; otherwise the first in turn order (any player may end those phases)."""
        if not state.order:
            return None
        name = state.turn or next(iter(turns.waiting(state)), state.order[0])
        return state.realm(name).player

    def offered(self, state: EuState) -> Iterator[tuple[str, CommandSpec[EuState]]]:
        return domains.offered(state, self.commands)

    def summary(self, state: EuState) -> dict[str, Any]:
        return summary(state)


RULESET = EuPop()

__all__ = ["COMMANDS", "EVOLVERS", "RULESET", "EuPop"]
