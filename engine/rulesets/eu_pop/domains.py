"""The commands each player may give now: which ones (`offered`) and the values of their
arguments (`DOMAINS`, read by the core's enumerator, `warscribe.engine.offers`).

In the Action phase the realm on turn takes minor actions (5.2), ends its turn or passes;
any realm may answer with a Reaction (a Defensive Call to Arms, a General to an army
attacked, a new ruler after a discarded one) and record an adjustment. In Phase 4 every
realm still to record the open step records it, and may take loans (4.4). A phase with
nobody to wait for is ended by any player (round sequence).

Free values (names of new cards, costs read from the card) are offered from a few
plausible ones; values the position limits (loans, exhausted units, free mats, allies at
peace) are offered exactly as the rules allow them, so that everything offered is what
`decide` accepts (the conformance suite checks it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any

from warscribe.engine.commands import CommandSpec, Domain, Sofar

from .call_to_arms import INFLUENCE
from .income import INTERREGNUM_SKILLS, STEP_COMMANDS, corruption_cost, statement
from .ledger import LIMITS
from .loans import LOAN_DUCATS, REPAY_DUCATS
from .minor_actions import UNITS_PER_MILITARY_POWER
from .state import ACTION, DONE, INCOME_UPKEEP, MAX_INTEREST_TOKENS, POWER_TYPES, EuState, Realm
from .turns import waiting

SKILLS = (1, 2, 3)
REASON = "entered by hand"
ON_TURN = (
    "end-turn", "pass", "take-loan", "repay-loan", "appoint-advisor", "appoint-leader",
    "reassign-general", "appoint-ruler", "replenish-manpower", "cut-ties", "call-to-arms",
)  # fmt: skip
REACTIONS = ("call-to-arms", "appoint-leader", "reassign-general", "appoint-ruler", "adjust")
Values = Callable[[EuState, Realm], Sequence[Any]]


def offered(
    state: EuState, specs: Mapping[str, CommandSpec[EuState]]
) -> Iterator[tuple[str, CommandSpec[EuState]]]:
    """Each realm's player with the commands the position allows him."""
    if not state.order:
        return
    for realm in state.realms:
        names = {*REACTIONS, *(ON_TURN if _on_turn(state, realm) else ())}
        if state.phase == INCOME_UPKEEP:
            names |= {"take-loan", *_open_step(state, realm)}
        yield from ((realm.player, specs[name]) for name in specs if name in names)
    if not waiting(state):
        yield state.realm(state.order[0]).player, specs["end-phase"]


def _on_turn(state: EuState, realm: Realm) -> bool:
    return state.phase == ACTION and state.turn == realm.name


def _open_step(state: EuState, realm: Realm) -> tuple[str, ...]:
    """The open step's command, for a realm that has not recorded it."""
    if state.step in (None, DONE) or realm.name in state.recorded:
        return ()
    step = STEP_COMMANDS.get(str(state.step))
    return (step,) if step else ()


def _realm(sofar: Sofar) -> Realm:
    state: EuState = sofar.state
    return next(r for r in state.realms if r.player == sofar.actor)


def _of(values: Values) -> Domain:
    """A domain read from the state and the actor's realm."""
    return lambda sofar: values(sofar.state, _realm(sofar))


def _exclusive(**group: Values) -> dict[str, Domain]:
    """Domains of which one argument is given, the others left out (in the spec's order):
    each is offered while none before it was chosen, and the last one must be then."""
    names = tuple(group)

    def domain(name: str) -> Domain:
        def values(sofar: Sofar) -> Sequence[Any]:
            if any(other in sofar.chosen for other in names):
                return (None,)
            found = tuple(group[name](sofar.state, _realm(sofar)))
            return found if name == names[-1] else (None, *found)

        return values

    return {name: domain(name) for name in names}


def _fixed(*values: Any) -> Domain:
    return lambda sofar: values


# -- minor actions ------------------------------------------------------------------------


def _reaction(when: Callable[[EuState, Realm, Mapping[str, Any]], bool]) -> Domain:
    """Not a Reaction on the realm's turn; a Reaction where `when` allows one."""

    def values(sofar: Sofar) -> Sequence[Any]:
        realm = _realm(sofar)
        turn = (None,) if _on_turn(sofar.state, realm) else ()
        return (*turn, *((True,) if when(sofar.state, realm, sofar.chosen) else ()))

    return values


def _advisor_name(sofar: Sofar) -> Sequence[Any]:
    """A new advisor's name; none to fire the slot's advisor alone."""
    realm, slot = _realm(sofar), sofar.chosen["slot"]
    name = f"{realm.name} {slot} advisor {len(realm.advisors) + 1}"
    return (name, None) if realm.advisor(slot) is not None else (name,)


def _hiring(values: Values) -> Domain:
    """A hiring term, for an advisor named (none when only firing)."""
    return lambda sofar: values(sofar.state, _realm(sofar)) if "name" in sofar.chosen else (None,)


def _fire(sofar: Sofar) -> Sequence[Any]:
    """The slot's advisor fired first, when it has one (alone: only fired)."""
    held = _realm(sofar).advisor(sofar.chosen["slot"]) is not None
    return (True,) if held else (None,)


def _costs(state: EuState, realm: Realm) -> Sequence[Any]:
    return tuple(range(0, min(math.floor(realm.ducats), 5) + 1))


def _leader_kinds(state: EuState, realm: Realm) -> Sequence[Any]:
    """Generals and admirals on the realm's turn; generals only as a Reaction."""
    return ("general", "admiral") if _on_turn(state, realm) else ("general",)


def _fresh(realm: Realm, kind: str) -> str:
    """A name no leader of the realm bears (nor its ruler)."""
    taken = {lead.name for lead in realm.leaders} | {realm.ruler.name if realm.ruler else ""}
    return next(
        name for n in range(1, len(taken) + 2) if (name := f"{realm.name} {kind} {n}") not in taken
    )


def _free(realm: Realm, mats: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(mat for mat in mats if realm.leader_on(mat) is None)


def _mats(sofar: Sofar) -> Sequence[Any]:
    realm = _realm(sofar)
    return _free(realm, realm.armies if sofar.chosen["kind"] == "general" else realm.fleets)


def _ruler_name(state: EuState, realm: Realm) -> Sequence[Any]:
    """A Leader from the hand becomes ruler, when there is none or it is Interregnum."""
    return (_fresh(realm, "Ruler"),) if realm.in_interregnum else ()


def _replenishable(state: EuState, realm: Realm) -> tuple[int, ...]:
    most = min(realm.exhausted, realm.power.mil * UNITS_PER_MILITARY_POWER)
    return tuple(range(1, most + 1))


def _callable(sofar: Sofar) -> Sequence[Any]:
    """Allies that may be called: PR allies, and NPR allies at peace bordering the realm
    with the influence the mode discards."""
    mode = sofar.chosen["mode"]
    return tuple(
        ally.name
        for ally in _realm(sofar).allies
        if ally.kind == "pr"
        or (
            ally.at_peace
            and not ally.active
            and ally.adjacent
            and ally.influence >= INFLUENCE[mode]
        )
    )


def _modes(state: EuState, realm: Realm) -> Sequence[Any]:
    """An offensive Call to Arms on the realm's turn; a defensive one at any time."""
    return ("offensive", "defensive") if _on_turn(state, realm) else ("defensive",)


def _repayable(state: EuState, realm: Realm) -> tuple[int, ...]:
    return tuple(range(1, min(realm.loans, math.floor(realm.ducats / REPAY_DUCATS)) + 1))


def _loans(state: EuState, realm: Realm) -> tuple[int, ...]:
    return tuple(range(1, MAX_INTEREST_TOKENS - realm.loans + 1))


def _penalty(sofar: Sofar) -> Sequence[Any]:
    """An alliance ended: its penalty, a section the record lacks, entered as none."""
    return ("none",) if "end" in sofar.chosen else (None,)


# -- Phase 4 ------------------------------------------------------------------------------


def _cut_everything(state: EuState, realm: Realm) -> Sequence[Any]:
    """Cutting everything is always allowed; cutting nothing only when step B leaves the
    realm solvent (A. Cut Costs: no cut that leaves it short while it could cut more)."""
    everything = ",".join(a.slot for a in realm.advisors)
    return (everything,) if statement(realm, state.world, state.round).shortfall else (
        everything, None
    )  # fmt: skip


def _all_of(field: str) -> Domain:
    """All of the realm's `field` cut, when everything is."""
    return lambda sofar: (getattr(_realm(sofar), field),) if "fire" in sofar.chosen else (None,)


def _keeps(state: EuState, realm: Realm) -> Sequence[Any]:
    """Keep all the ducats, or discard down to a band."""
    return sorted({realm.ducats, min(realm.ducats, Fraction(49)), Fraction(0)})


def _pay(sofar: Sofar) -> Sequence[Any]:
    """What the administrative power allows (each unpaid one is an interest token)."""
    return (min(corruption_cost(sofar.chosen["keep"]), _realm(sofar).power.adm),)


def _gains(state: EuState, realm: Realm) -> Sequence[Any]:
    """At +3 stability two more of the types named."""
    if realm.stability != LIMITS["stability"][1]:
        return (None,)
    return tuple(",".join(pair) for pair in combinations_with_replacement(POWER_TYPES, 2))


def _losses(state: EuState, realm: Realm) -> Sequence[Any]:
    """At -3 stability one fewer of a type collected."""
    if realm.stability != LIMITS["stability"][0]:
        return (None,)
    collected = _collected(state, realm)
    return tuple(kind for kind in POWER_TYPES if collected[kind] > 0) or POWER_TYPES


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


# -- adjustments --------------------------------------------------------------------------


def _steps(state: EuState, realm: Realm) -> Sequence[Any]:
    """A step of stability within its limits."""
    low, high = LIMITS["stability"]
    assert low is not None and high is not None
    return tuple(d for d in (-1, 1) if low <= realm.stability + d <= high)


def _cards(state: EuState, realm: Realm) -> Sequence[Any]:
    """A card leaving play: the ruler (not an Interregnum), an advisor or a leader."""
    return (
        *((realm.ruler.name,) if realm.ruler and not realm.in_interregnum else ()),
        *(a.name for a in realm.advisors),
        *(lead.name for lead in realm.leaders),
    )


DOMAINS: dict[str, dict[str, Domain]] = {
    "pass": _exclusive(
        ducats=lambda state, realm: (0, 1, 2),
        repay=lambda state, realm: (1,) if realm.loans and realm.ducats >= REPAY_DUCATS else (),
    ),
    "take-loan": {"count": _of(_loans)},
    "repay-loan": {"count": _of(_repayable)},
    "appoint-advisor": {
        "slot": _fixed(*POWER_TYPES),
        "name": _advisor_name,
        "skill": _hiring(lambda state, realm: SKILLS),
        "cost": _hiring(_costs),
        "upkeep": _hiring(lambda state, realm: (1, 2, 3, 4)),
        "fire": _fire,
    },
    "appoint-leader": {
        "kind": _of(_leader_kinds),
        "name": lambda sofar: (_fresh(_realm(sofar), sofar.chosen["kind"].title()),),
        "mat": _mats,
        "cost": _of(lambda state, realm: tuple(range(0, min(realm.power.mil, 3) + 1))),
        "reaction": _reaction(lambda state, realm, chosen: chosen["kind"] == "general"),
    },
    "reassign-general": {
        "name": _of(
            lambda state, realm: tuple(g.name for g in realm.leaders if g.kind == "general")
        ),
        "army": _of(lambda state, realm: _free(realm, realm.armies)),
        "reaction": _reaction(lambda state, realm, chosen: True),
    },
    "appoint-ruler": {
        "name": _of(_ruler_name),
        **dict.fromkeys(POWER_TYPES, _fixed(*SKILLS)),
        "reaction": _reaction(lambda state, realm, chosen: realm.name in state.rulers_discarded),
    },
    "replenish-manpower": {"units": _of(_replenishable)},
    "cut-ties": {
        **_exclusive(
            influence=lambda state, realm: tuple(range(1, realm.influence + 1)),
            ally_influence=lambda state, realm: tuple(
                f"{a.name}=1" for a in realm.allies if a.influence
            ),
            tokens=lambda state, realm: tuple(range(1, realm.tokens + 1)),
            end=lambda state, realm: tuple(ally.name for ally in realm.allies),
        ),
        "penalty": _penalty,
    },
    "call-to-arms": {"mode": _of(_modes), "allies": _callable},
    "income-cut-costs": {
        "fire": _of(_cut_everything),
        "disband_regulars": _all_of("regulars"),
        "disband_mercenaries": _all_of("mercenaries"),
        "disband_ships": _all_of("ships_at_sea"),
    },
    "income-corruption": {"keep": _of(_keeps), "pay": _pay},
    "income-monarch-power": {"gain": _of(_gains), "lose": _of(_losses)},
    "income-prestige": {
        "crusade": _fixed(0, 1),
        "power_struggle": _fixed(-1, 0, 1),
    },
    "adjust": {
        "reason": _fixed(REASON),
        **_exclusive(
            ducats=lambda state, realm: (1, 2, LOAN_DUCATS),
            stability=_steps,
            prestige=lambda state, realm: (-1, 1),
            discard=_cards,
        ),
    },
}
"""The values `legal` offers for each command's arguments (by command, then argument)."""
