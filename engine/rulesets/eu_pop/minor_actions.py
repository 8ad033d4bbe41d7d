"""5.2 Minor Actions: appoint advisors, leaders and rulers, replenish manpower, cut ties.

Loans live in `loans`, Calls to Arms in `call_to_arms`. Each action is taken on the realm's
own turn in the Action phase, before it has passed; the ones the rulebook marks as
Reactions may be taken at any time with `reaction=true`, under the conditions it states.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

from warscribe.engine.commands import FLAG, NAMES, PAIRS, TEXT, Arg, Call, choice, integer, to_int
from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.events import Event

from .arguments import BORROW, COUNT, DELTAS, REACTION, EuCommand, EuDecision
from .events import (
    AdvisorAppointed,
    AdvisorFired,
    Deltas,
    GeneralReassigned,
    LeaderAppointed,
    ManpowerReplenished,
    RulerAppointed,
    TiesCut,
)
from .guards import actor_realm, known_ally, no_reaction, require_window
from .ledger import apply_deltas, check_deltas
from .loans import cover_cost
from .rules import ADVISOR, CUT_TIES, LEADER, MANPOWER, RULER
from .state import (
    POWER_TYPES,
    Advisor,
    EuState,
    Leader,
    Power,
    Realm,
    Ruler,
    drop_allies,
    update_realm,
)

UNITS_PER_MILITARY_POWER = 3


def _not_as_reaction(state: EuState, call: Call, realm: Realm, rule: str, action: str) -> None:
    if call.flag("reaction"):
        raise no_reaction(action)
    require_window(state, realm.name, rule)


def appoint_advisor(d: EuDecision) -> None:
    """Fire the advisor of a slot and/or hire one into it, paying its ducat cost."""
    realm = actor_realm(d.state, d.call)
    _not_as_reaction(d.state, d.call, realm, ADVISOR, "Appointing an advisor")
    slot = d.call.text("slot")
    current, fire = realm.advisor(slot), d.call.flag("fire")
    if fire and current is None:
        raise IllegalCommand(f"{realm.name} has no {slot} advisor to fire", ADVISOR)
    events: list[Event] = [AdvisorFired(realm.name, slot, current.name)] if fire and current else []
    if not d.call.given("name"):
        if not fire:
            raise InvalidCommand("appoint-advisor needs name=... (or fire=true alone)", ADVISOR)
        d.emit(*events)
        return
    if current and not fire:
        raise IllegalCommand(
            f"the {slot} slot holds {current.name}: one advisor per slot (fire=true to replace)",
            ADVISOR,
        )
    advisor = Advisor(
        name=d.call.text("name"),
        slot=slot,
        skill=d.call.number("skill"),
        upkeep=d.call.number("upkeep"),
    )
    cost = d.call.number("cost")
    borrow = d.call.number("borrow", 0)
    events += cover_cost(d.state, realm, Fraction(cost), borrow, f"advisor {advisor.name}")
    d.emit(*events, AdvisorAppointed(realm.name, advisor, cost))


def appoint_leader(d: EuDecision) -> None:
    """Employ a general or admiral on a mat for its military power cost. As a Reaction:
    a general, to an army of the realm attacked within the realm."""
    realm = actor_realm(d.state, d.call)
    kind = d.call.text("kind")
    mats = realm.armies if kind == "general" else realm.fleets
    reaction = d.call.flag("reaction")
    if reaction and kind != "general":
        raise IllegalCommand(
            "only a General may be appointed as a Reaction (to an army attacked in your realm)",
            LEADER,
        )
    if not reaction:
        require_window(d.state, realm.name, LEADER)
    leader = Leader(d.call.text("name"), kind, d.call.text("mat"))
    _check_mat(realm, leader.mat, "mat", mats, LEADER)
    if realm.leader(leader.name):
        raise IllegalCommand(f"{leader.name} is already employed by {realm.name}", LEADER)
    cost = d.call.number("cost")
    if realm.power.mil < cost:
        raise IllegalCommand(
            f"{leader.name} costs {cost} military power; {realm.name} has {realm.power.mil}", LEADER
        )
    d.emit(LeaderAppointed(realm.name, leader, cost, reaction))


def _check_mat(realm: Realm, mat: str, key: str, mats: tuple[str, ...], rule: str) -> None:
    if mat not in mats:
        raise InvalidCommand(
            f"{key}: {realm.name} has no mat {mat!r} for this (mats: {', '.join(mats)})", rule
        )
    holder = realm.leader_on(mat)
    if holder:
        raise IllegalCommand(f"{mat} is already led by {holder.name}", rule)


def reassign_general(d: EuDecision) -> None:
    """Move a general to another army, free; as a Reaction when that army is attacked."""
    realm = actor_realm(d.state, d.call)
    reaction = d.call.flag("reaction")
    if not reaction:
        require_window(d.state, realm.name, LEADER)
    name, army = d.call.text("name"), d.call.text("army")
    general = realm.leader(name)
    if general is None or general.kind != "general":
        raise InvalidCommand(f"name: {realm.name} employs no general {name!r}", LEADER)
    _check_mat(realm, army, "army", realm.armies, LEADER)
    d.emit(GeneralReassigned(realm.name, name, army, reaction))


def appoint_ruler(d: EuDecision) -> None:
    """A Leader from the hand becomes ruler, free, when there is none or it is Interregnum;
    as a Reaction when the ruler was discarded without replacement."""
    realm = actor_realm(d.state, d.call)
    ruler = realm.ruler
    if ruler is not None and not realm.in_interregnum:
        raise IllegalCommand(f"{realm.name} has a ruler, {ruler.name}", RULER)
    reaction = d.call.flag("reaction")
    if reaction and realm.name not in d.state.rulers_discarded:
        raise IllegalCommand(
            "a new ruler is appointed as a Reaction only when the ruler was discarded "
            f"without replacement; {realm.name}'s was not",
            RULER,
        )
    if not reaction:
        require_window(d.state, realm.name, RULER)
    name = d.call.text("name")
    if realm.leader(name):
        raise IllegalCommand(
            f"{name} leads a {realm.name} army or fleet; a new ruler comes from the hand", RULER
        )
    skills = Power(*(d.call.number(kind) for kind in POWER_TYPES))
    d.emit(RulerAppointed(realm.name, Ruler(name, skills), reaction))


def replenish_manpower(d: EuDecision) -> None:
    """Exhausted units back to available manpower: 1 military power per 3 units (a part
    of 3 costs a whole one)."""
    realm = actor_realm(d.state, d.call)
    _not_as_reaction(d.state, d.call, realm, MANPOWER, "Replenishing manpower")
    units = d.call.number("units")
    if units > realm.exhausted:
        raise IllegalCommand(
            f"{realm.name} has {realm.exhausted} exhausted units, not {units}", MANPOWER
        )
    cost = math.ceil(units / UNITS_PER_MILITARY_POWER)
    if realm.power.mil < cost:
        raise IllegalCommand(
            f"{units} units cost {cost} military power; {realm.name} has {realm.power.mil}",
            MANPOWER,
        )
    d.emit(ManpowerReplenished(realm.name, units, cost))


def cut_ties(d: EuDecision) -> None:
    """Return influence and other tokens from the board; end alliances, with the penalty of
    'Ending an Alliance' (a section the record lacks) entered as figure deltas."""
    realm = actor_realm(d.state, d.call)
    _not_as_reaction(d.state, d.call, realm, CUT_TIES, "Cutting ties")
    influence = d.call.at_most("influence", realm.influence)
    tokens = d.call.at_most("tokens", realm.tokens)
    from_allies = tuple(_ally_influence(realm, d.call))
    ended = d.call.names("end")
    for name in ended:
        known_ally(realm, name, "end", CUT_TIES)
    penalty = _penalty(d.call, bool(ended))
    if not (influence or tokens or from_allies or ended):
        raise InvalidCommand("cut-ties needs influence, ally_influence, tokens or end", CUT_TIES)
    event = TiesCut(realm.name, influence, from_allies, tokens, ended, penalty)
    check_deltas(_ties_returned(realm, event), penalty, CUT_TIES)
    d.emit(event)


def _ally_influence(realm: Realm, call: Call) -> list[tuple[str, int]]:
    found = []
    for name, raw in call.get("ally_influence", ()):
        held = known_ally(realm, name, "ally_influence", CUT_TIES).influence
        amount = to_int(raw)
        if amount is None or not 1 <= amount <= held:
            raise IllegalCommand(
                f"{realm.name} has {held} influence in {name}'s areas, not {raw!r}", CUT_TIES
            )
        found.append((name, amount))
    return found


def _penalty(call: Call, ending: bool) -> Deltas:
    if ending and not call.given("penalty"):
        raise InvalidCommand(
            "ending an alliance: enter its penalty ('Ending an Alliance', p. 33) as "
            "penalty=FIELD=DELTA,... or penalty=none",
            CUT_TIES,
        )
    penalty: Deltas = call.get("penalty", ())
    return penalty


def apply_advisor_fired(state: EuState, event: AdvisorFired) -> EuState:
    return update_realm(
        state,
        event.realm,
        lambda r: dataclasses.replace(
            r, advisors=tuple(a for a in r.advisors if a.slot != event.slot)
        ),
    )


def apply_advisor_appointed(state: EuState, event: AdvisorAppointed) -> EuState:
    return update_realm(
        state,
        event.realm,
        lambda r: dataclasses.replace(
            r, ducats=r.ducats - event.cost, advisors=(*r.advisors, event.advisor)
        ),
    )


def apply_leader_appointed(state: EuState, event: LeaderAppointed) -> EuState:
    def change(r: Realm) -> Realm:
        power = r.power.minus(Power(mil=event.cost))
        return dataclasses.replace(r, power=power, leaders=(*r.leaders, event.leader))

    return update_realm(state, event.realm, change)


def apply_general_reassigned(state: EuState, event: GeneralReassigned) -> EuState:
    def change(r: Realm) -> Realm:
        leaders = tuple(
            dataclasses.replace(lead, mat=event.army) if lead.name == event.general else lead
            for lead in r.leaders
        )
        return dataclasses.replace(r, leaders=leaders)

    return update_realm(state, event.realm, change)


def apply_ruler_appointed(state: EuState, event: RulerAppointed) -> EuState:
    state = dataclasses.replace(
        state, rulers_discarded=tuple(n for n in state.rulers_discarded if n != event.realm)
    )
    return update_realm(state, event.realm, lambda r: dataclasses.replace(r, ruler=event.ruler))


def apply_manpower_replenished(state: EuState, event: ManpowerReplenished) -> EuState:
    def change(r: Realm) -> Realm:
        return dataclasses.replace(
            r,
            manpower=r.manpower + event.units,
            exhausted=r.exhausted - event.units,
            power=r.power.minus(Power(mil=event.military_power)),
        )

    return update_realm(state, event.realm, change)


def _ties_returned(realm: Realm, event: TiesCut) -> Realm:
    """The realm once the tokens are back in its supply and the alliances ended, before the
    penalty: the figures the penalty is checked against."""
    taken = dict(event.ally_influence)
    allies = tuple(
        dataclasses.replace(a, influence=a.influence - taken.get(a.name, 0)) for a in realm.allies
    )
    realm = dataclasses.replace(
        realm,
        influence=realm.influence - event.influence,
        tokens=realm.tokens - event.tokens,
        allies=allies,
    )
    return drop_allies(realm, event.ended)


def apply_ties_cut(state: EuState, event: TiesCut) -> EuState:
    return update_realm(
        state, event.realm, lambda r: apply_deltas(_ties_returned(r, event), event.penalty)
    )


_NAME = Arg("name", TEXT, "The card's name.")
COMMANDS = (
    EuCommand(
        "appoint-advisor",
        appoint_advisor,
        (
            Arg("slot", choice(*POWER_TYPES), "The advisor's slot.", required=True),
            _NAME,
            Arg("skill", COUNT, "The advisor's skill."),
            Arg("cost", COUNT, "The hiring cost in ducats."),
            Arg("upkeep", integer(1, 4, metavar="1-4"), "The advisor's upkeep."),
            Arg("fire", FLAG, "Fire the advisor in that slot first (alone: only fire)."),
            BORROW,
            REACTION,
        ),
        ADVISOR,
        "Appoint an advisor to a slot and pay its hiring cost (one advisor per slot).",
        (
            'appoint-advisor --slot mil --name "Jean Bureau" --skill 2 --cost 6 --upkeep 2',
            "appoint-advisor --slot adm --fire --as alice",
        ),
    ),
    EuCommand(
        "appoint-leader",
        appoint_leader,
        (
            Arg("kind", choice("general", "admiral"), "The leader's kind.", required=True),
            Arg("name", TEXT, "The card's name.", required=True),
            Arg("mat", TEXT, "The army or fleet mat.", required=True, metavar="MAT"),
            Arg("cost", COUNT, "The cost in military power.", required=True),
            REACTION,
        ),
        LEADER,
        "Appoint a general or an admiral to an army or fleet mat, for military power.",
        ('appoint-leader --kind general --name "La Hire" --mat "Army II" --cost 1',),
    ),
    EuCommand(
        "reassign-general",
        reassign_general,
        (
            Arg("name", TEXT, "The general's name.", required=True),
            Arg("army", TEXT, "The army the general moves to.", required=True, metavar="ARMY"),
            REACTION,
        ),
        LEADER,
        "Move a general to another army (free; allowed as a Reaction).",
        ('reassign-general --name "Jean de Dunois" --army "Army II"',),
    ),
    EuCommand(
        "appoint-ruler",
        appoint_ruler,
        (
            Arg("name", TEXT, "The new ruler's name.", required=True),
            Arg("adm", COUNT, "Administrative skill.", required=True),
            Arg("dip", COUNT, "Diplomatic skill.", required=True),
            Arg("mil", COUNT, "Military skill.", required=True),
            REACTION,
        ),
        RULER,
        "Appoint a new ruler when the realm has none, or an Interregnum (free).",
        ('appoint-ruler --name "Louis XI" --adm 2 --dip 2 --mil 1 --reaction --as alice',),
    ),
    EuCommand(
        "replenish-manpower",
        replenish_manpower,
        (Arg("units", integer(low=1), "Manpower units to replenish.", required=True), REACTION),
        MANPOWER,
        "Move exhausted manpower back to available: 1 military power per 3 units.",
        ("replenish-manpower --units 3",),
    ),
    EuCommand(
        "cut-ties",
        cut_ties,
        (
            Arg("influence", COUNT, "Influence tokens returned."),
            Arg(
                "ally_influence",
                PAIRS,
                "Influence returned from allies' areas.",
                metavar="ALLY=N,...",
            ),
            Arg("tokens", COUNT, "Other board tokens returned."),
            Arg("end", NAMES, "Alliances ended."),
            Arg("penalty", DELTAS, "The penalty for ending an alliance, as entered."),
            REACTION,
        ),
        CUT_TIES,
        "Return influence and tokens from the board and end alliances.",
        ("cut-ties --ally-influence Savoy=1 --end Savoy --penalty prestige=-1",),
    ),
)
APPLY = {
    AdvisorFired: apply_advisor_fired,
    AdvisorAppointed: apply_advisor_appointed,
    LeaderAppointed: apply_leader_appointed,
    GeneralReassigned: apply_general_reassigned,
    RulerAppointed: apply_ruler_appointed,
    ManpowerReplenished: apply_manpower_replenished,
    TiesCut: apply_ties_cut,
}
