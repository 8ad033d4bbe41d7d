"""What holds of every eu-pop position, whatever was played to reach it (used by random
play): no realm figure outside its limits (ledger.LIMITS: no treasury, monarch power,
manpower, loans, influence or tokens below 0, stability in -3..+3), no influence below 0
in an ally's areas, and the turn with a realm of the turn order that has not passed."""

from __future__ import annotations

from warscribe.engine.rulesets.eu_pop.ledger import LIMITS, value
from warscribe.engine.rulesets.eu_pop.state import EuState


def check_invariants(state: EuState) -> None:
    """Raise AssertionError naming every invariant the position breaks."""
    problems = []
    for realm in state.realms:
        for field, (low, high) in LIMITS.items():
            figure = value(realm, field)
            if (low is not None and figure < low) or (high is not None and figure > high):
                problems.append(f"{realm.name}'s {field} is {figure}")
        problems += [
            f"{realm.name} has {a.influence} influence in {a.name}'s areas"
            for a in realm.allies
            if a.influence < 0
        ]
    if state.turn is not None and (state.turn not in state.order or state.turn in state.passed):
        problems.append(f"the turn is {state.turn}'s, who is not to act")
    assert not problems, "; ".join(problems)
