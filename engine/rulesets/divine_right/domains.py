"""The values each argument of Divine Right's commands takes in a position, for `legal`
(the core's enumerator, `warscribe.engine.offers`, reads them off the specs): the cards in
hand, the kingdoms, the units a decision offers, the fleets to board, the castles
besieged, the attacks each stack may declare. The searches (paths, retreats,
displacements, placements) are `legal`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, islice

from warscribe.engine.commands import Domain, Sofar, ranged

from .data import DRData
from .diplomacy import HIDDEN_CARD
from .specs import COMMANDS
from .state import Hex, Pending, State, Unit
from .units import enemies, is_fleet, is_hero, lone_heroes

MOST_COMBINATIONS = 40  # choices of several units among many: the first ones in order


def hex_text(hex_: Hex) -> str:
    return f"{hex_[0]},{hex_[1]}"


def units_of(state: State, player: str) -> list[Unit]:
    return sorted(
        (u for u in state.units.values() if state.controller(u) == player), key=lambda u: u.id
    )


def _declarable(sofar: Sofar) -> list[tuple[str, ...]]:
    """Each stack's land, naval or amphibious attack on one space next to it, or on two
    at once, alone, two of them together, or every stack's first one together (Combat
    Phase › Which Units May Attack?; Amphibious Attacks): none once declared."""
    state: State = sofar.state
    assert state.turn is not None
    if state.turn.progress.declared:
        return []
    found = attacks(state, sofar.context, sofar.actor)
    first: dict[str, str] = {}
    for text in found:
        first.setdefault(text.partition(">")[0], text)
    every = [tuple(first.values())] if len(first) > 2 else []
    return [*((text,) for text in found), *first_choices(tuple(first.values()), 2), *every]


def attacks(state: State, data: DRData, player: str) -> list[str]:
    """Each stack's attacks on one space, then on two spaces, next to it (written as
    `attack-declare` reads them)."""
    units = [u for u in units_of(state, player) if not is_hero(u)]
    found: list[str] = []
    for space in sorted({u.hex for u in units}):
        here = [u for u in units if u.hex == space and not u.inside]
        for prefix, group in (
            ("", [u.id for u in here if not is_fleet(u) and u.aboard is None]),
            ("fleet:", [u.id for u in here if is_fleet(u)]),
            ("amphibious:", [u.id for u in here if is_fleet(u) and _carries(state, u)]),
        ):
            near = [t for t in data.map.neighbours(*space) if _attackable(state, player, t)]
            if not group or not near:
                continue
            stack = f"{prefix}{','.join(group)}"
            found += [f"{stack}>{hex_text(t)}" for t in near]
            found += [f"{stack}>{hex_text(a)};{hex_text(b)}" for a, b in combinations(near, 2)]
    return found


def _carries(state: State, fleet: Unit) -> bool:
    return any(u.aboard == fleet.id and not is_hero(u) for u in state.units.values())


def _attackable(state: State, player: str, space: Hex) -> bool:
    return any(not is_hero(u) and not u.inside for u in enemies(state, player, space))


def first_choices(options: tuple[str, ...], count: int) -> Iterator[tuple[str, ...]]:
    return islice(combinations(options, count), MOST_COMBINATIONS)


def subsets(options: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Each option alone, and all of them."""
    yield from ((option,) for option in options)
    if len(options) > 1:
        yield options


def _pending(sofar: Sofar) -> Pending:
    state: State = sofar.state
    assert state.turn is not None and state.turn.progress.pending is not None
    return state.turn.progress.pending


def _hand(sofar: Sofar) -> list[str]:
    """The cards in the actor's hand, as seen here."""
    state: State = sofar.state
    return [card for card in state.player(sofar.actor).hand if card != HIDDEN_CARD]


def _mine_of(test: Callable[[Unit], bool]) -> Domain:
    """Each of the actor's units that passes `test`, alone."""
    return lambda sofar: [(u.id,) for u in units_of(sofar.state, sofar.actor) if test(u)]


def _searched(sofar: Sofar) -> list[str]:
    """The spaces of the actor's combat units where other players' heroes stand alone."""
    units = units_of(sofar.state, sofar.actor)
    spaces = sorted({u.hex for u in units if not is_hero(u)})
    return [hex_text(s) for s in spaces if lone_heroes(sofar.state, sofar.actor, s)]


def _fleets(sofar: Sofar) -> list[str]:
    return [u.id for u in units_of(sofar.state, sofar.actor) if is_fleet(u)]


def _boarding(sofar: Sofar) -> list[tuple[str, ...]]:
    """The actor's land units in the fleet's space, not aboard a fleet."""
    fleet = sofar.state.units[sofar.chosen["fleet"]]
    return [
        (u.id,)
        for u in units_of(sofar.state, sofar.actor)
        if u.hex == fleet.hex and not is_fleet(u) and u.aboard is None
    ]


def _aboard(sofar: Sofar) -> list[tuple[str, ...]]:
    fleet = sofar.chosen["fleet"]
    return [(u.id,) for u in units_of(sofar.state, sofar.actor) if u.aboard == fleet]


def _sieges_of(mine: bool) -> Callable[[Sofar], list[str]]:
    """The castles the actor besieges (`mine`), or those besieged by others."""
    return lambda sofar: [
        siege.castle for siege in sofar.state.sieges if (siege.besieger == sofar.actor) == mine
    ]


def _unresolved(sofar: Sofar) -> list[int]:
    state: State = sofar.state
    assert state.turn is not None
    return [a.number for a in state.turn.progress.attacks if not a.resolved]


def _kingdoms(sofar: Sofar) -> list[str]:
    return sorted(sofar.state.kingdoms)


KINGDOM_AND_CARD: dict[str, Domain] = {
    "kingdom": _kingdoms,
    "card": lambda sofar: [None, *_hand(sofar)],
}
DIPLOMACY = (
    "diplomacy-draw", "diplomacy-pass", "diplomacy-activate", "diplomacy-deactivate",
    "diplomacy-assassinate", "diplomacy-force-peace", "diplomacy-duel", "discard",
)  # fmt: skip
DOMAINS: dict[str, dict[str, Domain]] = {
    "diplomacy-activate": KINGDOM_AND_CARD,
    "diplomacy-deactivate": KINGDOM_AND_CARD,
    "diplomacy-assassinate": {"kingdom": _kingdoms},
    "diplomacy-force-peace": {"kingdom": _kingdoms},
    "diplomacy-duel": {"player": lambda sofar: list(sofar.state.active_players())},
    "discard": {"cards": lambda sofar: [(card,) for card in _hand(sofar)]},
    "siege-attack": {"castles": lambda sofar: [(c,) for c in _sieges_of(True)(sofar)]},
    "breakout": {"castle": _sieges_of(False)},
    "embark": {"fleet": _fleets, "units": _boarding},
    "debark": {"fleet": _fleets, "units": _aboard},
    "inside": {"units": _mine_of(lambda unit: not unit.inside)},
    "outside": {"units": _mine_of(lambda unit: unit.inside)},
    "disband": {"units": _mine_of(lambda unit: True)},
    "search": {"units": _searched},
    "attack-resolve": {"number": _unresolved},
    "attack-declare": {"attacks": _declarable},
    "pursue": {"units": lambda sofar: list(subsets(_pending(sofar).options))},
    "sortie": {"units": lambda sofar: list(subsets(_pending(sofar).options))},
    "losses": {
        "units": lambda sofar: list(first_choices(_pending(sofar).options, _pending(sofar).count))
    },
}
"""The values `legal` offers for the arguments of the commands it offers through the
specs (by command, then argument); the rest are searched above."""
SPECS = ranged(COMMANDS, DOMAINS)
"""Divine Right's commands, with the values each argument takes (the rule set's)."""
