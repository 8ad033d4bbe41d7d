"""Adjustments: the effects of what the record does not model (Turn Actions, action cards,
wars, events), recorded with a reason so that the ledger always matches the table.

Realm figures change by delta (`ducats=-3 regulars=3`), or with `set` are given as their
values now and recorded as the deltas that make them; a ducat cost the treasury lacks is
covered with `--borrow N` loans (taken as Reactions outside the realm's own turn). Cards leave
play with `discard`, ideas change with `gain_idea`/`lose_idea`, an alliance is set with
`ally=NAME` and `ally_*` values or dropped with `drop_ally`, and the papacy and Empire are
set with their own arguments (imperial authority by delta, or its value with `set`). The
Crusade and power struggle tokens step E scores are set with `crusade_token` and
`power_struggle_tokens`.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from warscribe.engine.commands import FLAG, NAMES, SWITCH, TEXT, Arg, Call, choice
from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.events import Event

from .arguments import BORROW, COUNT, DELTA, DUCATS_DELTA, EuCommand, EuDecision
from .events import (
    AllyDropped,
    AllySet,
    CardDiscarded,
    IdeasSet,
    RealmAdjusted,
    ScoringTokensSet,
    WorldSet,
)
from .guards import actor_realm, known_ally, named_realm
from .ledger import FIELDS, apply_deltas, check_deltas, merge, value
from .loans import apply_loan, cover_cost
from .rules import ADJUST, PRESTIGE
from .state import Ally, EuState, Realm, World, drop_allies, replace_realm, update_realm

WORLD_ARGS = (
    "papal_controller",
    "papal_contested",
    "catholic_prs",
    "emperor",
    "imperial_authority",
)
ALLY_ARGS = (
    "ally_kind", "ally_tax_value", "ally_influence", "ally_adjacent", "ally_at_peace",
    "ally_active",
)  # fmt: skip
NOBODY = "none"


def adjust(d: EuDecision) -> None:
    actor = actor_realm(d.state, d.call)
    reason = d.call.text("reason")
    if d.call.flag("set") and not any(d.call.given(f) for f in (*FIELDS, "imperial_authority")):
        raise InvalidCommand("set: give the figures whose values are set (e.g. ducats=12)", ADJUST)
    realm = named_realm(d.state, d.call.text("realm", actor.name), ADJUST)
    events = [
        *_figures(d.state, realm, d.call, reason),
        *_discard(realm, d.call, reason),
        *_ideas(realm, d.call, reason),
        *_ally(realm, d.call, reason),
        *_drop_ally(realm, d.call, reason),
        *_world(d.state.world, d.call, reason),
        *_scoring_tokens(realm, d.call, reason),
    ]
    if not events:
        raise InvalidCommand(
            "adjust changes nothing: give a delta (e.g. ducats=-3) or a setting", ADJUST
        )
    d.emit(*events)


def _figures(state: EuState, realm: Realm, call: Call, reason: str) -> list[Event]:
    """The figures' changes: the deltas given, or with `set` the deltas that make the
    values given (a slip corrected outright; the record still holds changes)."""
    given = [(f, call.get(f)) for f in FIELDS if call.given(f)]
    if call.flag("set"):
        given = [(f, figure - value(realm, f)) for f, figure in given]
    deltas = merge(given)
    cost = -sum((Fraction(d) for f, d in deltas if f == "ducats"), Fraction(0))
    borrow = call.number("borrow", 0)
    loans = cover_cost(state, realm, max(cost, Fraction(0)), borrow, f"adjustment: {reason}")
    for loan in loans:
        state = apply_loan(state, loan)
    check_deltas(state.realm(realm.name), deltas, ADJUST)
    return [*loans, RealmAdjusted(realm.name, reason, deltas)] if deltas else [*loans]


def _discard(realm: Realm, call: Call, reason: str) -> list[Event]:
    if not call.given("discard"):
        return []
    name = call.text("discard")
    kinds = (
        ("ruler", realm.ruler is not None and realm.ruler.name == name),
        ("advisor", any(a.name == name for a in realm.advisors)),
        ("leader", realm.leader(name) is not None),
    )
    kind = next((kind for kind, held in kinds if held), None)
    if kind is None:
        raise InvalidCommand(
            f"discard: {realm.name} has no ruler, advisor or leader called {name!r}", ADJUST
        )
    return [CardDiscarded(realm.name, name, kind, reason)]


def _ideas(realm: Realm, call: Call, reason: str) -> list[Event]:
    gained, lost = call.names("gain_idea"), call.names("lose_idea")
    if not (gained or lost):
        return []
    missing = [idea for idea in lost if not realm.has_idea(idea)]
    held = [idea for idea in gained if realm.has_idea(idea)]
    if missing:
        raise IllegalCommand(f"{realm.name} does not hold {', '.join(missing)}", ADJUST)
    if held:
        raise IllegalCommand(f"{realm.name} already holds {', '.join(held)}", ADJUST)
    dropped = {idea.lower() for idea in lost}
    ideas = (*(i for i in realm.ideas if i.lower() not in dropped), *gained)
    return [IdeasSet(realm.name, ideas, reason)]


def _ally(realm: Realm, call: Call, reason: str) -> list[Event]:
    if not call.given("ally"):
        if any(call.given(key) for key in ALLY_ARGS):
            raise InvalidCommand("name the alliance to set: ally=NAME", ADJUST)
        return []
    name = call.text("ally")
    current = realm.ally(name) or Ally(name, call.text("ally_kind"))
    ally = Ally(
        name=name,
        kind=call.text("ally_kind", current.kind),
        tax_value=call.get("ally_tax_value", current.tax_value),
        influence=call.get("ally_influence", current.influence),
        adjacent=call.get("ally_adjacent", current.adjacent),
        at_peace=call.get("ally_at_peace", current.at_peace),
        active=call.get("ally_active", current.active),
    )
    return [] if ally == realm.ally(name) else [AllySet(realm.name, ally, reason)]


def _drop_ally(realm: Realm, call: Call, reason: str) -> list[Event]:
    if not call.given("drop_ally"):
        return []
    name = known_ally(realm, call.text("drop_ally"), "drop_ally", ADJUST).name
    return [AllyDropped(realm.name, name, reason)]


def _holder(call: Call, key: str, current: str | None) -> str | None:
    if not call.given(key):
        return current
    name = call.text(key)
    return None if name.lower() == NOBODY else name


def _world(world: World, call: Call, reason: str) -> list[Event]:
    if not any(call.given(key) for key in WORLD_ARGS):
        return []
    authority = call.number("imperial_authority", 0)
    if not (call.flag("set") and call.given("imperial_authority")):
        authority += world.imperial_authority
    if authority < 0:
        raise IllegalCommand(f"imperial authority would be {authority}, below 0", ADJUST)
    changed = World(
        papal_controller=_holder(call, "papal_controller", world.papal_controller),
        papal_contested=call.get("papal_contested", world.papal_contested),
        catholic_prs=call.get("catholic_prs", world.catholic_prs),
        emperor=_holder(call, "emperor", world.emperor),
        imperial_authority=authority,
    )
    return [WorldSet(changed, reason)]


def _scoring_tokens(realm: Realm, call: Call, reason: str) -> list[Event]:
    """The Crusade and power struggle tokens step E scores and removes (4.4 E): a realm
    holding one records step E itself, to enter its prestige."""
    if not (call.given("crusade_token") or call.given("power_struggle_tokens")):
        return []
    crusade = call.get("crusade_token", realm.crusade)
    struggle = call.get("power_struggle_tokens", realm.power_struggle)
    if (crusade, struggle) == (realm.crusade, realm.power_struggle):
        return []
    return [ScoringTokensSet(realm.name, crusade, struggle, reason)]


def apply_scoring_tokens(state: EuState, event: ScoringTokensSet) -> EuState:
    return replace_realm(
        state, event.realm, crusade=event.crusade, power_struggle=event.power_struggle
    )


def apply_adjusted(state: EuState, event: RealmAdjusted) -> EuState:
    return update_realm(state, event.realm, lambda r: apply_deltas(r, event.deltas))


def apply_discarded(state: EuState, event: CardDiscarded) -> EuState:
    if event.kind == "ruler":
        state = dataclasses.replace(state, rulers_discarded=(*state.rulers_discarded, event.realm))

    def change(r: Realm) -> Realm:
        return dataclasses.replace(
            r,
            ruler=None if event.kind == "ruler" else r.ruler,
            advisors=tuple(a for a in r.advisors if a.name != event.name),
            leaders=tuple(lead for lead in r.leaders if lead.name != event.name),
        )

    return update_realm(state, event.realm, change)


def apply_ideas(state: EuState, event: IdeasSet) -> EuState:
    return replace_realm(state, event.realm, ideas=event.ideas)


def apply_ally_set(state: EuState, event: AllySet) -> EuState:
    def change(r: Realm) -> Realm:
        allies = tuple(event.ally if a.name == event.ally.name else a for a in r.allies)
        new = () if r.ally(event.ally.name) else (event.ally,)
        return dataclasses.replace(r, allies=(*allies, *new))

    return update_realm(state, event.realm, change)


def apply_ally_dropped(state: EuState, event: AllyDropped) -> EuState:
    return update_realm(state, event.realm, lambda r: drop_allies(r, (event.ally,)))


def apply_world(state: EuState, event: WorldSet) -> EuState:
    return dataclasses.replace(state, world=event.world)


_REALM = "REALM|none"
COMMANDS = (
    EuCommand(
        "adjust",
        adjust,
        (
            Arg("reason", TEXT, "Why (required): the card, war or event.", required=True),
            Arg("realm", TEXT, "The realm changed (default: the actor's).", metavar="REALM"),
            BORROW,
            Arg(
                "set",
                FLAG,
                "The figures given are their values now, recorded as the changes that make "
                "them (to correct a slip outright).",
            ),
            Arg("ducats", DUCATS_DELTA, "Change of ducats (whole or half)."),
            *(
                Arg(field, DELTA, f"Change of the realm's figure {field} (+N or -N).")
                for field in FIELDS
                if field != "ducats"
            ),
            Arg("papal_controller", TEXT, "The papal controller now.", metavar=_REALM),
            Arg("papal_contested", SWITCH, "Whether the papacy is contested."),
            Arg("catholic_prs", COUNT, "The number of Catholic PRs."),
            Arg("emperor", TEXT, "The Emperor now.", metavar=_REALM),
            Arg("imperial_authority", DELTA, "Change of imperial authority."),
            Arg("ally", TEXT, "The ally to add or change (with the ally options).", metavar="NAME"),
            Arg("ally_kind", choice("npr", "pr"), "The ally's kind (needed for a new alliance)."),
            Arg("ally_tax_value", COUNT, "The ally's provinces' tax value."),
            Arg("ally_influence", COUNT, "Influence in the ally's areas."),
            Arg("ally_adjacent", SWITCH, "Whether the ally borders the realm."),
            Arg("ally_at_peace", SWITCH, "Whether the ally is at peace."),
            Arg("ally_active", SWITCH, "Whether the ally is Active."),
            Arg("drop_ally", TEXT, "End an alliance without Cut Ties.", metavar="NAME"),
            Arg("discard", TEXT, "A ruler, advisor or leader card leaves play.", metavar="NAME"),
            Arg(
                "crusade_token",
                SWITCH,
                "Whether the realm holds an active Crusade token (step E waits for it).",
                rule=PRESTIGE,
            ),
            Arg(
                "power_struggle_tokens",
                SWITCH,
                "Whether the realm holds power struggle tokens (step E waits for it).",
                rule=PRESTIGE,
            ),
            Arg("gain_idea", NAMES, "An idea gained.", metavar="NAME"),
            Arg("lose_idea", NAMES, "An idea lost.", metavar="NAME"),
        ),
        ADJUST,
        "Record an effect the record does not model (card, war, event), with a reason.",
        (
            'adjust --reason "Recruit 2 regulars" --ducats -2 --regulars 2 --manpower -2',
            'adjust --reason "Election" --realm Austria --emperor Austria',
        ),
    ),
)
APPLY = {
    RealmAdjusted: apply_adjusted,
    CardDiscarded: apply_discarded,
    IdeasSet: apply_ideas,
    AllySet: apply_ally_set,
    AllyDropped: apply_ally_dropped,
    WorldSet: apply_world,
    ScoringTokensSet: apply_scoring_tokens,
}
