"""The values each argument of Divine Right's commands takes in a position (`SPECS`), for
the core's enumerator (`warscribe.engine.offers`): the cards in hand, the kingdoms, the
units a decision offers, the fleets to board, the castles besieged, the attacks each stack
may declare, the spaces next to a retreating or displaced stack, a random event's gains,
the placements asked; and the one search of its own, a move's paths (`Deferred`, searched
when asked for by the path finder, whose every step is the check `move` makes) or a
ferry's. The candidates of the commands `TRIED` names are decided on scratch dice (nothing
is recorded) and kept when accepted; every other domain is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, islice, product
from typing import Any

from warscribe.engine.commands import Domain, Sofar, ranged
from warscribe.engine.ruleset import Deferred

from .arguments import hex_arg
from .combat.fight import fight_now
from .data import DRData
from .diplomacy import HIDDEN_CARD
from .movement.move import destinations
from .movement.reach import near, river_fleets
from .movement.terrain import all_sea
from .placement.choice import ANYWHERE, option_units
from .placement.deployment import monarch_id
from .random_events import gains
from .specs import COMMANDS
from .state import MERCENARY, Hex, Pending, RetreatTry, State, Unit
from .units import enemies, is_fleet, is_hero, lone_heroes

MOST_COMBINATIONS = 40  # choices of several units among many: the first ones in order
Paths = tuple[tuple[Hex, ...], ...]


def hex_text(hex_: Hex) -> str:
    return f"{hex_[0]},{hex_[1]}"


def units_of(state: State, player: str) -> list[Unit]:
    return sorted(
        (u for u in state.units.values() if state.controller(u) == player), key=lambda u: u.id
    )


def first_choices(options: tuple[str, ...], count: int) -> Iterator[tuple[str, ...]]:
    return islice(combinations(options, count), MOST_COMBINATIONS)


def _asked(sofar: Sofar) -> Pending | None:
    state: State = sofar.state
    return state.turn.progress.pending if state.turn else None


def _pending(sofar: Sofar) -> Pending:
    found = _asked(sofar)
    assert found is not None
    return found


def _of_pending(values: Callable[[Pending], Sequence[Any]]) -> Domain:
    return lambda sofar: list(values(_pending(sofar)))


def _mine(test: Callable[[Unit], bool]) -> Callable[[Sofar], list[Unit]]:
    """The actor's units that pass `test`."""
    return lambda sofar: [u for u in units_of(sofar.state, sofar.actor) if test(u)]


def _alone(test: Callable[[Unit], bool]) -> Callable[[Sofar], list[tuple[str, ...]]]:
    """Each of the actor's units that passes `test`, alone."""
    return lambda sofar: [(u.id,) for u in _mine(test)(sofar)]


def _hand(sofar: Sofar) -> list[str]:
    """The cards in the actor's hand, as seen here."""
    return [card for card in sofar.state.player(sofar.actor).hand if card != HIDDEN_CARD]


def _captives(sofar: Sofar) -> list[str]:
    """The captive monarch's kingdom asked about; in the Diplomacy Phase, each kingdom
    whose monarch the actor holds captive (Capture of a Monarch)."""
    if _asked(sofar):
        return [_pending(sofar).options[0].rsplit(" ", 1)[1]]
    found = sofar.state.kingdoms.items()
    return [name for name, standing in sorted(found) if standing.captive_of == sofar.actor]


def _rejoining(sofar: Sofar) -> list[str]:
    """Consent, for an eliminated player of a game with re-entry (Optional Rules)."""
    return ["yes"] if sofar.state.reentry and sofar.state.player(sofar.actor).eliminated else []


def _searched(sofar: Sofar) -> list[str]:
    """The spaces of the actor's combat units where other players' heroes stand alone."""
    spaces = sorted({u.hex for u in _mine(lambda u: not is_hero(u))(sofar)})
    return [hex_text(s) for s in spaces if lone_heroes(sofar.state, sofar.actor, s)]


def _boarding(sofar: Sofar) -> list[tuple[str, ...]]:
    """The actor's land units in the fleet's space, not aboard a fleet."""
    space = sofar.state.units[sofar.chosen["fleet"]].hex
    return _alone(lambda u: u.hex == space and not is_fleet(u) and u.aboard is None)(sofar)


def _sieges_of(mine: bool) -> Callable[[Sofar], list[str]]:
    """The castles the actor besieges (`mine`), or those besieged by others."""
    return lambda sofar: [
        siege.castle for siege in sofar.state.sieges if (siege.besieger == sofar.actor) == mine
    ]


def _declarable(sofar: Sofar) -> list[tuple[str, ...]]:
    """Each stack's land, naval or amphibious attack on one space next to it, or on two
    at once, alone, two of them together, or every stack's first one together (Combat
    Phase › Which Units May Attack?; Amphibious Attacks): none once declared."""
    state: State = sofar.state
    assert state.turn is not None
    if state.turn.progress.declared:
        return []
    found = _attacks(state, sofar.context, sofar.actor)
    first: dict[str, str] = {}
    for text in found:
        first.setdefault(text.partition(">")[0], text)
    every = [tuple(first.values())] if len(first) > 2 else []
    return [*((text,) for text in found), *first_choices(tuple(first.values()), 2), *every]


def _attacks(state: State, data: DRData, player: str) -> list[str]:
    """Each stack's attacks on one space, then on two spaces, next to it (written as
    `attack-declare` reads them)."""
    units = [u for u in units_of(state, player) if not is_hero(u)]
    found: list[str] = []
    for space in sorted({u.hex for u in units}):
        here = [u for u in units if u.hex == space and not u.inside]
        near = [t for t in data.map.neighbours(*space) if _attackable(state, player, t)]
        for prefix, group in (
            ("", [u.id for u in here if not is_fleet(u) and u.aboard is None]),
            ("fleet:", [u.id for u in here if is_fleet(u)]),
            ("amphibious:", [u.id for u in here if is_fleet(u) and _carries(state, u)]),
        ):
            if not group:
                continue
            stack = f"{prefix}{','.join(group)}"
            found += [f"{stack}>{hex_text(t)}" for t in near]
            found += [f"{stack}>{hex_text(a)};{hex_text(b)}" for a, b in combinations(near, 2)]
    return found


def _carries(state: State, fleet: Unit) -> bool:
    return any(u.aboard == fleet.id and not is_hero(u) for u in state.units.values())


def _attackable(state: State, player: str, space: Hex) -> bool:
    return any(not is_hero(u) and not u.inside for u in enemies(state, player, space))


def _stacks(sofar: Sofar) -> list[tuple[str, ...]]:
    """Each unit alone (not aboard), and each space's land stack and fleets."""
    units = _mine(lambda u: u.aboard is None)(sofar)
    stacks: set[tuple[str, ...]] = {(u.id,) for u in units}
    for space, fleets in {(u.hex, is_fleet(u)) for u in units}:
        here = tuple(u.id for u in units if u.hex == space and is_fleet(u) == fleets)
        stacks.add(here)
    return sorted(stacks)


def _led(sofar: Sofar) -> dict[tuple[str, ...], list[str]]:
    """The units each monarch may lead (Movement Phase › Leading): his own regulars,
    common mercenaries, other heroes of his space."""
    units = _mine(lambda u: u.aboard is None and not is_fleet(u))(sofar)
    found: dict[tuple[str, ...], list[str]] = {}
    for monarch in (u for u in units if u.id == monarch_id(u.kingdom)):
        kin = (monarch.kingdom, MERCENARY)
        led = tuple(
            u.id for u in units if u.hex == monarch.hex and (is_hero(u) or u.kingdom in kin)
        )
        found.setdefault(led, []).append(monarch.id)
    return found


def _leaders(sofar: Sofar) -> list[str | None]:
    """A stack alone (none), and each monarch leading it; those that can take a step."""
    ids = sofar.chosen["units"]
    leaders = [*([None] if ids in _stacks(sofar) else []), *_led(sofar).get(ids, [])]
    return [m for m in leaders if _reached(sofar, ids, most=1, leader=m)]


def _reached(sofar: Sofar, ids: tuple[str, ...], **how: Any) -> dict[Hex, tuple[Hex, ...]]:
    return destinations(sofar.state, sofar.context, sofar.actor, ids, **how)


def _paths(sofar: Sofar) -> Deferred:
    """A path to each space the stack reaches, searched when asked for."""
    ids, leader = sofar.chosen["units"], sofar.chosen.get("leader")

    def find() -> Paths:
        found = _reached(sofar, ids, leader=leader)
        return tuple(found[space] for space in sorted(found))

    return Deferred(find)


def _ferries(sofar: Sofar) -> list[str]:
    """The actor's fleets on a navigable river near a land stack (Ferrying)."""
    first = sofar.state.units[sofar.chosen["units"][0]]
    on_river = [] if is_fleet(first) else river_fleets(sofar.state, sofar.context, sofar.actor)
    return [fleet.id for fleet in near(sofar.context, on_river, first.hex)]


def _ferry_paths(sofar: Sofar) -> Paths:
    """The paths over the fleet to the spaces it alone reaches."""
    ids = sofar.chosen["units"]
    walking, ferried = _reached(sofar, ids), _reached(sofar, ids, fleet=sofar.chosen["fleet"])
    return tuple(ferried[space] for space in sorted(ferried) if space not in walking)


def _gains(sofar: Sofar, *sources: str) -> list[Any]:
    """The gains of the decision asked from `sources` (replacement, pool, steal)."""
    pending = _pending(sofar)
    found = gains(sofar.state, sofar.context, pending.player, pending.kind)
    return [gain for gain in found if gain.source in sources]


def _pool_kinds(sofar: Sofar) -> list[str | None]:
    """A type from the pool; none when a mercenary may be stolen (named by `unit`)."""
    stolen = [None] if _gains(sofar, "steal") else []
    return [*dict.fromkeys(g.kind for g in _gains(sofar, "pool")), *stolen]


def _gained(source: str) -> Domain:
    """The units the gains from `source` bring (none once a type is chosen)."""
    return lambda sofar: (
        [None]
        if "kind" in sofar.chosen
        else list(dict.fromkeys(g.unit for g in _gains(sofar, source)))
    )


def _sites(*sources: str) -> Domain:
    """Where the unit (or the type from the pool) chosen may enter."""

    def sites(sofar: Sofar) -> list[str]:
        unit, kind = sofar.chosen.get("unit"), sofar.chosen.get("kind")
        fits = (g for g in _gains(sofar, *sources) if g.unit == unit and kind in (None, g.kind))
        return list(dict.fromkeys(hex_text(g.hex) for g in fits))

    return sites


def _next_to(sofar: Sofar, space: Hex) -> list[str]:
    return [hex_text(h) for h in sofar.context.map.neighbours(*space)]


def _fight_spaces(sofar: Sofar) -> list[str]:
    """The defending spaces; once `to` is chosen, those next to it."""
    to, spaces = sofar.chosen.get("to"), fight_now(sofar.state).spaces
    return [hex_text(s) for s in spaces if to is None or to in _next_to(sofar, s)]


def _retreat_spaces(sofar: Sofar) -> list[str]:
    """The spaces next to a defending space (Retreat Before Combat)."""
    spaces = fight_now(sofar.state).spaces
    return list(dict.fromkeys(t for s in spaces for t in _next_to(sofar, s)))


def _tries(sofar: Sofar) -> list[RetreatTry]:
    where = (sofar.chosen["space"], sofar.chosen["fleets"])
    return [t for t in fight_now(sofar.state).tries if (hex_text(t.space), t.fleets) == where]


def _groups(field: str) -> Domain:
    """All the groups (none named), or one of those the space's rolls let go (`allowed`)
    or failed (rolling again)."""
    return lambda sofar: [
        None,
        *((g,) for g in sorted({g for t in _tries(sofar) for g in getattr(t, field)})),
    ]


def _besieged(sofar: Sofar) -> list[str | None]:
    """The spaces of the actor's sieges (displaced before the attacks); none when asked."""
    if _asked(sofar):
        return [None]
    return [hex_text(s.hex) for s in sofar.state.sieges if s.besieger == sofar.actor]


def _start(sofar: Sofar) -> Hex | None:
    """Where the besiegers are displaced from: the space asked, or their siege's."""
    if _asked(sofar):
        options = _pending(sofar).options
        return hex_arg(sofar.context, options[0], "") if options else None
    state: State = sofar.state
    return next(s.hex for s in state.sieges if hex_text(s.hex) == sofar.chosen["units"])


def _displace_to(sofar: Sofar) -> list[str | None]:
    """A space next to the castle (or, asked, where the rules put them)."""
    start = _start(sofar)
    return [] if start is None else [*([None] if _asked(sofar) else []), *_next_to(sofar, start)]


def _fighting_out(sofar: Sofar) -> list[tuple[str, ...] | None]:
    """As many besiegers lost as units bar the way (Besieger Displacement)."""
    start, to = _start(sofar), sofar.chosen.get("to")
    there = enemies(sofar.state, sofar.actor, hex_arg(sofar.context, to, "")) if to else []
    barring = [u for u in there if not is_hero(u)]
    if start is None or not barring:
        return [None]
    mine = _mine(lambda u: u.hex == start and not is_hero(u) and not u.inside)(sofar)
    return [None, *first_choices(tuple(sorted(u.id for u in mine)), len(barring))]


def _lifted_to(sofar: Sofar) -> list[tuple[str, ...] | None]:
    """Keep no space named, or a space next to each of the actor's sieges of the kingdom."""
    state: State = sofar.state
    kingdom = sofar.chosen["kingdom"]
    mine = [s for s in state.sieges if s.kingdom == kingdom and s.besieger == sofar.actor]
    return [None, *islice(product(*(_next_to(sofar, s.hex) for s in mine)), MOST_COMBINATIONS)]


def _place_at(sofar: Sofar) -> list[str]:
    """The option's space, or every land space when it says so."""
    options = [o for o in _pending(sofar).options if option_units(o) == sofar.chosen["units"]]
    spaces = [o.partition(" at ")[2] for o in options]
    land = [hex_text(h.coord) for h in sofar.context.map.hexes if not all_sea(h)]
    found = (s for space in spaces for s in (land if space == ANYWHERE else (space,)))
    return list(dict.fromkeys(found))


_lost = _of_pending(lambda p: list(first_choices(p.options, p.count)))
_some = _of_pending(  # each option alone, and all of them
    lambda p: [*((o,) for o in p.options), *([p.options] if len(p.options) > 1 else [])]
)


def _kingdoms(sofar: Sofar) -> list[str]:
    return sorted(sofar.state.kingdoms)


def _vetoed(sofar: Sofar) -> list[str]:
    return [sofar.state.veto.kingdom] if sofar.state.veto else []


def _fleets(sofar: Sofar) -> list[str]:
    return [u.id for u in _mine(is_fleet)(sofar)]


_carded: dict[str, Domain] = {"kingdom": _kingdoms, "card": lambda sofar: [None, *_hand(sofar)]}
SPECS = ranged(
    COMMANDS,
    {
        "events-lose": {"units": _lost},
        "events-replace": {"unit": _gained("replacement"), "at": _sites("replacement")},
        "events-reinforce": {
            "kind": _pool_kinds,
            "unit": _gained("steal"),
            "at": _sites("pool", "steal"),
        },
        "diplomacy-activate": _carded,
        "diplomacy-deactivate": _carded,
        "diplomacy-assassinate": {"kingdom": _kingdoms},
        "diplomacy-force-peace": {"kingdom": _kingdoms},
        "diplomacy-duel": {"player": lambda sofar: list(sofar.state.active_players())},
        "discard": {"cards": lambda sofar: [(card,) for card in _hand(sofar)]},
        "rejoin": {"consent": _rejoining},
        "move": {
            "units": lambda sofar: list(dict.fromkeys([*_stacks(sofar), *_led(sofar)])),
            "leader": _leaders,
            "path": _paths,
        },
        "ferry": {"units": _stacks, "fleet": _ferries, "path": _ferry_paths},
        "embark": {"fleet": _fleets, "units": _boarding},
        "debark": {
            "fleet": _fleets,
            "units": lambda sofar: _alone(lambda u: u.aboard == sofar.chosen["fleet"])(sofar),
        },
        "inside": {"units": _alone(lambda unit: not unit.inside)},
        "outside": {"units": _alone(lambda unit: unit.inside)},
        "disband": {"units": _alone(lambda unit: True)},
        "search": {"units": _searched},
        "prisoner-execute": {"kingdom": _captives},
        "prisoner-free": {"kingdom": _captives},
        "siege-attack": {"castles": lambda sofar: [(c,) for c in _sieges_of(True)(sofar)]},
        "siege-displace": {"units": _besieged, "to": _displace_to, "lose": _fighting_out},
        "siege-keep": {"kingdom": _vetoed},
        "siege-lift": {"kingdom": _vetoed, "to": _lifted_to},
        "breakout": {"castle": _sieges_of(False)},
        "attack-declare": {"attacks": _declarable},
        "attack-resolve": {
            "number": lambda sofar: [
                a.number for a in sofar.state.turn.progress.attacks if not a.resolved
            ]
        },
        "retreat-roll": {
            "space": _fight_spaces,
            "fleets": lambda sofar: [False, True],
            "groups": _groups("failed"),
        },
        "retreat-to": {
            "to": _retreat_spaces,
            "space": _fight_spaces,
            "fleets": lambda sofar: [False, True],
            "groups": _groups("allowed"),
            "heroes": lambda sofar: [None, "none"],
        },
        "losses": {"units": _lost},
        "advance-into": {
            "to": _of_pending(lambda p: p.options),
            "inside": lambda sofar: [False, True],
        },
        "sortie": {"units": _some},
        "pursue": {"units": _some},
        "place": {
            "units": _of_pending(lambda p: list(dict.fromkeys(map(option_units, p.options)))),
            "at": _place_at,
        },
    },
)
"""Divine Right's commands, with the values each argument takes in a position (by
command, then argument)."""

TRIED = frozenset(
    {
        *("end-phase", "events-roll", "events-decline", "diplomacy-draw", "diplomacy-pass"),
        *("diplomacy-activate", "diplomacy-deactivate", "diplomacy-assassinate"),
        *("diplomacy-duel", "diplomacy-force-peace", "events-lose", "attack-declare"),
        *("embark", "debark", "inside", "outside", "disband", "search", "advance-into"),
        *("siege-attack", "breakout", "siege-displace", "siege-lift", "retreat-roll", "retreat-to"),
    }
)
"""The commands whose candidates are decided on trial, their rules saying more than their
domains: no arguments to range over, only the rules say when (a phase's steps done once,
its end once what it requires is done, declining only when stealing is all that is left);
the diplomatic rules (alliances, once a game or a pair, plunder, penalties); an Epidemic's
losses counted on the stack when answered; the stacks that may attack; capacity, castles,
terrain and movement points spent; the siege rules; where a retreat or an advance may go
(walls, enemies, the rolls made)."""
