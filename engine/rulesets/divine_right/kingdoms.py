"""Changes of a kingdom's status (rulebook: Kingdoms, all subsections): activation,
deactivation, the death of a monarch and Confusion, Forced Peace, the fate of player
kingdoms, and the crowning of new monarchs when Confusion ends."""

from __future__ import annotations

from fractions import Fraction

from warscribe.engine.errors import HiddenInformation, hidden_matters

from .data import DeactivatesWhen, DeployFraction, DRData, Effect
from .events import (
    BanishmentsLifted,
    ConfusionBegan,
    ForcedPeaceBegan,
    ForcedPeaceEnded,
    GameEnded,
    KingdomActivated,
    KingdomDeactivated,
    KingdomDeployed,
    MonarchCrowned,
    MonarchDied,
    PlayerEliminated,
    PointsScored,
    SiegeVetoAsked,
)
from .evolving import Decision
from .placement.deployment import awaiting, deployment, monarch_id
from .state import MERCENARY, Deed, GameResult, KingdomState, State, Unit
from .tables import Evolvers, rulebook


def effects(state: State, data: DRData, kingdom: str) -> tuple[Effect, ...]:
    """The effects of the kingdom monarch's personality card (none without a card).

    In a player's copy the face-down cards are hidden (the deal's pool too): while the
    audit re-decides (`hidden_strictly`), a card this copy cannot see raises
    HiddenInformation rather than read as no card, so a battle against a kingdom whose
    monarch weakens his regulars is not judged as if he did not (the audit reports it as
    hidden; the referee's copy settles it). Elsewhere it reads as no card."""
    standing = state.kingdoms[kingdom]
    number = standing.personality
    if (
        hidden_matters()
        and number is None
        and state.personality_pool is None
        and _face_down(standing)
    ):
        raise HiddenInformation(f"the personality card of {kingdom}'s monarch is face down")
    if number is None:
        return ()
    card = next((p for p in data.personalities if p.number == number), None)
    return card.effects if card else ()


def _face_down(standing: KingdomState) -> bool:
    """Whether a non-player monarch holds a personality card nobody has seen (a player's
    monarch has none, nor a kingdom in Confusion: its monarch is dead)."""
    return standing.player is None and standing.confusion_until is None and not standing.revealed


def _deactivated_now(d: Decision, kingdom: str) -> None:
    for reaction in rulebook().after_deactivation:
        reaction(d, kingdom)


DEACTIVATE, FORCED, CONFUSED = "deactivation", "forced peace", "confusion"


def besiegers(state: State, kingdom: str) -> tuple[str, ...]:
    """Players besieging a castle of the kingdom, who may refuse to give up the siege
    (Kingdoms › Deactivation of Kingdoms, ONGOING SIEGES)."""
    side = state.kingdoms[kingdom].controller()
    return tuple(sorted({s.besieger for s in state.sieges if s.kingdom == kingdom} - {side}))


def held_up(d: Decision, kingdom: str, change: str, why: str, by: str | None = None) -> bool:
    """Whether the `change` of the kingdom waits on its besiegers: if any, each is asked in
    turn to keep or give up his siege (the siege rules carry the change out once all
    have given up)."""
    players = besiegers(d.state, kingdom)
    if players:
        d.emit(SiegeVetoAsked(kingdom=kingdom, change=change, why=why, by=by, besiegers=players))
    return bool(players)


def activate(d: Decision, kingdom: str, ally: str, why: str) -> None:
    """Deploy the monarch and the available units: the whole force pool the first time,
    the survivors of the last deactivation afterwards (Activation of Kingdoms)."""
    standing = d.state.kingdoms[kingdom]
    first = standing.activations == 0
    available = None if first else standing.survivors or ()
    fraction = next(
        (e.value for e in effects(d.state, d.data, kingdom) if isinstance(e, DeployFraction)), None
    )
    if fraction is not None:
        pool = [
            u.id for u in d.data.player_units(kingdom) if available is None or u.id in available
        ]
        available = tuple(pool[: int(len(pool) * Fraction(fraction))])
    placements, to_place = deployment(d.data, kingdom, available)
    d.emit(
        KingdomActivated(
            kingdom=kingdom,
            ally=ally,
            why=why,
            placements=placements,
            first_time=first,
        ),
        *awaiting(kingdom, to_place),
    )
    entered_play(d, kingdom)


def entered_play(d: Decision, kingdom: str) -> None:
    """Run what follows a kingdom's pieces entering play (activation, re-entry)."""
    for reaction in rulebook().after_activation:
        reaction(d, kingdom)


def deactivate(d: Decision, kingdom: str, why: str) -> None:
    """Remove the kingdom's units from the map; its regulars on the map become the units a
    re-activation deploys; common mercenaries in the kingdom not stacked with a unit that
    stays, or whose stack's regulars all leave, return to the pool."""
    state = d.state
    leaving = {u.id for u in state.units_of(kingdom)}
    mercenaries = tuple(
        u.id
        for u in state.units.values()
        if u.kind != "monarch"
        and u.kingdom == MERCENARY
        and _mercenary_leaves(state, d.data, u, kingdom, leaving)
    )
    d.emit(
        KingdomDeactivated(
            kingdom=kingdom, why=why, removed=tuple(sorted(leaving)), mercenaries=mercenaries
        )
    )
    _deactivated_now(d, kingdom)


def _mercenary_leaves(
    state: State, data: DRData, unit: Unit, kingdom: str, leaving: set[str]
) -> bool:
    stack = [u for u in state.units.values() if u.hex == unit.hex and u.kingdom != MERCENARY]
    if stack and all(u.id in leaving for u in stack if u.kind != "monarch"):
        return any(u.kind != "monarch" for u in stack)
    place = data.map.get(*unit.hex)
    inside = place is not None and place.kingdom == kingdom
    return inside and not any(u.id not in leaving for u in stack)


def monarch_dies(d: Decision, kingdom: str, cause: str) -> None:
    """Death of a non-player monarch: banishments that last until his death end; the
    kingdom goes into Confusion, unless its besiegers are asked first (a besieger who
    keeps his siege has a new monarch crowned at once)."""
    d.emit(MonarchDied(kingdom=kingdom, cause=cause), BanishmentsLifted(kingdom=kingdom))
    if held_up(d, kingdom, CONFUSED, cause):
        return
    confusion(d, kingdom, cause)


def confusion(d: Decision, kingdom: str, cause: str) -> None:
    """A kingdom whose monarch died deactivates into Confusion for 1d6 turns; allied
    kingdoms whose personality deactivates on such a death go too."""
    alliance = d.state.kingdoms[kingdom].ally
    if alliance is not None:
        deactivate(d, kingdom, f"its monarch died ({cause})")
    roll = d.dice.roll(f"Confusion of {kingdom}")
    d.emit(roll, ConfusionBegan(kingdom=kingdom, until=d.state.number + roll.values[0] + 1))
    if alliance is not None:
        for other in d.state.alliance(alliance):
            if any(isinstance(e, DeactivatesWhen) for e in effects(d.state, d.data, other)):
                deactivate(d, other, f"an allied monarch ({kingdom}) was killed")


def force_peace(d: Decision, kingdom: str) -> None:
    """Deactivate into Forced Peace for 1d6 turns (Kingdoms › Forced Peace)."""
    roll = d.dice.roll(f"length of the Forced Peace on {kingdom}")
    deactivate(d, kingdom, "forced peace")
    d.emit(roll, ForcedPeaceBegan(kingdom=kingdom, until=d.state.number + roll.values[0] + 1))


def eliminate(d: Decision, player: str, why: str) -> None:
    """Fate of Player Kingdoms: the player is out, every unit of his goes, his allies
    deactivate, his kingdom becomes a non-player kingdom in Confusion."""
    kingdom = d.state.player(player).kingdom
    allies = [k for k in d.state.alliance(player) if k != kingdom]
    d.emit(PlayerEliminated(player=player, why=why))
    for ally in allies:
        deactivate(d, ally, f"its player ally {player} was eliminated")
    mercenaries = tuple(u.id for u in d.state.units.values() if u.owner == player)
    removed = tuple(sorted(u.id for u in d.state.units_of(kingdom)))
    d.emit(KingdomDeactivated(kingdom=kingdom, why=why, removed=removed, mercenaries=mercenaries))
    _deactivated_now(d, kingdom)
    roll = d.dice.roll(f"Confusion of {kingdom}")
    d.emit(roll, ConfusionBegan(kingdom=kingdom, until=d.state.number + roll.values[0] + 1))
    remaining = d.state.active_players()
    if len(remaining) == 1:
        finish(d, f"{remaining[0]}'s is the only player monarch left (Victory A)", remaining)


def score(d: Decision, player: str, deed: str, points: int) -> None:
    """Record a deed on the victory-point ledger (called by sieges and hero fate rolls)."""
    d.emit(PointsScored(player=player, deed=deed, points=points))


def totals(state: State) -> dict[str, int]:
    points = {p.name: 0 for p in state.players}
    for deed in state.ledger:
        points[deed.player] = points.get(deed.player, 0) + deed.points
    return points


def finish(d: Decision, why: str, winners: tuple[str, ...] | None = None) -> None:
    """End the game: `winners` when victory is by elimination (Victory A), else the most
    victory points (Victory B; several winners on a tie)."""
    points = totals(d.state)
    if winners is None:
        best = max(points.values(), default=0)
        winners = tuple(name for name, p in points.items() if p == best)
    d.emit(GameEnded(winners=winners, scores=tuple(points.items()), why=why))


def turn_starts(d: Decision) -> None:
    """New monarchs crowned and forced peaces ended on the turn they were due."""
    for name, standing in d.state.kingdoms.items():
        if standing.confusion_until == d.state.number:
            crown(d, name)
        if standing.peace_until == d.state.number:
            d.emit(ForcedPeaceEnded(kingdom=name))


def crown(d: Decision, kingdom: str) -> None:
    """A new monarch, with a personality card drawn from the unused ones (Kingdoms › Confusion)."""
    pool = d.state.personality_pool
    if pool:
        rolled, card = d.dice.pick(f"personality card of {kingdom}'s new monarch", pool)
        d.emit(rolled, MonarchCrowned(kingdom=kingdom, personality=card))
    else:
        d.emit(MonarchCrowned(kingdom=kingdom, personality=None))


# -- evolve --------------------------------------------------------------------------------


def _deployed(state: State, event: KingdomDeployed) -> State:
    units = (
        Unit(id=p.unit, kingdom=event.kingdom, kind=p.kind, hex=p.hex) for p in event.placements
    )
    return state.with_units(units).with_kingdom(event.kingdom, activations=1)


def _activated(state: State, event: KingdomActivated) -> State:
    standing = state.kingdoms[event.kingdom]
    units = (
        Unit(id=p.unit, kingdom=event.kingdom, kind=p.kind, hex=p.hex) for p in event.placements
    )
    return state.with_units(units).with_kingdom(
        event.kingdom,
        ally=event.ally,
        activations=standing.activations + 1,
        activated_on=state.number,
        confusion_until=None,
        peace_until=None,
        survivors=None,
    )


def _deactivated(state: State, event: KingdomDeactivated) -> State:
    survivors = tuple(u for u in event.removed if u != monarch_id(event.kingdom))
    state = state.without_units((*event.removed, *event.mercenaries))
    state = state.replace(mercenary_pool=(*state.mercenary_pool, *event.mercenaries))
    return state.with_kingdom(
        event.kingdom,
        ally=None,
        survivors=survivors,
        activated_on=None,
        deactivated_on=state.number,
        deactivated_at=state.turn.label if state.turn else None,
        bad_omens_on=None,
        captive_of=None,
        prison=None,
    )


def _died(state: State, event: MonarchDied) -> State:
    standing = state.kingdoms[event.kingdom]
    pool = state.personality_pool
    if standing.personality is not None and pool is not None:
        pool = (*pool, standing.personality)
    state = state.replace(personality_pool=pool)
    return state.with_kingdom(event.kingdom, personality=None, revealed=False, captive_of=None)


def _lifted(state: State, event: BanishmentsLifted) -> State:
    kept = tuple(
        b for b in state.banishments if not (b.kingdom == event.kingdom and b.until is None)
    )
    return state.replace(banishments=kept)


def _confusion(state: State, event: ConfusionBegan) -> State:
    return state.with_kingdom(event.kingdom, confusion_until=event.until)


def _peace(state: State, event: ForcedPeaceBegan) -> State:
    return state.with_kingdom(event.kingdom, peace_until=event.until)


def _peace_ended(state: State, event: ForcedPeaceEnded) -> State:
    return state.with_kingdom(event.kingdom, peace_until=None)


def _crowned(state: State, event: MonarchCrowned) -> State:
    pool = state.personality_pool
    if pool is not None and event.personality in pool:
        rest = list(pool)
        rest.remove(event.personality)
        pool = tuple(rest)
    state = state.replace(personality_pool=pool)
    return state.with_kingdom(
        event.kingdom, confusion_until=None, personality=event.personality, revealed=False
    )


def _eliminated(state: State, event: PlayerEliminated) -> State:
    kingdom = state.player(event.player).kingdom
    hand = state.player(event.player).hand
    state = state.with_player(event.player, eliminated=True, hand=())
    state = state.replace(discards=(*state.discards, *hand))
    return state.with_kingdom(kingdom, player=None, ally=None)


def _scored(state: State, event: PointsScored) -> State:
    deed = Deed(player=event.player, turn=state.number, deed=event.deed, points=event.points)
    return state.replace(ledger=(*state.ledger, deed))


def _ended(state: State, event: GameEnded) -> State:
    return state.replace(
        outcome=GameResult(winners=event.winners, scores=event.scores, why=event.why)
    )


EVOLVERS: Evolvers = {
    KingdomDeployed: _deployed,
    KingdomActivated: _activated,
    KingdomDeactivated: _deactivated,
    MonarchDied: _died,
    BanishmentsLifted: _lifted,
    ConfusionBegan: _confusion,
    ForcedPeaceBegan: _peace,
    ForcedPeaceEnded: _peace_ended,
    MonarchCrowned: _crowned,
    PlayerEliminated: _eliminated,
    PointsScored: _scored,
    GameEnded: _ended,
}
