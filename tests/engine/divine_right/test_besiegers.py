"""Besiegers displaced, fighting out, and the heroes with them (Siege Phase › Besieger
Displacement, Declaring a Siege, "Inside" and "Outside" of Castles; Heroes › Hero Fate
Roll): positions found by forcing sieges in seeded play (issue #17, items 1 to 3).

In play.Table's game carol (Muetar) plays first on turn 2, then alice (Hothior), then bob
(Mivior); carol besieges Hothior's Tadafat (defence 2) or alice Mivior's Colist (defence 4).
Dice are entered by hand.
"""

from __future__ import annotations

from itertools import cycle

from warscribe.engine.errors import IllegalCommand, NotYourTurn
from warscribe.engine.rulesets.divine_right.events import (
    CargoLost,
    DecisionAsked,
    DecisionWithdrawn,
    HeroFateRolled,
    SiegeDeclared,
    SiegeEnded,
    UnitsDebarked,
    UnitsDisplaced,
    UnitsEliminated,
    UnitsWalled,
)

from .board import DATA, ally, besiege, hex_of, hire, put
from .play import Table, of

ME = "carol"
TADAFAT = hex_of("Tadafat")
COLIST = hex_of("Colist")
BESIEGERS = ("Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4")


def pending(table: Table) -> object:
    assert table.state.turn is not None
    return table.state.turn.progress.pending


def test_a_displacement_that_eliminates_the_besiegers_is_asked_no_more() -> None:
    """Siege Phase › Besieger Displacement: the besiegers of an invalid siege, asked to
    displace as the game turn ends, are outnumbered fighting out and eliminated: the siege
    is over and so is the question; the game turn ends (issue #17, 1)."""
    table = Table()
    table.to_phase(2, ME, "siege")
    # carol's two armies besiege the empty Tadafat; alice's seven armies bar every way out
    for unit in BESIEGERS[:2]:
        put(table, unit, TADAFAT)
    besiege(table, "Tadafat", ME)
    for number, hex_ in zip(range(1, 8), cycle(DATA.map.neighbours(*TADAFAT)), strict=False):
        put(table, f"Hothior-A{number}", hex_)
    # a natural 1 fails: carol loses Muetar-A2 and the siege is invalid
    table.do("siege-attack", 1, castles="Tadafat")
    table.do("losses", units="Muetar-A2")
    # as the game turn ends (the last player's Combat Phase), carol is asked to displace
    assert table.state.turn is not None
    last = table.state.turn.order[-1]
    table.to_phase(2, last, "combat")
    asked = of(table.do("end-phase"), DecisionAsked)[0]
    assert (asked.player, asked.kind) == (ME, "displace")
    # two armies bar (11,14): Muetar-A1 fighting out alone is eliminated, the siege ends
    events = table.do("siege-displace", by=ME, to="11,14")
    assert of(events, UnitsEliminated)[0].units == ("Muetar-A1",)
    assert of(events, SiegeEnded)[0].castle == "Tadafat"
    withdrawn = of(events, DecisionWithdrawn)[0]
    assert (withdrawn.player, withdrawn.kind, withdrawn.options) == (ME, "displace", ("Tadafat",))
    assert pending(table) is None
    # no displacement is asked any more, and the last player's end of the turn is accepted
    table.refuse(NotYourTurn, f"{last}'s turn", "siege-displace", by=ME, to="9,14")
    table.do("end-phase")
    assert table.state.number == 3


def _colist_encircled(table: Table) -> None:
    """Alice besieges Colist with two fleets (Hothior-A1 aboard Hothior-F1) and three more
    armies; bob's armies stand on every land space around it (the sea hex is no way out
    for three armies and one empty fleet)."""
    put(table, "Mivior-A1", COLIST, inside=True)
    table.to_phase(2, "alice", "siege")
    for unit in ("Hothior-F1", "Hothior-F2", "Hothior-A2", "Hothior-A3", "Hothior-A4"):
        put(table, unit, COLIST)
    put(table, "Hothior-A1", COLIST, aboard="Hothior-F1")
    besiege(table, "Colist", "alice")
    for number, hex_ in enumerate(DATA.map.neighbours(*COLIST)[1:], start=2):
        put(table, f"Mivior-A{number}", hex_)


def test_fighting_out_losing_a_loaded_fleet_moves_the_survivors() -> None:
    """Siege Phase › Besieger Displacement: a stack fighting its way out loses one combat
    unit per enemy unit barring its way; a fleet lost takes its cargo with it (Combat
    Phase › Making Attacks) and the survivors displace (issue #17, 2: the stack named,
    cargo included, was displaced as it stood before its losses: KeyError)."""
    table = Table()
    _colist_encircled(table)
    stack = "Hothior-F1,Hothior-A1,Hothior-A2,Hothior-A3,Hothior-A4,Hothior-F2"
    # alice's whole stack fights out into (3,21), losing the loaded Hothior-F1
    events = table.do("siege-displace", units=stack, to="3,21", lose="Hothior-F1")
    assert of(events, CargoLost)[0].units == ("Hothior-A1",)
    assert of(events, UnitsEliminated)[0].units == ("Hothior-F1",)
    displaced = of(events, UnitsDisplaced)[0]
    assert displaced.units == ("Hothior-A2", "Hothior-A3", "Hothior-A4", "Hothior-F2")
    assert "Hothior-A1" not in table.state.units
    # bob makes way for them
    assert of(events, DecisionAsked)[0].kind == "make-way"


def test_units_aboard_displace_only_with_their_fleet() -> None:
    """Siege Phase › Besieger Displacement; Movement Phase › Transporting Troops: a land
    unit aboard a fleet goes where its fleet goes; named alone it is not displaced."""
    table = Table()
    _colist_encircled(table)
    table.refuse(
        IllegalCommand, "displace with it", "siege-displace", units="Hothior-A1", to="3,21"
    )


def _tadafat_besieged(table: Table) -> None:
    """Alice's Hothior-A5 and A6 within Tadafat's walls; carol's four armies besiege it."""
    for unit in ("Hothior-A5", "Hothior-A6"):
        put(table, unit, TADAFAT, inside=True)
    for unit in BESIEGERS:
        put(table, unit, TADAFAT)
    besiege(table, "Tadafat", ME)


def test_a_lone_hero_joining_his_sides_siege_stays_outside_the_walls() -> None:
    """Heroes may always enter an enemy castle, but "to besiege a castle, the castle space
    must be occupied by besieging units": carol's monarch entering the castle she besieges
    joins her besiegers outside, rolls for nothing, and is displaced with them (issue #17,
    3)."""
    table = Table()
    _tadafat_besieged(table)
    table.to_phase(2, ME, "movement")
    put(table, "Muetar-monarch", (9, 14))
    # no die is rolled: the enemy armies are within the walls, his own besiegers outside
    events = table.do("move", units="Muetar-monarch", path="Tadafat")
    assert not of(events, HeroFateRolled)
    assert not table.state.units["Muetar-monarch"].inside
    # in her next Siege Phase, carol displaces the stack at Tadafat: the monarch goes too
    table.to_phase(3, ME, "siege")
    events = table.do("siege-displace", units="Tadafat", to="9,14")
    assert "Muetar-monarch" in of(events, UnitsDisplaced)[0].units


def test_a_lone_hero_landing_where_his_side_besieges_stays_outside_the_walls() -> None:
    """The same hero landing alone from a fleet (Movement Phase › Transporting Troops):
    Castle Lapspell, a castle-port carol besieges, is entered outside its walls."""
    table = Table()
    lapspell = hex_of("Castle Lapspell")
    table.to_phase(2, ME, "movement")
    for unit in ("Hothior-A3", "Hothior-A4"):  # Lapspell's garrison, within its walls
        put(table, unit, lapspell, inside=True)
    for unit in BESIEGERS:
        put(table, unit, lapspell)
    hire(table, "K", lapspell, ME)
    put(table, "Muetar-monarch", lapspell, aboard="K")
    besiege(table, "Castle Lapspell", ME)
    events = table.do("debark", fleet="K")
    assert of(events, UnitsDebarked)[0].inside is False
    assert not table.state.units["Muetar-monarch"].inside


def test_a_hero_within_the_walls_joins_his_side_declaring_a_siege() -> None:
    """Declaring a Siege: carol's monarch went into Tadafat alone (within its walls);
    her armies entering the castle space declare the siege, and he comes out to join
    them rather than stay inside the enemy's walls."""
    table = Table()
    for unit in ("Hothior-A5", "Hothior-A6"):
        put(table, unit, TADAFAT, inside=True)
    table.to_phase(2, ME, "movement")
    put(table, "Muetar-monarch", TADAFAT, inside=True)
    for unit in BESIEGERS:
        put(table, unit, (9, 14))
    events = table.do("move", units="9,14", path="Tadafat")
    assert of(events, SiegeDeclared)[0].castle == "Tadafat"
    walled = of(events, UnitsWalled)[0]
    assert (walled.units, walled.inside) == (("Muetar-monarch",), False)
    assert not table.state.units["Muetar-monarch"].inside


def test_a_hero_within_the_walls_joins_his_side_advancing_into_a_siege() -> None:
    """Combat Phase › Advance After Combat; Declaring a Siege: carol's armies beat the
    army defending Tadafat outside its walls and advance in, declaring the siege; her
    monarch, within the walls alone, comes out to join them (issue #17, 3: the
    advance-into case)."""
    table = Table()
    for unit in ("Hothior-A5", "Hothior-A6"):
        put(table, unit, TADAFAT, inside=True)
    put(table, "Hothior-A1", TADAFAT)
    table.to_phase(1, ME, "combat")
    for unit in BESIEGERS:
        put(table, unit, (9, 14))
    put(table, "Muetar-monarch", TADAFAT, inside=True)
    # carol attacks Hothior-A1; alice stands; 6 against 1: Hothior-A1 is lost
    table.do("attack-declare", attacks=("9,14>Tadafat",))
    table.do("attack-resolve", number=1)
    table.do("retreat-stand", 6, 1, by="alice")
    # carol advances into Tadafat: the siege is declared and her monarch joins it
    events = table.do("advance-into", to="Tadafat")
    assert of(events, SiegeDeclared)[0].how == "advance after combat"
    walled = of(events, UnitsWalled)[0]
    assert (walled.units, walled.inside) == (("Muetar-monarch",), False)
    assert not table.state.units["Muetar-monarch"].inside


def test_units_within_the_walls_of_a_castle_gone_neutral_stand_outside_free_to_leave() -> None:
    """Kingdoms › Deactivation of Kingdoms; Inactive Kingdoms: "Active combat units within
    a kingdom that has been deactivated have their next Movement Phase to leave the
    kingdom". Carol's army within the walls of her ally Rombune's Parros stands outside
    them once Rombune deactivates (issue #17, 6c: it stayed within the walls, and was
    found within an enemy's walls once Rombune joined another player); standing outside
    the neutral castle it besieges nothing and leaves in her next Movement Phase (6a)."""
    table = Table()
    parros = hex_of("Parros")
    ally(table, "Rombune", "carol")
    put(table, "Muetar-A1", parros, inside=True)
    # carol's Random Events: Untimely Death (1+1) of Rombune's monarch; Confusion 4
    events = table.do("events-roll", 1, 1, 4)
    walled = of(events, UnitsWalled)[0]
    assert (walled.player, walled.units, walled.inside) == (ME, ("Muetar-A1",), False)
    assert not table.state.units["Muetar-A1"].inside and table.state.sieges == ()
    # in her Movement Phase Muetar-A1 leaves the neutral castle's space
    table.do("end-phase")
    table.to_phase(1, ME, "movement")
    table.do("move", units="Muetar-A1", path="10,28")
    assert table.state.units["Muetar-A1"].hex == (10, 28)
