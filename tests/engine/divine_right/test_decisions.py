"""Every decision the rules ask is closed by whatever ends the situation it asks about,
not only by its answer (The Game Turn; issue #17: a displacement ended by the besiegers'
elimination stayed asked, and the game turn could never end).

Each kind of decision is queued behind a castaway's question (Heroes › Shipwrecked
Heroes) that alice answers with `castaway-stay`: while its situation stands it is asked
next; once something else has ended it (arranged here as earlier play would have), it is
withdrawn instead, and no decision is left waiting. The cases cover every kind the rules
declare (`turn.pending_kinds`), so a new kind of decision comes with its own case.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from warscribe.engine.rulesets.divine_right.events import DecisionWithdrawn
from warscribe.engine.rulesets.divine_right.state import Fight, Pending, Veto
from warscribe.engine.rulesets.divine_right.turn import pending_kinds

from .board import ally, besiege, eliminate, hex_of, put
from .play import Table, of

TADAFAT = hex_of("Tadafat")
CASTAWAY = Pending(
    kind="castaway-shore",
    player="alice",
    options=("castaway stay Hothior-monarch", "castaway eliminate Hothior-monarch"),
    why="Hothior-monarch is cast upon a neutral shore",
)
Arrange = Callable[[Table], None]


@dataclasses.dataclass(frozen=True)
class Case:
    """A decision (`player` asked to choose among `options`), what makes its situation
    stand (`arrange`) and something other than its answer that ends it (`end`)."""

    player: str
    options: tuple[str, ...]
    arrange: Arrange
    end: Arrange


def nothing(table: Table) -> None:
    """The situation stands as the game is set up."""


def gone(*units: str) -> Arrange:
    """The units offered are lost (to combat, an event, a hero's fate...)."""

    def end(table: Table) -> None:
        regulars = [u for u in units if table.state.units[u].kind != "monarch"]
        eliminate(table, *regulars)
        table.set_state(table.state.without_units(units))

    return end


def fighting(stage: str) -> Arrange:
    """Carol's Muetar-A1 attacks alice's Hothior-A1 (attack 1, at `stage`)."""

    def arrange(table: Table) -> None:
        fight = Fight(
            number=1,
            kind="land",
            attacker="carol",
            defender="alice",
            attackers=("Muetar-A1",),
            defenders=("Hothior-A1",),
            spaces=(table.state.units["Hothior-A1"].hex,),
            stage=stage,
        )
        table.set_state(table.state.with_progress(fight=fight))

    return arrange


def carol_besieges_tadafat(table: Table) -> None:
    for unit in ("Muetar-A1", "Muetar-A2"):
        put(table, unit, TADAFAT)
    besiege(table, "Tadafat", "carol")


def siege_over(table: Table) -> None:
    """The besiegers are gone (displaced, eliminated) and with them the siege."""
    gone("Muetar-A1", "Muetar-A2")(table)
    table.set_state(table.state.replace(sieges=()))


def veto_waits_on_carol(table: Table) -> None:
    veto = Veto(kingdom="Hothior", change="deactivation", why="test", by=None, waiting=("carol",))
    table.set_state(table.state.replace(veto=veto))


def veto_settled(table: Table) -> None:
    table.set_state(table.state.replace(veto=None))


def pon_captive(table: Table) -> None:
    ally(table, "Pon", "bob")
    table.set_kingdom("Pon", captive_of="carol")
    table.set_state(table.state.without_units(["Pon-monarch"]))


def pon_freed(table: Table) -> None:
    table.set_kingdom("Pon", captive_of=None)


def trolls_regenerate(table: Table) -> None:
    ally(table, "Trolls", "carol")
    eliminate(table, "Trolls-A1")


def trolls_deactivated(table: Table) -> None:
    table.set_kingdom("Trolls", ally=None)


def zorn_to_place(table: Table) -> None:
    """Carol activated Zorn; Zorn-A1 is still to be placed on its mountains."""
    ally(table, "Zorn", "carol")
    table.set_state(table.state.without_units(["Zorn-A1"]))
    table.set_kingdom("Zorn", unplaced=("Zorn-A1",))


def zorn_placed(table: Table) -> None:
    table.set_kingdom("Zorn", unplaced=())


def random_events_over(table: Table) -> None:
    """Carol's Random Events Phase is over (units are gained only during it)."""
    turn = table.state.turn
    assert turn is not None
    table.set_state(table.state.replace(turn=dataclasses.replace(turn, phase="diplomacy")))


def relocation(unit: str) -> Case:
    return Case("carol", (f"{unit} at 9,14",), nothing, gone(unit))


def losing(*units: str) -> Case:
    return Case("carol", units, nothing, gone(*units))


def gaining(option: str) -> Case:
    return Case("carol", (option,), nothing, random_events_over)


CASES = {
    "displace": Case("carol", ("Tadafat",), carol_besieges_tadafat, siege_over),
    "make-way": Case(
        "alice", ("21,11",), lambda t: put(t, "Hothior-A1", (21, 11)), gone("Hothior-A1")
    ),
    "siege-veto": Case(
        "carol", ("siege keep Hothior", "siege lift Hothior"), veto_waits_on_carol, veto_settled
    ),
    "losses": losing("Muetar-A1", "Muetar-A2"),
    "advance": Case("carol", ("21,11",), fighting("battle"), gone("Muetar-A1")),
    "retreat": Case("alice", (), fighting("before battle"), gone("Hothior-A1")),
    "sortie": Case("alice", ("Hothior-F1",), fighting("before battle"), gone("Hothior-F1")),
    "pursue": Case("carol", ("Hothior-A2",), fighting("before battle"), gone("Hothior-A2")),
    "castaway-shore": Case(
        "carol",
        ("castaway stay Muetar-monarch", "castaway eliminate Muetar-monarch"),
        nothing,
        gone("Muetar-monarch"),
    ),
    "captive": Case("carol", ("prisoner execute Pon", "prisoner free Pon"), pon_captive, pon_freed),
    "freed-captive": relocation("Muetar-monarch"),
    "crowned-successor": relocation("Muetar-monarch"),
    "invaded-setup": relocation("Muetar-A1"),
    "port-displacement": relocation("Muetar-A1"),
    "troll-monarch": Case(
        "carol",
        ("Trolls-monarch at 9,14",),
        lambda t: ally(t, "Trolls", "carol"),
        gone("Trolls-monarch"),
    ),
    "troll-regeneration": Case(
        "carol", ("Trolls-A1 at 9,14",), trolls_regenerate, trolls_deactivated
    ),
    "spread-deployment": Case("carol", ("Zorn-A1 at 9,14",), zorn_to_place, zorn_placed),
    "storm": losing("Mivior-F1"),
    "mutiny": losing("Muetar-A1"),
    "epidemic": losing("Muetar-A1", "Muetar-A2"),
    "desertion": losing("Muetar-A1"),
    "replacement": gaining("Muetar-A3 at Groat"),
    "reinforcement": gaining("army at Groat"),
    "replacement-or-reinforcement": gaining("army at Groat"),
}


def test_every_kind_of_decision_has_a_case() -> None:
    assert sorted(CASES) == sorted(pending_kinds())


def _asked_behind_a_castaway(table: Table, kind: str) -> Pending:
    case = CASES[kind]
    question = Pending(kind=kind, player=case.player, options=case.options, count=1, why=kind)
    table.set_state(table.state.with_progress(pending=CASTAWAY, queue=(question,)))
    return question


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_decision_whose_situation_stands_is_asked_in_turn(kind: str) -> None:
    table = Table()
    CASES[kind].arrange(table)
    question = _asked_behind_a_castaway(table, kind)
    events = table.do("castaway-stay", by="alice")
    assert not of(events, DecisionWithdrawn)
    assert table.state.turn is not None and table.state.turn.progress.pending == question


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_decision_whose_situation_ended_otherwise_is_withdrawn(kind: str) -> None:
    table = Table()
    CASES[kind].arrange(table)
    question = _asked_behind_a_castaway(table, kind)
    CASES[kind].end(table)
    events = table.do("castaway-stay", by="alice")
    withdrawn = of(events, DecisionWithdrawn)
    assert [(w.player, w.kind, w.options) for w in withdrawn] == [
        (question.player, kind, question.options)
    ]
    progress = table.state.turn.progress if table.state.turn else None
    assert progress is not None and progress.pending is None and progress.queue == ()


def test_a_decision_asked_of_a_player_out_of_the_game_is_withdrawn() -> None:
    """Kingdoms › Fate of Player Kingdoms: an eliminated player decides nothing more."""
    table = Table()
    _asked_behind_a_castaway(table, "losses")
    table.set_state(table.state.with_player("carol", eliminated=True))
    events = table.do("castaway-stay", by="alice")
    assert of(events, DecisionWithdrawn)[0].why == "carol is out of the game"
