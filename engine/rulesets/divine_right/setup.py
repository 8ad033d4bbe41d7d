"""Game Setup (rulebook "Game Setup"): identities, deployment, personalities, deck, turn 1."""

from __future__ import annotations

from warscribe.engine import decision
from warscribe.engine.dice import Dice
from warscribe.engine.errors import InvalidCommand
from warscribe.engine.events import Event
from warscribe.engine.ruleset import GameSpec

from .data import DRData
from .events import (
    DiplomacyDeckShuffled,
    IdentityTaken,
    KingdomDeployed,
    PersonalitiesDealt,
    Placement,
    PlayerOrderDrawn,
)
from .evolving import Decision, asking, evolve
from .placement.deployment import awaiting, deployment
from .sections import GAME_SETUP, IDENTITY_CARDS
from .state import KingdomState, Player, State
from .tables import Evolvers, rulebook

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def check_players(spec: GameSpec, data: DRData) -> None:
    """2-6 players, distinct names, each chosen kingdom a basic-game kingdom, no kingdom twice."""
    names = [p.name for p in spec.players]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidCommand(f"Divine Right needs 2 to 6 players, not {len(names)}", GAME_SETUP)
    if len(set(names)) != len(names) or not all(names):
        raise InvalidCommand("each player needs a distinct, non-empty name", GAME_SETUP)
    basic = {k.name.lower(): k.name for k in data.basic_kingdoms()}
    chosen: list[str] = []
    for player in spec.players:
        if player.choice is None:
            continue
        kingdom = basic.get(player.choice.lower())
        if kingdom is None:
            raise InvalidCommand(
                f"{player.name}={player.choice}: not a kingdom of the basic game "
                f"(choose from {', '.join(sorted(basic.values()))})",
                IDENTITY_CARDS,
            )
        if kingdom in chosen:
            raise InvalidCommand(f"{kingdom} is chosen by two players", GAME_SETUP)
        chosen.append(kingdom)


def setup_events(state: State, spec: GameSpec, data: DRData, dice: Dice) -> list[Event]:
    """Draw identities, deploy the player kingdoms, deal personalities, shuffle, turn 1;
    then the questions each identity asks (the rule book's `at_setup`, on the decision
    the set-up makes)."""
    d = decision.Decision(state, None, data, dice, evolve, asking)
    identities = _identities(d, spec)
    for _, kingdom in identities:
        placements, to_place = deployment(data, kingdom)
        d.emit(
            KingdomDeployed(kingdom=kingdom, placements=placements), *awaiting(kingdom, to_place)
        )
    others = tuple(k.name for k in data.basic_kingdoms() if k.name not in dict(identities).values())
    numbers = tuple(p.number for p in data.personalities)
    rolled, shuffled = dice.shuffle("personality cards", numbers)
    dealt = PersonalitiesDealt(
        kingdoms=others, cards=shuffled[: len(others)], pool=shuffled[len(others) :]
    )
    d.emit(rolled, dealt)
    rolled, deck = dice.shuffle("diplomacy deck", tuple(card.id for card in data.deck))
    d.emit(rolled, DiplomacyDeckShuffled(size=len(deck), cards=deck))
    d.emit(*player_order(1, tuple(name for name, _ in identities), dice))
    for player, kingdom in identities:
        for question in rulebook().at_setup:
            question(d, player, kingdom)
    return d.events


def _identities(d: Decision, spec: GameSpec) -> list[tuple[str, str]]:
    data, dice = d.data, d.dice
    chosen = {
        p.name: next(k.name for k in data.basic_kingdoms() if k.name.lower() == p.choice.lower())
        for p in spec.players
        if p.choice
    }
    remaining = tuple(k.name for k in data.basic_kingdoms() if k.name not in chosen.values())
    drawing = [p.name for p in spec.players if p.name not in chosen]
    if drawing:
        rolled, cards = dice.shuffle("identity cards", remaining)
        d.emit(rolled)
        drawn = dict(zip(drawing, cards, strict=False))
    else:
        drawn = {}
    result = []
    for player in spec.players:
        kingdom = chosen.get(player.name) or drawn[player.name]
        d.emit(IdentityTaken(player=player.name, kingdom=kingdom, chosen=player.name in chosen))
        result.append((player.name, kingdom))
    return result


def player_order(turn: int, players: tuple[str, ...], dice: Dice) -> list[Event]:
    """Player-Order Determination: one randomizer chit per player, lowest goes first."""
    rolled, chits = dice.shuffle(
        f"randomizer chits, turn {turn}", tuple(range(1, len(players) + 1))
    )
    drawn = tuple(zip(players, chits, strict=True))
    order = tuple(name for name, _ in sorted(drawn, key=lambda pair: pair[1]))
    return [rolled, PlayerOrderDrawn(turn=turn, chits=drawn, order=order)]


__all__ = ["Placement", "check_players", "player_order", "setup_events"]


def _identity(state: State, event: IdentityTaken) -> State:
    kingdoms = dict(state.kingdoms)
    kingdoms[event.kingdom] = KingdomState(name=event.kingdom, player=event.player)
    return state.replace(
        players=(*state.players, Player(name=event.player, kingdom=event.kingdom)),
        kingdoms=kingdoms,
    )


def _dealt(state: State, event: PersonalitiesDealt) -> State:
    kingdoms = dict(state.kingdoms)
    cards = event.cards or (None,) * len(event.kingdoms)
    for kingdom, card in zip(event.kingdoms, cards, strict=True):
        kingdoms[kingdom] = KingdomState(name=kingdom, personality=card)
    return state.replace(kingdoms=kingdoms, personality_pool=event.pool)


def _shuffled(state: State, event: DiplomacyDeckShuffled) -> State:
    return state.replace(deck=event.cards, deck_size=event.size)


EVOLVERS: Evolvers = {
    IdentityTaken: _identity,
    PersonalitiesDealt: _dealt,
    DiplomacyDeckShuffled: _shuffled,
}
