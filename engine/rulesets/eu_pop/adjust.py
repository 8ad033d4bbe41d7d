"""Adjustments: the effects of what the record does not model (Turn Actions, action cards,
wars, events), recorded with a reason so that the ledger always matches the table.

Realm figures change by delta (`ducats=-3 regulars=3`); a ducat cost the treasury lacks is
covered with `borrow=N` loans (taken as Reactions outside the realm's own turn). Cards leave
play with `discard`, ideas change with `gain_idea`/`lose_idea`, an alliance is set with
`ally=NAME` and `ally_*` values or dropped with `drop_ally`, and the papacy and Empire are
set with their own arguments (imperial authority by delta).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.events import Command, Event

from . import arguments as arg
from .arguments import CommandSpec
from .events import AllyDropped, AllySet, CardDiscarded, IdeasSet, RealmAdjusted, WorldSet
from .guards import actor_realm, known_ally, named_realm
from .ledger import FIELDS, apply_deltas, check_deltas, read_deltas
from .loans import apply_loan, cover_cost
from .rules import ADJUST
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
CARD_ARGS = ("drop_ally", "discard", "gain_idea", "lose_idea")
NOBODY = "none"


def adjust(state: EuState, command: Command) -> list[Event]:
    actor = actor_realm(state, command)
    reason = arg.text(command, "reason", ADJUST)
    realm = named_realm(state, arg.text(command, "realm", ADJUST, default=actor.name), ADJUST)
    events = [
        *_figures(state, realm, command, reason),
        *_discard(realm, command, reason),
        *_ideas(realm, command, reason),
        *_ally(realm, command, reason),
        *_drop_ally(realm, command, reason),
        *_world(state.world, command, reason),
    ]
    if not events:
        raise InvalidCommand(
            "adjust changes nothing: give a delta (e.g. ducats=-3) or a setting", ADJUST
        )
    return events


def _figures(state: EuState, realm: Realm, command: Command, reason: str) -> list[Event]:
    deltas = read_deltas(((f, command.arg(f)) for f in FIELDS if arg.given(command, f)), ADJUST)
    cost = -sum((Fraction(d) for f, d in deltas if f == "ducats"), Fraction(0))
    borrow = arg.integer(command, "borrow", ADJUST, default=0)
    loans = cover_cost(state, realm, max(cost, Fraction(0)), borrow, f"adjustment: {reason}")
    for loan in loans:
        state = apply_loan(state, loan)
    check_deltas(state.realm(realm.name), deltas, ADJUST)
    return [*loans, RealmAdjusted(realm.name, reason, deltas)] if deltas else [*loans]


def _discard(realm: Realm, command: Command, reason: str) -> list[Event]:
    if not arg.given(command, "discard"):
        return []
    name = arg.text(command, "discard", ADJUST)
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


def _ideas(realm: Realm, command: Command, reason: str) -> list[Event]:
    gained, lost = arg.names(command, "gain_idea", ADJUST), arg.names(command, "lose_idea", ADJUST)
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


def _ally(realm: Realm, command: Command, reason: str) -> list[Event]:
    if not arg.given(command, "ally"):
        if any(arg.given(command, key) for key in ALLY_ARGS):
            raise InvalidCommand("name the alliance to set: ally=NAME", ADJUST)
        return []
    name = arg.text(command, "ally", ADJUST)
    current = realm.ally(name) or Ally(name, arg.text(command, "ally_kind", ADJUST))
    kind = arg.text(command, "ally_kind", ADJUST, default=current.kind)
    if kind not in ("npr", "pr"):
        raise InvalidCommand(f"ally_kind must be npr or pr, not {kind!r}", ADJUST)
    ally = Ally(
        name=name,
        kind=kind,
        tax_value=arg.integer(command, "ally_tax_value", ADJUST, default=current.tax_value),
        influence=arg.integer(command, "ally_influence", ADJUST, default=current.influence),
        adjacent=arg.flag(command, "ally_adjacent", ADJUST, default=current.adjacent),
        at_peace=arg.flag(command, "ally_at_peace", ADJUST, default=current.at_peace),
        active=arg.flag(command, "ally_active", ADJUST, default=current.active),
    )
    return [] if ally == realm.ally(name) else [AllySet(realm.name, ally, reason)]


def _drop_ally(realm: Realm, command: Command, reason: str) -> list[Event]:
    if not arg.given(command, "drop_ally"):
        return []
    name = known_ally(realm, arg.text(command, "drop_ally", ADJUST), "drop_ally", ADJUST).name
    return [AllyDropped(realm.name, name, reason)]


def _holder(command: Command, key: str, current: str | None) -> str | None:
    if not arg.given(command, key):
        return current
    name = arg.text(command, key, ADJUST)
    return None if name.lower() == NOBODY else name


def _world(world: World, command: Command, reason: str) -> list[Event]:
    if not any(arg.given(command, key) for key in WORLD_ARGS):
        return []
    authority = world.imperial_authority + arg.integer(
        command, "imperial_authority", ADJUST, default=0, low=None
    )
    if authority < 0:
        raise IllegalCommand(f"imperial authority would be {authority}, below 0", ADJUST)
    changed = World(
        papal_controller=_holder(command, "papal_controller", world.papal_controller),
        papal_contested=arg.flag(command, "papal_contested", ADJUST, default=world.papal_contested),
        catholic_prs=arg.integer(command, "catholic_prs", ADJUST, default=world.catholic_prs),
        emperor=_holder(command, "emperor", world.emperor),
        imperial_authority=authority,
    )
    return [WorldSet(changed, reason)]


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


COMMANDS = {
    "adjust": CommandSpec(
        adjust,
        ("reason", "realm", "borrow", *FIELDS, *WORLD_ARGS, "ally", *ALLY_ARGS, *CARD_ARGS),
        ADJUST,
    ),
}
APPLY = {
    RealmAdjusted: apply_adjusted,
    CardDiscarded: apply_discarded,
    IdeasSet: apply_ideas,
    AllySet: apply_ally_set,
    AllyDropped: apply_ally_dropped,
    WorldSet: apply_world,
}
