"""Changes of a kingdom's status (rulebook: Kingdoms, all subsections): activation,
deactivation, the death of a monarch and Confusion, Forced Peace, the fate of player
kingdoms, and the crowning of new monarchs when Confusion ends."""

from __future__ import annotations

from fractions import Fraction

from warscribe.engine.dice import Dice
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
from .evolving import Outcome
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


def _deactivated_now(out: Outcome, data: DRData, kingdom: str) -> None:
    for reaction in rulebook().after_deactivation:
        reaction(out, data, kingdom)


DEACTIVATE, FORCED, CONFUSED = "deactivation", "forced peace", "confusion"


def besiegers(state: State, kingdom: str) -> tuple[str, ...]:
    """Players besieging a castle of the kingdom, who may refuse to give up the siege
    (Kingdoms › Deactivation of Kingdoms, ONGOING SIEGES)."""
    side = state.kingdoms[kingdom].controller()
    return tuple(sorted({s.besieger for s in state.sieges if s.kingdom == kingdom} - {side}))


def held_up(out: Outcome, kingdom: str, change: str, why: str, by: str | None = None) -> bool:
    """Whether the `change` of the kingdom waits on its besiegers: if any, each is asked in
    turn to keep or give up his siege (the siege rules carry the change out once all
    have given up)."""
    players = besiegers(out.state, kingdom)
    if players:
        out.add(SiegeVetoAsked(kingdom=kingdom, change=change, why=why, by=by, besiegers=players))
    return bool(players)


def activate(out: Outcome, data: DRData, kingdom: str, ally: str, why: str, dice: Dice) -> None:
    """Deploy the monarch and the available units: the whole force pool the first time,
    the survivors of the last deactivation afterwards (Activation of Kingdoms)."""
    standing = out.state.kingdoms[kingdom]
    first = standing.activations == 0
    available = None if first else standing.survivors or ()
    fraction = next(
        (e.value for e in effects(out.state, data, kingdom) if isinstance(e, DeployFraction)), None
    )
    if fraction is not None:
        pool = [u.id for u in data.player_units(kingdom) if available is None or u.id in available]
        available = tuple(pool[: int(len(pool) * Fraction(fraction))])
    placements, to_place = deployment(data, kingdom, available)
    out.add(
        KingdomActivated(
            kingdom=kingdom,
            ally=ally,
            why=why,
            placements=placements,
            first_time=first,
        ),
        *awaiting(kingdom, to_place),
    )
    entered_play(out, data, kingdom)


def entered_play(out: Outcome, data: DRData, kingdom: str) -> None:
    """Run what follows a kingdom's pieces entering play (activation, re-entry)."""
    for reaction in rulebook().after_activation:
        reaction(out, data, kingdom)


def deactivate(out: Outcome, data: DRData, kingdom: str, why: str) -> None:
    """Remove the kingdom's units from the map; its regulars on the map become the units a
    re-activation deploys; common mercenaries in the kingdom not stacked with a unit that
    stays, or whose stack's regulars all leave, return to the pool."""
    state = out.state
    leaving = {u.id for u in state.units_of(kingdom)}
    mercenaries = tuple(
        u.id
        for u in state.units.values()
        if u.kind != "monarch"
        and u.kingdom == MERCENARY
        and _mercenary_leaves(state, data, u, kingdom, leaving)
    )
    out.add(
        KingdomDeactivated(
            kingdom=kingdom, why=why, removed=tuple(sorted(leaving)), mercenaries=mercenaries
        )
    )
    _deactivated_now(out, data, kingdom)


def _mercenary_leaves(
    state: State, data: DRData, unit: Unit, kingdom: str, leaving: set[str]
) -> bool:
    stack = [u for u in state.units.values() if u.hex == unit.hex and u.kingdom != MERCENARY]
    if stack and all(u.id in leaving for u in stack if u.kind != "monarch"):
        return any(u.kind != "monarch" for u in stack)
    place = data.map.get(*unit.hex)
    inside = place is not None and place.kingdom == kingdom
    return inside and not any(u.id not in leaving for u in stack)


def monarch_dies(out: Outcome, data: DRData, kingdom: str, cause: str, dice: Dice) -> None:
    """Death of a non-player monarch: banishments that last until his death end; the
    kingdom goes into Confusion, unless its besiegers are asked first (a besieger who
    keeps his siege has a new monarch crowned at once)."""
    out.add(MonarchDied(kingdom=kingdom, cause=cause), BanishmentsLifted(kingdom=kingdom))
    if held_up(out, kingdom, CONFUSED, cause):
        return
    confusion(out, data, kingdom, cause, dice)


def confusion(out: Outcome, data: DRData, kingdom: str, cause: str, dice: Dice) -> None:
    """A kingdom whose monarch died deactivates into Confusion for 1d6 turns; allied
    kingdoms whose personality deactivates on such a death go too."""
    alliance = out.state.kingdoms[kingdom].ally
    if alliance is not None:
        deactivate(out, data, kingdom, f"its monarch died ({cause})")
    roll = dice.roll(f"Confusion of {kingdom}")
    out.add(roll, ConfusionBegan(kingdom=kingdom, until=out.state.number + roll.values[0] + 1))
    if alliance is not None:
        for other in out.state.alliance(alliance):
            if any(isinstance(e, DeactivatesWhen) for e in effects(out.state, data, other)):
                deactivate(out, data, other, f"an allied monarch ({kingdom}) was killed")


def force_peace(out: Outcome, data: DRData, kingdom: str, dice: Dice) -> None:
    """Deactivate into Forced Peace for 1d6 turns (Kingdoms › Forced Peace)."""
    roll = dice.roll(f"length of the Forced Peace on {kingdom}")
    deactivate(out, data, kingdom, "forced peace")
    out.add(roll, ForcedPeaceBegan(kingdom=kingdom, until=out.state.number + roll.values[0] + 1))


def eliminate(out: Outcome, data: DRData, player: str, why: str, dice: Dice) -> None:
    """Fate of Player Kingdoms: the player is out, every unit of his goes, his allies
    deactivate, his kingdom becomes a non-player kingdom in Confusion."""
    kingdom = out.state.player(player).kingdom
    allies = [k for k in out.state.alliance(player) if k != kingdom]
    out.add(PlayerEliminated(player=player, why=why))
    for ally in allies:
        deactivate(out, data, ally, f"its player ally {player} was eliminated")
    mercenaries = tuple(u.id for u in out.state.units.values() if u.owner == player)
    removed = tuple(sorted(u.id for u in out.state.units_of(kingdom)))
    out.add(KingdomDeactivated(kingdom=kingdom, why=why, removed=removed, mercenaries=mercenaries))
    _deactivated_now(out, data, kingdom)
    roll = dice.roll(f"Confusion of {kingdom}")
    out.add(roll, ConfusionBegan(kingdom=kingdom, until=out.state.number + roll.values[0] + 1))
    remaining = out.state.active_players()
    if len(remaining) == 1:
        finish(out, f"{remaining[0]}'s is the only player monarch left (Victory A)", remaining)


def score(out: Outcome, player: str, deed: str, points: int) -> None:
    """Record a deed on the victory-point ledger (called by sieges and hero fate rolls)."""
    out.add(PointsScored(player=player, deed=deed, points=points))


def totals(state: State) -> dict[str, int]:
    points = {p.name: 0 for p in state.players}
    for deed in state.ledger:
        points[deed.player] = points.get(deed.player, 0) + deed.points
    return points


def finish(out: Outcome, why: str, winners: tuple[str, ...] | None = None) -> None:
    """End the game: `winners` when victory is by elimination (Victory A), else the most
    victory points (Victory B; several winners on a tie)."""
    points = totals(out.state)
    if winners is None:
        best = max(points.values(), default=0)
        winners = tuple(name for name, p in points.items() if p == best)
    out.add(GameEnded(winners=winners, scores=tuple(points.items()), why=why))


def turn_starts(out: Outcome, dice: Dice) -> None:
    """New monarchs crowned and forced peaces ended on the turn they were due."""
    for name, standing in out.state.kingdoms.items():
        if standing.confusion_until == out.state.number:
            crown(out, name, dice)
        if standing.peace_until == out.state.number:
            out.add(ForcedPeaceEnded(kingdom=name))


def crown(out: Outcome, kingdom: str, dice: Dice) -> None:
    """A new monarch, with a personality card drawn from the unused ones (Kingdoms › Confusion)."""
    pool = out.state.personality_pool
    if pool:
        rolled, card = dice.pick(f"personality card of {kingdom}'s new monarch", pool)
        out.add(rolled, MonarchCrowned(kingdom=kingdom, personality=card))
    else:
        out.add(MonarchCrowned(kingdom=kingdom, personality=None))


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
