"""The commands each player may give now, with the argument values the rules accept.

In the Action phase the realm on turn takes minor actions (5.2), ends its turn or passes;
any realm may answer with a Reaction (a Defensive Call to Arms, a General to an army
attacked, a new ruler after a discarded one) and record an adjustment. In Phase 4 every
realm still to record the open step records it, and may take loans (4.4). A phase with
nobody to wait for is ended by any player (round sequence).

Free values (names of new cards, costs read from the card) are offered from a few
plausible ones; values the position limits (loans, exhausted units, free mats, allies at
peace) are offered exactly as the rules allow them.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations_with_replacement

from warscribe.engine.ruleset import LegalCommand

from .call_to_arms import INFLUENCE
from .income import INTERREGNUM_SKILLS, STEP_COMMANDS, corruption_cost, statement
from .ledger import LIMITS
from .loans import LOAN_DUCATS, REPAY_DUCATS
from .minor_actions import UNITS_PER_MILITARY_POWER
from .state import (
    ACTION,
    DONE,
    INCOME_UPKEEP,
    MAX_INTEREST_TOKENS,
    POWER_TYPES,
    EuState,
    Realm,
)
from .turns import waiting

SKILLS = (1, 2, 3)
REASON = ("reason", ("entered by hand",))
Offers = list[LegalCommand]


def legal(state: EuState) -> tuple[LegalCommand, ...]:
    """Every command a player may give now (see the module's docstring)."""
    if not state.order:
        return ()
    offers: Offers = []
    for realm in state.realms:
        if state.phase == ACTION and state.turn == realm.name:
            offers += _turn(state, realm)
        offers += _reactions(state, realm)
        if state.phase == INCOME_UPKEEP:
            offers += _income(state, realm)
        offers += _adjustments(realm)
    if not waiting(state):
        offers.append(LegalCommand(state.realm(state.order[0]).player, "end-phase"))
    return tuple(offers)


def _offer(
    realm: Realm, command: str, /, *domains: tuple[str, tuple[object, ...]], **args: object
) -> Offers:
    """`command` for the realm's player, unless one of its domains is empty."""
    if any(not values for _, values in domains):
        return []
    return [LegalCommand(realm.player, command, tuple(args.items()), tuple(domains))]


def _turn(state: EuState, realm: Realm) -> Offers:
    """The realm on turn: its minor actions, then end its turn or pass."""
    return [
        *_offer(realm, "end-turn"),
        *_offer(realm, "pass", ("ducats", (0, 1, 2))),
        *(_offer(realm, "pass", repay=1) if _can_repay(realm) else []),
        *_loans(realm),
        *(_offer(realm, "repay-loan", ("count", _repayable(realm)))),
        *_advisors(realm),
        *_leaders(realm, reaction=False),
        *_ruler(state, realm, reaction=False),
        *_offer(realm, "replenish-manpower", ("units", _replenishable(realm))),
        *_ties(realm),
        *_calls(realm, "offensive"),
    ]


def _can_repay(realm: Realm) -> bool:
    return realm.loans > 0 and realm.ducats >= REPAY_DUCATS


def _repayable(realm: Realm) -> tuple[int, ...]:
    return tuple(range(1, min(realm.loans, math.floor(realm.ducats / REPAY_DUCATS)) + 1))


def _loans(realm: Realm) -> Offers:
    return _offer(
        realm, "take-loan", ("count", tuple(range(1, MAX_INTEREST_TOKENS - realm.loans + 1)))
    )


def _advisors(realm: Realm) -> Offers:
    """Hire into a free slot, paying from the treasury; fire a slot's advisor, alone or to
    hire another."""
    costs = tuple(range(0, min(math.floor(realm.ducats), 5) + 1))
    hire = (("skill", SKILLS), ("upkeep", (1, 2, 3, 4)), ("cost", costs))
    offers: Offers = []
    for slot in POWER_TYPES:
        name = f"{realm.name} {slot} advisor {len(realm.advisors) + 1}"
        held = realm.advisor(slot) is not None
        offers += _offer(realm, "appoint-advisor", *hire, slot=slot, name=name, fire=held)
        if held:
            offers += _offer(realm, "appoint-advisor", slot=slot, fire=True)
    return offers


def _leaders(realm: Realm, reaction: bool) -> Offers:
    """A general or admiral onto a free mat, for the military power it costs; a general
    moved to a free army. As a Reaction, generals only."""
    offers: Offers = []
    kinds = (("general", realm.armies),) if reaction else (
        ("general", realm.armies), ("admiral", realm.fleets)
    )  # fmt: skip
    flag = {"reaction": True} if reaction else {}
    for kind, mats in kinds:
        free = tuple(mat for mat in mats if realm.leader_on(mat) is None)
        name = _fresh(realm, kind.title())
        costs = ("cost", tuple(range(0, min(realm.power.mil, 3) + 1)))
        offers += _offer(
            realm, "appoint-leader", ("mat", free), costs, kind=kind, name=name, **flag
        )
        if kind == "general":
            generals = tuple(lead.name for lead in realm.leaders if lead.kind == "general")
            offers += _offer(realm, "reassign-general", ("name", generals), ("army", free), **flag)
    return offers


def _fresh(realm: Realm, kind: str) -> str:
    """A name no leader of the realm bears (nor its ruler)."""
    taken = {lead.name for lead in realm.leaders} | {realm.ruler.name if realm.ruler else ""}
    return next(
        name for n in range(1, len(taken) + 2) if (name := f"{realm.name} {kind} {n}") not in taken
    )


def _ruler(state: EuState, realm: Realm, reaction: bool) -> Offers:
    """A Leader from the hand becomes ruler, when there is none or it is Interregnum; as a
    Reaction only when the ruler was discarded without replacement."""
    if not realm.in_interregnum or (reaction and realm.name not in state.rulers_discarded):
        return []
    skills = tuple((kind, SKILLS) for kind in POWER_TYPES)
    flag = {"reaction": True} if reaction else {}
    return _offer(realm, "appoint-ruler", *skills, name=_fresh(realm, "Ruler"), **flag)


def _replenishable(realm: Realm) -> tuple[int, ...]:
    most = min(realm.exhausted, realm.power.mil * UNITS_PER_MILITARY_POWER)
    return tuple(range(1, most + 1))


def _ties(realm: Realm) -> Offers:
    """Influence or tokens back from the board; an alliance ended (its penalty, a section
    the record lacks, entered as none)."""
    offers = _offer(realm, "cut-ties", ("influence", tuple(range(1, realm.influence + 1))))
    offers += _offer(realm, "cut-ties", ("tokens", tuple(range(1, realm.tokens + 1))))
    for ally in realm.allies:
        if ally.influence:
            offers += _offer(realm, "cut-ties", ally_influence=f"{ally.name}=1")
        offers += _offer(realm, "cut-ties", end=ally.name, penalty="none")
    return offers


def _calls(realm: Realm, mode: str) -> Offers:
    """Allies that may be called: PR allies, and NPR allies at peace bordering the realm
    with the influence the mode discards."""
    callable_ = tuple(
        ally.name
        for ally in realm.allies
        if ally.kind == "pr"
        or (
            ally.at_peace
            and not ally.active
            and ally.adjacent
            and ally.influence >= INFLUENCE[mode]
        )
    )
    return _offer(realm, "call-to-arms", ("allies", callable_), mode=mode)


def _reactions(state: EuState, realm: Realm) -> Offers:
    """What a realm may do at any time: a Defensive Call to Arms, a General to an army
    attacked within the realm, a new ruler after a discarded one."""
    return [
        *_calls(realm, "defensive"),
        *_leaders(realm, reaction=True),
        *_ruler(state, realm, reaction=True),
    ]


def _income(state: EuState, realm: Realm) -> Offers:
    """Loans at any step; the open step, once, for a realm that has not recorded it."""
    offers = _loans(realm)
    if state.step in (None, DONE) or realm.name in state.recorded:
        return offers
    step = STEP_COMMANDS.get(str(state.step))
    if step is None:
        return offers
    return offers + {
        "A": _cut_costs,
        "C": _corruption,
        "D": _monarch_power,
        "E": _prestige,
    }[str(state.step)](state, realm, step)


def _cut_costs(state: EuState, realm: Realm, name: str) -> Offers:
    """Cutting everything is always allowed; cutting nothing only when step B leaves the
    realm solvent (A. Cut Costs: no cut that leaves it short while it could cut more)."""
    everything = _offer(
        realm,
        name,
        fire=",".join(a.slot for a in realm.advisors),
        disband_regulars=realm.regulars,
        disband_mercenaries=realm.mercenaries,
        disband_ships=realm.ships_at_sea,
    )
    if statement(realm, state.world, state.round).shortfall:
        return everything
    return everything + _offer(realm, name)


def _corruption(state: EuState, realm: Realm, name: str) -> Offers:
    """Keep all the ducats, or discard down to a band; pay what the administrative power
    allows (each unpaid one is an interest token)."""
    keeps = sorted({realm.ducats, min(realm.ducats, Fraction(49)), Fraction(0)})
    return [
        offer
        for keep in keeps
        for offer in _offer(realm, name, keep=keep, pay=min(corruption_cost(keep), realm.power.adm))
    ]


def _monarch_power(state: EuState, realm: Realm, name: str) -> Offers:
    """At +3 stability two more of the types named, at -3 one fewer of a type collected."""
    if realm.stability == LIMITS["stability"][1]:
        pairs = tuple(",".join(pair) for pair in combinations_with_replacement(POWER_TYPES, 2))
        return _offer(realm, name, ("gain", pairs))
    if realm.stability == LIMITS["stability"][0]:
        collected = _collected(state, realm)
        kinds = tuple(kind for kind in POWER_TYPES if collected[kind] > 0) or POWER_TYPES
        return _offer(realm, name, ("lose", kinds))
    return _offer(realm, name)


def _collected(state: EuState, realm: Realm) -> dict[str, int]:
    """The monarch power step D collects before stability (ruler or Interregnum,
    advisors, papal controller)."""
    ruler = (
        INTERREGNUM_SKILLS if realm.in_interregnum or realm.ruler is None else realm.ruler.skills
    )
    amounts = ruler.as_dict()
    for advisor in realm.advisors:
        amounts[advisor.slot] += advisor.skill
    if state.world.papal_controller == realm.name:
        amounts["dip"] += 1
    return amounts


def _prestige(state: EuState, realm: Realm, name: str) -> Offers:
    return _offer(realm, name, ("crusade", (0, 1)), ("power_struggle", (-1, 0, 1)))


def _adjustments(realm: Realm) -> Offers:
    """Effects the record does not model, entered by hand: a few ducats or prestige, a
    step of stability within its limits, a card leaving play."""
    low, high = LIMITS["stability"]
    assert low is not None and high is not None
    steps = tuple(d for d in (-1, 1) if low <= realm.stability + d <= high)
    cards = (
        *((realm.ruler.name,) if realm.ruler and not realm.in_interregnum else ()),
        *(a.name for a in realm.advisors),
        *(lead.name for lead in realm.leaders),
    )
    return [
        *_offer(realm, "adjust", ("ducats", (1, 2, LOAN_DUCATS)), REASON),
        *_offer(realm, "adjust", ("prestige", (-1, 1)), REASON),
        *_offer(realm, "adjust", ("stability", steps), REASON),
        *_offer(realm, "adjust", ("discard", cards), REASON),
    ]
