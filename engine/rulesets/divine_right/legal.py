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

from collections.abc import Callable, Iterable, Iterator
from itertools import combinations, islice

from warscribe.engine.dice import Dice
from warscribe.engine.errors import RuleError
from warscribe.engine.events import Command
from warscribe.engine.ruleset import Deferred, LegalCommand

from .arguments import hex_arg
from .combat.fight import fight_now
from .data import DRData
from .evolving import scratch_dice
from .movement.move import destinations
from .movement.terrain import all_sea
from .placement.choice import ANYWHERE, option_units
from .random_events import LOSSES as EVENT_LOSSES
from .random_events import gains
from .state import Hex, Pending, State, Unit
from .turn import answered_by
from .units import enemies, is_fleet, is_hero, lone_heroes

Decide = Callable[[State, Command, Dice], object]
Candidates = Iterator[Command]
MOST_COMBINATIONS = 40  # choices of several units among many: the first ones in order


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
    kept = [c for c in candidates if accepted(state, c, decide)]
    offers = _grouped(kept)
    if pending is None and turn.phase == "movement":
        offers += _moves(state, data, turn.player)
    return (*offers, *_grouped(c for c in _rejoin(state) if accepted(state, c, decide)))


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


def _grouped(commands: Iterable[Command]) -> list[LegalCommand]:
    """Commands that differ only in their last argument, as one with that domain."""
    groups: dict[tuple[str, str, tuple[tuple[str, object], ...], str], list[object]] = {}
    for command in commands:
        *fixed, (key, value) = command.args or (("", None),)
        values = groups.setdefault((command.actor, command.name, tuple(fixed), key), [])
        if value not in values:
            values.append(value)
    return [
        LegalCommand(actor, name, fixed, ((key, tuple(values)),) if key else ())
        for (actor, name, fixed, key), values in groups.items()
    ]


def _command(actor: str, name: str, **args: object) -> Command:
    return Command(actor, name, tuple(args.items()))


def _hex(hex_: Hex) -> str:
    return f"{hex_[0]},{hex_[1]}"


def _mine(state: State, player: str) -> list[Unit]:
    return sorted(
        (u for u in state.units.values() if state.controller(u) == player), key=lambda u: u.id
    )


# -- the phases ----------------------------------------------------------------------------------


def _phase(state: State, data: DRData, player: str, phase: str) -> Candidates:
    yield _command(player, "end-phase")
    yield from {
        "random-events": _random_events,
        "diplomacy": _diplomacy,
        "siege": _sieges,
        "movement": _movement,
        "combat": _combat,
    }.get(phase, _nothing)(state, data, player)


def _nothing(state: State, data: DRData, player: str) -> Candidates:
    yield from ()


def _random_events(state: State, data: DRData, player: str) -> Candidates:
    yield _command(player, "events-roll")


def _diplomacy(state: State, data: DRData, player: str) -> Candidates:
    """Draw; then one diplomatic action, Forced Peace, discards (Diplomacy Phase)."""
    yield _command(player, "diplomacy-draw")
    yield _command(player, "diplomacy-pass")
    hand = state.player(player).hand
    for kingdom in sorted(state.kingdoms):
        for name in ("diplomacy-activate", "diplomacy-deactivate"):
            yield _command(player, name, kingdom=kingdom)
            for card in hand:
                yield _command(player, name, kingdom=kingdom, card=card)
        yield _command(player, "diplomacy-assassinate", kingdom=kingdom)
        yield _command(player, "diplomacy-force-peace", kingdom=kingdom)
    for other in state.active_players():
        yield _command(player, "diplomacy-duel", player=other)
    for card in hand:
        yield _command(player, "discard", cards=(card,))


def _sieges(state: State, data: DRData, player: str) -> Candidates:
    """Siege attacks on the player's sieges; breakouts from his besieged castles."""
    for siege in state.sieges:
        if siege.besieger == player:
            yield _command(player, "siege-attack", castles=(siege.castle,))
        else:
            yield _command(player, "breakout", castle=siege.castle)


def _movement(state: State, data: DRData, player: str) -> Candidates:
    """Embark, debark, walls, searches and disbanding (moves: `_moves`)."""
    units = _mine(state, player)
    for fleet in (u for u in units if is_fleet(u)):
        for unit in units:
            if unit.hex == fleet.hex and not is_fleet(unit) and unit.aboard is None:
                yield _command(player, "embark", fleet=fleet.id, units=(unit.id,))
            if unit.aboard == fleet.id:
                yield _command(player, "debark", fleet=fleet.id, units=(unit.id,))
    for unit in units:
        yield _command(player, "outside" if unit.inside else "inside", units=(unit.id,))
        yield _command(player, "disband", units=(unit.id,))
    for space in sorted({u.hex for u in units if not is_hero(u)}):
        if lone_heroes(state, player, space):
            yield _command(player, "search", units=_hex(space))


def _moves(state: State, data: DRData, player: str) -> list[LegalCommand]:
    """Each unit alone, and each space's stack, that can take a step: its domain the paths
    to every space it reaches, searched when asked for (`Deferred`)."""
    units = [u for u in _mine(state, player) if u.aboard is None]
    stacks: set[tuple[str, ...]] = {(u.id,) for u in units}
    for space in {u.hex for u in units}:
        for fleets in (True, False):
            here = tuple(u.id for u in units if u.hex == space and is_fleet(u) == fleets)
            if len(here) > 1:
                stacks.add(here)
    return [
        LegalCommand(
            player, "move", (("units", ids),), (("path", _paths(state, data, player, ids)),)
        )
        for ids in sorted(stacks)
        if destinations(state, data, player, ids, most=1)
    ]


def _paths(state: State, data: DRData, player: str, ids: tuple[str, ...]) -> Deferred:
    def find() -> tuple[tuple[Hex, ...], ...]:
        found = destinations(state, data, player, ids)
        return tuple(found[space] for space in sorted(found))

    return Deferred(find)


def _combat(state: State, data: DRData, player: str) -> Candidates:
    """One attack declared from a stack on a space next to it (land, or fleet on fleet);
    the declared attacks resolved."""
    turn = state.turn
    assert turn is not None
    for attack in turn.progress.attacks:
        if not attack.resolved:
            yield _command(player, "attack-resolve", number=attack.number)
    if turn.progress.declared:
        return
    units = [u for u in _mine(state, player) if not is_hero(u) and u.aboard is None]
    for space in sorted({u.hex for u in units}):
        for fleets, prefix in ((False, ""), (True, "fleet:")):
            ids = [u.id for u in units if u.hex == space and is_fleet(u) == fleets]
            if not ids:
                continue
            for target in data.map.neighbours(*space):
                if any(not is_hero(u) for u in enemies(state, player, target)):
                    yield _command(
                        player,
                        "attack-declare",
                        attacks=(f"{prefix}{','.join(ids)}>{_hex(target)}",),
                    )


def _rejoin(state: State) -> Candidates:
    if state.reentry:
        for player in state.players:
            if player.eliminated:
                yield _command(player.name, "rejoin", consent="yes")


# -- the answers to a decision asked ---------------------------------------------------------------


def _answers(state: State, data: DRData, pending: Pending) -> Candidates:
    """The answers the decision allows, by the commands that answer it."""
    makers: dict[str, Callable[[State, DRData, Pending], Candidates]] = {
        "events-": _event_answers,
        "retreat-": _retreats,
        "pursue": _pursuits,
        "advance-": _advances,
        "sortie": _sorties,
        "losses": _losses,
        "siege-displace": _displacements,
        "siege-keep": _vetoes,
        "castaway-": _castaway,
        "prisoner-": _prisoner,
        "place": _placements,
    }
    for prefix in answered_by(pending.kind):
        if prefix in makers:
            yield from makers[prefix](state, data, pending)


def _choices(options: tuple[str, ...], count: int) -> Iterator[tuple[str, ...]]:
    return islice(combinations(options, count), MOST_COMBINATIONS)


def _event_answers(state: State, data: DRData, pending: Pending) -> Candidates:
    """Random events: the units lost; a unit replaced or a mercenary brought in (or
    stolen, or declined) where it may enter."""
    player = pending.player
    if pending.kind in EVENT_LOSSES:
        for units in _choices(pending.options, pending.count):
            yield _command(player, "events-lose", units=units)
        return
    for gain in gains(state, data, player, pending.kind):
        where = _hex(gain.hex)
        if gain.source == "replacement":
            yield _command(player, "events-replace", unit=gain.unit, at=where)
        elif gain.source == "pool":
            yield _command(player, "events-reinforce", kind=gain.kind, at=where)
        else:
            yield _command(player, "events-reinforce", unit=gain.unit, at=where)
    yield _command(player, "events-decline")


def _retreats(state: State, data: DRData, pending: Pending) -> Candidates:
    """Retreat Before Combat: a roll for the land units or the fleets of a defending space,
    a retreat to a space next to it, or standing."""
    player = pending.player
    yield _command(player, "retreat-stand")
    for space in fight_now(state).spaces:
        for fleets in (False, True):
            yield _command(player, "retreat-roll", space=_hex(space), fleets=fleets)
            for to in data.map.neighbours(*space):
                yield _command(player, "retreat-to", space=_hex(space), fleets=fleets, to=_hex(to))


def _subsets(options: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Each option alone, and all of them."""
    yield from ((option,) for option in options)
    if len(options) > 1:
        yield options


def _pursuits(state: State, data: DRData, pending: Pending) -> Candidates:
    yield _command(pending.player, "pursue-none")
    for units in _subsets(pending.options):
        yield _command(pending.player, "pursue", units=units)


def _sorties(state: State, data: DRData, pending: Pending) -> Candidates:
    yield _command(pending.player, "sortie-none")
    for units in _subsets(pending.options):
        yield _command(pending.player, "sortie", units=units)


def _advances(state: State, data: DRData, pending: Pending) -> Candidates:
    """Advance After Combat into a space offered (within the walls, where it may), or not."""
    yield _command(pending.player, "advance-none")
    for option in pending.options:
        for inside in (False, True):
            yield _command(pending.player, "advance-into", inside=inside, to=option)


def _losses(state: State, data: DRData, pending: Pending) -> Candidates:
    for units in _choices(pending.options, pending.count):
        yield _command(pending.player, "losses", units=units)


def _displacements(state: State, data: DRData, pending: Pending) -> Candidates:
    """Besieger Displacement: to a space next to the castle (or where the rules put them)."""
    start = hex_arg(data, pending.options[0], "") if pending.options else None
    if start is None:
        return
    yield _command(pending.player, "siege-displace")
    for to in data.map.neighbours(*start):
        yield _command(pending.player, "siege-displace", to=_hex(to))


def _vetoes(state: State, data: DRData, pending: Pending) -> Candidates:
    """Ongoing sieges: keep the siege (the change does not happen), or lift it, the
    besiegers going to a space next to each castle."""
    veto = state.veto
    if veto is None:
        return
    yield _command(pending.player, "siege-keep", kingdom=veto.kingdom)
    mine = [s for s in state.sieges if s.kingdom == veto.kingdom and s.besieger == pending.player]
    yield _command(pending.player, "siege-lift", kingdom=veto.kingdom)
    for way in range(6):  # the besiegers of each castle to one space next to it
        spaces = [data.map.neighbours(*s.hex) for s in mine]
        to = tuple(near[way % len(near)] for near in spaces if near)
        yield _command(pending.player, "siege-lift", kingdom=veto.kingdom, to=to)


def _castaway(state: State, data: DRData, pending: Pending) -> Candidates:
    yield _command(pending.player, "castaway-stay")
    yield _command(pending.player, "castaway-eliminate")


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
                yield _command(pending.player, "place", units=units, at=_hex(place.coord))
