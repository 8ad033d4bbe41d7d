"""The commands a player may give now, with their arguments filled from the position.

While a decision is asked (The Game Turn: a pending decision), only its player may act,
with the answers it allows: units to lose, retreat rolls and spaces, advances, sorties,
pursuits, displacement spaces, siege vetoes, placements, a captive's or a castaway's fate,
random events' gains. Otherwise the player whose turn it is acts in his phase: roll the
random events; draw, work diplomacy on a kingdom (cards in hand), duel, discard; attack
his sieges or break out; move his stacks (each to every space the path finder reaches,
`movement.destinations`), embark, debark, go inside or outside the walls, search,
disband; declare and resolve attacks; end the phase. An eliminated player may ask to
rejoin (Basic Game Optional Rules › Re-entry of Eliminated Players).

Candidates are made from the position and kept when the rules accept them: each is
decided on scratch dice (decide is pure: nothing is recorded), so anything offered is
what `decide` accepts, whatever the dice. Moves are found by the path finder, whose
every step is the check `move` makes. Kept candidates that differ only in their last
argument are offered as one command with that argument's domain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice, product

from warscribe.engine.commands import answering
from warscribe.engine.dice import Dice
from warscribe.engine.errors import RuleError
from warscribe.engine.events import Command
from warscribe.engine.offers import candidates, grouped, scratch_dice
from warscribe.engine.ruleset import Deferred, LegalCommand

from .arguments import hex_arg
from .combat.fight import fight_now
from .data import DRData
from .domains import DIPLOMACY, MOST_COMBINATIONS, SPECS, first_choices, hex_text, units_of
from .movement.move import destinations
from .movement.reach import near, river_fleets
from .movement.terrain import all_sea
from .placement.choice import ANYWHERE, option_units
from .placement.deployment import monarch_id
from .random_events import LOSSES as EVENT_LOSSES
from .random_events import gains
from .state import MERCENARY, Hex, Pending, State, Unit
from .tables import rulebook
from .units import enemies, is_fleet, is_hero

Decide = Callable[[State, Command, Dice], object]
Candidates = Iterator[Command]


def legal(state: State, data: DRData, decide: Decide) -> tuple[LegalCommand, ...]:
    """Every command a player may give now (see the module's docstring)."""
    turn = state.turn
    if turn is None or state.outcome is not None:
        return ()
    pending = turn.progress.pending
    if pending is not None:
        candidates = _answers(state, data, pending)
    else:
        candidates = _phase(state, data, turn.player, turn.phase)
    moves = _moves(state, data, turn.player) if pending is None and turn.phase == "movement" else []
    kept = [c for c in (*candidates, *_rejoin(state)) if accepted(state, c, decide)]
    return (*moves, *grouped(kept))


def answers(state: State, data: DRData, pending: Pending, decide: Decide) -> list[Command]:
    """The answers `pending` allows now, in the order they are offered."""
    return [c for c in _answers(state, data, pending) if accepted(state, c, decide)]


def accepted(state: State, command: Command, decide: Decide) -> bool:
    """Whether the rules accept `command` now (decided on scratch dice: nothing recorded)."""
    try:
        decide(state, command, scratch_dice())
    except RuleError:
        return False
    return True


def _command(actor: str, name: str, **args: object) -> Command:
    return Command(actor, name, tuple(args.items()))


# -- the phases ----------------------------------------------------------------------------------


def _phase(state: State, data: DRData, player: str, phase: str) -> Candidates:
    """The commands of every phase (its end), then those the rule book declares for the
    player's phase (`rulebook.PHASES`), found by its generator."""
    table = rulebook()
    for name in table.turn_order.every_phase:
        yield _command(player, name)
    declared = {c for p in table.phases if p.name == phase for c in p.commands}
    for candidate in _PHASES.get(phase, _nothing)(state, data, player):
        if candidate.name in declared:
            yield candidate


def _nothing(state: State, data: DRData, player: str) -> Candidates:
    yield from ()


def _random_events(state: State, data: DRData, player: str) -> Candidates:
    yield from _specs(state, data, player, "events-roll")


def _diplomacy(state: State, data: DRData, player: str) -> Candidates:
    """Draw; then one diplomatic action, Forced Peace, discards (Diplomacy Phase)."""
    yield from _specs(state, data, player, *DIPLOMACY)


def _sieges(state: State, data: DRData, player: str) -> Candidates:
    """Siege attacks on the player's sieges, or his besiegers displaced first; breakouts
    from his besieged castles."""
    yield from _specs(state, data, player, "siege-attack", "breakout")
    for siege in state.sieges:
        if siege.besieger == player:
            yield from _displaced(state, data, player, siege.hex, units=hex_text(siege.hex))


def _movement(state: State, data: DRData, player: str) -> Candidates:
    """Embark, debark, walls, searches and disbanding (moves: `_moves`)."""
    yield from _specs(state, data, player, "embark", "debark", "inside", "outside", "disband")
    yield from _specs(state, data, player, "search")


def _specs(state: State, data: DRData, player: str, *names: str) -> Candidates:
    """The commands `names` with the values their domains offer (`DOMAINS`)."""
    for found in candidates(state, ((player, SPECS[name]) for name in names), data):
        assert isinstance(found, Command), "no deferred domain here"
        yield found


def _moves(state: State, data: DRData, player: str) -> list[LegalCommand]:
    """Each unit alone, and each space's stack, that can take a step; each monarch with
    the units of his space he may lead (Movement Phase › Leading); each land stack over
    each of the player's fleets on a navigable river near it (Ferrying, `reach.river_fleets`),
    to the spaces only the ferry reaches. Their domain: the paths to every space
    reached, searched when asked for (`Deferred`)."""
    units = [u for u in units_of(state, player) if u.aboard is None]
    stacks: set[tuple[str, ...]] = {(u.id,) for u in units}
    for space in {u.hex for u in units}:
        for fleets in (True, False):
            here = tuple(u.id for u in units if u.hex == space and is_fleet(u) == fleets)
            if len(here) > 1:
                stacks.add(here)
    offers = [_move(state, data, player, ids) for ids in sorted(stacks)]
    for monarch in (u for u in units if u.id == monarch_id(u.kingdom)):
        led = tuple(u.id for u in units if u.hex == monarch.hex and _led(monarch, u))
        offers.append(_move(state, data, player, led, leader=monarch.id))
    on_river = river_fleets(state, data, player)
    for ids in sorted(stacks):
        first = state.units[ids[0]]
        for fleet in [] if is_fleet(first) else near(data, on_river, first.hex):
            offers.append(_ferry(state, data, player, ids, fleet.id))
    return [offer for offer in offers if offer is not None]


def _led(monarch: Unit, unit: Unit) -> bool:
    """A unit the monarch may lead: his own regulars, common mercenaries, other heroes."""
    return not is_fleet(unit) and (is_hero(unit) or unit.kingdom in (monarch.kingdom, MERCENARY))


def _move(
    state: State, data: DRData, player: str, ids: tuple[str, ...], leader: str | None = None
) -> LegalCommand | None:
    """The stack's move (led by `leader` if given), if it can take a step at all."""
    if not destinations(state, data, player, ids, most=1, leader=leader):
        return None

    def find() -> tuple[tuple[Hex, ...], ...]:
        found = destinations(state, data, player, ids, leader=leader)
        return tuple(found[space] for space in sorted(found))

    args = (("units", ids), *((("leader", leader),) if leader else ()))
    return LegalCommand(player, "move", args, (("path", Deferred(find)),))


def _ferry(
    state: State, data: DRData, player: str, ids: tuple[str, ...], fleet: str
) -> LegalCommand | None:
    """The stack's move over the fleet, to the spaces it reaches only so."""
    walking = destinations(state, data, player, ids)
    ferried = destinations(state, data, player, ids, fleet=fleet)
    paths = tuple(ferried[space] for space in sorted(ferried) if space not in walking)
    if not paths:
        return None
    return LegalCommand(player, "ferry", (("units", ids), ("fleet", fleet)), (("path", paths),))


def _combat(state: State, data: DRData, player: str) -> Candidates:
    """The declared attacks resolved; or the phase's attacks declared (`_declarable`)."""
    yield from _specs(state, data, player, "attack-resolve", "attack-declare")


def _rejoin(state: State) -> Candidates:
    if state.reentry:
        for player in state.players:
            if player.eliminated:
                yield _command(player.name, "rejoin", consent="yes")


# -- the answers to a decision asked ---------------------------------------------------------------


def _answers(state: State, data: DRData, pending: Pending) -> Candidates:
    """The answers the decision allows, by the commands that answer it (`answers`)."""
    makers = dict.fromkeys(
        _ANSWERS[name] for name in answering(SPECS, pending.kind) if name in _ANSWERS
    )
    for maker in makers:
        yield from maker(state, data, pending)


def _event_answers(state: State, data: DRData, pending: Pending) -> Candidates:
    """Random events: the units lost; a unit replaced or a mercenary brought in (or
    stolen, or declined) where it may enter."""
    player = pending.player
    if pending.kind in EVENT_LOSSES:
        for units in first_choices(pending.options, pending.count):
            yield _command(player, "events-lose", units=units)
        return
    for gain in gains(state, data, player, pending.kind):
        where = hex_text(gain.hex)
        if gain.source == "replacement":
            yield _command(player, "events-replace", unit=gain.unit, at=where)
        elif gain.source == "pool":
            yield _command(player, "events-reinforce", kind=gain.kind, at=where)
        else:
            yield _command(player, "events-reinforce", unit=gain.unit, at=where)
    yield _command(player, "events-decline")


def _retreats(state: State, data: DRData, pending: Pending) -> Candidates:
    """Retreat Before Combat: a roll for the land units or the fleets of a defending space
    (all its groups, or one group rolling again), a retreat of the groups a roll let go
    (all, or one) to a space next to it, its heroes riding along or not; or standing."""
    player = pending.player
    yield _command(player, "retreat-stand")
    fight = fight_now(state)
    for space in fight.spaces:
        for fleets in (False, True):
            where = {"space": hex_text(space), "fleets": fleets}
            tries = [t for t in fight.tries if t.space == space and t.fleets == fleets]
            yield _command(player, "retreat-roll", **where)
            for group in sorted({g for t in tries for g in t.failed}):
                yield _command(player, "retreat-roll", **where, groups=(group,))
            allowed = sorted({g for t in tries for g in t.allowed})
            for groups, heroes in product([None, *((g,) for g in allowed)], (None, "none")):
                chosen = {"groups": groups, "heroes": heroes}
                given = {key: value for key, value in chosen.items() if value is not None}
                for to in data.map.neighbours(*space):
                    yield _command(player, "retreat-to", **where, **given, to=hex_text(to))


def _pursuits(state: State, data: DRData, pending: Pending) -> Candidates:
    yield from _specs(state, data, pending.player, "pursue-none", "pursue")


def _sorties(state: State, data: DRData, pending: Pending) -> Candidates:
    yield from _specs(state, data, pending.player, "sortie-none", "sortie")


def _advances(state: State, data: DRData, pending: Pending) -> Candidates:
    """Advance After Combat into a space offered (within the walls, where it may), or not."""
    yield _command(pending.player, "advance-none")
    for option in pending.options:
        for inside in (False, True):
            yield _command(pending.player, "advance-into", inside=inside, to=option)


def _losses(state: State, data: DRData, pending: Pending) -> Candidates:
    yield from _specs(state, data, pending.player, "losses")


def _displacements(state: State, data: DRData, pending: Pending) -> Candidates:
    """Besieger Displacement: to a space next to the castle (or where the rules put them),
    fighting out of encirclement with as many units lost as bar the way."""
    start = hex_arg(data, pending.options[0], "") if pending.options else None
    if start is None:
        return
    yield _command(pending.player, "siege-displace")
    yield from _displaced(state, data, pending.player, start)


def _displaced(state: State, data: DRData, player: str, start: Hex, **units: object) -> Candidates:
    mine = tuple(
        u.id
        for u in state.units.values()
        if u.hex == start and not is_hero(u) and state.controller(u) == player and not u.inside
    )
    for to in data.map.neighbours(*start):
        yield _command(player, "siege-displace", **units, to=hex_text(to))
        barring = [u for u in enemies(state, player, to) if not is_hero(u)]
        for lose in first_choices(tuple(sorted(mine)), len(barring)) if barring else ():
            yield _command(player, "siege-displace", **units, lose=lose, to=hex_text(to))


def _vetoes(state: State, data: DRData, pending: Pending) -> Candidates:
    """Ongoing sieges: keep the siege (the change does not happen), or lift it, the
    besiegers of each castle going to a space next to it."""
    veto = state.veto
    if veto is None:
        return
    yield _command(pending.player, "siege-keep", kingdom=veto.kingdom)
    mine = [s for s in state.sieges if s.kingdom == veto.kingdom and s.besieger == pending.player]
    yield _command(pending.player, "siege-lift", kingdom=veto.kingdom)
    spaces = [data.map.neighbours(*s.hex) for s in mine]
    for to in islice(product(*spaces), MOST_COMBINATIONS):
        yield _command(
            pending.player, "siege-lift", kingdom=veto.kingdom, to=tuple(map(hex_text, to))
        )


def _castaway(state: State, data: DRData, pending: Pending) -> Candidates:
    yield from _specs(state, data, pending.player, "castaway-stay", "castaway-eliminate")


def _prisoner(state: State, data: DRData, pending: Pending) -> Candidates:
    for kingdom, standing in sorted(state.kingdoms.items()):
        if standing.captive_of == pending.player:
            yield _command(pending.player, "prisoner-execute", kingdom=kingdom)
            yield _command(pending.player, "prisoner-free", kingdom=kingdom)


def _placements(state: State, data: DRData, pending: Pending) -> Candidates:
    """Each option asked: its units at its space, or at any land space when it says so."""
    for option in pending.options:
        units, space = option_units(option), option.partition(" at ")[2]
        if space != ANYWHERE:
            yield _command(pending.player, "place", units=units, at=space)
            continue
        for place in data.map.hexes:
            if not all_sea(place):
                yield _command(pending.player, "place", units=units, at=hex_text(place.coord))


Maker = Callable[[State, DRData, Pending], Candidates]
_ANSWERS: dict[str, Maker] = {
    **dict.fromkeys(
        ("events-lose", "events-replace", "events-reinforce", "events-decline"), _event_answers
    ),
    **dict.fromkeys(("retreat-roll", "retreat-to", "retreat-stand"), _retreats),
    **dict.fromkeys(("pursue", "pursue-none"), _pursuits),
    **dict.fromkeys(("advance-into", "advance-none"), _advances),
    **dict.fromkeys(("sortie", "sortie-none"), _sorties),
    "losses": _losses,
    "siege-displace": _displacements,
    **dict.fromkeys(("siege-keep", "siege-lift"), _vetoes),
    **dict.fromkeys(("castaway-stay", "castaway-eliminate"), _castaway),
    **dict.fromkeys(("prisoner-execute", "prisoner-free"), _prisoner),
    "place": _placements,
}
"""The answers each answering command may give to the decision asked."""

_PHASES: dict[str, Callable[[State, DRData, str], Candidates]] = {
    "random-events": _random_events,
    "diplomacy": _diplomacy,
    "siege": _sieges,
    "movement": _movement,
    "combat": _combat,
}
"""The candidates of each phase's commands."""
