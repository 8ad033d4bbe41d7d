"""What a position offers by default (`RuleBook.offered`): while a decision waits, the
commands answering its kind, to the player asked; else the commands of whose turn it is
that the current phase allows. `check_turn` is the authority: it accepts every offer and
refuses every other command of that player (a referee's aside, never offered)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from warscribe.engine.commands import REFEREE, TURN, CommandSpec, table
from warscribe.engine.decision import Decision
from warscribe.engine.errors import RuleError
from warscribe.engine.rulebook import Phase, RuleBook, TurnOrder, Waiting


@dataclass(frozen=True)
class Drill:
    phase: str
    ambush: bool = False


def _nothing(d: Decision[Drill, Any]) -> None:
    """The drill's commands change nothing: only their place in the sequence matters."""


def _spec(name: str, authority: str = TURN, answers: tuple[str, ...] = ()) -> CommandSpec[Drill]:
    return CommandSpec(name, _nothing, (), "Drill", "A drill.", (name,), authority, answers)


class Drilling(RuleBook[Drill]):
    """Two phases, a command of every phase, one of none, two decisions, a referee's."""

    name = "drill"
    prefix = "drill"
    rule = "Drill"
    commands = table(
        _spec("recruit"),
        _spec("march"),
        _spec("end-phase"),
        _spec("note"),
        _spec("spring", answers=("ambush",)),
        _spec("hold", answers=("ambush",)),
        _spec("parley", answers=("truce",)),
        _spec("adjust", authority=REFEREE),
    )
    sequence = (Phase("muster", "Muster", ("recruit",)), Phase("march", "March", ("march",)))
    turn_order = TurnOrder(every_phase=("end-phase",))

    def pending(self, state: Drill) -> Waiting | None:
        return Waiting("ambush", "bob", "spring the ambush or hold") if state.ambush else None

    def whose_turn(self, state: Drill) -> str | None:
        return "bob" if state.ambush else "alice"

    def on_turn(self, state: Drill) -> str | None:
        return "alice"

    def current_phase(self, state: Drill) -> str | None:
        return state.phase


RULES = Drilling()


@pytest.mark.parametrize(
    ("state", "player", "offered"),
    [
        (Drill("muster"), "alice", ("recruit", "end-phase", "note")),
        (Drill("march"), "alice", ("march", "end-phase", "note")),
        (Drill("march", ambush=True), "bob", ("spring", "hold")),
    ],
)
def test_a_position_offers_what_its_phase_or_its_decision_allows(
    state: Drill, player: str, offered: tuple[str, ...]
) -> None:
    offers = list(RULES.offered(state))
    assert [spec.name for _, spec in offers] == list(offered)
    assert {actor for actor, _ in offers} == {player}
    for name, spec in RULES.commands.items():
        if name in offered:
            RULES.check_turn(state, spec, player)
        elif spec.authority != REFEREE:
            with pytest.raises(RuleError):
                RULES.check_turn(state, spec, player)
