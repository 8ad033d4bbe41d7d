"""Heroes: the Hero Fate Roll and its ten triggers, death and capture of monarchs,
prisoners (held, executed, freed), shipwreck and castaways, and the seams the siege and
combat rules call (rulebook: Heroes, all subsections; Victory).

Every roll is recorded as `HeroFateRolled` with its trigger and result; a 1 kills, a 6
captures when an enemy player is there to take the hero (none in a neutral castle, nor
at sea without enemy fleets responsible), anything else leaves him be.

Readings (docs/divine-right.md): the roll of trigger 8 is made as the hero's own player
turn begins; a prisoner may be executed at once or in any later Diplomacy Phase of his
jailor; castles "nearest" on a tie go by name; a freed monarch with no friendly castle and
no friendly combat unit is freed where he was held and placed by his player (`place`; his
royal castle only when no player controls his kingdom).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from warscribe.engine.errors import IllegalCommand, InvalidCommand

from .data import Castle, DRData
from .diplomacy import penalty
from .events import (
    CaptiveFateAsked,
    CargoLost,
    CastawayDecided,
    HeroCastAway,
    HeroFateRolled,
    MonarchCaptured,
    PenaltyIncurred,
    PrisonerExecuted,
    PrisonerFreed,
    SuccessorEntered,
)
from .evolving import Decision
from .kingdoms import eliminate, monarch_dies, score
from .movement.terrain import all_sea, geography
from .placement.choice import ask_place, relocation
from .placement.deployment import monarch_id
from .sections import CAPTURE_OF_A_MONARCH, CONFUSION
from .siege import declare as siege
from .state import Hex, Pending, State, Unit
from .tables import Answer, Evolvers, Placement
from .turn import asked_now, current
from .units import (
    HERO,
    at,
    castle,
    castle_side,
    enemy_land,
    friendly_castles,
    hostile_castle,
    is_hero,
    nearest,
    remove,
)

KILLED, CAPTURED, CASTAWAY, NO_EFFECT = "killed", "captured", "castaway", "no effect"
TRIGGERS = {
    1: "units of his stack lost in combat",
    2: "passing through a stack of enemy combat units alone",
    3: "searched by enemy combat units",
    4: "leaving the enemy stack he began his turn in",
    5: "a castle he was in fell to a siege",
    6: "entering or leaving a besieged castle alone",
    7: "entering or leaving an enemy or neutral castle",
    8: "inside an enemy castle as his player turn begins",
    9: "the fleet transporting him was shipwrecked",
    10: "crossing a navigable river hexside controlled by enemy fleets",
}
FORCED_BY_ENEMY = frozenset({1, 3, 5})  # once per enemy phase; the others are his own doing
POINTS = {"player": 70, KILLED: 40, CAPTURED: 30}
CAPTIVE = "captive"


# -- the Hero Fate Roll --------------------------------------------------------------------


def fate(
    d: Decision,
    hero: str,
    trigger: int,
    by: str | None,
    spared: str = NO_EFFECT,
    prison: str | None = None,
) -> str | None:
    """Roll for `hero` on the Hero Fate Table and carry out the result; `by` is the
    enemy player who captures on a 6 and scores the deed (holding a captive monarch in
    `prison` if named: a castle whose siege failed). Returns the result, None when an
    enemy has already forced a roll on the hero this phase, or when the hero has left the
    map since his roll was due (heroes rolling in turn: an earlier one's death eliminated
    his player, and with him his allies' monarchs, or deactivated a linked ally)."""
    unit = d.state.units.get(hero)
    assert d.state.turn is not None
    if unit is None or (trigger in FORCED_BY_ENEMY and hero in d.state.turn.progress.fated):
        return None
    roll = d.dice.roll(f"Hero Fate Roll: {hero} ({TRIGGERS[trigger]})")
    value = roll.values[0]
    result = KILLED if value == 1 else CAPTURED if value == 6 and by is not None else spared
    why = TRIGGERS[trigger]
    d.emit(
        roll,
        HeroFateRolled(
            hero=hero, trigger=trigger, why=why, roll=value, result=result, hex=unit.hex, by=by
        ),
    )
    if result == KILLED:
        _killed(d, unit, by)
    elif result == CAPTURED and by is not None:
        _captured(d, unit, by, prison)
    return result


def _killed(d: Decision, hero: Unit, by: str | None) -> None:
    """Death of a Monarch: a player monarch's player is out; a non-player monarch's
    kingdom goes into Confusion. Killing an enemy's monarch scores (Victory)."""
    standing = d.state.kingdoms[hero.kingdom]
    owner = standing.player
    if owner is not None:
        if by is not None:
            score(d, by, f"killed {owner}'s monarch ({hero.kingdom})", POINTS["player"])
        eliminate(d, owner, f"{owner}'s monarch was killed (Hero Fate Roll)")
        return
    if by is not None and standing.ally not in (None, by):
        deed = f"killed the monarch of {hero.kingdom}, {standing.ally}'s ally"
        score(d, by, deed, POINTS[KILLED])
    monarch_dies(d, hero.kingdom, "killed (Hero Fate Roll)")


def _captured(d: Decision, hero: Unit, by: str, held: str | None) -> None:
    """Capture of a Monarch: a player monarch's capture eliminates his player; a
    non-player monarch goes to `held` if named, else the captor's nearest standing,
    unbesieged castle, or the captor must execute or free him."""
    standing = d.state.kingdoms[hero.kingdom]
    owner = standing.player
    if owner is not None:
        score(d, by, f"captured {owner}'s monarch ({hero.kingdom})", POINTS["player"])
        eliminate(d, owner, f"{owner}'s monarch was captured (Hero Fate Roll)")
        return
    if standing.ally not in (None, by):
        deed = f"captured the monarch of {hero.kingdom}, {standing.ally}'s ally"
        score(d, by, deed, POINTS[CAPTURED])
    prison = nearest(d.data, hero.hex, _prisons(d, by))
    name = held or (prison.name if prison else None)
    d.emit(MonarchCaptured(kingdom=hero.kingdom, captor=by, hex=hero.hex, prison=name))
    if name is None:
        d.emit(CaptiveFateAsked(player=by, kingdom=hero.kingdom))


def _prisons(d: Decision, captor: str) -> list[Castle]:
    return [
        c for c in friendly_castles(d.state, d.data, captor) if not siege.besieged(d.state, c.hex)
    ]


# -- shipwreck -----------------------------------------------------------------------------


def shipwreck(d: Decision, fleet: Unit, by: str | None = None) -> None:
    """A fleet is lost: the land combat units aboard go with it; each hero aboard rolls
    (trigger 9) and, if spared, is cast away: on the Isle of Fright from the open sea, on
    the nearest shore of an inland water, or simply ashore when the fleet was in a coastal
    space (Heroes › Shipwrecked Heroes)."""
    _wreck(d, fleet.id, fleet.hex, by)


def _wreck(d: Decision, fleet: str, hex_: Hex, by: str | None) -> None:
    cargo = [u for u in d.state.units.values() if u.aboard == fleet]
    land = tuple(u.id for u in cargo if not is_hero(u))
    if land:
        d.emit(CargoLost(fleet=fleet, units=land))
    for hero in (u for u in cargo if is_hero(u)):
        if fate(d, hero.id, 9, by, spared=CASTAWAY) == CASTAWAY:
            cast_away(d, hero.id, hex_)


def cargo_of_lost_fleets(d: Decision) -> None:
    """A fleet that left the map by any other way than a loss that wrecked it (lost to a
    random event, removed with its deactivating kingdom, even if put back on the map since,
    elsewhere or for another player) takes what it carried with it, as a fleet lost does:
    cargo dies with its fleet."""
    gone = {
        u.aboard: u.hex
        for u in d.state.units.values()
        if u.aboard is not None and _stranded(d.state, u)
    }
    for fleet, hex_ in sorted(gone.items()):
        _wreck(d, fleet, hex_, None)


def _stranded(state: State, cargo: Unit) -> bool:
    """Whether the fleet `cargo` is aboard left the map: it is gone, or a piece of that id
    stands in another space or for another side."""
    fleet = state.units.get(cargo.aboard or "")
    return (
        fleet is None
        or fleet.hex != cargo.hex
        or state.controller(fleet) != state.controller(cargo)
    )


def cast_away(d: Decision, hero: str, hex_: Hex) -> None:
    geo = geography(d.data)
    place = geo.place(hex_)
    if place is None or not all_sea(place):
        d.emit(HeroCastAway(hero=hero, hex=hex_))
        return
    if geo.isle is not None and geo.open_sea(hex_):
        d.emit(HeroCastAway(hero=hero, hex=geo.isle))
        return
    shores = geo.shores(hex_)
    near = min(d.data.map.distance(hex_, s) for s in shores)
    closest = [s for s in shores if d.data.map.distance(hex_, s) == near]
    shore = closest[0]
    if len(closest) > 1:
        rolled, shore = d.dice.pick(f"castaway {hero}: which of the nearest shores", closest)
        d.emit(rolled)
    d.emit(HeroCastAway(hero=hero, hex=shore))
    due = _shore_penalty(d, hero)
    player = d.state.controller(d.state.units[hero])
    if due and player is not None and voluntary_refusal(d.state, d.state.units[hero]) is None:
        why = (
            f"{hero} is cast upon a neutral shore: he stays there (a diplomatic penalty) or "
            "is eliminated voluntarily"
        )
        options = tuple(f"castaway {c} {hero}" for c in ("stay", "eliminate"))
        d.ask(STRANDED, player, options, count=1, why=why)
    else:
        d.emit(*due)


def _shore_penalty(d: Decision, hero: str) -> list[PenaltyIncurred]:
    """The diplomatic penalty a castaway incurs where he was cast ashore, if any."""
    unit = d.state.units[hero]
    kingdom = geography(d.data).place(unit.hex)
    player = d.state.controller(unit)
    if kingdom is None or not kingdom.kingdom or player is None:
        return []
    return penalty(d.state, player, kingdom.kingdom, f"{hero} cast upon its shore")


def castaway_decision(d: Decision) -> None:
    """`castaway-stay` / `castaway-eliminate`: the castaway's player answers."""
    pending = asked_now(d.state)
    hero = pending.options[0].rsplit(" ", 1)[1]
    eliminated = d.call.name == "castaway-eliminate"
    d.emit(CastawayDecided(player=pending.player, hero=hero, eliminated=eliminated))
    if eliminated:
        eliminate_voluntarily(d, hero, "castaway, eliminated voluntarily")
    else:
        d.emit(*_shore_penalty(d, hero))


STRANDED = "castaway-shore"


def _castaway_stands(state: State, pending: Pending) -> bool:
    """The castaway's player decides while the castaway is still on the map."""
    return pending.options[0].rsplit(" ", 1)[1] in state.units


def castaway(state: State, data: DRData, unit: Unit) -> bool:
    """Whether the hero is marooned on the Isle of Fright."""
    return is_hero(unit) and unit.hex == geography(data).isle


def voluntary_refusal(state: State, hero: Unit) -> str | None:
    """Why the hero may not be eliminated voluntarily (a player's own monarch: that
    would put his player out of the game), if he may not."""
    if state.kingdoms[hero.kingdom].player is not None:
        return f"{hero.id} is a player's monarch: his loss would eliminate the player"
    return None


def eliminate_voluntarily(d: Decision, hero: str, why: str) -> None:
    """A hero eliminated by his own player (Inactive Kingdoms; Shipwrecked Heroes): a
    non-player monarch's death, for no victory points."""
    monarch_dies(d, d.state.units[hero].kingdom, why)


def castle_trigger(state: State, data: DRData, player: str, hex_: Hex) -> tuple[int, str | None]:
    """The roll the player's lone hero makes entering or leaving the castle in `hex_`: 6
    for a castle an enemy besieges, 7 for an enemy or neutral one; none where his own
    side besieges or holds it (and who would take him)."""
    besieger = siege.besieger(state, hex_)
    if besieger == player:
        return 0, None
    if castle(state, data, hex_) is not None and siege.besieged(state, hex_):
        return 6, besieger
    found = hostile_castle(state, data, player, hex_)
    return (7, castle_side(state, found)) if found is not None else (0, None)


def entry_trigger(state: State, data: DRData, player: str, hex_: Hex) -> tuple[int, str | None]:
    """The roll the player's lone hero makes entering `hex_` (by land or landing from a
    fleet): a castle's (6 or 7), else 2 where enemy land combat units are outside any
    walls."""
    trigger, by = castle_trigger(state, data, player, hex_)
    held = [u for u in enemy_land(state, player, hex_) if not u.inside]
    if not trigger and held:
        return 2, state.controller(held[0])
    return trigger, by


# -- seams for the siege and combat rules ----------------------------------------------------


def stack_losses(d: Decision, hex_: Hex, side: str, enemy: str) -> None:
    """Trigger 1: units of a stack were lost in combat; its heroes roll (once per phase)."""
    for hero in _heroes_of(d.state, side, at(d.state, hex_)):
        fate(d, hero.id, 1, enemy)


def castle_falls(d: Decision, castle_name: str, plunderer: str) -> None:
    """Trigger 5 and the freeing of prisoners by plunder: heroes in the plundered castle
    roll; a prisoner held there is freed: by his own or allied troops to his nearest
    friendly castle, by other enemies of his jailor in place (Capture of a Monarch 1, 3)."""
    hex_ = d.data.place(castle_name).hex
    for hero in at(d.state, hex_):
        if is_hero(hero) and d.state.controller(hero) != plunderer:
            fate(d, hero.id, 5, plunderer)
    for kingdom in _held_in(d.state, {castle_name}):
        side = d.state.kingdoms[kingdom].controller()
        if side == plunderer:
            _free(d, kingdom, f"{castle_name} plundered by his own or allied troops")
        else:
            why = f"{castle_name} plundered by enemies of his jailor: he stays there"
            d.emit(PrisonerFreed(kingdom=kingdom, hex=hex_, why=why))


def absent_monarch_modifiers(
    state: State, data: DRData, units: Iterable[Unit], attacking: bool = True
) -> tuple[tuple[str, int], ...]:
    """-1 on combat and siege rolls of a force more than half of whose units are the
    combat units of a monarch held captive (attacking or defending) or cast away (its
    offensive rolls only) (Capture of a Monarch; Shipwrecked Heroes)."""
    force = [u for u in units if not is_hero(u)]
    mods = []
    for kingdom in sorted({u.kingdom for u in force}):
        share = sum(u.kingdom == kingdom for u in force)
        standing = state.kingdoms.get(kingdom)
        monarch = state.units.get(monarch_id(kingdom))
        captive = standing is not None and standing.captive_of is not None
        marooned = monarch is not None and castaway(state, data, monarch)
        if share * 2 > len(force) and (captive or (marooned and attacking)):
            why = "captive" if captive else "shipwrecked"
            mods.append((f"the monarch of {kingdom} is {why}", -1))
    return tuple(mods)


def _heroes_of(state: State, side: str, units: Iterable[Unit]) -> list[Unit]:
    return sorted(
        (u for u in units if is_hero(u) and state.controller(u) == side), key=lambda u: u.id
    )


# -- prisoners -----------------------------------------------------------------------------


def _held_in(state: State, castles: set[str]) -> list[str]:
    return sorted(k.name for k in state.kingdoms.values() if k.prison in castles)


def _free(d: Decision, kingdom: str, why: str) -> None:
    """The captive back on the map: his nearest friendly castle, else his side's nearest
    combat unit, else "the owning player places the freed captive in any space that he
    desires" (Freeing a Prisoner): freed where he was held, then placed by that player."""
    found = release_hex(d, kingdom)
    owner = d.state.kingdoms[kingdom].controller()
    if found is None and owner is None:
        found = d.data.royal_castle(kingdom).hex
    where = _held_at(d, kingdom) if found is None else found
    d.emit(PrisonerFreed(kingdom=kingdom, hex=where, why=why))
    if found is None and owner is not None:
        ask = f"the freed monarch of {kingdom} has nothing friendly near: {owner} places him"
        ask_place(d, FREED, owner, [((monarch_id(kingdom),), None)], ask)


def release_hex(d: Decision, kingdom: str) -> Hex | None:
    """Where a freed captive goes: his nearest friendly castle, else his side's nearest
    combat unit (None: his player chooses)."""
    side = d.state.kingdoms[kingdom].controller()
    return _refuge(d.state, d.data, side, _held_at(d, kingdom))


def _refuge(state: State, data: DRData, side: str | None, origin: Hex) -> Hex | None:
    """The side's unbesieged castle nearest `origin`, else its nearest combat unit."""
    homes = [c for c in friendly_castles(state, data, side) if not siege.besieged(state, c.hex)]
    found = nearest(data, origin, homes)
    if found is not None:
        return found.hex
    escorts = sorted(
        (data.map.distance(origin, u.hex), u.hex)
        for u in state.units.values()
        if state.controller(u) == side and not is_hero(u) and u.aboard is None
    )
    return escorts[0][1] if escorts else None


FREED = "freed-captive"


def successor_enters(d: Decision, kingdom: str) -> None:
    """A monarch crowned at once because a besieger kept his siege (Kingdoms › Confusion)
    enters where an activated kingdom's monarch is placed, his royal castle (Activation of
    Kingdoms); within its walls when it is besieged, as an invaded kingdom's units deploy
    "regardless of the siege" (Activation of Invaded Inactive Kingdoms). With his royal
    castle plundered and held by an enemy, he goes where a freed prisoner would, counted
    from it (Freeing a Prisoner); with nothing friendly left, his player ally places him."""
    seat = d.data.royal_castle(kingdom).hex
    side = d.state.kingdoms[kingdom].controller()
    held = castle(d.state, d.data, seat) is None and any(
        d.state.controller(u) not in (None, side) for u in at(d.state, seat)
    )
    found = _refuge(d.state, d.data, side, seat) if held else seat
    where = seat if found is None else found
    inside = castle(d.state, d.data, where) is not None and siege.besieged(d.state, where)
    d.emit(SuccessorEntered(kingdom=kingdom, hex=where, inside=inside))
    if found is None and side is not None:
        ask = f"the new monarch of {kingdom} has his royal castle enemy-held: {side} places him"
        ask_place(d, SUCCESSOR, side, [((monarch_id(kingdom),), None)], ask)


SUCCESSOR = "crowned-successor"


def _held_at(d: Decision, kingdom: str) -> Hex:
    prison = d.state.kingdoms[kingdom].prison
    if prison is not None:
        return d.data.place(prison).hex
    return d.state.units[monarch_id(kingdom)].hex


def jail_deactivated(d: Decision, kingdom: str) -> None:
    """Capture of a Monarch 2: a kingdom holding a prisoner deactivates: he is released."""
    castles = {c.name for c in d.data.castles.values() if c.kingdom == kingdom}
    for captive in _held_in(d.state, castles):
        _free(d, captive, f"{kingdom}, where he was held, deactivated")


def _jailed(d: Decision) -> str:
    """The captive kingdom named, after checking the actor holds its monarch and may
    decide his fate now: answering the capture, or in his own Diplomacy Phase."""
    name = d.call.get("kingdom")
    try:
        kingdom = d.data.kingdom(str(name)).name
    except KeyError:
        raise InvalidCommand(f"no kingdom {name!r}", CAPTURE_OF_A_MONARCH) from None
    standing = d.state.kingdoms.get(kingdom)
    if standing is None or standing.captive_of != d.call.actor:
        raise IllegalCommand(
            f"{d.call.actor} holds no monarch of {kingdom} prisoner", CAPTURE_OF_A_MONARCH
        )
    pending = d.state.turn.progress.pending if d.state.turn else None
    answering = pending is not None and pending.kind == CAPTIVE
    if not (answering and pending is not None and pending.options == _choices(kingdom)):
        current(d.state, d.call, "diplomacy")
    return kingdom


def _choices(kingdom: str) -> tuple[str, ...]:
    return (f"prisoner execute {kingdom}", f"prisoner free {kingdom}")


def execute(d: Decision) -> None:
    """Executing a Prisoner: no victory points; a permanent diplomatic penalty in his
    kingdom for the executioner; his kingdom goes into Confusion."""
    kingdom = _jailed(d)
    d.emit(PrisonerExecuted(kingdom=kingdom, by=d.call.actor))
    if kingdom not in d.state.player(d.call.actor).penalties:
        why = f"executed the monarch of {kingdom}"
        d.emit(PenaltyIncurred(player=d.call.actor, kingdom=kingdom, why=why))
    monarch_dies(d, kingdom, f"executed by {d.call.actor}")


def free(d: Decision) -> None:
    """The jailor sets his prisoner free (the capture's points are kept)."""
    kingdom = _jailed(d)
    _free(d, kingdom, f"set free by {d.call.actor}")


def _captive_stands(state: State, pending: Pending) -> bool:
    """The captor decides the fate of a monarch he still holds, with no castle to hold him."""
    standing = state.kingdoms[pending.options[0].rsplit(" ", 1)[1]]
    return standing.captive_of == pending.player and standing.prison is None


# -- trigger 8 -----------------------------------------------------------------------------


def inside_enemy_castles(d: Decision) -> None:
    """Trigger 8: the player's heroes inside an enemy castle as his player turn begins."""
    assert d.state.turn is not None
    player = d.state.turn.player
    for hero in sorted(d.state.units.values(), key=lambda u: u.id):
        if not (is_hero(hero) and hero.inside and d.state.controller(hero) == player):
            continue
        standing = castle(d.state, d.data, hero.hex)
        enemy = castle_side(d.state, standing) if standing else None
        if enemy not in (None, player) and hero.id in d.state.units:
            fate(d, hero.id, 8, enemy)


# -- evolve --------------------------------------------------------------------------------


def _close_captive(state: State) -> State:
    pending = state.turn.progress.pending if state.turn else None
    if pending is not None and pending.kind == CAPTIVE:
        return state.with_progress(pending=None)
    return state


def _rolled(state: State, event: HeroFateRolled) -> State:
    if state.turn is None or event.trigger not in FORCED_BY_ENEMY:
        return state
    return state.with_progress(fated=(*state.turn.progress.fated, event.hero))


def _taken(state: State, event: MonarchCaptured) -> State:
    if event.prison is not None:
        state = state.without_units([monarch_id(event.kingdom)])
    return state.with_kingdom(event.kingdom, captive_of=event.captor, prison=event.prison)


def _asked(state: State, event: CaptiveFateAsked) -> State:
    pending = Pending(
        kind=CAPTIVE,
        player=event.player,
        options=_choices(event.kingdom),
        why=f"{event.player} has no castle to hold the monarch of {event.kingdom}: "
        "execute him or set him free",
    )
    return state.with_progress(pending=pending)


def _executed(state: State, event: PrisonerExecuted) -> State:
    state = state.without_units([monarch_id(event.kingdom)])
    return _close_captive(state.with_kingdom(event.kingdom, captive_of=None, prison=None))


def _freed(state: State, event: PrisonerFreed) -> State:
    unit = Unit(id=monarch_id(event.kingdom), kingdom=event.kingdom, kind=HERO, hex=event.hex)
    state = state.with_units([unit]).with_kingdom(event.kingdom, captive_of=None, prison=None)
    return _close_captive(state)


def _successor_entered(state: State, event: SuccessorEntered) -> State:
    unit = Unit(
        id=monarch_id(event.kingdom),
        kingdom=event.kingdom,
        kind=HERO,
        hex=event.hex,
        inside=event.inside,
    )
    return state.with_units([unit])


def _castaway_decided(state: State, event: CastawayDecided) -> State:
    return state.with_progress(pending=None)


def _cast_away(state: State, event: HeroCastAway) -> State:
    unit = dataclasses.replace(state.units[event.hero], hex=event.hex, aboard=None, inside=False)
    return state.with_units([unit])


def _cargo_lost(state: State, event: CargoLost) -> State:
    return remove(state, event.units)


DECISIONS: dict[str, Answer] = {
    STRANDED: Answer(_castaway_stands),
    CAPTIVE: Answer(_captive_stands),
}


EVOLVERS: Evolvers = {
    HeroFateRolled: _rolled,
    MonarchCaptured: _taken,
    CaptiveFateAsked: _asked,
    PrisonerExecuted: _executed,
    PrisonerFreed: _freed,
    SuccessorEntered: _successor_entered,
    CastawayDecided: _castaway_decided,
    HeroCastAway: _cast_away,
    CargoLost: _cargo_lost,
}


PLACEMENTS: dict[str, Placement] = {
    FREED: relocation(CAPTURE_OF_A_MONARCH, "the freed captive is placed"),
    SUCCESSOR: relocation(CONFUSION, "the new monarch is placed"),
}
