"""Random play (issue 12, part 3): seeded games of both rule sets driven only by `legal`,
each checked by `random_play` (no error but the rules', replay, sampled positions, the
logfile round trip, verify and audit) and by the rule set's invariants after every
command. Starting positions include Divine Right sieges, fleets with cargo and a captive
monarch. A fixed list of seeds keeps the run short (tools/random_play.py plays
thousands by hand)."""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib.resources import files

import pytest

from warscribe.engine.dice import seeded_key
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets.divine_right.movement.terrain import all_sea

from .divine_right.board import DATA, ally, besiege, hex_of, hire, put
from .divine_right.invariants import check_invariants as dr_invariants
from .divine_right.play import Table
from .eu_pop.invariants import check_invariants as eu_invariants
from .eu_pop.table import position
from .eu_pop.table import spec as eu_spec
from .random_play import (
    Game,
    arranged,
    check_progress,
    check_record,
    new_game,
    play,
    refusal_rate,
)

EU_START = files("warscribe.engine.rulesets.eu_pop").joinpath("datafiles/example-start.json")
EU_SPEC = GameSpec(
    "random",
    (PlayerSpec("alice", "France"), PlayerSpec("bob", "Austria")),
    (("start", EU_START.read_text()),),
)
DR_SPEC = GameSpec(
    "random",
    (PlayerSpec("alice", "Hothior"), PlayerSpec("bob", "Mivior"), PlayerSpec("carol", "Muetar")),
    (("reentry", True),),
)
PLAYED: list[Game] = []
HELD = 400  # commands in one position at most (about 20 in a phase, 45 in a round; 143 seen
# in a Movement Phase whose fleets had to leave enemy land units, picked among 20 to disband)
GAME = 3000  # commands in a whole Divine Right game at most (about 800 seen for 20 turns)


def _played(game: Game, seed: int, commands: int, check: Callable[[object], None]) -> Game:
    play(game, random.Random(seed), commands, check)
    check_record(game, random.Random(seed))
    check_progress(game, HELD)
    PLAYED.append(game)
    return game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_eu_pop_random_games(seed: int) -> None:
    game = _played(new_game("eu-pop", EU_SPEC, seed), seed, 300, eu_invariants)  # type: ignore[arg-type]
    assert game.commands == 300 and not game.refused, game.refused[:3]


EU_EDGES: dict[str, dict[str, object]] = {
    # issue 18, item 2: stability -3, a ruler 0/0/0, no advisor, not the papal controller
    "stability -3, nothing to collect": position(
        france={"stability": -3, "ruler": {"name": "Nobody", "adm": 0, "dip": 0, "mil": 0}},
        austria={"stability": 3},
    ),
    "interregnum and many interest tokens": position(
        france={"ruler": {"name": "Interregnum", "adm": 0, "dip": 0, "mil": 0}, "loans": 5},
        austria={"loans": 4, "ducats": 0},
    ),
    "papal controller and Emperor, a full treasury": position(
        france={"ducats": 120, "stability": 3},
        austria={"ducats": 0.5, "stability": -3},
        papacy={"controller": "France", "catholic_prs": 5},
        empire={"emperor": "Austria", "imperial_authority": 6},
    ),
}


@pytest.mark.parametrize("edge", sorted(EU_EDGES))
def test_eu_pop_random_games_from_positions_at_the_edges(edge: str) -> None:
    """Issue 18: eu-pop positions at the edges (stability ±3, an Interregnum, many
    interest tokens, the papal controller and the Emperor, treasuries near 0 and over
    100 D) played on by `legal` for several rounds: no round gets stuck, no figure leaves
    the ledger's limits. Phase 4 steps close themselves where a realm has no choice
    (issue 13), as in every new game."""
    game = new_game("eu-pop", eu_spec(EU_EDGES[edge], close_steps=True), len(edge))
    _played(game, len(edge), 300, eu_invariants)  # type: ignore[arg-type]
    assert game.commands == 300 and not game.refused, game.refused[:3]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_divine_right_random_games_from_the_set_up(seed: int) -> None:
    game = _played(new_game("divine-right", DR_SPEC, seed), seed, 500, dr_invariants)  # type: ignore[arg-type]
    assert not game.refused, game.refused[:3]


def test_a_divine_right_game_played_at_random_ends_within_a_bound() -> None:
    """Victory B: the game ends after game turn 20; random play gets there, with no
    phase stuck on the way."""
    game = _played(new_game("divine-right", DR_SPEC, 4), 4, GAME, dr_invariants)  # type: ignore[arg-type]
    assert game.over and game.state.outcome is not None, game.state.turn
    assert not game.refused, game.refused[:3]


def _sieges(table: Table) -> None:
    """alice besieges Colist (Mivior's) from land and sea; Mivior-A1 holds it."""
    colist = hex_of("Colist")
    for unit in ("Mivior-monarch", "Mivior-A2", "Mivior-A3", "Mivior-F1", "Mivior-F2"):
        put(table, unit, (5, 21))
    for unit in ("Mivior-F3", "Mivior-F4"):
        put(table, unit, (3, 21))
    put(table, "Mivior-A1", colist, inside=True)
    for unit in ("Hothior-F1", *(f"Hothior-A{n}" for n in range(1, 8))):
        put(table, unit, colist)
    besiege(table, "Colist", "alice")


def _front(table: Table) -> None:
    """Muetar's and Hothior's armies face each other around Pennol, with their monarchs."""
    pennol = hex_of("Pennol")
    land = [h for h in DATA.map.neighbours(*pennol) if not _sea(h)]
    for n in range(1, 4):
        put(table, f"Muetar-A{n}", pennol)
        put(table, f"Hothior-A{n}", land[n % len(land)])
    put(table, "Hothior-monarch", land[0])


def _sea(hex_: tuple[int, int]) -> bool:
    place = DATA.map.get(*hex_)
    return place is None or all_sea(place)


def _cargo(table: Table) -> None:
    """Fleets at sea carrying armies and a monarch; carol's mercenary fleet K with cargo."""
    sea = (8, 25)
    put(table, "Hothior-F1", sea)
    put(table, "Hothior-A1", sea, aboard="Hothior-F1")
    put(table, "Hothior-monarch", sea, aboard="Hothior-F1")
    hire(table, "K", (8, 24), "carol")
    put(table, "Muetar-A1", (8, 24), aboard="K")
    put(table, "Mivior-F1", (8, 23))


def _captive(table: Table) -> None:
    """Pon is alice's ally and its monarch bob's captive, held in Tadafat."""
    ally(table, "Pon", "alice")
    table.set_kingdom("Pon", captive_of="bob", prison="Tadafat")
    table.set_state(table.state.without_units(["Pon-monarch"]))


ARRANGEMENTS: dict[str, Callable[[Table], None]] = {
    "sieges": _sieges,
    "front": _front,
    "cargo": _cargo,
    "captive": _captive,
}


def arranged_game(name: str) -> Game:
    """A Divine Right game with seeded dice from the arranged position `name`."""
    table = Table(dice="seeded:table-tests")
    ARRANGEMENTS[name](table)
    dr_invariants(table.state)
    return arranged("divine-right", seeded_key("table-tests"), table.head, table.log)


@pytest.mark.parametrize(
    ("name", "seed"), [("sieges", 1), ("front", 4), ("cargo", 2), ("captive", 3)]
)
def test_divine_right_random_games_from_arranged_positions(name: str, seed: int) -> None:
    game = _played(arranged_game(name), seed, 200, dr_invariants)  # type: ignore[arg-type]
    assert not game.refused, game.refused[:3]


def test_the_refusal_rate_of_legal_commands_is_under_one_percent() -> None:
    """Runs after the games above (pytest keeps the file's order)."""
    assert PLAYED
    assert refusal_rate(PLAYED) < 0.01
