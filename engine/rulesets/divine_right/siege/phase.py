"""The Siege Phase (rulebook: Siege Phase, all subsections) and the sieges' part in
deactivations (Kingdoms › Deactivation of Kingdoms, DEACTIVATION_OF_KINGDOMS SIEGES).

Commands, each the player's recorded decision:

- `siege-displace units=STACK to=HEX [lose=A,B]`: before any siege attack, besieging
  units (or the whole stack, ending the siege) go to an adjacent space, free to move
  later. Also the answer when a displacement is asked: an invalid siege at the end of the
  game turn, a neutral castle's siege made invalid by its kingdom's deployment, enemy
  units a fighting-out stack pushed aside. A stack whose every route is barred by enemy
  units fights its way out into one of them, losing (`lose`) one combat unit per enemy
  combat unit there, whose owner then displaces them; with no route, or facing as many
  enemies as it has units, it is eliminated (`to` left out when there is no route).
- `siege-attack castles=A,B`: the castles attacked this phase, pointed out at once; each
  gets its Siege Roll with every besieging combat unit.
- `breakout castle=NAME`: the besieged player's units inside attack all the besiegers
  (land units and fleets in one battle); win or lose, they may then leave.
- `siege-keep kingdom=K` / `siege-lift kingdom=K to=HEX,...`: a besieger asked about a
  deactivation, forced peace or Confusion of the kingdom whose castle he besieges keeps
  his siege (the change does not happen) or gives it up (his besiegers displaced).

Readings (docs/divine-right.md): the castles attacked are named in one command and no
displacement follows it; a land unit displaces onto open water only aboard an empty
fleet displacing with it (one combat unit a fleet, heroes with the first); enemy units
a fighting-out stack displaces are routed by their owner; breakout battles have no
retreat before combat.
"""

from __future__ import annotations

import dataclasses

from warscribe.engine.errors import IllegalCommand, InvalidCommand

from ..arguments import hex_arg, label, names, path_arg
from ..combat.arithmetic import plunder_points, siege_attack
from ..combat.fight import BREAKOUT_KIND, LOSSES, eliminate, fight, modifiers
from ..data import Castle, DRData
from ..diplomacy import deactivated_by
from ..events import (
    AttackBegun,
    CastlePlundered,
    DecisionAsked,
    SiegeAttacked,
    SiegeEnded,
    SiegeGivenUp,
    SiegeKept,
    SiegeVetoAsked,
    UnitsDisplaced,
    UnitsEmbarked,
)
from ..evolving import Decision
from ..heroes import castle_falls, fate, successor_enters
from ..kingdoms import CONFUSED, DEACTIVATE, FORCED, confusion, crown, force_peace, score
from ..movement.stacks import stack
from ..movement.terrain import all_sea, geography, is_isle
from ..placement.deployment import monarch_id
from ..sections import (
    BAD_OMENS,
    BESIEGER_DISPLACEMENT,
    BREAKOUTS,
    DEACTIVATION_OF_KINGDOMS,
    RESOLVING_A_SIEGE,
)
from ..state import Hex, Pending, Siege, State, Unit, Veto
from ..tables import Answer, Evolvers
from ..turn import ask, asked_now, playing
from ..units import (
    at,
    castle,
    castle_side,
    enemy_fleets,
    enemy_land,
    hostile_castle,
    is_army,
    is_fleet,
    is_hero,
    remove,
)
from .declare import (
    BREAKOUT,
    DISPLACE,
    MAKE_WAY,
    SIEGE_ATTACK,
    besieger,
    besieging_units,
    engage,
    inside_units,
    omened,
    siege_at,
    strengths,
)

VETO = "siege-veto"


# -- siege attacks ---------------------------------------------------------------------------


def attack(d: Decision) -> None:
    """The castles the player attacks this phase, each with its Siege Roll."""
    turn = playing(d.state)
    if turn.progress.siege_rolled:
        raise IllegalCommand(
            "the castles attacked this phase were already pointed out", RESOLVING_A_SIEGE
        )
    chosen = names(d.call.get("castles"), RESOLVING_A_SIEGE, "castle")
    sieges = [_own_siege(d, turn.player, name) for name in chosen]
    for siege in sieges:
        _check_attack(d.state, siege)
    for siege in sieges:
        _siege_roll(d, siege)


def _own_siege(d: Decision, player: str, name: str) -> Siege:
    found = _castle_named(d, name, RESOLVING_A_SIEGE)
    siege = siege_at(d.state, found.hex)
    if siege is None or siege.besieger != player:
        raise IllegalCommand(f"{player} does not besiege {found.name}", RESOLVING_A_SIEGE)
    return siege


def _castle_named(d: Decision, name: object, rule: str) -> Castle:
    try:
        found = d.data.place(str(name))
    except KeyError:
        raise InvalidCommand(f"no castle {name!r}", rule) from None
    if not isinstance(found, Castle):
        raise InvalidCommand(f"{found.name} is not a castle", rule)
    return found


def _check_attack(state: State, siege: Siege) -> None:
    if siege.doomed:
        raise IllegalCommand(
            f"the siege of {siege.castle} is no longer valid ({siege.why}): no Siege Roll",
            BESIEGER_DISPLACEMENT,
        )
    omens = sorted({u.kingdom for u in besieging_units(state, siege) if omened(state, u)})
    if omens:
        raise IllegalCommand(
            f"{', '.join(omens)}'s regulars have Bad Omens and will not attack: displace them "
            f"from {siege.castle} first",
            BAD_OMENS,
        )


def _siege_roll(d: Decision, siege: Siege) -> None:
    """Every combat unit of the besieging stack attacks: a natural 1 fails (a besieger
    lost, besieging heroes roll), 6 or more plunders."""
    units = besieging_units(d.state, siege)
    besieging, inside = strengths(d.state, siege)
    heroes = _heroes_at(d.state, siege.besieger, siege.hex)
    extra = modifiers(d.state, d.data, units, heroes, attacking=True, siege=True)
    rolled = d.dice.roll(f"Siege Roll: {siege.castle}")
    result = siege_attack(
        rolled.values[0], besieging, siege.defence, inside, sum(v for _, v in extra)
    )
    odds = f"{besieging} besiegers over defence {siege.defence} and {inside} inside, less one"
    d.emit(
        rolled,
        SiegeAttacked(
            castle=siege.castle,
            besieger=siege.besieger,
            units=tuple(u.id for u in units),
            roll=result.roll,
            modifiers=((odds, result.modifier), *extra),
            total=result.total,
            result=result.result,
            besieging=besieging,
            inside=inside,
            defence=siege.defence,
        ),
    )
    if result.result == "failed":
        _failed(d, siege)
    elif result.result == "plundered":
        _plunder(d, siege)


def _heroes_at(state: State, player: str, hex_: Hex) -> list[Unit]:
    return sorted(
        (
            u
            for u in at(state, hex_)
            if is_hero(u) and state.controller(u) == player and not u.inside and u.aboard is None
        ),
        key=lambda u: u.id,
    )


def _failed(d: Decision, siege: Siege) -> None:
    """The besieging heroes roll (a captured one is held in the castle); one besieging
    combat unit is lost, the besieger's choice."""
    side = castle_side(d.state, d.data.castles[siege.castle])
    for hero in _heroes_at(d.state, siege.besieger, siege.hex):
        if hero.id in d.state.units:
            fate(d, hero.id, 1, side, prison=siege.castle)
    left = besieging_units(d.state, siege)
    if len(left) > 1:
        why = f"the siege roll at {siege.castle} failed: choose the besieging unit lost"
        d.ask(LOSSES, siege.besieger, tuple(u.id for u in left), count=1, why=why)
    elif left:
        eliminate(d, siege.besieger, left, side, "a failed siege roll", True)


def _plunder(d: Decision, siege: Siege) -> None:
    """The castle is taken: the units inside are eliminated, the heroes there roll,
    prisoners held there are freed, and the plunderer scores 5 x its defence (10 x for a
    royal castle) when it was an enemy's (Victory)."""
    found = d.data.castles[siege.castle]
    side = castle_side(d.state, found)
    inside = inside_units(d.state, siege.hex, siege.besieger)
    fleets = {u.id for u in inside if is_fleet(u)}
    cargo = [u.id for u in d.state.units.values() if u.aboard in fleets]
    eliminated = tuple(sorted({u.id for u in inside} | set(cargo)))
    d.emit(
        CastlePlundered(
            castle=found.name, kingdom=found.kingdom, by=siege.besieger, eliminated=eliminated
        )
    )
    castle_falls(d, found.name, siege.besieger)
    if side not in (None, siege.besieger):
        royal = " (a royal castle)" if found.royal else ""
        deed = f"plundered {found.name}{royal}, {side}'s"
        score(d, siege.besieger, deed, plunder_points(found.defence, found.royal))


# -- displacement ------------------------------------------------------------------------------


def displace(d: Decision) -> None:
    """Besieging units to an adjacent space (voluntarily, or as asked)."""
    player, named, why = _displacing(d)
    units = [u for u in named if u.aboard is None]
    if not units:
        raise IllegalCommand(
            f"{player} names no unit to displace (units aboard a fleet displace with it)",
            BESIEGER_DISPLACEMENT,
        )
    target: Hex | None = d.call.get("to")
    lose = names(d.call.get("lose"), BESIEGER_DISPLACEMENT) if d.call.get("lose") else ()
    move_out(d, player, units, target, lose, why)


def _displacing(d: Decision) -> tuple[str, list[Unit], str]:
    """Who displaces which units, and why: answering a displacement asked of him, or by
    his own choice before his siege attacks."""
    pending = d.state.turn.progress.pending if d.state.turn else None
    if pending is not None and pending.kind in (DISPLACE, MAKE_WAY):
        return _asked_displacement(d)
    turn = playing(d.state)
    if turn.progress.siege_rolled:
        raise IllegalCommand("displacements come before any siege attack", BESIEGER_DISPLACEMENT)
    units = stack(d.state, d.data, d.call.get("units"), turn.player)
    siege = siege_at(d.state, units[0].hex)
    if siege is None or siege.besieger != turn.player:
        where = label(d.data, units[0].hex)
        raise IllegalCommand(f"{turn.player} besieges no castle at {where}", BESIEGER_DISPLACEMENT)
    return turn.player, units, "displaced before the siege attacks"


def _asked_displacement(d: Decision) -> tuple[str, list[Unit], str]:
    pending = asked_now(d.state)
    start = hex_arg(d.data, pending.options[0], BESIEGER_DISPLACEMENT)
    named = d.call.get("units")
    units = (
        stack(d.state, d.data, named, pending.player)
        if named is not None
        else [u for u in at(d.state, start) if d.state.controller(u) == pending.player]
    )
    if any(u.hex != start or u.inside for u in units):
        raise IllegalCommand(
            f"displace units from {label(d.data, start)}, outside its walls", BESIEGER_DISPLACEMENT
        )
    why = "an invalid siege displaced" if pending.kind == DISPLACE else "pushed aside"
    return pending.player, units, why


def move_out(
    d: Decision, player: str, units: list[Unit], to: Hex | None, lose: tuple[str, ...], why: str
) -> None:
    """Displace the stack to `to`: free, or fighting out through enemy units barring
    every route; eliminated when it has no route, or too few units to fight out."""
    start = units[0].hex
    combat = [u for u in units if not is_hero(u)]
    routes = _routes(d, player, units, start)
    enemy = _castle_enemy(d, start, player)
    if to is None:
        if routes:
            free = ", ".join(label(d.data, h) for h in sorted(routes))
            raise InvalidCommand(f"say where the units go (to=HEX): {free}", BESIEGER_DISPLACEMENT)
        eliminate(d, player, combat, enemy, f"{why}: no route of displacement")
        return
    if to not in routes:
        raise IllegalCommand(_no_route(d, player, units, start, to), BESIEGER_DISPLACEMENT)
    barring = routes[to]
    if barring:
        _fight_out(d, player, units, to, lose, routes)
        return
    if lose:
        raise IllegalCommand(
            f"{label(d.data, to)} is free: no losses to take", BESIEGER_DISPLACEMENT
        )
    _moved(d, player, units, start, to, why)


def _moved(d: Decision, player: str, units: list[Unit], start: Hex, to: Hex, why: str) -> None:
    """The units displaced (those of `units` still there after any losses, with the
    fleets' cargo); onto open water the land units go aboard the empty displacing fleets."""
    units = [d.state.units[u.id] for u in units if u.id in d.state.units]
    units = [u for u in units if u.hex == start and u.aboard is None]
    fleets = {u.id for u in units if is_fleet(u)}
    cargo = [u.id for u in d.state.units.values() if u.aboard in fleets]
    ids = tuple(sorted({u.id for u in units} | set(cargo)))
    place = geography(d.data).place(to)
    berths = _berths(d.state, units) if place is not None and all_sea(place) else None
    d.emit(UnitsDisplaced(player=player, units=ids, start=start, hex=to, why=why))
    for fleet, carried in sorted((berths or {}).items()):
        d.emit(UnitsEmbarked(fleet=fleet, units=carried))


def _berths(state: State, units: list[Unit]) -> dict[str, tuple[str, ...]] | None:
    """The land units aboard the empty displacing fleets: one combat unit a fleet, the
    heroes with the first (None: too few empty fleets)."""
    empty = sorted(
        u.id
        for u in units
        if is_fleet(u) and not any(c.aboard == u.id for c in state.units.values())
    )
    land = [u for u in units if not is_fleet(u) and u.aboard is None]
    combat = sorted(u.id for u in land if not is_hero(u))
    heroes = tuple(sorted(u.id for u in land if is_hero(u)))
    if not empty or len(combat) > len(empty):
        return None
    berths: dict[str, tuple[str, ...]] = {
        fleet: (unit,) for fleet, unit in zip(empty, combat, strict=False)
    }
    if heroes:
        berths[empty[0]] = (*berths.get(empty[0], ()), *heroes)
    return berths


def _fight_out(
    d: Decision,
    player: str,
    units: list[Unit],
    to: Hex,
    lose: tuple[str, ...],
    routes: dict[Hex, int],
) -> None:
    """Every route is barred: the stack displaces the enemy units in `to`, losing as many
    combat units as they are; with as many enemies as it has units it is eliminated."""
    free = [h for h, barring in routes.items() if not barring]
    if free:
        where = ", ".join(label(d.data, h) for h in sorted(free))
        raise IllegalCommand(
            f"enemy units bar {label(d.data, to)}, but {where} is free: displace there",
            BESIEGER_DISPLACEMENT,
        )
    start = units[0].hex
    combat = [u for u in units if not is_hero(u)]
    blockers = _barring(d.state, player, units, to)
    owner = d.state.controller(blockers[0])
    why = "fighting its way out of encirclement"
    if len(blockers) >= len(combat):
        eliminate(d, player, combat, owner, f"{why}: outnumbered")
        return
    if len(lose) != len(blockers) or any(u not in {c.id for c in combat} for u in lose):
        raise IllegalCommand(
            f"{len(blockers)} enemy combat unit(s) bar {label(d.data, to)}: name as many of the "
            f"displacing combat units to lose (lose=A,B,...)",
            BESIEGER_DISPLACEMENT,
        )
    lost = [d.state.units[u] for u in lose]
    eliminate(d, player, lost, owner, why, True)
    _moved(d, player, units, start, to, why)
    if owner is not None:
        asked = (
            f"{player}'s besiegers fought their way out into {label(d.data, to)}: displace your "
        )
        d.ask(
            MAKE_WAY,
            owner,
            (f"{to[0]},{to[1]}",),
            count=0,
            why=asked + f"units from there (siege displace {to[0]},{to[1]} --to HEX)",
        )


def _castle_enemy(d: Decision, hex_: Hex, player: str) -> str | None:
    found = castle(d.state, d.data, hex_)
    side = castle_side(d.state, found) if found else None
    return side if side != player else None


def _routes(d: Decision, player: str, units: list[Unit], start: Hex) -> dict[Hex, int]:
    """The adjacent spaces the stack may displace into, and how many enemy combat units
    bar each (land units bar land units, fleets fleets)."""
    return {
        hex_: len(_barring(d.state, player, units, hex_))
        for hex_ in d.data.map.neighbours(*start)
        if _route_problem(d, player, units, start, hex_) is None
    }


def _barring(state: State, player: str, units: list[Unit], hex_: Hex) -> list[Unit]:
    found: list[Unit] = []
    if any(is_army(u) for u in units) or all(is_hero(u) for u in units):
        found += [u for u in enemy_land(state, player, hex_) if not u.inside]
    if any(is_fleet(u) for u in units):
        found += [u for u in enemy_fleets(state, player, hex_) if not u.inside]
    return found


def _route_problem(
    d: Decision, player: str, units: list[Unit], start: Hex, hex_: Hex
) -> str | None:
    geo = geography(d.data)
    place = geo.place(hex_)
    if place is None or is_isle(place):
        return "it is not a space units may enter"
    land = any(not is_fleet(u) for u in units)
    if land and all_sea(place) and _berths(d.state, units) is None:
        return (
            "land units displace onto open water only aboard empty fleets displacing with "
            "them, one combat unit a fleet"
        )
    if land and d.data.map.is_river_side(start, hex_):
        return "land units do not cross the navigable river"
    if any(is_fleet(u) for u in units) and not geo.floats(place):
        return "fleets do not displace onto land"
    if hostile_castle(d.state, d.data, player, hex_) and besieger(d.state, hex_) != player:
        return "it is an unbesieged enemy or neutral castle"
    return None


def _no_route(d: Decision, player: str, units: list[Unit], start: Hex, to: Hex) -> str:
    if to not in d.data.map.neighbours(*start):
        return f"{label(d.data, to)} is not next to {label(d.data, start)}"
    problem = _route_problem(d, player, units, start, to)
    return f"the units may not displace to {label(d.data, to)}: {problem}"


# -- breakouts -----------------------------------------------------------------------------------


def breakout(d: Decision) -> None:
    """The player's combat units inside a besieged castle attack all its besiegers."""
    player = playing(d.state).player
    found = _castle_named(d, d.call.get("castle"), BREAKOUTS)
    siege = siege_at(d.state, found.hex)
    if siege is None or siege.besieger == player:
        raise IllegalCommand(f"{found.name} is not besieged by an enemy", BREAKOUTS)
    units = [
        u
        for u in inside_units(d.state, found.hex, siege.besieger)
        if d.state.controller(u) == player and u.aboard is None
    ]
    if not units:
        raise IllegalCommand(f"{player} has no combat unit inside {found.name}", BREAKOUTS)
    assert d.state.turn is not None
    if any(d.state.turn.engaged_in(u.id) == BREAKOUT for u in units):
        raise IllegalCommand(f"{player}'s units broke out of {found.name} already", BREAKOUTS)
    omens = sorted({u.kingdom for u in units if omened(d.state, u)})
    if omens:
        raise IllegalCommand(f"{', '.join(omens)}'s regulars will not attack this turn", BAD_OMENS)
    besiegers = besieging_units(d.state, siege)
    d.emit(
        AttackBegun(
            number=0,
            kind=BREAKOUT_KIND,
            attacker=player,
            defender=siege.besieger,
            attackers=tuple(u.id for u in units),
            defenders=tuple(u.id for u in besiegers),
            spaces=(found.hex,),
        )
    )
    fight(d)


# -- ongoing sieges: keep or give up -------------------------------------------------------------


def keep(d: Decision) -> None:
    """The besieger keeps his siege: the deactivation, forced peace or Confusion does not
    happen (a dead monarch's successor is crowned at once, and enters the map if the old
    monarch's counter had left it: an executed prisoner)."""
    veto = _veto(d)
    d.emit(SiegeKept(player=d.call.actor, kingdom=veto.kingdom, change=veto.change))
    if veto.change == CONFUSED:
        crown(d, veto.kingdom)
        if monarch_id(veto.kingdom) not in d.state.units:
            successor_enters(d, veto.kingdom)


def lift(d: Decision) -> None:
    """The besieger gives up his sieges of the kingdom's castles: his besiegers are
    displaced (`to`: a space next to each castle); once every besieger has, the change
    happens."""
    veto = _veto(d)
    player = d.call.actor
    mine = [s for s in d.state.sieges if s.kingdom == veto.kingdom and s.besieger == player]
    targets = _targets(d, d.call.get("to"), mine)
    d.emit(SiegeGivenUp(player=player, kingdom=veto.kingdom))
    for siege in mine:
        units = [u for u in at(d.state, siege.hex) if d.state.controller(u) == player]
        units = [u for u in units if not u.inside and u.aboard is None]
        why = f"gave up the siege of {siege.castle}"
        move_out(d, player, units, targets.get(siege.castle), (), why)
        if siege_at(d.state, siege.hex) is not None:
            d.emit(SiegeEnded(castle=siege.castle, besieger=player, why="given up"))
    rest = veto.waiting[1:]
    if rest:
        d.emit(_veto_question(veto.kingdom, veto.change, veto.why, rest[0]))
    else:
        _carry_out(d, veto)


def _veto(d: Decision) -> Veto:
    asked_now(d.state)
    veto = d.state.veto
    assert veto is not None
    named = d.call.get("kingdom")
    if named is not None and str(named) != veto.kingdom:
        raise IllegalCommand(
            f"the question is about {veto.kingdom}, not {named}", DEACTIVATION_OF_KINGDOMS
        )
    return veto


def _targets(d: Decision, value: object, sieges: list[Siege]) -> dict[str, Hex]:
    """Each castle's displacement space: the one given next to it."""
    given = path_arg(d.data, value, BESIEGER_DISPLACEMENT) if value else ()
    found = {}
    for siege in sieges:
        near = [h for h in given if h in d.data.map.neighbours(*siege.hex)]
        if near:
            found[siege.castle] = near[0]
    return found


def _carry_out(d: Decision, veto: Veto) -> None:
    if veto.change == DEACTIVATE and veto.by is not None:
        deactivated_by(d, veto.by, veto.kingdom)
    elif veto.change == FORCED:
        force_peace(d, veto.kingdom)
    elif veto.change == CONFUSED:
        confusion(d, veto.kingdom, veto.why)


def _veto_question(kingdom: str, change: str, why: str, player: str) -> DecisionAsked:
    return DecisionAsked(
        player=player,
        kind=VETO,
        options=(f"siege keep {kingdom}", f"siege lift {kingdom}"),
        count=0,
        why=f"the {change} of {kingdom} ({why}) waits on its besiegers: keep your siege "
        f"(siege keep {kingdom}) or give it up (siege lift {kingdom} --to HEX)",
    )


# -- the end of the game turn ------------------------------------------------------------------


def invalid_sieges(state: State, data: DRData) -> list[DecisionAsked]:
    """As the game turn ends, the besiegers of invalid sieges are displaced (each
    besieger routes his own)."""
    if state.next_player_turn() is not None:
        return []
    return [
        DecisionAsked(
            player=s.besieger,
            kind=DISPLACE,
            options=(s.castle,),
            count=0,
            why=f"the siege of {s.castle} is invalid ({s.why}): displace the besiegers as the "
            f"game turn ends (siege displace {s.castle} --to HEX)",
        )
        for s in state.sieges
        if s.doomed
    ]


def _siege_stands(state: State, pending: Pending) -> bool:
    """A displacement of besiegers is asked while their siege stands."""
    castle_name, player = pending.options[0], pending.player
    return any(s.castle == castle_name and s.besieger == player for s in state.sieges)


def _barring_stands(state: State, pending: Pending) -> bool:
    """Units pushed aside are asked to make way while some of theirs stand outside there."""
    col, row = (int(n) for n in pending.options[0].split(","))
    return any(
        u.hex == (col, row) and not u.inside and state.controller(u) == pending.player
        for u in state.units.values()
    )


def _veto_stands(state: State, pending: Pending) -> bool:
    return state.veto is not None and pending.player in state.veto.waiting


# -- evolve ------------------------------------------------------------------------------------


def _attacked(state: State, event: SiegeAttacked) -> State:
    return engage(state.with_progress(siege_rolled=True), event.units, SIEGE_ATTACK)


def _plundered(state: State, event: CastlePlundered) -> State:
    state = remove(state, event.eliminated)
    hex_ = next(s.hex for s in state.sieges if s.castle == event.castle)
    opened = [dataclasses.replace(u, inside=False) for u in at(state, hex_)]
    state = state.with_units(opened)
    return state.replace(
        plundered=state.plundered | {event.castle},
        sieges=tuple(s for s in state.sieges if s.castle != event.castle),
    )


def _veto_asked(state: State, event: SiegeVetoAsked) -> State:
    veto = Veto(
        kingdom=event.kingdom,
        change=event.change,
        why=event.why,
        by=event.by,
        waiting=event.besiegers,
    )
    question = _veto_question(event.kingdom, event.change, event.why, event.besiegers[0])
    pending = Pending(kind=VETO, player=question.player, options=question.options, why=question.why)
    return ask(state.replace(veto=veto), pending)


def _answered(state: State) -> State:
    pending = state.turn.progress.pending if state.turn else None
    return state.with_progress(pending=None) if pending and pending.kind == VETO else state


def _kept(state: State, event: SiegeKept) -> State:
    return _answered(state.replace(veto=None))


def _given_up(state: State, event: SiegeGivenUp) -> State:
    veto = state.veto
    if veto is None:
        return _answered(state)
    waiting = tuple(p for p in veto.waiting if p != event.player)
    kept = dataclasses.replace(veto, waiting=waiting) if waiting else None
    return _answered(state.replace(veto=kept))


DECISIONS: dict[str, Answer] = {
    DISPLACE: Answer(_siege_stands),
    MAKE_WAY: Answer(_barring_stands),
    VETO: Answer(_veto_stands),
}


EVOLVERS: Evolvers = {
    SiegeAttacked: _attacked,
    CastlePlundered: _plundered,
    SiegeVetoAsked: _veto_asked,
    SiegeKept: _kept,
    SiegeGivenUp: _given_up,
}
