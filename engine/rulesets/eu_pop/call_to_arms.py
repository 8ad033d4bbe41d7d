"""5.2 Minor Actions: Call to Arms.

Offensive CtAs go with the realm's own DoW, on its turn: 2 influence from each NPR ally's
areas. Defensive CtAs answer a DoW on the realm or its NPR ally, as a Reaction, at any time:
1 influence each; when accepting an NPR ally's CtA, only other NPR allies may be called.
PR allies are called free (they may refuse: their answer is theirs to record). An NPR ally
must be at peace and adjacent to the realm or to a new enemy; it turns Active (K side),
adds half the tax value of its and its vassals' provinces (rounded down, at most 5) in NPR
units to available manpower, and gives 1 military power if adjacent to a new enemy.
"""

from __future__ import annotations

import dataclasses

from warscribe.engine.codec import frozen
from warscribe.engine.commands import FLAG, NAMES, TEXT, Arg, Call, choice
from warscribe.engine.errors import IllegalCommand, InvalidCommand

from .arguments import REACTION, EuCommand, EuDecision
from .events import AllyCalled
from .guards import actor_realm, known_ally, require_window
from .rules import CALL_TO_ARMS
from .state import Ally, EuState, Power, Realm, update_realm

INFLUENCE = {"offensive": 2, "defensive": 1}
MAX_UNITS = 5


@frozen
class _Request:
    mode: str
    called: tuple[str, ...]
    near: tuple[str, ...]
    accepting: bool
    enemy: str | None


def _read(call: Call) -> _Request:
    mode = call.text("mode")
    accepting = call.flag("accepting")
    if accepting and mode != "defensive":
        raise InvalidCommand("accepting an NPR ally's CtA, you send Defensive CtAs", CALL_TO_ARMS)
    called, near = call.names("allies"), call.names("near_enemy")
    if not called or len(set(called)) != len(called):
        raise InvalidCommand("allies must name each ally called once", CALL_TO_ARMS)
    if not set(near) <= set(called):
        raise InvalidCommand("near_enemy names called allies that border a new enemy", CALL_TO_ARMS)
    enemy: str | None = call.get("enemy")
    return _Request(mode, called, near, accepting, enemy)


def call_to_arms(d: EuDecision) -> None:
    realm = actor_realm(d.state, d.call)
    request = _read(d.call)
    if request.mode == "offensive" and d.call.flag("reaction"):
        raise IllegalCommand(
            "an Offensive CtA goes with your own DoW, on your turn, not as a Reaction", CALL_TO_ARMS
        )
    if request.mode == "offensive":
        require_window(d.state, realm.name, CALL_TO_ARMS)
    called = [
        _call(d.state, realm, known_ally(realm, name, "allies", CALL_TO_ARMS), request)
        for name in request.called
    ]
    d.emit(*called)


def _call(state: EuState, realm: Realm, ally: Ally, request: _Request) -> AllyCalled:
    mode, near = request.mode, ally.name in request.near
    reaction = mode == "defensive"
    if ally.kind == "pr":
        _check_pr(state, ally.name, request)
        return AllyCalled(realm.name, ally.name, mode, 0, 0, 0, reaction)
    if ally.active or not ally.at_peace:
        raise IllegalCommand(
            f"{ally.name} is not at peace: an NPR ally is called only while at peace", CALL_TO_ARMS
        )
    if not (ally.adjacent or near):
        raise IllegalCommand(
            f"{ally.name} borders neither {realm.name} nor a new enemy", CALL_TO_ARMS
        )
    cost = INFLUENCE[mode]
    if ally.influence < cost:
        raise IllegalCommand(
            f"a {mode} CtA discards {cost} influence from {ally.name}'s areas; "
            f"{realm.name} has {ally.influence} there",
            CALL_TO_ARMS,
        )
    units = min(ally.tax_value // 2, MAX_UNITS)
    return AllyCalled(realm.name, ally.name, mode, cost, units, int(near), reaction)


def _check_pr(state: EuState, ally: str, request: _Request) -> None:
    enemy = request.enemy
    if request.accepting:
        raise IllegalCommand(
            "accepting an NPR ally's CtA, only your other NPR allies may be called", CALL_TO_ARMS
        )
    if request.mode == "offensive" and enemy is not None and _allied(state, ally, enemy):
        raise IllegalCommand(
            f"{ally} is allied to both sides: only the defender, {enemy}, may call it", CALL_TO_ARMS
        )


def _allied(state: EuState, first: str, second: str) -> bool:
    one, other = state.find(first), state.find(second)
    return bool((one and one.ally(second)) or (other and other.ally(first)))


def apply_ally_called(state: EuState, event: AllyCalled) -> EuState:
    def flip(ally: Ally) -> Ally:
        if ally.name != event.ally or ally.kind != "npr":
            return ally
        return dataclasses.replace(
            ally, influence=ally.influence - event.influence, active=True, at_peace=False
        )

    def change(r: Realm) -> Realm:
        return dataclasses.replace(
            r,
            allies=tuple(flip(a) for a in r.allies),
            manpower=r.manpower + event.units,
            power=r.power.plus(Power(mil=event.military_power)),
        )

    return update_realm(state, event.realm, change)


COMMANDS = (
    EuCommand(
        "call-to-arms",
        call_to_arms,
        (
            Arg("mode", choice(*INFLUENCE), "The kind of Call to Arms.", required=True),
            Arg("allies", NAMES, "The allies called (comma-separated).", required=True),
            Arg("near_enemy", NAMES, "Called allies bordering a new enemy."),
            Arg("accepting", FLAG, "Answering an NPR ally's Call to Arms."),
            Arg("enemy", TEXT, "The realm attacked.", metavar="REALM"),
            REACTION,
        ),
        CALL_TO_ARMS,
        "Call allies to a war: offensive with your own DoW, defensive as a Reaction.",
        ("call-to-arms --mode offensive --allies Savoy --near-enemy Savoy --enemy Austria",),
    ),
)
APPLY = {AllyCalled: apply_ally_called}
