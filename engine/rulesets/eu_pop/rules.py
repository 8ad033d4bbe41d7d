"""The rule sections errors and events cite, spelled once.

Sections 5.2 and 4.4 are the rulebook's; the round sequence comes from the symbol glossary
(docs/eu-pop.md), and adjustments are warscribe's own, for effects the record does not model.
"""

from __future__ import annotations

_IN = " \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} "

MINOR = "5.2 Minor Actions"
REACTIONS = f"{MINOR}{_IN}Reactions"
ADVISOR = f"{MINOR}{_IN}Appoint Advisor/Leader{_IN}Appoint Advisor"
LEADER = f"{MINOR}{_IN}Appoint Advisor/Leader{_IN}Appoint General/Admiral"
RULER = f"{MINOR}{_IN}Appoint Advisor/Leader{_IN}Appoint New Ruler"
CALL_TO_ARMS = f"{MINOR}{_IN}Call to Arms"
LOAN = f"{MINOR}{_IN}Take/Repay Loan"
MANPOWER = f"{MINOR}{_IN}Replenish Manpower"
CUT_TIES = f"{MINOR}{_IN}Cut Ties"

INCOME = "4.4 Phase 4: Income & Upkeep"
CUT_COSTS = f"4.4{_IN}A. Cut Costs"
INCOME_STATEMENT = f"4.4{_IN}B. Collect Income minus Costs"
CORRUPTION = f"4.4{_IN}C. Corruption"
MONARCH_POWER = f"4.4{_IN}D. Collect Monarch Power"
PRESTIGE = f"4.4{_IN}E. Score Prestige"

ROUND = "Round sequence (1 Draw Cards, 2 Action, 3 Peace & Rebels, 4 Income & Upkeep)"
ADJUST = "warscribe adjustments (docs/eu-pop.md)"
START = "starting position"
