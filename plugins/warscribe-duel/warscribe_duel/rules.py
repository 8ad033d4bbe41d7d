"""Duel: a toy third game, two players and a pair of dice, installed the way the real rule
sets are, to show that a game is tables and nothing else (docs/developing.md).

The rules. Each player starts with 20 health (`new duel --health N`). On your turn you
`strike`: roll two dice, and your opponent loses their total. A double lets you choose:
`press` (strike again) or `rest` (the turn passes). Whoever falls to 0 or below loses.
"""

from __future__ import annotations

from typing import Any

from warscribe.engine.codec import record, replace
from warscribe.engine.commands import Arg, CommandSpec, integer, table
from warscribe.engine.decision import Decision
from warscribe.engine.dice import Dice
from warscribe.engine.errors import IllegalCommand, InvalidCommand, NotYourTurn
from warscribe.engine.events import DataRef, Event
from warscribe.engine.rulebook import Evolvers, Hook, NewSpec, RuleBook, Waiting
from warscribe.engine.ruleset import GameSpec

STRIKE = "Duel › Strike"
DOUBLES = "Duel › Doubles"
VICTORY = "Duel › Victory"
DOUBLE = "double"
"""The one decision the game asks for: press or rest after a double."""


@record("duel.DuelState")
class DuelState:
    """A duel as it stands (a record: snapshots encode it)."""

    players: tuple[str, ...] = ()
    health: tuple[int, ...] = ()
    turn: int = 0
    strikes: int = 0
    pending: bool = False
    winner: str | None = None


# The facts


@record("duel.DuelBegun")
class DuelBegun(Event):
    players: tuple[str, ...]
    health: int


@record("duel.Struck")
class Struck(Event):
    striker: str
    damage: int
    double: bool


@record("duel.Rested")
class Rested(Event):
    player: str


@record("duel.DuelWon")
class DuelWon(Event):
    winner: str


# The rules


def _striker(d: Decision[DuelState, None]) -> int:
    state = d.state
    if state.winner is not None:
        raise IllegalCommand(f"the duel is over: {state.winner} won", VICTORY)
    if d.call.actor != state.players[state.turn]:
        raise NotYourTurn(f"it is {state.players[state.turn]}'s turn", STRIKE)
    return state.turn


def _strike(d: Decision[DuelState, None]) -> None:
    player = d.state.players[_striker(d)]
    rolled = d.dice.roll("strike", 2)
    first, second = rolled.values
    d.emit(rolled, Struck(player, first + second, first == second))


def strike(d: Decision[DuelState, None]) -> None:
    _strike(d)


def press(d: Decision[DuelState, None]) -> None:
    _strike(d)


def rest(d: Decision[DuelState, None]) -> None:
    d.emit(Rested(d.state.players[_striker(d)]))


def victory(d: Decision[DuelState, None]) -> None:
    """Whoever falls to 0 or below loses, at once."""
    state = d.state
    fallen = [p for p, health in zip(state.players, state.health, strict=True) if health <= 0]
    if fallen and state.winner is None:
        d.emit(DuelWon(next(p for p in state.players if p not in fallen)))


COMMANDS: dict[str, CommandSpec[DuelState]] = table(
    CommandSpec(
        "strike",
        strike,
        (),
        STRIKE,
        "Roll two dice: your opponent loses their total.",
        ("strike",),
        rolls=True,
    ),
    CommandSpec(
        "press",
        press,
        (),
        DOUBLES,
        "After a double: strike again.",
        ("double press",),
        answers=(DOUBLE,),
        rolls=True,
        group="double",
        sub="press",
    ),
    CommandSpec(
        "rest",
        rest,
        (),
        DOUBLES,
        "After a double: rest, and the turn passes.",
        ("double rest",),
        answers=(DOUBLE,),
        group="double",
        sub="rest",
    ),
)


# The facts applied


def _begun(state: DuelState, event: DuelBegun) -> DuelState:
    return DuelState(players=event.players, health=(event.health,) * len(event.players))


def _struck(state: DuelState, event: Struck) -> DuelState:
    hit = 1 - state.players.index(event.striker)
    health = tuple(h - event.damage if i == hit else h for i, h in enumerate(state.health))
    turn = state.turn if event.double else hit
    return replace(state, health=health, turn=turn, pending=event.double, strikes=state.strikes + 1)


def _rested(state: DuelState, event: Rested) -> DuelState:
    return replace(state, turn=1 - state.turn, pending=False)


def _won(state: DuelState, event: DuelWon) -> DuelState:
    return replace(state, winner=event.winner, pending=False)


EVOLVERS = Evolvers(
    "duel",
    lambda event: DuelState(),
    {DuelBegun: _begun, Struck: _struck, Rested: _rested, DuelWon: _won},
)


def health(state: DuelState) -> dict[str, int]:
    return dict(zip(state.players, state.health, strict=True))


PROJECTIONS = {"health": health}
GROUPS = {"double": "After a double: press on or rest."}


class Duel(RuleBook[DuelState]):
    name = "duel"
    prefix = "duel"
    rule = STRIKE
    commands = COMMANDS
    evolvers = EVOLVERS
    hooks = (Hook("victory", victory),)
    projections = PROJECTIONS
    groups = GROUPS
    new = NewSpec(
        "Two players, a pair of dice, and the health each starts with.",
        ("new duel --player alice --player bob --health 12",),
        options=(Arg("health", integer(low=1), "The health each player starts with.", default=20),),
    )

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]:
        if len(spec.players) != 2:
            raise InvalidCommand("a duel is fought by two players", STRIKE)
        return ()

    def setup(self, state: DuelState, spec: GameSpec, dice: Dice) -> list[Event]:
        start = integer(low=1).read(spec.option("health", 20))
        if start is None:
            raise InvalidCommand("health must be a whole number, 1 or more", STRIKE)
        return [DuelBegun(tuple(p.name for p in spec.players), start)]

    def pending(self, state: DuelState) -> Waiting | None:
        if not state.pending:
            return None
        return Waiting(DOUBLE, state.players[state.turn], "after a double, press or rest")

    def position(self, state: DuelState) -> str | None:
        return f"{state.strikes + 1}.{state.players[state.turn]}" if state.players else None

    def over(self, state: DuelState) -> bool:
        return state.winner is not None

    def whose_turn(self, state: DuelState) -> str | None:
        return None if state.winner or not state.players else state.players[state.turn]

    def summary(self, state: DuelState) -> dict[str, Any]:
        return {"health": health(state), "winner": state.winner}


RULESET = Duel()
