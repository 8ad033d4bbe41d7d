"""The round: its phases, the turns of the Action phase, passing.

A round has four phases (draw, action, peace, income-upkeep); `end-phase` moves on. In the
Action phase realms act in turn order: minor actions, then `end-turn` (the Turn Action was
played at the table) or `pass`. The phase ends when every realm has passed; Phase 4 ends
when its step E has closed, and the next round begins at its draw phase.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from warscribe.engine.commands import NAMES, TEXT, Arg
from warscribe.engine.errors import IllegalCommand, InvalidCommand

from .arguments import COUNT, DUCATS, EuCommand, EuDecision
from .events import Passed, PhaseBegun, TurnEnded
from .guards import actor_realm, next_turn, require_window
from .loans import repayments
from .rules import INCOME, LOAN, MINOR, ROUND
from .state import ACTION, DONE, INCOME_UPKEEP, PHASES, STEPS, EuState, add_ducats


def end_turn(d: EuDecision) -> None:
    realm = actor_realm(d.state, d.call)
    require_window(d.state, realm.name, ROUND)
    action = d.call.text("action")
    d.emit(TurnEnded(realm.name, action, next_turn(d.state, realm.name, d.state.passed)))


def pass_turn(d: EuDecision) -> None:
    """Pass; `repay` loans at once, with the ducats gained for passing (5.2 Take/Repay Loan)."""
    realm = actor_realm(d.state, d.call)
    require_window(d.state, realm.name, MINOR)
    gained: Fraction = d.call.get("ducats")
    passed = (*d.state.passed, realm.name)
    event = Passed(realm.name, gained, next_turn(d.state, realm.name, passed))
    repay = d.call.number("repay")
    richer = dataclasses.replace(realm, ducats=realm.ducats + gained)
    d.emit(event, *repayments(richer, repay))


def waiting(state: EuState) -> tuple[str, ...]:
    """The realms the phase or step waits for: in the Action phase those that have not
    passed; in Phase 4 those that have not recorded the open step."""
    if state.phase == ACTION:
        return tuple(name for name in state.order if name not in state.passed)
    if state.phase == INCOME_UPKEEP and state.step != DONE:
        return tuple(name for name in state.order if name not in state.recorded)
    return ()


def end_phase(d: EuDecision) -> None:
    actor_realm(d.state, d.call)
    pending = ", ".join(waiting(d.state))
    if pending and d.state.phase == ACTION:
        raise IllegalCommand(
            f"the Action phase ends when every realm has passed; not yet: {pending}", ROUND
        )
    if pending:
        raise IllegalCommand(
            f"Phase 4 is at step {d.state.step}; still to record it: {pending}", INCOME
        )
    index = PHASES.index(d.state.phase) + 1
    round_, phase = (
        (d.state.round, PHASES[index]) if index < len(PHASES) else (d.state.round + 1, PHASES[0])
    )
    order = d.call.names("order") or d.state.order
    if sorted(order) != sorted(d.state.order):
        raise InvalidCommand(f"order must list each realm once: {', '.join(d.state.order)}", ROUND)
    d.emit(PhaseBegun(round_, phase, order))


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


COMMANDS = (
    EuCommand(
        "end-turn",
        end_turn,
        (Arg("action", TEXT, "The Turn Action played (a note).", default="Turn Action"),),
        ROUND,
        "End the realm's turn in the Action phase (the Turn Action played at the table).",
        ('end-turn --action "Recruit"',),
    ),
    EuCommand(
        "pass",
        pass_turn,
        (
            Arg("ducats", DUCATS, "Ducats gained for passing, as entered.", default=Fraction(0)),
            Arg("repay", COUNT, "Loans repaid at once.", default=0, rule=LOAN),
        ),
        MINOR,
        "Pass for the rest of the Action phase (ducats gained as entered).",
        ("pass --ducats 2 --as bob",),
    ),
    EuCommand(
        "end-phase",
        end_phase,
        (
            Arg(
                "order",
                NAMES,
                "The turn order of the new phase (comma-separated).",
                metavar="REALMS",
            ),
        ),
        ROUND,
        "Move on to the next phase (refused until the phase is complete).",
        ("end-phase --order Austria,France",),
    ),
)
APPLY = {PhaseBegun: apply_phase, TurnEnded: apply_turn_ended, Passed: apply_passed}
