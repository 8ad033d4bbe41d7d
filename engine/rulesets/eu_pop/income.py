"""4.4 Phase 4: Income & Upkeep, steps A to E, for every realm at once.

Each realm records its own choice for the open step (A cut costs, C corruption, D monarch
power, E prestige); the step closes when every realm has, and the next opens. Step B has no
choice: when A closes, the record draws up every realm's income statement. Loans may be
taken at any step (`take-loan`), never repaid.

In a game made with `close_steps` (the default of new games), a realm with no choice in the
open step does not wait for a command: `close_steps` records it for the realm
(`StepClosedItself`, saying why, then the step's own events), after any command.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from fractions import Fraction

from warscribe.engine import commands
from warscribe.engine.commands import Arg, Call
from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.events import Command, Event

from .arguments import COUNT, DELTA, DUCATS, POWER, POWER_TYPE_LIST, EuCommand, EuDecision
from .events import (
    CorruptionSettled,
    CostsCut,
    IncomeStatement,
    IncomeStepClosed,
    MonarchPowerCollected,
    PrestigeScored,
    StepClosedItself,
)
from .guards import actor_realm
from .rules import CORRUPTION, CUT_COSTS, MONARCH_POWER, PRESTIGE
from .state import (
    DONE,
    INCOME_UPKEEP,
    POWER_TYPES,
    STEPS,
    EuState,
    Power,
    Realm,
    World,
    ducats_text,
    update_realm,
)
from .turns import waiting

STEP_RULES = {"A": CUT_COSTS, "C": CORRUPTION, "D": MONARCH_POWER, "E": PRESTIGE}
STEP_COMMANDS = {
    "A": "income-cut-costs",
    "C": "income-corruption",
    "D": "income-monarch-power",
    "E": "income-prestige",
}
FREE_BANDS = 4  # 0-9 ... 40-49 cost nothing
MAX_PAPAL_PRESTIGE = 3
FULL_IMPERIAL_AUTHORITY = 6
INTERREGNUM_SKILLS = Power(1, 1, 1)


def _require_step(state: EuState, realm: str, step: str) -> None:
    rule = STEP_RULES[step]
    if state.phase != INCOME_UPKEEP:
        raise IllegalCommand(f"step {step} belongs to Phase 4; the game is at {state.label}", rule)
    if state.step != step:
        raise IllegalCommand(f"Phase 4 is at step {state.step}, not {step}", rule)
    if realm in state.recorded:
        pending = ", ".join(waiting(state))
        raise IllegalCommand(f"{realm} has recorded step {step}; waiting for {pending}", rule)


def _closing(state: EuState, realm: str, step: str) -> list[Event]:
    """The step's close, when `realm` is the last to record it."""
    if set(state.recorded) | {realm} != set(state.order):
        return []
    return [IncomeStepClosed(state.round, step)]


# B. Collect Income minus Costs


def statement_lines(realm: Realm, world: World) -> tuple[tuple[str, Fraction], ...]:
    """Each line of step B, signed: income positive, costs negative, halves exact."""
    discount = 1 if world.papal_controller == realm.name else 0
    upkeep = sum(max(a.upkeep - discount, 0) for a in realm.advisors)
    stability = 2 if realm.stability > 0 else -2 if realm.stability < 0 else 0
    imperial = world.imperial_authority if world.emperor == realm.name else 0
    lines = (
        ("base tax", realm.base_tax),
        ("vassal tax", realm.vassal_tax),
        ("advisor upkeep", -upkeep),
        ("maintenance: regulars", -realm.regulars),
        ("maintenance: mercenaries", -2 * realm.mercenaries),
        ("maintenance: ships at sea", -Fraction(realm.ships_at_sea, 2)),
        ("loan interest", -realm.loans),
        ("plague", -Fraction(realm.plague_tax, 2)),
        ("stability", stability),
        ("imperial authority", imperial),
        ("ideas", realm.idea_income),
    )
    return tuple((label, Fraction(amount)) for label, amount in lines)


def statement(realm: Realm, world: World, round_: int) -> IncomeStatement:
    """Step B for `realm`. A balance below 0 is bankruptcy: the treasury stops at 0 and the
    shortfall is recorded (bankruptcy's own rules lie outside these sections)."""
    lines = statement_lines(realm, world)
    total = sum((amount for _, amount in lines), Fraction(0))
    balance = realm.ducats + total
    return IncomeStatement(
        realm.name,
        round_,
        lines,
        total,
        realm.ducats,
        max(balance, Fraction(0)),
        max(-balance, Fraction(0)),
    )


# A. Cut Costs


def cut_costs(d: EuDecision) -> None:
    realm = actor_realm(d.state, d.call)
    _require_step(d.state, realm.name, "A")
    fired = d.call.names("fire")
    for slot in fired:
        if realm.advisor(slot) is None or fired.count(slot) > 1:
            raise InvalidCommand(
                f"fire names each {realm.name} advisor's slot once; no {slot} to fire", CUT_COSTS
            )
    at_sea = realm.ships_at_sea
    event = CostsCut(
        realm.name,
        d.state.round,
        fired,
        d.call.at_most("disband_regulars", realm.regulars),
        d.call.at_most("disband_mercenaries", realm.mercenaries),
        d.call.at_most("disband_ships", at_sea),
        d.call.at_most("recall", at_sea),
    )
    if event.ships + event.recalled > at_sea:
        raise InvalidCommand(
            f"disband_ships + recall: {realm.name} has {at_sea} ships at sea to disband or recall",
            CUT_COSTS,
        )
    _avoid_bankruptcy(_after_cuts(realm, event), d.state.world)
    closing = _closing(d.state, realm.name, "A")
    d.emit(event, *closing)
    if closing:
        now = d.state
        statements = (statement(now.realm(name), now.world, now.round) for name in now.order)
        d.emit(*statements, IncomeStepClosed(now.round, "B"))


def _after_cuts(realm: Realm, cut: CostsCut) -> Realm:
    return dataclasses.replace(
        realm,
        advisors=tuple(a for a in realm.advisors if a.slot not in cut.fired),
        regulars=realm.regulars - cut.regulars,
        manpower=realm.manpower + cut.regulars,
        mercenaries=realm.mercenaries - cut.mercenaries,
        ships_at_sea=realm.ships_at_sea - cut.ships - cut.recalled,
        ships_in_port=realm.ships_in_port + cut.recalled,
    )


def _avoid_bankruptcy(realm: Realm, world: World) -> None:
    """Refuse cuts that leave step B short while costs remain that could still be cut."""
    projected = statement(realm, world, 0)
    can_cut = (
        realm.regulars
        or realm.mercenaries
        or realm.ships_at_sea
        or any(line == "advisor upkeep" and amount for line, amount in projected.lines)
    )
    if projected.shortfall and can_cut:
        raise IllegalCommand(
            f"step B would leave {realm.name} {ducats_text(projected.shortfall)} ducats short: "
            "cut more costs (or take loans first) to avoid bankruptcy",
            CUT_COSTS,
        )


# C. Corruption


def corruption_cost(ducats: Fraction) -> int:
    """Administrative power owed to keep `ducats`: none to 49, 1 at 50-59, 2 at 60-69, and
    one more for each further band of ten (a half ducat does not reach the next band)."""
    return max(0, math.floor(ducats) // 10 - FREE_BANDS)


def settle_corruption(d: EuDecision) -> None:
    """Keep some or all ducats; pay the administrative power owed, or gain an interest
    token for each unpaid one."""
    realm = actor_realm(d.state, d.call)
    _require_step(d.state, realm.name, "C")
    keep: Fraction = d.call.get("keep", realm.ducats)
    if keep > realm.ducats:
        raise IllegalCommand(
            f"{realm.name} can keep 0 to {ducats_text(realm.ducats)} ducats", CORRUPTION
        )
    owed = corruption_cost(keep)
    paid = d.call.at_most("pay", owed) if d.call.given("pay") else owed
    if paid > realm.power.adm:
        raise IllegalCommand(
            f"{realm.name} owes {owed} administrative power and has {realm.power.adm}: pay=N pays "
            "part, each unpaid one is an interest token",
            CORRUPTION,
        )
    event = CorruptionSettled(
        realm.name, d.state.round, realm.ducats - keep, owed, paid, owed - paid
    )
    d.emit(event, *_closing(d.state, realm.name, "C"))


# D. Collect Monarch Power


def power_lines(realm: Realm, world: World, call: Call) -> tuple[tuple[str, Power], ...]:
    ruler = (
        ("ruler", realm.ruler.skills)
        if realm.ruler and not realm.in_interregnum
        else ("interregnum", INTERREGNUM_SKILLS)
    )
    advisors = Power(**{a.slot: a.skill for a in realm.advisors})
    emperor: Power = call.get("emperor", Power())
    if emperor != Power() and world.emperor != realm.name:
        raise IllegalCommand(
            "only the Emperor collects monarch power for imperial authority", MONARCH_POWER
        )
    before = (ruler, ("advisors", advisors))
    after = (
        ("papal controller", Power(dip=1) if world.papal_controller == realm.name else Power()),
        ("emperor", emperor),
        ("ideas", call.get("ideas", Power())),
    )
    collected = _sum(amount for _, amount in (*before, *after))
    return (*before, ("stability", _stability_power(realm, call, collected)), *after)


def _sum(amounts: Iterable[Power]) -> Power:
    total = Power()
    for amount in amounts:
        total = total.plus(amount)
    return total


def _stability_power(realm: Realm, call: Call, collected: Power) -> Power:
    """+3 stability: 2 more of the types named in `gain`; -3: 1 fewer of the type in `lose`.

    The 1 fewer stops at 0: a realm that would collect nothing at all loses nothing (it
    still names a type). While it collects something, the type named must be one it
    collects, so the 1 fewer is really taken."""
    gain, lose = call.names("gain"), call.names("lose")
    needed = (2 if realm.stability == 3 else 0, 1 if realm.stability == -3 else 0)
    if (len(gain), len(lose)) != needed:
        raise InvalidCommand(
            f"at stability {realm.stability:+d}, gain names {needed[0]} power type(s) "
            f"and lose {needed[1]}",
            MONARCH_POWER,
        )
    if collected.as_dict() == dict.fromkeys(POWER_TYPES, 0):
        lose = ()
    return Power(**{kind: gain.count(kind) - lose.count(kind) for kind in POWER_TYPES})


def collect_monarch_power(d: EuDecision) -> None:
    realm = actor_realm(d.state, d.call)
    _require_step(d.state, realm.name, "D")
    lines = power_lines(realm, d.state.world, d.call)
    total = _sum(amount for _, amount in lines)
    if min(total.as_dict().values()) < 0:
        raise IllegalCommand(
            f"{realm.name} cannot collect fewer than 0 of a type: {total.as_dict()}", MONARCH_POWER
        )
    event = MonarchPowerCollected(realm.name, d.state.round, lines, total)
    d.emit(event, *_closing(d.state, realm.name, "D"))


# E. Score Prestige


def prestige_lines(realm: Realm, world: World, call: Call) -> tuple[tuple[str, int], ...]:
    papal = 0
    if world.papal_controller == realm.name and not world.papal_contested:
        papal = min(max(world.catholic_prs - 1, 0), MAX_PAPAL_PRESTIGE)
    emperor = world.emperor == realm.name and world.imperial_authority >= FULL_IMPERIAL_AUTHORITY
    absolute = realm.has_idea("Absolute Monarchy") and realm.stability > 0
    return (
        ("papal controller", papal),
        ("emperor", int(emperor)),
        ("absolute monarchy", int(absolute)),
        ("crusade", call.number("crusade", 0)),
        ("power struggle", call.number("power_struggle", 0)),
    )


def score_prestige(d: EuDecision) -> None:
    realm = actor_realm(d.state, d.call)
    _require_step(d.state, realm.name, "E")
    lines = prestige_lines(realm, d.state.world, d.call)
    event = PrestigeScored(realm.name, d.state.round, lines, sum(points for _, points in lines))
    d.emit(event, *_closing(d.state, realm.name, "E"))


# Steps no one has a choice in


def _nothing_to_cut(realm: Realm, world: World) -> str | None:
    if realm.advisors or realm.regulars or realm.mercenaries or realm.ships_at_sea:
        return None
    if statement(realm, world, 0).shortfall:
        return None  # a loan taken first may still spare it bankruptcy
    return "no advisor to fire, no unit to disband, no ship at sea, and step B leaves it solvent"


def _no_corruption(realm: Realm, world: World) -> str | None:
    if corruption_cost(realm.ducats):
        return None
    return f"keeping its {ducats_text(realm.ducats)} ducats costs nothing (0-49)"


def _no_power_to_choose(realm: Realm, world: World) -> str | None:
    if abs(realm.stability) == 3 or realm.ideas or world.emperor == realm.name:
        return None  # types to choose, or the Emperor's or ideas' power to enter
    return (
        f"stability {realm.stability:+d} chooses no power type, and it has no Emperor's or "
        "ideas' power to enter"
    )


def _no_prestige_to_enter(realm: Realm, world: World) -> str | None:
    if realm.crusade or realm.power_struggle:
        return None
    return "it holds no Crusade or power struggle token to score"


NO_CHOICE: dict[str, Callable[[Realm, World], str | None]] = {
    "A": _nothing_to_cut,
    "C": _no_corruption,
    "D": _no_power_to_choose,
    "E": _no_prestige_to_enter,
}


def _without_choice(state: EuState) -> tuple[Realm, str, str] | None:
    """The open step and the first realm it waits for that has no choice in it, and why."""
    step = state.step
    if not state.closing or state.phase != INCOME_UPKEEP or step not in NO_CHOICE:
        return None
    for name in waiting(state):
        realm = state.realm(name)
        reason = NO_CHOICE[step](realm, state.world)
        if reason is not None:
            return realm, step, reason
    return None


def close_steps(d: EuDecision) -> None:
    """Each step a realm has no choice in, recorded for it as its command given with
    nothing chosen would record it, until a step waits for a choice or Phase 4 is done."""
    while (found := _without_choice(d.state)) is not None:
        realm, step, reason = found
        name = STEP_COMMANDS[step]
        d.emit(StepClosedItself(realm.name, d.state.round, step, reason, STEP_RULES[step]))
        commands.follow(d, SPECS[name], Command(realm.player, name, ()))


# Applying the facts


def _recorded(state: EuState, realm: str) -> EuState:
    return dataclasses.replace(state, recorded=(*state.recorded, realm))


def apply_costs_cut(state: EuState, event: CostsCut) -> EuState:
    state = update_realm(state, event.realm, lambda r: _after_cuts(r, event))
    return _recorded(state, event.realm)


def apply_step_closed(state: EuState, event: IncomeStepClosed) -> EuState:
    index = STEPS.index(event.step) + 1
    return dataclasses.replace(
        state, step=STEPS[index] if index < len(STEPS) else DONE, recorded=()
    )


def apply_statement(state: EuState, event: IncomeStatement) -> EuState:
    state = update_realm(state, event.realm, lambda r: dataclasses.replace(r, ducats=event.closing))
    return dataclasses.replace(state, statements=(*state.statements, event))


def apply_corruption(state: EuState, event: CorruptionSettled) -> EuState:
    def change(r: Realm) -> Realm:
        return dataclasses.replace(
            r,
            ducats=r.ducats - event.discarded,
            power=r.power.minus(Power(adm=event.paid)),
            loans=r.loans + event.interest_tokens,
        )

    return _recorded(update_realm(state, event.realm, change), event.realm)


def apply_monarch_power(state: EuState, event: MonarchPowerCollected) -> EuState:
    state = update_realm(
        state, event.realm, lambda r: dataclasses.replace(r, power=r.power.plus(event.total))
    )
    state = dataclasses.replace(state, collections=(*state.collections, event))
    return _recorded(state, event.realm)


def apply_prestige(state: EuState, event: PrestigeScored) -> EuState:
    def change(r: Realm) -> Realm:
        """Prestige scored; the Crusade and power struggle tokens removed (4.4 E)."""
        return dataclasses.replace(
            r, prestige=r.prestige + event.total, crusade=False, power_struggle=False
        )

    state = update_realm(state, event.realm, change)
    state = dataclasses.replace(state, scores=(*state.scores, event))
    return _recorded(state, event.realm)


COMMANDS = (
    EuCommand(
        "income-cut-costs",
        cut_costs,
        (
            Arg(
                "fire",
                POWER_TYPE_LIST,
                "Slots whose advisors are fired (e.g. adm,mil).",
                metavar="SLOTS",
            ),
            Arg("disband_regulars", COUNT, "Regulars disbanded (back to available manpower)."),
            Arg("disband_mercenaries", COUNT, "Mercenaries disbanded."),
            Arg("disband_ships", COUNT, "Ships at sea disbanded."),
            Arg("recall", COUNT, "Ships at sea recalled to port."),
        ),
        CUT_COSTS,
        "Phase 4 step A: fire advisors, disband units, recall ships (or cut nothing).",
        ("income-cut-costs --disband-mercenaries 1 --recall 1 --as alice",),
    ),
    EuCommand(
        "income-corruption",
        settle_corruption,
        (
            Arg("keep", DUCATS, "Ducats kept (default all); the rest goes back to the bank."),
            Arg(
                "pay",
                COUNT,
                "Administrative power paid (default all owed); each unpaid is a loan token.",
            ),
        ),
        CORRUPTION,
        "Phase 4 step C: keep ducats and pay the administrative power corruption costs.",
        ("income-corruption --keep 49 --as alice",),
    ),
    EuCommand(
        "income-monarch-power",
        collect_monarch_power,
        (
            Arg(
                "gain",
                POWER_TYPE_LIST,
                "At stability +3: the two types gaining 1 (e.g. adm,mil or dip,dip).",
            ),
            Arg("lose", POWER_TYPE_LIST, "At stability -3: the type losing 1.", metavar="TYPE"),
            Arg("emperor", POWER, "The Emperor's extra power, as entered."),
            Arg("ideas", POWER, "Extra power from ideas, as entered."),
        ),
        MONARCH_POWER,
        "Phase 4 step D: collect monarch power (choose types at stability +3 or -3).",
        ("income-monarch-power --gain adm,mil --as alice",),
    ),
    EuCommand(
        "income-prestige",
        score_prestige,
        (
            Arg("crusade", DELTA, "Prestige from crusades, as entered.", metavar="N"),
            Arg("power_struggle", DELTA, "Prestige from power struggles, as entered.", metavar="N"),
        ),
        PRESTIGE,
        "Phase 4 step E: score prestige (crusades and power struggles as entered).",
        ("income-prestige --crusade 1 --as alice",),
    ),
)
SPECS = {spec.name: spec for spec in COMMANDS}
APPLY = {
    CostsCut: apply_costs_cut,
    IncomeStepClosed: apply_step_closed,
    IncomeStatement: apply_statement,
    CorruptionSettled: apply_corruption,
    MonarchPowerCollected: apply_monarch_power,
    PrestigeScored: apply_prestige,
}
