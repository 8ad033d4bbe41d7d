"""Sieges as state (Siege Phase: Declaring a Siege, "Inside" and "Outside" of Castles,
Effects of a Siege, Ending a Siege, Besieging Neutral Castles; Activation of Invaded
Inactive Kingdoms).

A siege is declared the moment a stack of combat units enters an enemy or neutral castle
space meeting its conditions, by movement, landing or advance after combat (`declare`,
called by the movement, transport and combat rules); after every decision `review`
checks each siege: it ends when no besieging combat unit is left in the space (or the
castle turned friendly), and it is marked invalid (displaced at the end of the game turn)
the moment the besiegers fall below the castle's defence plus the units inside.

Readings (docs/divine-right.md): fleets count as besieging strength like land units
(Mixed-unit Siege Combat); land units aboard the besieger's fleets in the castle space
count only during his own Movement Phase, when they can still land (Fleets at Sieges);
a siege whose castle's kingdom deactivates goes on against the neutral castle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..arguments import label
from ..combat.arithmetic import siege_valid
from ..data import Castle, DRData
from ..events import (
    SiegeDeclared,
    SiegeEnded,
    SiegeInvalidated,
    UnitsDisplaced,
    UnitsWalled,
)
from ..evolving import Decision
from ..inactive_kingdoms import invaded
from ..state import MERCENARY, Hex, Siege, State, Unit
from ..tables import Evolvers
from ..units import at, castle, castle_side, enemies, hostile_castle, is_fleet, is_hero

DISPLACE, MAKE_WAY = "displace", "make-way"
DECLARED, SIEGE_ATTACK, BREAKOUT = "declared a siege", "made a siege attack", "broke out"


# -- questions the other rules ask ------------------------------------------------------------


def siege_at(state: State, hex_: Hex) -> Siege | None:
    return next((s for s in state.sieges if s.hex == hex_), None)


def besieged(state: State, hex_: Hex) -> bool:
    """Whether the castle on `hex_` is under siege (Siege Phase › Effects of a Siege)."""
    return siege_at(state, hex_) is not None


def besieger(state: State, hex_: Hex) -> str | None:
    """The player besieging the castle on `hex_`, if any."""
    siege = siege_at(state, hex_)
    return siege.besieger if siege else None


def omened(state: State, unit: Unit) -> bool:
    """A regular of a kingdom with Bad Omens this game turn: it will not attack in regular
    or siege combat, nor initiate a siege (Random Events Phase, 5)."""
    if is_hero(unit) or unit.kingdom == MERCENARY:
        return False
    standing = state.kingdoms.get(unit.kingdom)
    return standing is not None and standing.bad_omens_on == state.number


def besieging_units(state: State, siege: Siege) -> list[Unit]:
    """The besieger's combat units in the castle space (outside its walls): land units and
    fleets alike; land units aboard his fleets there only during his Movement Phase."""
    landing = _landing_time(state, siege.besieger)
    return [
        u
        for u in at(state, siege.hex)
        if not is_hero(u)
        and not u.inside
        and state.controller(u) == siege.besieger
        and (u.aboard is None or landing)
    ]


def inside_units(state: State, hex_: Hex, besieger_: str) -> list[Unit]:
    """The combat units within the castle's walls (the defenders)."""
    return [
        u
        for u in at(state, hex_)
        if not is_hero(u) and u.inside and state.controller(u) not in (besieger_, None)
    ]


def strengths(state: State, siege: Siege) -> tuple[int, int]:
    """(besieging, inside) combat units."""
    return len(besieging_units(state, siege)), len(inside_units(state, siege.hex, siege.besieger))


def valid(state: State, siege: Siege) -> bool:
    besieging, inside = strengths(state, siege)
    return siege_valid(besieging, siege.defence, inside)


def may_besiege(state: State, data: DRData, player: str, hex_: Hex, units: Sequence[Unit]) -> bool:
    """Whether `units` entering the castle space `hex_` meet the conditions to declare a
    siege there (or join the player's own siege of it)."""
    return refusal(state, data, player, hex_, units) is None


def refusal(
    state: State, data: DRData, player: str, hex_: Hex, units: Sequence[Unit]
) -> str | None:
    """Why `units` may not enter the enemy castle space `hex_` (None: they besiege it)."""
    found = hostile_castle(state, data, player, hex_)
    if found is None:
        return None
    current = siege_at(state, hex_)
    if current is not None:
        if current.besieger == player:
            return None
        return f"{current.besieger} besieges {found.name}: only one player besieges a castle"
    outside = [u.id for u in enemies(state, player, hex_) if not is_hero(u) and not u.inside]
    if outside:
        return f"enemy units defend {found.name} outside its walls ({', '.join(outside)})"
    omens = sorted({u.kingdom for u in units if omened(state, u)})
    if omens:
        return f"{', '.join(omens)}'s regulars have Bad Omens: they initiate no siege this turn"
    strength = len(_entering(state, player, hex_, units))
    inside = len(inside_units(state, hex_, player))
    if siege_valid(strength, found.defence, inside):
        return None
    return (
        f"{strength} combat unit(s) cannot besiege {found.name}: its defence {found.defence} "
        f"plus {inside} unit(s) inside needs {found.defence + inside}"
    )


def _entering(state: State, player: str, hex_: Hex, units: Sequence[Unit]) -> set[str]:
    """The combat units that would besiege: those entering, the units their fleets carry,
    and the player's combat units (and their cargo) already in the space."""
    here = [u for u in at(state, hex_) if state.controller(u) == player and not u.inside]
    stack = [*units, *here]
    fleets = {u.id for u in stack if is_fleet(u)}
    cargo = [u for u in state.units.values() if u.aboard in fleets]
    return {u.id for u in (*stack, *cargo) if not is_hero(u)}


def _landing_time(state: State, player: str) -> bool:
    turn = state.turn
    return turn is not None and turn.phase == "movement" and turn.player == player


def walls_close_on(state: State, data: DRData, player: str, hex_: Hex) -> bool:
    """Whether the player's lone hero entering `hex_` goes within its castle's walls: an
    enemy or neutral castle, unless his own side besieges it (then he joins the besiegers
    outside: "Heroes may always enter an enemy castle"; "To besiege a castle, the castle
    space must be occupied by besieging units")."""
    return hostile_castle(state, data, player, hex_) is not None and besieger(state, hex_) != player


def relieving(state: State, data: DRData, player: str, hex_: Hex) -> bool:
    """Whether `hex_` is a castle of the player's side under siege by another player (his
    units entering it go within its walls)."""
    siege = siege_at(state, hex_)
    found = castle(state, data, hex_)
    return (
        siege is not None
        and found is not None
        and siege.besieger != player
        and castle_side(state, found) == player
    )


def movement_refusal(state: State, unit: Unit) -> str | None:
    """Why the unit may not move this Movement Phase for a siege: it made a siege attack,
    or it is besieged and did not break out (land units leave freely when only fleets
    besiege, fleets when no fleet besieges)."""
    done = state.turn.engaged_in(unit.id) if state.turn else None
    if done == SIEGE_ATTACK:
        return f"{unit.id} made a siege attack this turn: it may not move"
    siege = siege_at(state, unit.hex)
    if is_hero(unit) or not unit.inside or siege is None or done == BREAKOUT:
        return None
    if siege.besieger == state.controller(unit):
        return None
    kinds = {is_fleet(u) for u in besieging_units(state, siege)}
    if is_fleet(unit) not in kinds:
        return None
    return f"{unit.id} is under siege: it leaves only after a breakout attack"


# -- declaring -------------------------------------------------------------------------------


def declare(d: Decision, player: str, hex_: Hex, how: str) -> None:
    """The player's stack has entered the castle space: the siege is declared; a neutral
    castle's kingdom activates for another player, its units in the castle are set up
    within the walls, and the siege is re-checked: if no longer valid, the besiegers are
    displaced at once (the player's decision, asked now)."""
    found = castle(d.state, d.data, hex_)
    if found is None or siege_at(d.state, hex_) is not None:
        return
    neutral = castle_side(d.state, found) is None
    units = tuple(sorted(_entering(d.state, player, hex_, ())))
    inside = len(inside_units(d.state, hex_, player))
    d.emit(
        SiegeDeclared(
            castle=found.name,
            kingdom=found.kingdom,
            hex=hex_,
            besieger=player,
            units=units,
            besieging=len(units),
            inside=inside,
            defence=found.defence,
            how=how,
        )
    )
    _join_besiegers(d, player, hex_)
    if neutral:
        invaded(d, found.name, player)
        _wall_deployed(d, found, player)
        _recheck(d, found, player)


def _join_besiegers(d: Decision, player: str, hex_: Hex) -> None:
    """The player's heroes within the castle's walls (they entered it alone) come out to
    join his besiegers."""
    heroes = [
        u.id
        for u in at(d.state, hex_)
        if is_hero(u) and u.inside and d.state.controller(u) == player
    ]
    if heroes:
        d.emit(UnitsWalled(player=player, units=tuple(sorted(heroes)), inside=False))


def _wall_deployed(d: Decision, found: Castle, player: str) -> None:
    """The invaded kingdom's units set up in the castle are within its walls."""
    deployed = [
        u
        for u in at(d.state, found.hex)
        if u.kingdom == found.kingdom and not u.inside and d.state.controller(u) != player
    ]
    side = castle_side(d.state, found)
    if deployed and side is not None:
        ids = tuple(sorted(u.id for u in deployed))
        d.emit(UnitsWalled(player=side, units=ids, inside=True))


def _recheck(d: Decision, found: Castle, player: str) -> None:
    siege = siege_at(d.state, found.hex)
    if siege is None or valid(d.state, siege):
        return
    why = f"{found.kingdom}'s units set up inside {found.name}"
    _invalidate(d, siege, why)
    d.ask(
        DISPLACE,
        player,
        (found.name,),
        count=0,
        why=f"the siege of {found.name} is no longer valid ({why}): displace the besiegers "
        f"at once (siege displace {found.name} --to HEX)",
    )


def _invalidate(d: Decision, siege: Siege, why: str) -> None:
    besieging, inside = strengths(d.state, siege)
    d.emit(
        SiegeInvalidated(
            castle=siege.castle,
            besieger=siege.besieger,
            besieging=besieging,
            inside=inside,
            defence=siege.defence,
            why=why,
        )
    )


# -- a castle gone neutral ----------------------------------------------------------------------


def walls_closed(d: Decision, kingdom: str) -> None:
    """The deactivated kingdom's castles are neutral: the other kingdoms' units within
    their walls stand outside them, to leave in their next Movement Phase (Inactive
    Kingdoms: "Active combat units within a kingdom that has been deactivated have their
    next Movement Phase to leave the kingdom")."""
    for found in sorted(d.data.castles.values(), key=lambda c: c.name):
        if found.kingdom != kingdom or castle(d.state, d.data, found.hex) is None:
            continue
        walled: dict[str, list[str]] = {}
        for unit in at(d.state, found.hex):
            player = d.state.controller(unit)
            if unit.inside and player is not None:
                walled.setdefault(player, []).append(unit.id)
        for player, ids in sorted(walled.items()):
            d.emit(UnitsWalled(player=player, units=tuple(sorted(ids)), inside=False))


# -- after every decision: ended, or invalid ------------------------------------------------------


def review(d: Decision) -> None:
    """Each siege still stands? It ends when no besieging combat unit is left in the space
    or the castle turned friendly; it turns invalid when the besiegers are too weak."""
    for siege in d.state.sieges:
        why = _ended(d.state, d.data, siege)
        if why is not None:
            d.emit(SiegeEnded(castle=siege.castle, besieger=siege.besieger, why=why))
        elif not siege.doomed and not valid(d.state, siege):
            besieging, inside = strengths(d.state, siege)
            why = (
                f"{besieging} besieging against defence {siege.defence} and {inside} inside: "
                "displaced at the end of the game turn"
            )
            _invalidate(d, siege, why)


def _ended(state: State, data: DRData, siege: Siege) -> str | None:
    found = castle(state, data, siege.hex)
    if found is None:
        return f"{siege.castle} no longer stands"
    if castle_side(state, found) == siege.besieger:
        return f"{siege.castle} is now a castle of {siege.besieger}'s alliance"
    present = [
        u
        for u in at(state, siege.hex)
        if not is_hero(u) and not u.inside and state.controller(u) == siege.besieger
    ]
    if not present:
        return f"no besieging combat unit of {siege.besieger}'s is left at {label(data, siege.hex)}"
    return None


# -- the query -----------------------------------------------------------------------------------


def listing(state: State) -> list[dict[str, object]]:
    """Each siege: castle, besieger, besieging and inside strengths, the castle's defence,
    whether it is still valid and whether it is displaced at the end of the game turn."""
    rows: list[dict[str, object]] = []
    for siege in state.sieges:
        besieging, inside = strengths(state, siege)
        rows.append(
            {
                "castle": siege.castle,
                "kingdom": siege.kingdom,
                "hex": list(siege.hex),
                "besieger": siege.besieger,
                "besieging": besieging,
                "inside": inside,
                "defence": siege.defence,
                "valid": not siege.doomed and siege_valid(besieging, siege.defence, inside),
                "displaced_at_end_of_turn": siege.doomed,
                "why": siege.why,
                "since_turn": siege.declared_on,
            }
        )
    return rows


# -- evolve ----------------------------------------------------------------------------------------


def _without(state: State, castle_name: str) -> State:
    return state.replace(sieges=tuple(s for s in state.sieges if s.castle != castle_name))


def _declared(state: State, event: SiegeDeclared) -> State:
    siege = Siege(
        castle=event.castle,
        kingdom=event.kingdom,
        hex=event.hex,
        besieger=event.besieger,
        defence=event.defence,
        declared_on=state.number,
    )
    state = state.replace(sieges=(*state.sieges, siege))
    return engage(state, event.units, DECLARED)


def engage(state: State, units: Sequence[str], why: str) -> State:
    """The units did `why` this game turn (it limits what they may do)."""
    turn = state.turn
    if turn is None:
        return state
    kept = tuple(pair for pair in turn.engaged if pair[0] not in units)
    added = tuple((u, why) for u in units)
    return state.replace(turn=dataclasses.replace(turn, engaged=kept + added))


def _invalidated(state: State, event: SiegeInvalidated) -> State:
    sieges = tuple(
        dataclasses.replace(s, doomed=True, why=event.why) if s.castle == event.castle else s
        for s in state.sieges
    )
    return state.replace(sieges=sieges)


def _ended_event(state: State, event: SiegeEnded) -> State:
    return _without(state, event.castle)


def _displaced(state: State, event: UnitsDisplaced) -> State:
    moved = [dataclasses.replace(state.units[u], hex=event.hex, inside=False) for u in event.units]
    state = state.with_units(moved)
    pending = state.turn.progress.pending if state.turn else None
    left = [u for u in at(state, event.start) if state.controller(u) == event.player]
    waiting = pending is not None and pending.kind in (DISPLACE, MAKE_WAY)
    if waiting and pending is not None and pending.player == event.player and not left:
        state = state.with_progress(pending=None)
    return state


EVOLVERS: Evolvers = {
    SiegeDeclared: _declared,
    SiegeInvalidated: _invalidated,
    SiegeEnded: _ended_event,
    UnitsDisplaced: _displaced,
}
