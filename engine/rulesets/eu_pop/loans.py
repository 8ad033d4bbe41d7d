"""5.2 Minor Actions: Take/Repay Loan, and loans taken as a Reaction to cover a cost."""

from __future__ import annotations

import math
from fractions import Fraction

from warscribe.engine.commands import Arg, integer
from warscribe.engine.errors import IllegalCommand

from .arguments import REACTION, EuCommand, EuDecision
from .events import LoanRepaid, LoanTaken
from .guards import actor_realm, in_window, no_reaction, require_window
from .rules import INCOME, LOAN
from .state import (
    INCOME_UPKEEP,
    MAX_INTEREST_TOKENS,
    EuState,
    Realm,
    add_ducats,
    ducats_text,
    replace_realm,
)

LOAN_DUCATS = 5
REPAY_DUCATS = 6


def _loans(realm: Realm, count: int, reaction: bool, purpose: str) -> list[LoanTaken]:
    """`count` loans, refused naming the interest tokens the realm holds now (never the
    figure a loan it may not take would leave)."""
    room = max(MAX_INTEREST_TOKENS - realm.loans, 0)
    if count > room:
        more = f": it may take {room} more, not {count}" if room else ""
        raise IllegalCommand(
            f"{realm.name} holds {realm.loans} interest token{'' if realm.loans == 1 else 's'}"
            f"{more} (no loan at {MAX_INTEREST_TOKENS} or more)",
            LOAN,
        )
    return [
        LoanTaken(realm.name, LOAN_DUCATS, realm.loans + taken, reaction, purpose)
        for taken in range(1, count + 1)
    ]


def take_loan(d: EuDecision) -> None:
    """On the realm's turn, or at any step of Phase 4 (4.4 allows loans there)."""
    realm = actor_realm(d.state, d.call)
    if d.call.flag("reaction"):
        raise IllegalCommand(
            "a loan is taken as a Reaction to cover a cost the realm lacks the funds for: give "
            "--borrow N with the command that pays it (appoint-advisor, adjust)",
            LOAN,
        )
    if d.state.phase != INCOME_UPKEEP:
        require_window(d.state, realm.name, LOAN)
    d.emit(*_loans(realm, d.call.number("count"), False, "loan"))


def cover_cost(
    state: EuState, realm: Realm, cost: Fraction, borrow: int, purpose: str
) -> list[LoanTaken]:
    """The loans that pay a cost the treasury cannot: exactly as many as it lacks.

    Outside the realm's own turn and Phase 4 they are Reactions (5.2 Take/Repay Loan).
    """
    needed = max(0, math.ceil((cost - realm.ducats) / LOAN_DUCATS))
    if borrow < needed:
        raise IllegalCommand(
            f"{realm.name} has {ducats_text(realm.ducats)} ducats and must pay "
            f"{ducats_text(cost)}: cover it with --borrow {needed}",
            LOAN,
        )
    if borrow > needed:
        raise IllegalCommand(
            f"{realm.name} needs {needed} loan(s) to pay {ducats_text(cost)}, not {borrow}: a "
            "loan taken with a cost only covers what the treasury lacks",
            LOAN,
        )
    reaction = not (in_window(state, realm.name) or state.phase == INCOME_UPKEEP)
    return _loans(realm, borrow, reaction, purpose)


def repayments(realm: Realm, count: int) -> list[LoanRepaid]:
    """`count` loans repaid, 6 ducats and an interest token each (5.2 Take/Repay Loan),
    refused naming the loans the realm holds, or the ducats it has, against all of them."""
    if count > realm.loans:
        held = f"has {_loans_text(realm.loans)}" if realm.loans else "has no loan"
        more = f": it cannot repay {count}" if realm.loans else " to repay"
        raise IllegalCommand(f"{realm.name} {held}{more}", LOAN)
    cost = REPAY_DUCATS * count
    if realm.ducats < cost:
        raise IllegalCommand(
            f"repaying {_loans_text(count)} costs {cost} ducats; "
            f"{realm.name} has {ducats_text(realm.ducats)}",
            LOAN,
        )
    return [LoanRepaid(realm.name, REPAY_DUCATS, realm.loans - n) for n in range(1, count + 1)]


def _loans_text(count: int) -> str:
    return f"{count} loan{'' if count == 1 else 's'}"


def repay_loan(d: EuDecision) -> None:
    realm = actor_realm(d.state, d.call)
    if d.state.phase == INCOME_UPKEEP:
        raise IllegalCommand("loans may be taken, but not repaid, in Phase 4", INCOME)
    if d.call.flag("reaction"):
        raise no_reaction("Repaying a loan")
    require_window(d.state, realm.name, LOAN)
    d.emit(*repayments(realm, d.call.number("count")))


def apply_loan(state: EuState, event: LoanTaken) -> EuState:
    state = add_ducats(state, event.realm, event.ducats)
    return replace_realm(state, event.realm, loans=event.interest_tokens)


def apply_repayment(state: EuState, event: LoanRepaid) -> EuState:
    state = add_ducats(state, event.realm, -event.ducats)
    return replace_realm(state, event.realm, loans=event.interest_tokens)


_COUNT = Arg("count", integer(low=1), "How many loans (default 1).", default=1)
COMMANDS = (
    EuCommand(
        "take-loan",
        take_loan,
        (_COUNT, REACTION),
        LOAN,
        "Take loans: 5 ducats and an interest token each (refused at 5 interest tokens).",
        ("take-loan --count 1",),
    ),
    EuCommand(
        "repay-loan",
        repay_loan,
        (_COUNT, REACTION),
        LOAN,
        "Repay loans: 6 ducats each, removing an interest token (not in Phase 4).",
        ("repay-loan --count 1",),
    ),
)
APPLY = {LoanTaken: apply_loan, LoanRepaid: apply_repayment}
