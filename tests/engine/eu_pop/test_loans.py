"""5.2 Minor Actions › Take/Repay Loan, loans as Reactions to cover a cost, and loans in
Phase 4 (4.4: taken, never repaid)."""

from __future__ import annotations

from fractions import Fraction

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.errors import IllegalCommand
from warscribe.engine.rulesets.eu_pop import rules
from warscribe.engine.rulesets.eu_pop.events import LoanRepaid, LoanTaken, RealmAdjusted


def test_5_2_take_loan_adds_5_ducats_and_an_interest_token() -> None:
    table = Table(position())
    assert table.do("alice", "take-loan") == [LoanTaken("France", 5, 1, False, "loan")]
    france = table.realm("France")
    assert (france.ducats, france.loans) == (Fraction(15), 1)


def test_5_2_no_loan_at_5_or_more_interest_tokens() -> None:
    table = Table(position(france={"loans": 4}))
    error = table.refuse("alice", "take-loan", count=2)
    assert error.rule == rules.LOAN
    assert "France holds 4 interest tokens: it may take 1 more, not 2" in error.message
    table.do("alice", "take-loan")
    error = table.refuse("alice", "take-loan")
    assert error.rule == rules.LOAN and "holds 5 interest tokens (no loan at 5" in error.message


def test_5_2_repay_loan_pays_6_ducats_and_returns_the_token() -> None:
    table = Table(position(france={"loans": 2}))
    assert table.do("alice", "repay-loan") == [LoanRepaid("France", 6, 1)]
    france = table.realm("France")
    assert (france.ducats, france.loans) == (Fraction(4), 1)
    assert "costs 6 ducats" in table.refuse("alice", "repay-loan").message


def test_5_2_repay_loan_needs_a_loan() -> None:
    table = Table(position())
    assert "no loan" in table.refuse("alice", "repay-loan").message


def test_5_2_repaying_more_loans_than_held_names_the_loans_held() -> None:
    """5.2 › Take/Repay Loan: "To repay a Loan, pay 6D from your Treasury and return the
    Interest token": a realm repays only the loans it holds. Issue 32: `--count 3` with 2
    loans said France had no loan to repay."""
    table = Table(position(france={"ducats": 30, "loans": 2}))
    error = table.refuse("alice", "repay-loan", count=3)
    assert error.rule == rules.LOAN
    assert error.message == "France has 2 loans: it cannot repay 3"
    table = Table(position(france={"ducats": 30, "loans": 1}))
    assert table.refuse("alice", "repay-loan", count=2).message == (
        "France has 1 loan: it cannot repay 2"
    )
    assert table.do("alice", "repay-loan") == [LoanRepaid("France", 6, 0)]


def test_5_2_repaying_several_loans_costs_6_ducats_each() -> None:
    """5.2 › Take/Repay Loan: 6D each; the refusal names the cost of all the loans asked
    and the ducats the realm has, not what one repayment would leave."""
    table = Table(position(france={"ducats": 13, "loans": 3}))
    error = table.refuse("alice", "repay-loan", count=3)
    assert error.rule == rules.LOAN
    assert error.message == "repaying 3 loans costs 18 ducats; France has 13"
    assert table.do("alice", "repay-loan", count=2) == [
        LoanRepaid("France", 6, 2),
        LoanRepaid("France", 6, 1),
    ]
    assert (table.realm("France").ducats, table.realm("France").loans) == (Fraction(1), 1)


def test_5_2_repaying_is_no_reaction() -> None:
    """5.2 › Take/Repay Loan: only taking a loan is allowed as a Reaction."""
    table = Table(position(france={"loans": 1}))
    assert table.refuse("alice", "repay-loan", reaction=True).rule == rules.REACTIONS


def test_5_2_ducats_gained_for_passing_may_repay_at_once() -> None:
    """5.2 › Take/Repay Loan: you may immediately use Ducats gained for Passing."""
    table = Table(position(france={"ducats": 4, "loans": 1}))
    table.do("alice", "pass", ducats=2, repay=1)
    france = table.realm("France")
    assert (france.ducats, france.loans) == (Fraction(0), 0)
    assert table.refuse("alice", "repay-loan").rule == rules.MINOR


def test_5_2_a_loan_as_a_reaction_covers_a_cost_mid_payment() -> None:
    """5.2 › Take/Repay Loan: as a Reaction, when a cost must be covered and funds lack.

    On Austria's turn an action card makes France pay 12 ducats; France holds 10, so one
    loan is taken within the payment: 10 + 5 - 12 = 3 ducats, 1 interest token."""
    table = Table(position())
    table.do("alice", "end-turn")
    events = table.do("alice", "adjust", reason="Action card: bribe", ducats=-12, borrow=1)
    assert events == [
        LoanTaken("France", 5, 1, True, "adjustment: Action card: bribe"),
        RealmAdjusted("France", "Action card: bribe", (("ducats", -12),)),
    ]
    france = table.realm("France")
    assert (france.ducats, france.loans) == (Fraction(3), 1)


def test_5_2_a_reaction_loan_covers_only_what_the_treasury_lacks() -> None:
    table = Table(position())
    short = table.refuse("alice", "adjust", reason="card", ducats=-12)
    assert short.rule == rules.LOAN and "--borrow 1" in short.message
    assert (
        "needs 1 loan"
        in table.refuse("alice", "adjust", reason="card", ducats=-12, borrow=2).message
    )
    assert (
        "needs 0 loan"
        in table.refuse("alice", "adjust", reason="card", ducats=-2, borrow=1).message
    )


def test_5_2_a_loan_with_a_cost_on_your_own_turn_is_no_reaction() -> None:
    table = Table(position(france={"ducats": 2}))
    events = table.do(
        "alice", "appoint-advisor", slot="dip", name="Anne", skill=1, cost=4, upkeep=1, borrow=1
    )
    assert events[0] == LoanTaken("France", 5, 1, False, "advisor Anne")
    assert table.realm("France").ducats == 3


def test_5_2_a_standalone_loan_is_no_reaction() -> None:
    table = Table(position())
    table.do("alice", "end-turn")
    assert "--borrow N" in table.refuse("alice", "take-loan", reaction=True).message
    assert isinstance(table.refuse("alice", "take-loan"), IllegalCommand)


def test_4_4_loans_may_be_taken_but_not_repaid_in_phase_4() -> None:
    """4.4 Phase 4: players may take (but not repay) Loans."""
    table = Table(position(phase="income-upkeep", france={"loans": 1}))
    table.do("bob", "take-loan")
    table.do("alice", "take-loan")
    assert table.realm("France").loans == 2
    assert table.refuse("alice", "repay-loan").rule == rules.INCOME


def test_5_2_no_loan_outside_your_turn_and_phase_4() -> None:
    table = Table(position(phase="peace"))
    assert "Action phase" in table.refuse("alice", "take-loan").message
