"""What eu-pop's `legal` offers (issue 12, part 2): each command with the values the
rules accept in the position, for the realm on turn, for every realm's Reactions, and in
Phase 4 for the realms still to record the open step; all of it accepted."""

from __future__ import annotations

from itertools import islice, product

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.authority import check_authority
from warscribe.engine.ruleset import LegalCommand
from warscribe.engine.rulesets.eu_pop import RULESET


def offers(table: Table, name: str, actor: str | None = None) -> list[LegalCommand]:
    return [
        o
        for o in RULESET.legal(table.state)
        if o.name == name and (actor is None or o.actor == actor)
    ]


def values(offer: LegalCommand, key: str) -> tuple[object, ...]:
    return tuple(dict(offer.domains)[key])


def assert_all_accepted(table: Table) -> None:
    """Every offer, with each choice of its domains (up to 50), passes the authority
    table and `decide`."""
    for offer in RULESET.legal(table.state):
        keys = [key for key, _ in offer.domains]
        for chosen in islice(product(*(v for _, v in offer.domains)), 50):
            command = offer.command(**dict(zip(keys, chosen, strict=True)))
            check_authority(RULESET, table.head.players, command)
            RULESET.decide(table.state, command, None)  # type: ignore[arg-type]


def test_5_2_the_realm_on_turn_may_borrow_up_to_five_interest_tokens() -> None:
    """5.2 Take/Repay Loan: France at 3 tokens may take 1 or 2 loans, and with 12 ducats
    repay 1 or 2; Austria, not on turn, takes none outside Phase 4."""
    table = Table(position(france={"loans": 3, "ducats": 12}))
    (take,) = offers(table, "take-loan")
    assert (take.actor, values(take, "count")) == ("alice", (1, 2))
    (repay,) = offers(table, "repay-loan")
    assert values(repay, "count") == (1, 2)
    assert not offers(table, "take-loan", "bob")
    assert_all_accepted(table)


def test_5_2_a_discarded_ruler_may_be_replaced_as_a_reaction() -> None:
    """5.2 Appoint New Ruler: Austria's ruler discarded, bob may appoint one as a Reaction
    though it is France's turn."""
    table = Table(position())
    table.do("bob", "adjust", discard="Ruler", reason="event")
    (ruler,) = offers(table, "appoint-ruler", "bob")
    assert dict(ruler.args)["reaction"] is True
    assert_all_accepted(table)


def test_4_4_each_realm_records_the_open_step_and_may_borrow() -> None:
    """4.4 Phase 4: at step A both realms may cut costs and take loans; once France has
    recorded it, only Austria is offered step A."""
    table = Table(position())
    table.to_income()
    assert {o.actor for o in offers(table, "income-cut-costs")} == {"alice", "bob"}
    assert {o.actor for o in offers(table, "take-loan")} == {"alice", "bob"}
    assert not offers(table, "end-phase")
    assert_all_accepted(table)
    table.do("alice", "income-cut-costs")
    assert {o.actor for o in offers(table, "income-cut-costs")} == {"bob"}
    assert_all_accepted(table)


def test_round_sequence_the_phase_ends_once_nobody_is_waited_for() -> None:
    """Round sequence: in the Action phase end-phase is offered once every realm passed."""
    table = Table(position())
    assert not offers(table, "end-phase")
    table.both_pass()
    assert offers(table, "end-phase")
    assert_all_accepted(table)
