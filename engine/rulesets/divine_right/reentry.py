"""Basic Game Optional Rules › Re-entry of Eliminated Players (a game option)."""

from __future__ import annotations

from warscribe.engine.errors import IllegalCommand

from .events import PlayerReentered, PointsForfeited
from .evolving import Decision
from .kingdoms import deactivate, entered_play, totals
from .placement.deployment import awaiting, deployment
from .sections import REENTRY
from .state import Deed, KingdomState, State, Unit
from .tables import Evolvers


def rejoin(d: Decision) -> None:
    """An eliminated player, with the others' unanimous consent, returns as the monarch
    of a randomly drawn neutral kingdom (or, with none, of a kingdom drawn from the player
    with most allies), with its full force pool and zero victory points."""
    if not d.state.reentry:
        raise IllegalCommand(
            "this game was created without the re-entry option (--reentry)", REENTRY
        )
    if d.state.outcome is not None:
        raise IllegalCommand("the game is over", REENTRY)
    player = d.call.actor
    if not d.state.has_player(player) or not d.state.player(player).eliminated:
        raise IllegalCommand(f"{player} is not an eliminated player", REENTRY)
    if not d.call.flag("consent"):
        raise IllegalCommand(
            "re-entry needs the unanimous consent of the other players (consent=true)", REENTRY
        )
    neutral = available(d.state, player)
    if neutral:
        rolled, kingdom = d.dice.pick(f"{player}'s new identity card", sorted(neutral))
        d.emit(rolled)
    else:
        kingdom = _from_largest_alliance(d)
    forfeited = totals(d.state).get(player, 0)
    if forfeited:
        d.emit(PointsForfeited(player=player, points=forfeited))
    placements, to_place = deployment(d.data, kingdom)
    d.emit(
        PlayerReentered(player=player, kingdom=kingdom, placements=placements),
        *awaiting(kingdom, to_place),
    )
    entered_play(d, kingdom)


def available(state: State, player: str) -> tuple[str, ...]:
    """The neutral monarchs the eliminated player draws from: the inactive kingdoms (one
    in Confusion has no monarch yet, one under Forced Peace is out of diplomacy), and
    "(including his former player kingdom)" while it is neutral, though it is always in
    Confusion just after his elimination: the rule names it so that it can be drawn."""
    former = state.player(player).kingdom
    return tuple(
        k.name
        for k in state.kingdoms.values()
        if k.status == "inactive" or (k.name == former and k.status in NEUTRAL)
    )


NEUTRAL = ("inactive", "confusion", "forced peace")


def _from_largest_alliance(d: Decision) -> str:
    sizes = {p: len(d.state.alliance(p)) for p in d.state.active_players()}
    largest = max(sizes.values())
    rolled, donor = d.dice.pick(
        "player with the most allies", tuple(p for p, n in sizes.items() if n == largest)
    )
    allies = tuple(k for k in d.state.alliance(donor) if d.state.kingdoms[k].player is None)
    if not allies:
        raise IllegalCommand("no neutral monarch and no allied monarch to draw from", REENTRY)
    picked, kingdom = d.dice.pick(f"identity card drawn from {donor}'s allies", sorted(allies))
    d.emit(rolled, picked)
    deactivate(d, kingdom, "drawn for a re-entering player")
    return kingdom


def _forfeited(state: State, event: PointsForfeited) -> State:
    deed = Deed(
        player=event.player, turn=state.number, deed="forfeited on re-entry", points=-event.points
    )
    return state.replace(ledger=(*state.ledger, deed))


def _reentered(state: State, event: PlayerReentered) -> State:
    kingdoms = dict(state.kingdoms)
    previous = kingdoms[event.kingdom]
    kingdoms[event.kingdom] = KingdomState(
        name=event.kingdom, player=event.player, activations=previous.activations + 1
    )
    units = (
        Unit(id=p.unit, kingdom=event.kingdom, kind=p.kind, hex=p.hex) for p in event.placements
    )
    state = state.replace(kingdoms=kingdoms).with_units(units)
    return state.with_player(event.player, kingdom=event.kingdom, eliminated=False)


EVOLVERS: Evolvers = {
    PointsForfeited: _forfeited,
    PlayerReentered: _reentered,
}
