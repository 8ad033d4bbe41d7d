"""Countdown: the players take turns to `tick` a counter down from `--start`; whoever ticks
it to 0 wins."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from warscribe.engine.codec import record
from warscribe.engine.commands import Arg, CommandSpec, integer, table
from warscribe.engine.decision import Decision
from warscribe.engine.dice import Dice
from warscribe.engine.errors import IllegalCommand, NotYourTurn
from warscribe.engine.events import DataRef, Event
from warscribe.engine.rulebook import Evolvers, NewSpec, RuleBook
from warscribe.engine.ruleset import GameSpec, LegalCommand

TICK = "Countdown › Tick"


@dataclass(frozen=True)
class Counter:
    players: tuple[str, ...] = ()
    left: int = 0
    ticks: int = 0


@record("countdown.Started")
class Started(Event):
    players: tuple[str, ...]
    left: int


@record("countdown.Ticked")
class Ticked(Event):
    player: str


def tick(d: Decision[Counter, None]) -> None:
    if d.state.left <= 0:
        raise IllegalCommand("the count is over", TICK)
    player = d.state.players[d.state.ticks % len(d.state.players)]
    if d.call.actor != player:
        raise NotYourTurn(f"it is {player}'s turn", TICK)
    d.emit(Ticked(player))


class Countdown(RuleBook[Counter]):
    name = "countdown"
    prefix = "countdown"
    rule = TICK
    commands = table(CommandSpec("tick", tick, (), TICK, "Count one down.", ("tick",)))
    evolvers = Evolvers(
        "countdown",
        lambda event: Counter(),
        {
            Started: lambda state, e: Counter(e.players, e.left),
            Ticked: lambda state, e: dataclasses.replace(
                state, left=state.left - 1, ticks=state.ticks + 1
            ),
        },
    )
    new = NewSpec(
        "Players and where the count starts.",
        ("new countdown --player ann --player bob --start 3",),
        options=(Arg("start", integer(low=1), "Where the count starts.", default=3),),
    )

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]:
        return ()

    def setup(self, state: Counter, spec: GameSpec, dice: Dice) -> list[Event]:
        start = integer(low=1).read(spec.option("start", 3)) or 3
        return [Started(tuple(p.name for p in spec.players), start)]

    def position(self, state: Counter) -> str | None:
        return f"{state.ticks + 1}" if state.players else None

    def whose_turn(self, state: Counter) -> str | None:
        if state.left <= 0 or not state.players:
            return None
        return state.players[state.ticks % len(state.players)]

    def over(self, state: Counter) -> bool:
        return bool(state.players) and state.left <= 0

    def legal(self, state: Counter) -> tuple[LegalCommand, ...]:
        player = self.whose_turn(state)
        return (LegalCommand(player, "tick"),) if player else ()

    def legal_commands(self, state: Counter) -> tuple[str, ...]:
        return ("tick",) if self.whose_turn(state) else ()

    def summary(self, state: Counter) -> dict[str, Any]:
        return {"left": state.left}


RULESET = Countdown()
