"""The round: its phases, the turns of the Action phase, passing.

A round has four phases (draw, action, peace, income-upkeep); `end-phase` moves on. In the
Action phase realms act in turn order: minor actions, then `end-turn` (the Turn Action was
played at the table) or `pass`. The phase ends when every realm has passed; Phase 4 ends
when its step E has closed, and the next round begins at its draw phase.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.events import Command, Event

from . import arguments as arg
from .arguments import CommandSpec
from .events import Passed, PhaseBegun, TurnEnded
from .guards import actor_realm, next_turn, require_window
from .loans import repayments
from .rules import INCOME, LOAN, MINOR, ROUND
from .state import ACTION, DONE, INCOME_UPKEEP, PHASES, STEPS, EuState, add_ducats


def end_turn(state: EuState, command: Command) -> list[Event]:
    realm = actor_realm(state, command)
    require_window(state, realm.name, ROUND)
    action = arg.text(command, "action", ROUND, default="Turn Action")
    return [TurnEnded(realm.name, action, next_turn(state, realm.name, state.passed))]


def pass_turn(state: EuState, command: Command) -> list[Event]:
    """Pass; `repay` loans at once, with the ducats gained for passing (5.2 Take/Repay Loan)."""
    realm = actor_realm(state, command)
    require_window(state, realm.name, MINOR)
    gained = arg.ducats(command, "ducats", ROUND, default=Fraction(0))
    if gained < 0:
        raise InvalidCommand("the ducats gained for passing cannot be negative", ROUND)
    passed = (*state.passed, realm.name)
    event = Passed(realm.name, gained, next_turn(state, realm.name, passed))
    repay = arg.integer(command, "repay", LOAN, default=0)
    richer = dataclasses.replace(realm, ducats=realm.ducats + gained)
    return [event, *repayments(richer, repay)]


def waiting(state: EuState) -> tuple[str, ...]:
    """The realms the phase or step waits for: in the Action phase those that have not
    passed; in Phase 4 those that have not recorded the open step."""
    if state.phase == ACTION:
        return tuple(name for name in state.order if name not in state.passed)
    if state.phase == INCOME_UPKEEP and state.step != DONE:
        return tuple(name for name in state.order if name not in state.recorded)
    return ()


def end_phase(state: EuState, command: Command) -> list[Event]:
    actor_realm(state, command)
    pending = ", ".join(waiting(state))
    if pending and state.phase == ACTION:
        raise IllegalCommand(
            f"the Action phase ends when every realm has passed; not yet: {pending}", ROUND
        )
    if pending:
        raise IllegalCommand(
            f"Phase 4 is at step {state.step}; still to record it: {pending}", INCOME
        )
    index = PHASES.index(state.phase) + 1
    round_, phase = (
        (state.round, PHASES[index]) if index < len(PHASES) else (state.round + 1, PHASES[0])
    )
    order = arg.names(command, "order", ROUND) or state.order
    if sorted(order) != sorted(state.order):
        raise InvalidCommand(f"order must list each realm once: {', '.join(state.order)}", ROUND)
    return [PhaseBegun(round_, phase, order)]


def apply_phase(state: EuState, event: PhaseBegun) -> EuState:
    return dataclasses.replace(
        state,
        round=event.round,
        phase=event.phase,
        order=event.order,
        turn=event.order[0] if event.phase == ACTION else None,
        passed=(),
        step=STEPS[0] if event.phase == INCOME_UPKEEP else None,
        recorded=(),
    )


def apply_turn_ended(state: EuState, event: TurnEnded) -> EuState:
    return dataclasses.replace(state, turn=event.next)


def apply_passed(state: EuState, event: Passed) -> EuState:
    state = add_ducats(state, event.realm, event.ducats)
    return dataclasses.replace(state, turn=event.next, passed=(*state.passed, event.realm))


COMMANDS = {
    "end-turn": CommandSpec(end_turn, ("action",), ROUND),
    "pass": CommandSpec(pass_turn, ("ducats", "repay"), MINOR),
    "end-phase": CommandSpec(end_phase, ("order",), ROUND),
}
APPLY = {PhaseBegun: apply_phase, TurnEnded: apply_turn_ended, Passed: apply_passed}
