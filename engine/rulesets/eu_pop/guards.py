"""Checks shared by decisions: players and their realms, allies by name, who may act when."""

from __future__ import annotations

from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand, InvalidCommand, NotYourTurn

from .rules import MINOR, REACTIONS
from .state import ACTION, Ally, EuState, Realm


def actor_realm(state: EuState, call: Call) -> Realm:
    """The realm the command's actor plays."""
    realm = state.realm_of_player(call.actor)
    if realm is None:
        players = ", ".join(f"{r.player} ({r.name})" for r in state.realms)
        raise InvalidCommand(f"{call.actor} plays no realm in this game; players: {players}", MINOR)
    return realm


def named_realm(state: EuState, name: str, rule: str) -> Realm:
    realm = state.find(name)
    if realm is None:
        known = ", ".join(r.name for r in state.realms)
        raise InvalidCommand(f"no realm {name!r} in this game (realms: {known})", rule)
    return realm


def known_ally(realm: Realm, name: str, key: str, rule: str) -> Ally:
    """The ally `name`, given as argument `key`."""
    ally = realm.ally(name)
    if ally is None:
        known = ", ".join(a.name for a in realm.allies) or "none"
        raise InvalidCommand(
            f"{key}: {name} is not an ally of {realm.name} (allies: {known})", rule
        )
    return ally


def in_window(state: EuState, realm: str) -> bool:
    """Whether `realm` may take a minor action now without it being a Reaction."""
    return state.phase == ACTION and state.turn == realm and realm not in state.passed


def require_window(state: EuState, realm: str, rule: str) -> None:
    """Refuse unless it is `realm`'s turn in the Action phase and it has not passed."""
    if state.phase != ACTION:
        raise IllegalCommand(
            f"{realm}: minor actions are taken in the Action phase, and the game is at "
            f"{state.label}; only a Reaction may be taken now",
            rule,
        )
    if realm in state.passed:
        raise IllegalCommand(
            f"{realm} has passed this round: no minor action again this round unless as a Reaction",
            MINOR,
        )
    if state.turn != realm:
        raise NotYourTurn(f"it is {state.turn}'s turn, not {realm}'s", rule)


def no_reaction(action: str) -> IllegalCommand:
    return IllegalCommand(f"{action} cannot be taken as a Reaction", REACTIONS)


def next_turn(state: EuState, after: str, passed: tuple[str, ...]) -> str | None:
    """The next realm in turn order after `after` that has not passed (None: all have)."""
    order = state.order
    start = order.index(after) + 1
    rotation = order[start:] + order[:start]
    return next((name for name in rotation if name not in passed), None)
