"""Sieges recorded and played (Siege Phase, all subsections; Activation of Invaded
Inactive Kingdoms; Kingdoms › Deactivation of Kingdoms, ONGOING SIEGES; Victory).

In play.Table's game carol (Muetar) plays first on turn 1, then alice (Hothior), then bob
(Mivior). Most tests have carol besiege Hothior's Tadafat (defence 2), where alice keeps
Hothior-A5 and Hothior-A6 within the walls. Dice are entered by hand.
"""

from __future__ import annotations

import dataclasses

import pytest

from warscribe.engine.errors import IllegalCommand
from warscribe.engine.rulesets.divine_right.events import (
    CastlePlundered,
    DecisionAsked,
    HeroFateRolled,
    KingdomActivated,
    KingdomDeactivated,
    MonarchCaptured,
    MonarchCrowned,
    PointsScored,
    PrisonerFreed,
    SiegeAttacked,
    SiegeDeclared,
    SiegeEnded,
    SiegeGivenUp,
    SiegeInvalidated,
    SiegeKept,
    SuccessorEntered,
    UnitsDisplaced,
    UnitsEliminated,
    UnitsEmbarked,
    UnitsWalled,
)
from warscribe.engine.rulesets.divine_right.projections import PROJECTIONS
from warscribe.engine.rulesets.divine_right.random_events import replacement_spaces

from .board import DATA, ally, besiege, hex_of, hire, put, where
from .play import Table, of

ME = "carol"
TADAFAT = hex_of("Tadafat")
BESIEGERS = ("Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4")


def sieges(table: Table) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = PROJECTIONS["sieges"](table.state)
    return rows


def garrison(table: Table) -> None:
    """Alice's two Tadafat armies within its walls."""
    for unit in ("Hothior-A5", "Hothior-A6"):
        put(table, unit, TADAFAT, inside=True)


def besieging(table: Table, *units: str, at: str | tuple[int, int] = TADAFAT) -> None:
    for unit in units:
        put(table, unit, at)


@pytest.fixture
def table() -> Table:
    game = Table()
    garrison(game)
    return game


def at_siege(table: Table, *units: str) -> None:
    """Carol's units besiege Tadafat as her Siege Phase of turn 2 begins."""
    table.to_phase(2, ME, "siege")
    besieging(table, *units)
    besiege(table, "Tadafat", ME)


# -- declaring -------------------------------------------------------------------------------


def test_entering_an_enemy_castle_with_enough_units_declares_a_siege(table: Table) -> None:
    """Siege Phase › Declaring a Siege: besiegers at least the castle's defence plus the
    units inside; the siege is state the `sieges` query lists."""
    table.to_phase(1, ME, "movement")
    besieging(table, *BESIEGERS, at=(9, 14))
    events = table.do("move", units="9,14", path="Tadafat")
    declared = of(events, SiegeDeclared)[0]
    assert (declared.castle, declared.besieger, declared.besieging, declared.inside) == (
        "Tadafat",
        ME,
        4,
        2,
    )
    assert sieges(table) == [
        {
            "castle": "Tadafat",
            "kingdom": "Hothior",
            "hex": [10, 14],
            "besieger": ME,
            "besieging": 4,
            "inside": 2,
            "defence": 2,
            "valid": True,
            "displaced_at_end_of_turn": False,
            "why": "",
            "since_turn": 1,
        }
    ]


def test_too_weak_a_stack_or_defenders_outside_keep_hostile_units_out(table: Table) -> None:
    """Siege Phase › Declaring a Siege (A, B): the move is refused, the record unchanged."""
    table.to_phase(1, ME, "movement")
    besieging(table, *BESIEGERS[:3], at=(9, 14))
    table.refuse_move("9,14", "Tadafat", "needs 4")
    besieging(table, "Muetar-A4", at=(9, 14))
    put(table, "Hothior-A6", TADAFAT, inside=False)
    table.refuse_move("9,14", "Tadafat", "outside its walls")


def test_bad_omens_regulars_initiate_no_siege(table: Table) -> None:
    """Random Events Phase › Bad Omens: regulars will not initiate a siege."""
    table.to_phase(1, ME, "movement")
    besieging(table, *BESIEGERS, at=(9, 14))
    table.set_kingdom("Muetar", bad_omens_on=1)
    table.refuse_move("9,14", "Tadafat", "Bad Omens")


def test_besieging_a_neutral_castle_activates_its_kingdom_for_another_player() -> None:
    """Siege Phase › Besieging Neutral Castles; Activation of Invaded Inactive Kingdoms:
    the kingdom joins a randomly picked other player, its units set up in the castle are
    within the walls, and the siege is re-checked: too weak now, the besiegers are
    displaced at once (the player routes them)."""
    table = Table()
    table.to_phase(1, ME, "movement")
    besieging(table, *BESIEGERS, at=(15, 9))
    events = table.do("move", units="15,9", path="Muscaster")
    activated = of(events, KingdomActivated)[0]
    assert activated.kingdom == "Immer" and activated.ally in ("alice", "bob")
    walled = of(events, UnitsWalled)[0]
    assert set(walled.units) == {"Immer-A4", "Immer-A5"} and walled.inside
    assert of(events, SiegeInvalidated)[0].why == "Immer's units set up inside Muscaster"
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind) == (ME, "displace")
    table.refuse_move("Muetar-A5", "24,10", "must first decide")
    events = table.do("siege-displace", to="15,9")
    assert of(events, UnitsDisplaced)[0].hex == (15, 9)
    assert of(events, SiegeEnded)[0].castle == "Muscaster"
    assert table.state.turn is not None and table.state.turn.progress.pending is None
    assert sieges(table) == []


# -- siege attacks -----------------------------------------------------------------------------


def test_a_six_plunders_the_castle_for_five_times_its_defence(table: Table) -> None:
    """Siege Phase › Resolving a Siege: 6 plunders: the units inside are eliminated, the
    castle is Plundered for the rest of the game; Victory: 5 x defence to the plunderer."""
    at_siege(table, *BESIEGERS)
    events = table.do("siege-attack", 6, castles="Tadafat")
    attacked = of(events, SiegeAttacked)[0]
    assert (attacked.roll, attacked.total, attacked.result) == (6, 6, "plundered")
    assert attacked.modifiers[0][1] == 0  # 4 // (2 + 2) - 1
    assert of(events, CastlePlundered)[0].eliminated == ("Hothior-A5", "Hothior-A6")
    assert [(p.player, p.points) for p in of(events, PointsScored)] == [(ME, 10)]
    assert "Tadafat" in table.state.plundered and sieges(table) == []
    assert PROJECTIONS["vp"](table.state)["totals"][ME] == 10


def test_siege_attackers_neither_move_nor_attack_this_turn(table: Table) -> None:
    """Siege Phase › Resolving a Siege: units that made a siege attack cannot move or
    attack during the same game turn; only once per phase are castles pointed out."""
    at_siege(table, *BESIEGERS)
    table.do("siege-attack", 3, castles="Tadafat")
    table.refuse(IllegalCommand, "already pointed out", "siege-attack", 3, castles="Tadafat")
    table.refuse(IllegalCommand, "displacements come before", "siege-displace", units="Tadafat")
    table.do("end-phase")
    table.refuse_move("Muetar-A1", "9,14", "made a siege attack")


def test_a_royal_castle_plundered_scores_ten_times_its_defence() -> None:
    """Victory: 10 x the defence of a royal castle (Port Lork, 3)."""
    table = Table()
    table.to_phase(2, ME, "siege")
    for unit in ("Hothior-A1", "Hothior-A2", "Hothior-F1", "Hothior-F2"):
        put(table, unit, "Port Lork", inside=True)
    besieging(table, *BESIEGERS, "Muetar-A5", "Muetar-A6", "Muetar-A7", at="Port Lork")
    besiege(table, "Port Lork", ME)
    events = table.do("siege-attack", 6, 3, castles="Port Lork")  # the king of Hothior rolls 3
    assert of(events, SiegeAttacked)[0].total == 6
    assert [(p.player, p.points) for p in of(events, PointsScored)] == [(ME, 30)]


def test_a_natural_one_fails_costs_a_besieger_and_besieging_heroes_roll(table: Table) -> None:
    """Siege Phase › Resolving a Siege; Modifying the Siege Roll: a natural 1 always fails
    (whatever the modifier); one besieging combat unit is lost, the besieger's choice;
    besieging heroes roll, and one captured is held inside the castle."""
    ally(table, "Pon", ME)
    units = (*BESIEGERS, "Muetar-A5", "Muetar-A6", "Muetar-A7", "Muetar-A8")
    at_siege(table, *units, "Pon-monarch")
    events = table.do("siege-attack", 1, 6, castles="Tadafat")
    attacked = of(events, SiegeAttacked)[0]
    assert (attacked.roll, attacked.modifiers[0][1], attacked.result) == (1, 1, "failed")
    fate = of(events, HeroFateRolled)[0]
    assert (fate.hero, fate.trigger, fate.result, fate.by) == (
        "Pon-monarch",
        1,
        "captured",
        "alice",
    )
    assert of(events, MonarchCaptured)[0].prison == "Tadafat"
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind, asked.count) == (ME, "losses", 1)
    table.refuse(IllegalCommand, "cannot be lost here", "losses", units="Hothior-A5")
    events = table.do("losses", units="Muetar-A8")
    assert of(events, UnitsEliminated)[0].units == ("Muetar-A8",)
    assert "Muetar-A8" in table.state.kingdoms["Muetar"].eliminated


def test_plunder_frees_a_prisoner_held_in_the_castle(table: Table) -> None:
    """Heroes › Capture of a Monarch 1: a successful siege and plunder of the prison castle
    by the prisoner's own or allied troops frees him."""
    ally(table, "Pon", ME)
    table.set_state(table.state.without_units(["Pon-monarch"]))
    table.set_kingdom("Pon", captive_of="alice", prison="Tadafat")
    at_siege(table, *BESIEGERS)
    events = table.do("siege-attack", 6, castles="Tadafat")
    freed = of(events, PrisonerFreed)[0]
    assert freed.kingdom == "Pon" and "plundered" in freed.why
    assert table.state.kingdoms["Pon"].captive_of is None
    assert "Pon-monarch" in table.state.units


def test_no_siege_roll_once_the_siege_is_invalid(table: Table) -> None:
    """Siege Phase › Besieger Displacement: the siege persists to the end of the game
    turn, except that a Siege Roll may not be taken."""
    at_siege(table, *BESIEGERS)
    doomed = dataclasses.replace(table.state.sieges[0], doomed=True, why="losses")
    table.set_state(table.state.replace(sieges=(doomed,)))
    table.refuse(IllegalCommand, "no longer valid", "siege-attack", 6, castles="Tadafat")


# -- invalid sieges and displacement -------------------------------------------------------------


def test_a_siege_made_invalid_by_losses_is_displaced_at_the_end_of_the_turn(table: Table) -> None:
    """Siege Phase › Besieger Displacement: losses bring the besiegers below the defence
    plus the units inside: the siege is marked and, as the game turn ends, the besieger
    routes his units out; the game turn ends once he has."""
    at_siege(table, *BESIEGERS)
    table.do("siege-attack", 1, castles="Tadafat")
    events = table.do("losses", units="Muetar-A4")
    assert of(events, SiegeInvalidated)[0].besieging == 3
    assert sieges(table)[0]["valid"] is False
    assert sieges(table)[0]["displaced_at_end_of_turn"] is True
    assert table.state.turn is not None
    table.to_phase(2, table.state.turn.order[-1], "combat")  # the last player of turn 2
    events = table.do("end-phase")
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind, asked.options) == (ME, "displace", ("Tadafat",))
    assert table.state.number == 2 and table.phase() == "combat"
    table.refuse(IllegalCommand, "not next to", "siege-displace", by=ME, to="0,0")
    events = table.do("siege-displace", by=ME, to="9,14")
    assert set(of(events, UnitsDisplaced)[0].units) == set(BESIEGERS[:3])
    assert of(events, SiegeEnded)[0].castle == "Tadafat"
    table.do("end-phase")
    assert table.state.number == 3


def test_voluntary_displacement_frees_units_and_can_end_the_siege(table: Table) -> None:
    """Siege Phase › Besieger Displacement: before any siege attack the player displaces
    units to an adjacent space; they move normally later; the whole stack ends the siege."""
    at_siege(table, *BESIEGERS, "Muetar-A5")
    table.do("siege-displace", units="Muetar-A5", to="9,14")
    assert where(table, "Muetar-A5") == (9, 14) and sieges(table)[0]["besieging"] == 4
    events = table.do("siege-displace", units="Tadafat", to="9,15")
    assert of(events, SiegeEnded)[0].castle == "Tadafat"
    table.do("end-phase")
    table.do("move", units="Muetar-A5", path="8,14")


def test_a_displacement_blocked_by_enemy_units_fights_its_way_out(table: Table) -> None:
    """Siege Phase › Besieger Displacement: enemy units bar every route; the stack
    displaces those in the space it chooses, losing as many combat units as they are,
    and their owner routes them away."""
    at_siege(table, *BESIEGERS, "Muetar-A5")
    blockers = ("Hothior-A1", "Hothior-A2", "Hothior-A3", "Hothior-A4", "Hothior-A7")
    for unit, hex_ in zip(blockers, DATA.map.neighbours(*TADAFAT), strict=False):
        put(table, unit, hex_)
    hire(table, "A", DATA.map.neighbours(*TADAFAT)[-1], "alice")
    table.refuse(IllegalCommand, "name as many", "siege-displace", units="Tadafat", to="11,14")
    events = table.do("siege-displace", units="Tadafat", to="11,14", lose="Muetar-A5")
    assert of(events, UnitsEliminated)[0].units == ("Muetar-A5",)
    assert set(of(events, UnitsDisplaced)[0].units) == set(BESIEGERS)
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind) == ("alice", "make-way")
    events = table.do("siege-displace", by="alice", to="12,14")
    assert where(table, "Hothior-A1") == (12, 14)
    assert table.state.turn is not None and table.state.turn.progress.pending is None


def test_land_units_displace_onto_the_sea_aboard_empty_besieging_fleets() -> None:
    """Siege Phase › Besieger Displacement: a land unit displaces into a sea hex only if an
    empty friendly fleet of the besieging forces carries it; displacing fleets ignore
    enemy land units in the space they displace into."""
    table = Table()
    colist = hex_of("Colist")  # defence 4; (5,21) is open sea, (3,21) a shore
    put(table, "Mivior-A1", colist, inside=True)
    table.to_phase(2, "alice", "siege")
    besieging(table, "Hothior-F1", "Hothior-F2", *(f"Hothior-A{n}" for n in range(1, 5)), at=colist)
    besiege(table, "Colist", "alice")
    put(table, "Mivior-A2", (3, 21))
    for units in ("Hothior-A1", "Hothior-A1,Hothior-A2,Hothior-F1"):
        table.refuse(
            IllegalCommand, "only aboard empty fleets", "siege-displace", units=units, to="5,21"
        )
    events = table.do("siege-displace", units="Hothior-A1,Hothior-F1", to="5,21")
    assert set(of(events, UnitsDisplaced)[0].units) == {"Hothior-A1", "Hothior-F1"}
    embarked = of(events, UnitsEmbarked)[0]
    assert (embarked.fleet, embarked.units) == ("Hothior-F1", ("Hothior-A1",))
    assert table.state.units["Hothior-A1"].aboard == "Hothior-F1"
    assert where(table, "Hothior-A1") == (5, 21)
    events = table.do("siege-displace", units="Hothior-F2", to="3,21")
    assert not of(events, UnitsEliminated) and where(table, "Hothior-F2") == (3, 21)


# -- breakouts -------------------------------------------------------------------------------------


def test_a_breakout_attacks_every_besieger_and_frees_the_survivors_to_leave(table: Table) -> None:
    """Siege Phase › Breakouts: in the besieged player's Siege Phase his units inside
    attack all the besiegers; win or lose they may leave in the Movement Phase; they may
    not attack in the Combat Phase."""
    table.to_phase(2, ME, "movement")
    besieging(table, *BESIEGERS)
    besiege(table, "Tadafat", ME)
    table.to_phase(2, "alice", "movement")
    table.refuse_move("Hothior-A5", "9,14", "under siege")
    table.to_phase(3, "alice", "siege")
    events = table.do("breakout", 5, 3, castle="Tadafat")
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind, asked.count) == (ME, "losses", 1)  # 5+1 against 3+2
    table.do("losses", by=ME, units="Muetar-A1")
    assert sieges(table)[0]["valid"] is False
    table.do("end-phase")
    table.do("move", units="Hothior-A5,Hothior-A6", path="9,14")
    assert where(table, "Hothior-A6") == (9, 14)


# -- ongoing sieges ------------------------------------------------------------------------------


def _muscaster_besieged_by_carol() -> Table:
    table = Table()
    ally(table, "Immer", "bob")
    for unit in ("Immer-A4", "Immer-A5"):
        put(table, unit, "Muscaster", inside=True)
    besieging(table, *BESIEGERS, "Muetar-A5", at="Muscaster")
    besiege(table, "Muscaster", ME)
    table.to_phase(1, "alice", "diplomacy")
    table.do("diplomacy-draw")
    return table


def test_a_besieger_keeps_his_siege_and_the_confusion_does_not_happen() -> None:
    """Kingdoms › Deactivation of Kingdoms, ONGOING SIEGES; Confusion: the besieger decides
    the instant the death comes about; keeping the siege, a new monarch is crowned at once."""
    table = _muscaster_besieged_by_carol()
    events = table.do("diplomacy-assassinate", 6, 1, kingdom="Immer")
    asked = of(events, DecisionAsked)
    assert not asked and table.state.veto is not None
    assert table.state.turn is not None and table.state.turn.progress.pending is not None
    assert table.state.turn.progress.pending.player == ME
    table.refuse(IllegalCommand, "must first decide", "end-phase")
    events = table.do("siege-keep", by=ME, kingdom="Immer")
    assert of(events, SiegeKept)[0].change == "confusion"
    assert of(events, MonarchCrowned)[0].kingdom == "Immer"
    assert table.state.kingdoms["Immer"].ally == "bob"


def _pon_executed_while_alice_besieges(castle: str) -> Table:
    """Issue #18: Pon, bob's ally, has its monarch held by carol in Tadafat; alice's
    Rombune stack besieges a Pon castle; in her Diplomacy Phase carol executes him."""
    table = Table(kingdoms={"alice": "Rombune", "bob": "Shucassam", "carol": "Hothior"})
    ally(table, "Pon", "bob")
    table.set_state(table.state.without_units(["Pon-monarch"]))
    table.set_kingdom("Pon", captive_of="carol", prison="Tadafat")
    for unit in ("Pon-A4", "Pon-A5"):
        put(table, unit, (30, 21))
    put(table, "Pon-F1", (29, 21))
    besieging(table, *(f"Rombune-A{n}" for n in range(1, 6)), at=castle)
    besiege(table, castle, "alice")
    table.to_phase(1, "carol", "diplomacy")
    table.do("diplomacy-draw")
    table.do("prisoner-execute", kingdom="Pon")
    return table


def test_a_kept_siege_after_an_execution_brings_the_new_monarch_to_his_royal_castle() -> None:
    """Kingdoms › Confusion: a besieger keeping his siege, "a new monarch is crowned
    immediately … and the kingdom does not deactivate"; he enters where an activated
    kingdom's monarch is placed, "in the kingdom's royal castle" (Activation of Kingdoms):
    Pon's is Marzarbol (issue #18)."""
    table = _pon_executed_while_alice_besieges("Grugongi")
    # alice keeps her siege of Grugongi: Pon stays bob's ally, a new monarch crowned
    events = table.do("siege-keep", by="alice", kingdom="Pon")
    assert of(events, MonarchCrowned)[0].kingdom == "Pon"
    assert of(events, SuccessorEntered) == [SuccessorEntered("Pon", hex_of("Marzarbol"), False)]
    assert table.state.kingdoms["Pon"].ally == "bob"
    monarch = table.state.units["Pon-monarch"]
    assert (monarch.hex, monarch.inside) == (hex_of("Marzarbol"), False)


def test_a_new_monarch_enters_his_besieged_royal_castle_within_its_walls() -> None:
    """Reading (docs/divine-right.md): the royal castle besieged, he enters it all the same,
    within the walls, as an invaded kingdom's units deploy "regardless of the siege"
    (Activation of Invaded Inactive Kingdoms)."""
    table = _pon_executed_while_alice_besieges("Marzarbol")
    table.do("siege-keep", by="alice", kingdom="Pon")
    monarch = table.state.units["Pon-monarch"]
    assert (monarch.hex, monarch.inside) == (hex_of("Marzarbol"), True)


def test_a_new_monarch_whose_royal_castle_is_plundered_and_enemy_held_goes_to_a_friendly_one() -> (
    None
):
    """Reading: with his royal castle plundered and held by an enemy, the new monarch goes
    where a freed prisoner would (Heroes › Freeing a Prisoner), counted from it: the
    nearest unbesieged castle of his alliance (Crow's Nest; Grugongi is besieged)."""
    table = _pon_executed_while_alice_besieges("Grugongi")
    table.set_state(table.state.replace(plundered=table.state.plundered | {"Marzarbol"}))
    hire(table, "A", "Marzarbol", "carol")
    table.do("siege-keep", by="alice", kingdom="Pon")
    assert where(table, "Pon-monarch") == hex_of("Crow's Nest")


def test_a_new_monarch_with_nothing_friendly_left_is_placed_by_his_player_ally() -> None:
    """Reading: royal castle plundered and enemy-held, no unbesieged castle and no combat
    unit left to bob's alliance: bob places the new monarch, as a freed prisoner's player
    does (Heroes › Freeing a Prisoner)."""
    table = _pon_executed_while_alice_besieges("Grugongi")
    castles = {c.name for c in DATA.castles.values() if c.kingdom in ("Pon", "Shucassam")}
    table.set_state(table.state.replace(plundered=castles - {"Grugongi"}))
    gone = [u.id for u in table.state.units.values() if table.state.controller(u) == "bob"]
    table.set_state(table.state.without_units(gone))
    hire(table, "A", "Marzarbol", "carol")
    events = table.do("siege-keep", by="alice", kingdom="Pon")
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind) == ("bob", "crowned-successor")
    table.do("place", by="bob", at="28,18")
    assert where(table, "Pon-monarch") == (28, 18)


def test_a_besieger_gives_up_his_siege_and_the_kingdom_goes_into_confusion() -> None:
    """Kingdoms › Deactivation of Kingdoms, ONGOING SIEGES: the besiegers given up are
    displaced from the castle, then the change happens."""
    table = _muscaster_besieged_by_carol()
    table.do("diplomacy-assassinate", 6, 1, kingdom="Immer")
    events = table.do("siege-lift", 3, by=ME, kingdom="Immer", to="15,9")
    assert of(events, SiegeGivenUp)[0].player == ME
    assert of(events, UnitsDisplaced)[0].hex == (15, 9)
    assert of(events, KingdomDeactivated)[0].kingdom == "Immer"
    assert table.state.kingdoms["Immer"].confusion_until == 5
    assert sieges(table) == [] and table.state.veto is None


def test_no_replacement_enters_a_besieged_castle(table: Table) -> None:
    """Siege Phase › Effects of a Siege: replacements may not enter a castle deployment
    space under siege."""
    table.set_state(table.state.without_units(["Hothior-A6"]))
    table.set_kingdom("Hothior", eliminated=frozenset({"Hothior-A6"}))
    spec = DATA.unit("Hothior-A6")
    assert replacement_spaces(table.state, DATA, "alice", spec) == [(TADAFAT, "Tadafat")]
    besieging(table, *BESIEGERS)
    besiege(table, "Tadafat", ME)
    assert replacement_spaces(table.state, DATA, "alice", spec) == []


def test_a_deactivation_by_diplomacy_waits_on_the_besiegers() -> None:
    """Diplomacy Phase › Deactivation Attempts; Kingdoms › Deactivation of Kingdoms,
    ONGOING SIEGES: a successful deactivation of a kingdom with a castle under siege waits
    on the besieger; once he gives the siege up, the kingdom leaves its alliance."""
    table = _muscaster_besieged_by_carol()
    events = table.do("diplomacy-deactivate", 4, kingdom="Immer", card="black-magic+3#1")
    assert not of(events, KingdomDeactivated)
    assert table.state.veto is not None and table.state.veto.change == "deactivation"
    table.refuse(IllegalCommand, "the question is about Immer", "siege-keep", by=ME, kingdom="Pon")
    events = table.do("siege-lift", by=ME, kingdom="Immer", to="15,9")
    assert of(events, KingdomDeactivated)[0].why == "alice's ambassador"
    assert table.state.kingdoms["Immer"].status == "inactive"


def test_fleets_relieve_a_castle_port_besieged_by_land_units_only() -> None:
    """Siege Phase › Fleets at Sieges; Combat Phase › Relieving Forces at Sieges: a
    besieged player's fleets enter his castle-port freely while no fleet besieges it, and
    land the units they carry inside; besieged land units may come and go freely while
    only fleets besiege."""
    table = Table()
    colist = hex_of("Colist")
    put(table, "Mivior-A1", colist, inside=True)
    besieging(table, *BESIEGERS, "Muetar-A5", at=colist)
    besiege(table, "Colist", ME)
    put(table, "Mivior-F1", (5, 21))
    put(table, "Mivior-A2", (5, 21), aboard="Mivior-F1")
    table.to_phase(1, "bob", "movement")
    events = table.do("move", units="Mivior-F1", path="Colist")
    assert table.state.units["Mivior-F1"].inside
    assert of(events, SiegeInvalidated)[0].inside == 2  # 5 against 4 + 2: relieved
    table.do("debark", fleet="Mivior-F1")
    assert table.state.units["Mivior-A2"].inside
    assert sieges(table)[0]["inside"] == 3


def test_land_units_leave_a_castle_besieged_only_by_fleets() -> None:
    """Siege Phase › Breakouts: besieged land units may freely come and go if the
    besieging force has no land units."""
    table = Table()
    colist = hex_of("Colist")
    put(table, "Mivior-A1", colist, inside=True)
    for unit in ("K", "L", "M", "N", "Hothior-F1"):
        if unit in ("K", "L", "M", "N"):
            hire(table, unit, colist, "alice")
        else:
            put(table, unit, colist)
    besiege(table, "Colist", "alice")
    table.to_phase(1, "bob", "movement")
    table.do("move", units="Mivior-A1", path="4,20")
    assert where(table, "Mivior-A1") == (4, 20)


def test_a_lone_hero_entering_his_besieged_castle_goes_within_its_walls() -> None:
    """Heroes › Hero Fate Roll 6: entering a besieged castle alone he rolls once, and is
    then inside with its defenders."""
    table = Table()
    garrison(table)
    besieging(table, *BESIEGERS)
    besiege(table, "Tadafat", ME)
    table.to_phase(1, "alice", "movement")
    put(table, "Hothior-monarch", (9, 14))
    events = table.do("move", 3, units="Hothior-monarch", path="Tadafat")
    assert [f.trigger for f in of(events, HeroFateRolled)] == [6]
    assert table.state.units["Hothior-monarch"].inside


@pytest.mark.parametrize(("inside", "modifier"), [(3, 1), (4, 0), (1, 2)])
def test_the_siege_modifier_examples_in_play(inside: int, modifier: int) -> None:
    """Siege Phase › Modifying the Siege Roll, examples 1-3: 15 besiege a castle of defence
    4 (Colist) with 3, 4 or 1 units inside: +1, 0, +2 (a 3 plunders in none of them)."""
    table = Table()
    colist = hex_of("Colist")
    for number in range(1, inside + 1):
        put(table, f"Mivior-A{number}", colist, inside=True)
    besieging(table, *(f"Muetar-A{n}" for n in range(1, 14)), at=colist)
    hire(table, "A", colist, ME)
    hire(table, "B", colist, ME)
    besiege(table, "Colist", ME)
    table.to_phase(1, ME, "siege")
    attacked = of(table.do("siege-attack", 3, castles="Colist"), SiegeAttacked)[0]
    assert (attacked.besieging, attacked.inside) == (15, inside)
    assert (attacked.modifiers[0][1], attacked.total, attacked.result) == (
        modifier,
        3 + modifier,
        "nothing",
    )
