"""The Diplomacy Phase: drawing cards, the ambassador's one task (activation,
deactivation, assassination, duel, or pass), banishment, the death of an ambassador,
and Forced Peace attempts."""

from __future__ import annotations

from warscribe.engine.codec import replace
from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand, InvalidCommand

from .data import (
    AllianceSizeModifier,
    AmbassadorExecutedOnFailure,
    Attempt,
    Banish,
    Card,
    DRData,
    FirstActivationOnlyBy,
    JoinsDeactivator,
    NeverBanish,
    OnlyDeathDeactivates,
    PloyNoEffect,
    RollModifier,
)
from .events import (
    AmbassadorBanished,
    AmbassadorKilled,
    AssassinationAttempted,
    CardsDiscarded,
    DiplomacyAttempted,
    DiplomacyCardDrawn,
    DiplomacyPassed,
    DiscardsReshuffled,
    DuelFought,
    ForcedPeaceAttempted,
    PenaltyIncurred,
    PersonalityRevealed,
)
from .evolving import Decision
from .kingdoms import (
    DEACTIVATE,
    FORCED,
    activate,
    deactivate,
    effects,
    force_peace,
    held_up,
    monarch_dies,
)
from .sections import (
    ACTIVATION_ATTEMPTS,
    ASSASSINATION_ATTEMPTS,
    BANISHING,
    CONFUSION,
    DEACTIVATION_ATTEMPTS,
    DEATH_OF_AN_AMBASSADOR,
    DIPLOMACY_CARDS,
    DUELING,
    FORCED_PEACE,
    FORCED_PEACE_ATTEMPTS,
    PREVENTING_FORCED_PEACE,
    RESOLVING_DIPLOMACY,
)
from .state import Banishment, KingdomState, State
from .tables import Evolvers
from .turn import playing

NEEDED = {"activate": 6, "deactivate": 7}
AMBASSADOR_DOWN_TURNS = 3


# -- cards ---------------------------------------------------------------------------------


def draw(d: Decision) -> None:
    """Draw one card (even with a dead ambassador); reshuffle the discards when the deck
    has run out."""
    turn = playing(d.state)
    if turn.progress.drew:
        raise IllegalCommand(f"{turn.player} has already drawn this phase", DIPLOMACY_CARDS)
    if d.state.deck_size == 0:
        if not d.state.discards:
            raise IllegalCommand("no card left in the deck or the discard pile", DIPLOMACY_CARDS)
        rolled, cards = d.dice.shuffle("diplomacy discards reshuffled", d.state.discards)
        d.emit(rolled, DiscardsReshuffled(size=len(cards), cards=cards))
    deck = d.state.deck
    d.emit(DiplomacyCardDrawn(player=turn.player, card=deck[0] if deck else None))


def discard(d: Decision) -> None:
    turn = playing(d.state)
    cards = _card_list(d.call.get("cards"))
    hand = list(d.state.player(turn.player).hand)
    for card in cards:
        if card not in hand:
            raise InvalidCommand(
                f"{turn.player} holds no card {card!r} (hand: {', '.join(hand) or 'empty'})",
                DIPLOMACY_CARDS,
            )
        hand.remove(card)
    d.emit(CardsDiscarded(player=turn.player, cards=cards, why="hand limit"))


def _card_list(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(c.strip() for c in value.split(",") if c.strip())
    if isinstance(value, tuple) and value:
        return tuple(str(v) for v in value)
    raise InvalidCommand("name the cards to discard", DIPLOMACY_CARDS)


def _card(state: State, data: DRData, player: str, card_id: str | None) -> Card | None:
    if card_id is None:
        return None
    found = next((c for c in data.deck if c.id == card_id), None)
    if found is None or card_id not in state.player(player).hand:
        # a card this copy hides reads `hidden` (HIDDEN_CARD), which names no card
        raise InvalidCommand(f"{player} holds no diplomacy card {card_id!r}", DIPLOMACY_CARDS)
    return found


# -- the ambassador's task -------------------------------------------------------------------


def _ambassador(state: State, command: Call) -> str:
    turn = playing(state)
    if not turn.progress.drew:
        raise IllegalCommand("draw a diplomacy card before conducting diplomacy", DIPLOMACY_CARDS)
    if turn.progress.acted:
        raise IllegalCommand(
            f"{turn.player}'s ambassador has already acted this phase", RESOLVING_DIPLOMACY
        )
    player = state.player(turn.player)
    if player.ambassador_dead(turn.number):
        raise IllegalCommand(
            f"{turn.player}'s ambassador is dead: "
            f"diplomacy resumes on turn {player.ambassador_back}",
            DEATH_OF_AN_AMBASSADOR,
        )
    return turn.player


def _kingdom(state: State, data: DRData, call: Call, rule: str) -> KingdomState:
    name = call.text("kingdom")
    try:
        kingdom = data.kingdom(name).name
    except KeyError:
        raise InvalidCommand(f"no kingdom {name!r} in the basic game", rule) from None
    if kingdom not in state.kingdoms:
        raise InvalidCommand(f"{kingdom} is not used in the basic game", rule)
    return state.kingdoms[kingdom]


def _not_banished(state: State, player: str, kingdom: str) -> None:
    for b in state.banishments:
        if (
            b.player == player
            and b.kingdom == kingdom
            and (b.until is None or b.until > state.number)
        ):
            until = "until its monarch dies" if b.until is None else f"until turn {b.until}"
            raise IllegalCommand(
                f"{player}'s ambassador is banished from {kingdom} {until} ({b.why})", BANISHING
            )


def _available(standing: KingdomState, rule: str) -> None:
    if standing.confusion_until is not None:
        raise IllegalCommand(
            f"{standing.name} is in Confusion: no diplomacy until turn {standing.confusion_until}",
            CONFUSION,
        )
    if standing.peace_until is not None:
        raise IllegalCommand(
            f"{standing.name} is under Forced Peace until turn {standing.peace_until}",
            FORCED_PEACE,
        )


def activation(d: Decision) -> None:
    player = _ambassador(d.state, d.call)
    standing = _kingdom(d.state, d.data, d.call, ACTIVATION_ATTEMPTS)
    if standing.player is not None or standing.ally is not None:
        owner = standing.player or standing.ally
        raise IllegalCommand(
            f"{standing.name} is not a non-allied non-player kingdom (it is {owner}'s)",
            ACTIVATION_ATTEMPTS,
        )
    _available(standing, ACTIVATION_ATTEMPTS)
    _not_banished(d.state, player, standing.name)
    _diplomacy_roll(d, player, standing.name, "activate", d.call.get("card"))


def deactivation(d: Decision) -> None:
    player = _ambassador(d.state, d.call)
    standing = _kingdom(d.state, d.data, d.call, DEACTIVATION_ATTEMPTS)
    _enemy_allied(standing, player, DEACTIVATION_ATTEMPTS)
    _not_banished(d.state, player, standing.name)
    if standing.captive_of is not None and standing.captive_of != player:
        raise IllegalCommand(
            f"{standing.name}'s monarch is held captive by {standing.captive_of}: "
            "only his jailor may "
            "work diplomacy on him",
            DEACTIVATION_ATTEMPTS,
        )
    assert d.state.turn is not None
    if standing.name in d.state.turn.progress.forced:
        raise IllegalCommand(
            f"{player} attempted to force peace on {standing.name} this turn: "
            "no deactivation attempt too",
            FORCED_PEACE_ATTEMPTS,
        )
    _diplomacy_roll(d, player, standing.name, "deactivate", d.call.get("card"))


def _enemy_allied(standing: KingdomState, player: str, rule: str) -> None:
    if standing.player is not None:
        raise IllegalCommand(f"{standing.name} is a player kingdom", rule)
    if standing.ally is None or standing.ally == player:
        whose = "inactive" if standing.ally is None else f"{player}'s own ally"
        raise IllegalCommand(f"{standing.name} is not enemy-allied ({whose})", rule)


def _diplomacy_roll(d: Decision, player: str, kingdom: str, attempt: str, card_id: object) -> None:
    card = _card(d.state, d.data, player, None if card_id is None else str(card_id))
    d.emit(*_reveal(d.state, kingdom))
    found = effects(d.state, d.data, kingdom)
    modifiers, blocked = _modifiers(d, player, kingdom, attempt, card, found)
    roll = d.dice.roll(f"{attempt} {kingdom}")
    total = roll.values[0] + sum(v for _, v in modifiers)
    needed = NEEDED[attempt]
    succeeded = blocked is None and total >= needed
    if blocked is not None:
        modifiers = (*modifiers, (blocked, 0))
    d.emit(
        roll,
        DiplomacyAttempted(
            player=player,
            kingdom=kingdom,
            attempt=attempt,
            card=card.id if card else None,
            roll=roll.values[0],
            modifiers=modifiers,
            total=total,
            needed=needed,
            succeeded=succeeded,
        ),
    )
    if card is not None:
        d.emit(CardsDiscarded(player=player, cards=(card.id,), why="played"))
    if succeeded:
        _succeed(d, player, kingdom, attempt)
    else:
        _fail(d, player, kingdom, card, found)


def _reveal(state: State, kingdom: str) -> list[PersonalityRevealed]:
    standing = state.kingdoms[kingdom]
    if standing.revealed or standing.personality is None:
        return []
    return [PersonalityRevealed(kingdom=kingdom, card=standing.personality)]


def _modifiers(
    d: Decision,
    player: str,
    kingdom: str,
    attempt: str,
    card: Card | None,
    found: tuple[object, ...],
) -> tuple[tuple[tuple[str, int], ...], str | None]:
    mods: list[tuple[str, int]] = []
    blocked = None
    ploy = card.ploy if card else None
    ignored = {p for e in found if isinstance(e, PloyNoEffect) for p in e.ploys}
    if card is not None:
        mods.append((f"{card.ploy} +{card.bonus}", 0 if card.ploy in ignored else card.bonus))
    for effect in found:
        if isinstance(effect, RollModifier) and effect.attempt in (Attempt.ANY, attempt):
            if effect.ploy is None or effect.ploy == ploy:
                on = f"{effect.ploy} " if effect.ploy else ""
                mods.append((f"personality: {on}{attempt}", effect.value))
        elif isinstance(effect, AllianceSizeModifier) and effect.attempt in (Attempt.ANY, attempt):
            mods.extend(_alliance_size(d.state, player, effect))
        elif isinstance(effect, FirstActivationOnlyBy) and attempt == "activate":
            if d.state.kingdoms[kingdom].activations == 0 and ploy != effect.ploy:
                blocked = f"personality: first activated only by {effect.ploy}"
        elif isinstance(effect, OnlyDeathDeactivates) and attempt == "deactivate":
            blocked = "personality: once allied, only death deactivates"
    if kingdom in d.state.player(player).penalties:
        mods.append(("diplomatic penalty", -1))
    return tuple(mods), blocked


def _alliance_size(
    state: State, player: str, effect: AllianceSizeModifier
) -> list[tuple[str, int]]:
    sizes = {p: len(state.alliance(p)) for p in state.active_players()}
    if len(set(sizes.values())) < 2:
        return []
    if sizes[player] == min(sizes.values()):
        return [("personality: smallest alliance", effect.smallest)]
    if sizes[player] == max(sizes.values()):
        return [("personality: largest alliance", effect.largest)]
    return []


def _succeed(d: Decision, player: str, kingdom: str, attempt: str) -> None:
    if attempt == "activate":
        activate(d, kingdom, player, f"{player}'s ambassador")
        return
    if held_up(d, kingdom, DEACTIVATE, f"{player}'s ambassador", by=player):
        return
    deactivated_by(d, player, kingdom)


def deactivated_by(d: Decision, player: str, kingdom: str) -> None:
    """The kingdom leaves its alliance by the player's diplomacy; a personality that joins
    the deactivating ambassador's alliance does so at once."""
    joins = any(isinstance(e, JoinsDeactivator) for e in effects(d.state, d.data, kingdom))
    deactivate(d, kingdom, f"{player}'s ambassador")
    if joins:
        why = "personality: joins the deactivating ambassador's alliance"
        activate(d, kingdom, player, why)


def _fail(
    d: Decision, player: str, kingdom: str, card: Card | None, found: tuple[object, ...]
) -> None:
    turns = 0
    reasons = []
    if (
        card is not None
        and card.banishes
        and not any(isinstance(e, NeverBanish) and e.ploy == card.ploy for e in found)
    ):
        turns += card.banish_turns
        reasons.append(f"failed {card.ploy} +{card.bonus}")
    for effect in found:
        if isinstance(effect, Banish):
            turns += effect.turns
            reasons.append("personality: any failed roll banishes")
    if turns:
        until = d.state.number + turns + 1
        d.emit(
            AmbassadorBanished(player=player, kingdom=kingdom, until=until, why="; ".join(reasons))
        )
    if any(isinstance(e, AmbassadorExecutedOnFailure) for e in found):
        d.emit(_killed(d.state, player, f"executed by {kingdom}'s monarch after a failed roll"))


def _killed(state: State, player: str, why: str) -> AmbassadorKilled:
    return AmbassadorKilled(player=player, back_on=state.number + AMBASSADOR_DOWN_TURNS, why=why)


def assassination(d: Decision) -> None:
    player = _ambassador(d.state, d.call)
    standing = _kingdom(d.state, d.data, d.call, ASSASSINATION_ATTEMPTS)
    _enemy_allied(standing, player, ASSASSINATION_ATTEMPTS)
    _not_banished(d.state, player, standing.name)
    if d.state.player(player).assassination_used:
        raise IllegalCommand(
            f"{player} has already attempted an assassination this game", ASSASSINATION_ATTEMPTS
        )
    d.emit(*_reveal(d.state, standing.name))
    mine, theirs = (
        d.dice.roll(f"assassination of {standing.name}'s monarch: ambassador"),
        d.dice.roll(f"assassination of {standing.name}'s monarch: monarch"),
    )
    a, m = mine.values[0], theirs.values[0]
    outcome = (
        "monarch assassinated" if a > m else ("ambassador killed" if m > a else "neither killed")
    )
    d.emit(
        mine,
        theirs,
        AssassinationAttempted(
            player=player, kingdom=standing.name, ambassador_roll=a, monarch_roll=m, outcome=outcome
        ),
    )
    if a > m:
        monarch_dies(d, standing.name, f"assassinated by {player}'s ambassador")
        return
    if m > a:
        d.emit(
            _killed(d.state, player, f"killed attempting to assassinate {standing.name}'s monarch")
        )
    d.emit(
        AmbassadorBanished(
            player=player, kingdom=standing.name, until=None, why="failed assassination"
        )
    )


def duel(d: Decision) -> None:
    player = _ambassador(d.state, d.call)
    opponent = d.call.text("player")
    if (
        opponent == player
        or not d.state.has_player(opponent)
        or d.state.player(opponent).eliminated
    ):
        raise InvalidCommand(f"{opponent!r} is not another player in the game", DUELING)
    theirs_back = d.state.player(opponent).ambassador_back
    if d.state.player(opponent).ambassador_dead(d.state.number):
        raise IllegalCommand(
            f"{opponent}'s ambassador is dead until turn {theirs_back}",
            DUELING,
        )
    pair = tuple(sorted((player, opponent)))
    if pair in d.state.duels:
        raise IllegalCommand(
            f"the ambassadors of {player} and {opponent} have already duelled", DUELING
        )
    mine, theirs = (
        d.dice.roll(f"duel: {player}'s ambassador"),
        d.dice.roll(f"duel: {opponent}'s ambassador"),
    )
    a, b = mine.values[0], theirs.values[0]
    killed = (player, opponent) if a == b else ((player,) if a < b else (opponent,))
    d.emit(
        mine,
        theirs,
        DuelFought(
            challenger=player, opponent=opponent, challenger_roll=a, opponent_roll=b, killed=killed
        ),
    )
    for name in killed:
        d.emit(_killed(d.state, name, "killed in a duel"))


def pass_(d: Decision) -> None:
    turn = playing(d.state)
    if not turn.progress.drew:
        raise IllegalCommand("draw a diplomacy card first", DIPLOMACY_CARDS)
    if turn.progress.acted:
        raise IllegalCommand(
            f"{turn.player}'s ambassador has already acted this phase", RESOLVING_DIPLOMACY
        )
    d.emit(DiplomacyPassed(player=turn.player))


# -- forced peace ----------------------------------------------------------------------------


def forced_peace(d: Decision) -> None:
    turn = playing(d.state)
    player = turn.player
    if not turn.progress.drew:
        raise IllegalCommand("draw a diplomacy card first", DIPLOMACY_CARDS)
    if not (turn.progress.acted or d.state.player(player).ambassador_dead(turn.number)):
        raise IllegalCommand(
            "forced peace is attempted after the ambassador's task (or `diplomacy pass`)",
            FORCED_PEACE_ATTEMPTS,
        )
    standing = _kingdom(d.state, d.data, d.call, FORCED_PEACE_ATTEMPTS)
    _enemy_allied(standing, player, FORCED_PEACE_ATTEMPTS)
    if standing.name in turn.progress.forced:
        raise IllegalCommand(
            f"{player} has already attempted to force peace on {standing.name} this turn",
            FORCED_PEACE_ATTEMPTS,
        )
    if standing.name in turn.progress.deactivation_tried:
        raise IllegalCommand(
            f"{player} attempted to deactivate {standing.name} this turn", FORCED_PEACE_ATTEMPTS
        )
    if standing.captive_of is not None and standing.captive_of != player:
        raise IllegalCommand(
            f"{standing.name}'s monarch is {standing.captive_of}'s captive", PREVENTING_FORCED_PEACE
        )
    if not (
        standing.captive_of == player
        or _occupies_plundered_royal_castle(d.state, d.data, player, standing.name)
    ):
        raise IllegalCommand(
            f"{player} neither holds {standing.name}'s monarch prisoner "
            "nor occupies its plundered royal castle",
            FORCED_PEACE_ATTEMPTS,
        )
    roll = d.dice.roll(f"forced peace on {standing.name}")
    succeeded = roll.values[0] >= 5
    d.emit(
        roll,
        ForcedPeaceAttempted(
            player=player, kingdom=standing.name, roll=roll.values[0], succeeded=succeeded
        ),
    )
    if succeeded and not held_up(d, standing.name, FORCED, f"{player} forced peace"):
        force_peace(d, standing.name)


def _occupies_plundered_royal_castle(state: State, data: DRData, player: str, kingdom: str) -> bool:
    castle = data.royal_castle(kingdom)
    if castle.name not in state.plundered:
        return False
    return any(
        u.hex == castle.hex and state.controller(u) == player and u.kind != "monarch"
        for u in state.units.values()
    )


# -- the diplomatic penalty: a seam for the movement rules -------------------------------------


def penalty(state: State, player: str, kingdom: str, why: str) -> list[PenaltyIncurred]:
    """The -1 a player incurs when his forces enter an inactive kingdom (once per kingdom)."""
    standing = state.kingdoms.get(kingdom)
    if (
        standing is None
        or standing.status in ("player", "active")
        or kingdom in state.player(player).penalties
    ):
        return []
    return [PenaltyIncurred(player=player, kingdom=kingdom, why=why)]


# -- evolve ----------------------------------------------------------------------------------


HIDDEN_CARD = "hidden"
"""A card in another player's hand, in a copy of the log that hides it: the hand's size is
public, its cards are not."""


def _drawn(state: State, event: DiplomacyCardDrawn) -> State:
    hand = state.player(event.player).hand
    if event.card is not None:
        hand = (*hand, event.card)
    elif state.deck_size > 0:
        hand = (*hand, HIDDEN_CARD)
    return replace(
        state,
        deck=state.deck[1:] if state.deck else state.deck,
        deck_size=max(state.deck_size - 1, 0),
        players=state.players_with(event.player, hand=hand),
        turn=state.progressed(drew=True),
    )


def _reshuffled(state: State, event: DiscardsReshuffled) -> State:
    return state.replace(deck=event.cards, deck_size=event.size, discards=())


def _discarded(state: State, event: CardsDiscarded) -> State:
    hand = list(state.player(event.player).hand)
    for card in event.cards:
        if card in hand:
            hand.remove(card)
        elif HIDDEN_CARD in hand:
            hand.remove(HIDDEN_CARD)
    return replace(
        state,
        discards=(*state.discards, *event.cards),
        players=state.players_with(event.player, hand=tuple(hand)),
    )


def _revealed(state: State, event: PersonalityRevealed) -> State:
    return state.with_kingdom(event.kingdom, revealed=True, personality=event.card)


def _attempted(state: State, event: DiplomacyAttempted) -> State:
    state = state.with_progress(acted=True)
    if event.attempt == "deactivate" and state.turn is not None:
        tried = (*state.turn.progress.deactivation_tried, event.kingdom)
        state = state.with_progress(deactivation_tried=tried)
    return state


def _banished(state: State, event: AmbassadorBanished) -> State:
    banishment = Banishment(
        player=event.player,
        kingdom=event.kingdom,
        until=event.until,
        why=event.why,
        since=state.number,
    )
    return state.replace(banishments=(*state.banishments, banishment))


def _assassination(state: State, event: AssassinationAttempted) -> State:
    return state.with_player(event.player, assassination_used=True).with_progress(acted=True)


def _ambassador_killed(state: State, event: AmbassadorKilled) -> State:
    return state.with_player(event.player, ambassador_back=event.back_on)


def _duel(state: State, event: DuelFought) -> State:
    pair = tuple(sorted((event.challenger, event.opponent)))
    return state.replace(duels=state.duels | {pair}).with_progress(acted=True)


def _passed(state: State, event: DiplomacyPassed) -> State:
    return state.with_progress(acted=True)


def _forced(state: State, event: ForcedPeaceAttempted) -> State:
    assert state.turn is not None
    return state.with_progress(forced=(*state.turn.progress.forced, event.kingdom))


def _penalty(state: State, event: PenaltyIncurred) -> State:
    penalties = state.player(event.player).penalties | {event.kingdom}
    return state.with_player(event.player, penalties=penalties)


EVOLVERS: Evolvers = {
    DiplomacyCardDrawn: _drawn,
    DiscardsReshuffled: _reshuffled,
    CardsDiscarded: _discarded,
    PersonalityRevealed: _revealed,
    DiplomacyAttempted: _attempted,
    AmbassadorBanished: _banished,
    AssassinationAttempted: _assassination,
    AmbassadorKilled: _ambassador_killed,
    DuelFought: _duel,
    DiplomacyPassed: _passed,
    ForcedPeaceAttempted: _forced,
    PenaltyIncurred: _penalty,
}
