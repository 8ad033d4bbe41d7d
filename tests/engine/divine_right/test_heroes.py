"""Heroes: one test per Hero Fate Roll trigger (Heroes › Hero Fate Roll, 1-10), death and
capture of player and non-player monarchs with their victory points (Victory), prisoners
held, executed and freed the three ways, shipwreck to the Isle of Fright and rescue, and
the -1 combat modifier of a captive or shipwrecked monarch.

In play.Table's game carol (Muetar) moves first on turn 1; alice holds Hothior, bob
Mivior. Dice are entered by hand.
"""

from __future__ import annotations

from uuid import UUID

import pytest

from warscribe.engine.dice import Dice
from warscribe.engine.errors import DiceError, IllegalCommand, InvalidCommand, NotYourTurn
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right import heroes
from warscribe.engine.rulesets.divine_right.events import (
    CaptiveFateAsked,
    DecisionAsked,
    HeroCastAway,
    HeroFateRolled,
    HeroRescued,
    MonarchCaptured,
    MonarchDied,
    PenaltyIncurred,
    PlayerEliminated,
    PlayerTurnEnded,
    PrisonerExecuted,
    PrisonerFreed,
    StackMoved,
)
from warscribe.engine.rulesets.divine_right.kingdoms import deactivate
from warscribe.engine.rulesets.divine_right.siege import declare as siege

from .board import DATA, ally, besiege, deciding, hex_of, hire, movement, put, where
from .play import Table, of

ME = "carol"
LAPSPELL = (13, 18)


@pytest.fixture
def table() -> Table:
    game = Table()
    movement(game, ME)
    return game


def dice(table: Table, *rolls: int) -> Dice:
    """Dice for a rule called directly, thrown by hand."""
    return Dice(table.key, UUID(int=7), bytes(32), 10_000, list(rolls), "test")


def fate_of(events: list[object]) -> tuple[int, str, str | None]:
    rolled = of(events, HeroFateRolled)
    assert len(rolled) == 1
    return rolled[0].trigger, rolled[0].result, rolled[0].by


def points(table: Table) -> list[tuple[str, int]]:
    return [(d.player, d.points) for d in table.state.ledger]


# -- the ten triggers ------------------------------------------------------------------------


def test_trigger_1_units_of_the_heros_stack_lost_in_combat(table: Table) -> None:
    """Heroes › Hero Fate Roll 1 (a seam for the combat rules): once per phase."""
    out = deciding(table.state)
    out.dice = dice(table, 4)
    heroes.stack_losses(out, hex_of("Port Lork"), "alice", ME)
    assert fate_of(out.events) == (1, "no effect", ME)
    out.dice = dice(table)
    heroes.stack_losses(out, hex_of("Port Lork"), "alice", ME)
    assert len(of(out.events, HeroFateRolled)) == 1


def test_trigger_2_a_lone_hero_passes_through_an_enemy_stack(table: Table) -> None:
    """Heroes › Hero Fate Roll 2; Enemy Units and Movement: a hero may enter a space with
    enemy combat units, rolling; spared, he goes on."""
    put(table, "Muetar-monarch", (20, 11))
    put(table, "Hothior-A1", (21, 11))
    events = table.do("move", 3, units="Muetar-monarch", path="21,11,21,12")
    assert fate_of(events) == (2, "no effect", "alice")
    assert [m.path for m in of(events, StackMoved)] == [((21, 11),), ((21, 12),)]
    assert where(table, "Muetar-monarch") == (21, 12)


@pytest.mark.parametrize(
    ("coast", "trigger", "inside"), [((13, 19), 2, False), (LAPSPELL, 7, True)]
)
def test_a_lone_hero_landing_on_an_enemy_held_coast_rolls(
    table: Table, coast: tuple[int, int], trigger: int, inside: bool
) -> None:
    """Heroes › Hero Fate Roll 2 and 7: a hero landing alone from a fleet where enemy land
    combat units are, or in an enemy castle(-port) (then within its walls), rolls as if he
    had entered the space by land."""
    hire(table, "K", coast, ME)
    put(table, "Hothior-A1", coast)
    put(table, "Muetar-monarch", coast, aboard="K")
    table.refuse(DiceError, "Hero Fate Roll", "debark", fleet="K")  # the roll is due
    events = table.do("debark", 3, fleet="K")
    assert fate_of(events) == (trigger, "no effect", "alice")
    hero = table.state.units["Muetar-monarch"]
    assert hero.aboard is None and hero.hex == coast and hero.inside == inside


def test_a_player_monarch_killed_eliminates_his_player_and_scores_70(table: Table) -> None:
    """Heroes › Death of a Monarch; Victory: killing an enemy player monarch, 70; the
    player is eliminated (Kingdoms › Fate of Player Kingdoms: Confusion rolled)."""
    put(table, "Muetar-monarch", (20, 11))
    put(table, "Hothior-A1", (21, 11))
    events = table.do("move", 1, 4, units="Muetar-monarch", path="21,11,21,12")
    assert fate_of(events) == (2, "killed", "alice")
    assert of(events, PlayerEliminated)[0].player == ME
    assert points(table) == [("alice", 70)]
    assert len(of(events, StackMoved)) == 1


def test_a_player_eliminated_in_his_own_turn_plays_no_more_of_it(table: Table) -> None:
    """Kingdoms › Fate of Player Kingdoms: a player whose monarch is killed "is eliminated
    from the game" at once: the rest of his player turn is not played (random play found
    an eliminated player going on to his Diplomacy Phase and its activation rolls)."""
    # carol's monarch moves alone next to alice's army: fate roll 2, killed
    put(table, "Muetar-monarch", (20, 11))
    put(table, "Hothior-A1", (21, 11))
    events = table.do("move", 1, 4, units="Muetar-monarch", path="21,11,21,12")
    assert of(events, PlayerEliminated)[0].player == ME
    # her Movement and Combat Phases are not played: the next player turn begins
    assert of(events, PlayerTurnEnded)[0] == PlayerTurnEnded(player=ME, phase="movement")
    assert table.state.turn is not None and table.state.turn.player != ME
    assert table.state.turn.phase == "random-events"
    table.refuse(NotYourTurn, "not carol's", "end-phase", by=ME)


def test_trigger_3_enemy_combat_units_land_on_a_lone_hero(table: Table) -> None:
    """Heroes › Hero Fate Roll 3 (a search); Capture of a Player Monarch: captured, his
    player is out; capturing an enemy player monarch scores 70."""
    put(table, "Hothior-monarch", (21, 11))
    put(table, "Muetar-A1", (20, 11))
    events = table.do("move", 6, 2, units="Muetar-A1", path="21,11")
    assert fate_of(events) == (3, "captured", ME)
    assert of(events, PlayerEliminated)[0].player == "alice"
    assert points(table) == [(ME, 70)]


def test_trigger_3_a_search_costs_the_spaces_terrain_and_is_made_once(table: Table) -> None:
    """Heroes › Hero Fate Roll 3: a stack that begins its turn with an enemy hero spends the
    terrain cost of the space to search (a forest: clear to a unit at home); one roll per
    hero each enemy movement."""
    put(table, "Hothior-monarch", (22, 11))
    put(table, "Muetar-A1", (22, 11))
    events = table.do("search", 5, units="Muetar-A1")
    assert fate_of(events) == (3, "no effect", ME)
    assert table.state.turn is not None
    assert table.state.turn.progress.moved("Muetar-A1").spent == 1  # type: ignore[union-attr]
    table.refuse(IllegalCommand, "no lone enemy hero at 22,11", "search", units="Muetar-A1")


def _alice_and_her_allys_monarch_alone_at(table: Table, hex_: tuple[int, int]) -> None:
    """alice's monarch and her ally Shucassam's, alone together: alice's death removes
    both (hers rolls first: units are in the codec's order, shorter ids first)."""
    ally(table, "Shucassam", "alice")
    put(table, "Hothior-monarch", hex_)
    put(table, "Shucassam-monarch", hex_)


def test_trigger_3_a_search_finding_two_heroes_rolls_none_for_one_gone(table: Table) -> None:
    """Heroes › Hero Fate Roll 3: each lone enemy hero found rolls; alice's monarch killed,
    she is out and her allies deactivate (Fate of Player Kingdoms): Shucassam's monarch has
    left the map and rolls nothing (issue #12 bug 4: KeyError)."""
    _alice_and_her_allys_monarch_alone_at(table, (22, 11))
    put(table, "Muetar-A1", (22, 11))
    # fate 1: Hothior-monarch killed; 3: Hothior's Confusion
    events = table.do("search", 1, 3, units="Muetar-A1")
    assert fate_of(events) == (3, "killed", ME)
    assert "Shucassam-monarch" not in table.state.units


def test_trigger_3_entering_two_heroes_rolls_none_for_one_gone(table: Table) -> None:
    """Heroes › Hero Fate Roll 3, entering the heroes' space (issue #12 bug 4)."""
    _alice_and_her_allys_monarch_alone_at(table, (21, 11))
    put(table, "Muetar-A1", (20, 11))
    events = table.do("move", 1, 3, units="Muetar-A1", path="21,11")
    assert fate_of(events) == (3, "killed", ME)
    assert where(table, "Muetar-A1") == (21, 11)


def test_trigger_1_stack_losses_roll_none_for_a_hero_gone(table: Table) -> None:
    """Heroes › Hero Fate Roll 1, after a battle: the stack's heroes roll in turn; one
    removed by the first one's death rolls nothing (issue #12 bug 4)."""
    _alice_and_her_allys_monarch_alone_at(table, (22, 11))
    out = deciding(table.state)
    out.dice = dice(table, 1, 3)
    heroes.stack_losses(out, (22, 11), "alice", ME)
    assert [(e.hero, e.result) for e in of(out.events, HeroFateRolled)] == [
        ("Hothior-monarch", "killed")
    ]


def test_trigger_4_a_hero_leaves_the_enemy_stack_he_began_his_turn_in(table: Table) -> None:
    """Heroes › Hero Fate Roll 4."""
    put(table, "Muetar-monarch", (21, 11))
    put(table, "Hothior-A1", (21, 11))
    events = table.do("move", 2, units="Muetar-monarch", path="20,11")
    assert fate_of(events) == (4, "no effect", "alice")


def test_trigger_5_a_castle_containing_the_hero_falls(table: Table) -> None:
    """Heroes › Hero Fate Roll 5 (a seam for the siege rules)."""
    put(table, "Hothior-monarch", LAPSPELL, inside=True)
    out = deciding(table.state)
    out.dice = dice(table, 3)
    heroes.castle_falls(out, "Castle Lapspell", ME)
    assert fate_of(out.events) == (5, "no effect", ME)


def test_trigger_6_a_lone_hero_enters_a_besieged_castle(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heroes › Hero Fate Roll 6: entering and passing the walls is one roll."""
    tadafat = hex_of("Tadafat")
    monkeypatch.setattr(siege, "besieged", lambda state, hex_: hex_ == tadafat)
    monkeypatch.setattr(siege, "besieger", lambda state, hex_: "bob" if hex_ == tadafat else None)
    put(table, "Muetar-monarch", (9, 14))
    events = table.do("move", 5, units="Muetar-monarch", path="Tadafat")
    assert fate_of(events) == (6, "no effect", "bob")


def test_trigger_6_a_lone_hero_leaves_his_besieged_castle(table: Table) -> None:
    """Heroes › Hero Fate Roll 6; Siege Phase › Effects of a Siege: besieged combat units
    stay (until a breakout); a lone hero may go, rolling."""
    table.do("inside", units="Muetar-A1,Muetar-monarch")
    for unit in ("Hothior-A1", "Hothior-A2", "Hothior-A3", "Hothior-A4", "Hothior-A5"):
        put(table, unit, "Pennol")
    besiege(table, "Pennol", "alice")
    table.refuse_move("Muetar-A1", "20,11", "Muetar-A1 is under siege")
    events = table.do("move", 4, units="Muetar-monarch", path="20,11")
    assert fate_of(events) == (6, "no effect", "alice")


def test_trigger_7_a_hero_enters_and_leaves_an_enemy_castle(table: Table) -> None:
    """Heroes › Hero Fate Roll 7; Siege Phase: heroes may always enter an enemy castle; a
    lone hero in a castle not his side's is inside its walls."""
    put(table, "Muetar-monarch", (13, 17))
    events = table.do("move", 4, units="Muetar-monarch", path="Castle Lapspell")
    assert fate_of(events) == (7, "no effect", "alice")
    assert table.state.units["Muetar-monarch"].inside
    events = table.do("move", 2, units="Muetar-monarch", path="13,17")
    assert fate_of(events) == (7, "no effect", "alice")
    assert not table.state.units["Muetar-monarch"].inside


def test_trigger_7_nobody_captures_a_hero_in_a_neutral_castle(table: Table) -> None:
    """Heroes › Hero Fate Roll 7: a neutral castle; with no enemy player to take him a 6
    has no effect. Entering the inactive kingdom costs the diplomatic penalty."""
    put(table, "Muetar-monarch", (19, 22))
    table.set_state(table.state.with_player(ME, penalties=frozenset()))
    events = table.do("move", 6, units="Muetar-monarch", path="Kuzdol")
    assert fate_of(events) == (7, "no effect", None)
    assert not of(events, PenaltyIncurred)  # already inside Shucassam: no border crossed


def test_trigger_8_a_hero_inside_an_enemy_castle_as_his_turn_begins() -> None:
    """Heroes › Hero Fate Roll 8: rolled as the hero's own player turn begins."""
    table = Table()
    assert table.state.turn is not None and table.state.turn.order == (ME, "alice", "bob")
    put(table, "Hothior-monarch", "Colist", inside=True)
    table.to_phase(1, ME, "combat")
    events = table.do("end-phase", 2)
    assert fate_of(events) == (8, "no effect", "bob")
    assert table.player == "alice"


def test_trigger_9_shipwreck_casts_the_hero_away_on_the_isle_of_fright() -> None:
    """Heroes › Hero Fate Roll 9; Shipwrecked Heroes; Random Events Phase › Storms: a hero
    left without a fleet on the open sea is cast away on the Isle of Fright (a 6 too, with
    no enemy fleet responsible); land units aboard are lost with the fleet; a friendly
    fleet entering the Isle rescues him."""
    table = Table()
    hire(table, "K", (3, 25), ME)
    put(table, "Muetar-monarch", (3, 25), aboard="K")
    put(table, "Muetar-A1", (3, 25), aboard="K")
    table.do("events-roll", 1, 2)
    assert table.state.turn.progress.pending.kind == "storm"  # type: ignore[union-attr]
    events = table.do("events-lose", 6, unit="K")
    assert fate_of(events) == (9, "castaway", None)
    assert of(events, HeroCastAway)[0].hex == hex_of("Isle of Fright")
    assert "Muetar-A1" in table.state.kingdoms["Muetar"].eliminated
    assert heroes.absent_monarch_modifiers(table.state, DATA, [table.state.units["Muetar-A2"]]) == (
        ("the monarch of Muetar is shipwrecked", -1),
    )
    table.do("end-phase")
    movement(table, ME)
    table.refuse_move("Muetar-monarch", "3,24", "cast away on the Isle of Fright")
    hire(table, "L", (3, 24), ME)
    events = table.do("move", units="L", path="Isle of Fright,3,24")
    assert of(events, HeroRescued)[0].heroes == ("Muetar-monarch",)
    assert table.state.units["Muetar-monarch"].aboard == "L"
    assert where(table, "Muetar-monarch") == (3, 24)


def test_a_castaway_on_an_inland_water_washes_up_on_its_nearest_shore(table: Table) -> None:
    """Heroes › Shipwrecked Heroes: on an inland body of water, the closest non-port shore
    space of the same body (equally close ones: decided at random)."""
    hire(table, "K", (25, 25), ME)
    put(table, "Muetar-monarch", (25, 25), aboard="K")
    out = deciding(table.state)
    lost = table.state.units["K"]
    out.dice = dice(table, 3)
    heroes.shipwreck(out, lost)
    landed = of(out.events, HeroCastAway)[0].hex
    assert landed in {(24, 25), (25, 26), (26, 25), (26, 26)}
    assert DATA.map.distance((25, 25), landed) == 1


def strand_ghems_king(table: Table) -> list[object]:
    """Ghem's monarch (carol's ally) shipwrecked on a lake all of whose shores are Neuth's."""
    ally(table, "Ghem", ME)
    hire(table, "K", (5, 6), ME)
    put(table, "Ghem-monarch", (5, 6), aboard="K")
    out = deciding(table.state)
    out.dice = dice(table, 3, 1, 1, 1)
    heroes.shipwreck(out, table.state.units["K"])
    table.set_state(out.state)
    return list(out.events)


@pytest.mark.parametrize("choice", ["stay", "eliminate"])
def test_a_castaway_on_a_neutral_shore_violates_it_unless_eliminated_voluntarily(
    table: Table, choice: str
) -> None:
    """Heroes › Shipwrecked Heroes: "A castaway will violate a neutral kingdom if he is
    cast upon its shore, unless he is eliminated voluntarily": his player decides."""
    events = strand_ghems_king(table)
    assert DATA.map.get(*of(events, HeroCastAway)[0].hex).kingdom == "Neuth"  # type: ignore[union-attr]
    assert not of(events, PenaltyIncurred)
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind) == (ME, "castaway-shore")
    table.refuse(NotYourTurn, "carol must decide", "castaway-stay", by="bob")
    table.refuse_move("Muetar-A1", "20,11", "must first decide")
    events = table.do(f"castaway-{choice}", *([3] if choice == "eliminate" else []), by=ME)
    if choice == "stay":
        assert of(events, PenaltyIncurred)[0].kingdom == "Neuth"
        assert DATA.map.get(*where(table, "Ghem-monarch")).kingdom == "Neuth"  # type: ignore[union-attr]
    else:
        assert not of(events, PenaltyIncurred)
        assert of(events, MonarchDied)[0].kingdom == "Ghem"
        assert "Ghem-monarch" not in table.state.units
    assert table.state.turn.progress.pending is None  # type: ignore[union-attr]
    table.refuse(IllegalCommand, "answers no decision now", "castaway-stay", by=ME)


def test_trigger_10_a_hero_crosses_a_river_hexside_enemy_fleets_control(table: Table) -> None:
    """Heroes › Hero Fate Roll 10; Fleets and Navigable Rivers: one roll even with enemy
    fleets on both sides."""
    put(table, "Hothior-F1", (18, 15))
    put(table, "Hothior-F2", (19, 16))
    put(table, "Muetar-A13", (20, 16))
    put(table, "Muetar-monarch", (19, 16))
    events = table.do("move", 3, units="Muetar-monarch", path="18,15")
    assert fate_of(events) == (10, "no effect", "alice")


# -- capture, prisoners, victory points -----------------------------------------------------


def capture_neuth(table: Table, *rolls: int) -> list[object]:
    """carol's army lands on the lone monarch of Neuth (alice's ally): a search."""
    ally(table, "Neuth", "alice")
    put(table, "Neuth-monarch", (21, 11))
    put(table, "Muetar-A1", (20, 11))
    return table.do("move", *rolls, units="Muetar-A1", path="21,11")


def test_a_captured_allied_monarch_goes_to_the_captors_nearest_castle(table: Table) -> None:
    """Heroes › Capture of a Monarch; Victory: capturing an enemy allied monarch, 30; he is
    held in the captor's nearest non-plundered, non-besieged castle; his units fight at -1
    while he is captive."""
    events = capture_neuth(table, 6)
    assert fate_of(events) == (3, "captured", ME)
    assert of(events, MonarchCaptured)[0].prison == "Pennol"
    assert points(table) == [(ME, 30)]
    assert table.state.kingdoms["Neuth"].captive_of == ME
    assert "Shucassam-monarch" not in table.state.units
    neuth = [table.state.units["Neuth-A1"], table.state.units["Muetar-A2"]]
    assert heroes.absent_monarch_modifiers(table.state, DATA, neuth) == ()
    neuth.append(table.state.units["Neuth-A2"])
    assert heroes.absent_monarch_modifiers(table.state, DATA, neuth) == (
        ("the monarch of Neuth is captive", -1),
    )


def test_killing_an_allied_monarch_scores_40_and_brings_confusion(table: Table) -> None:
    """Heroes › Death of a Monarch; Victory: 40 for killing an enemy allied monarch."""
    events = capture_neuth(table, 1, 3)
    assert fate_of(events) == (3, "killed", ME)
    assert of(events, MonarchDied)[0].kingdom == "Neuth"
    assert points(table) == [(ME, 40)]
    assert table.state.kingdoms["Neuth"].status == "confusion"


def test_a_captor_without_a_castle_executes_his_prisoner_for_no_points(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heroes › Capture of a Monarch, Executing a Prisoner: no castle to hold him: execute
    him (no points beyond the capture's; a permanent diplomatic penalty) or free him."""
    monkeypatch.setattr(siege, "besieged", lambda state, hex_: True)
    events = capture_neuth(table, 6)
    assert of(events, CaptiveFateAsked)[0].player == ME
    table.refuse(IllegalCommand, "must first decide", "end-phase")
    table.refuse(IllegalCommand, "holds no monarch of Zorn", "prisoner-execute", kingdom="Zorn")
    events = table.do("prisoner-execute", 4, kingdom="Neuth")
    assert of(events, PrisonerExecuted) and of(events, MonarchDied)
    assert of(events, PenaltyIncurred)[0].kingdom == "Neuth"
    assert points(table) == [(ME, 30)]
    assert table.state.turn.progress.pending is None  # type: ignore[union-attr]


def test_a_prisoner_set_free_goes_to_his_nearest_friendly_castle(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heroes › Freeing a Prisoner; Victory: the captor keeps the capture's points. The
    nearest castle of his alliance (alice's) is Hothior's Castle Lapspell."""
    besieged = {"on": True}
    monkeypatch.setattr(siege, "besieged", lambda state, hex_: besieged["on"])
    capture_neuth(table, 6)
    besieged["on"] = False
    freed = of(table.do("prisoner-free", kingdom="Neuth"), PrisonerFreed)[0]
    assert freed.hex == LAPSPELL
    assert where(table, "Neuth-monarch") == LAPSPELL
    assert points(table) == [(ME, 30)]


def test_a_freed_prisoner_with_nothing_friendly_near_is_placed_by_his_player(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heroes › Freeing a Prisoner: "If there is no friendly combat unit, the owning
    player places the freed captive in any space that he desires"."""
    monkeypatch.setattr(siege, "besieged", lambda state, hex_: True)  # no castle is free
    capture_neuth(table, 6)
    owner = table.state.kingdoms["Neuth"].controller()
    assert owner == "alice"
    gone = [u.id for u in table.state.units.values() if table.state.controller(u) == owner]
    table.set_state(table.state.without_units(u for u in gone if not u.endswith("monarch")))
    events = table.do("prisoner-free", kingdom="Neuth")
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind, asked.options) == (
        owner,
        "freed-captive",
        ("Neuth-monarch at any land space",),
    )
    table.refuse(NotYourTurn, "alice must decide", "place", by=ME, at="Pennol")
    table.refuse(InvalidCommand, "not a land space", "place", by=owner, at="5,6")
    table.refuse(IllegalCommand, "must first decide", "end-phase")
    table.do("place", by=owner, at="Pennol")
    assert where(table, "Neuth-monarch") == hex_of("Pennol")
    assert table.state.turn.progress.pending is None  # type: ignore[union-attr]


def test_a_prisoner_may_be_executed_in_a_later_diplomacy_phase(table: Table) -> None:
    """Heroes › Executing a Prisoner: in any of the captor's later Diplomacy Phases (and
    `legal` offers it there, and setting him free: it once offered them only on capture)."""
    capture_neuth(table, 6)
    table.refuse(
        IllegalCommand, "belongs to the Diplomacy Phase", "prisoner-execute", kingdom="Neuth"
    )
    table.to_phase(2, ME, "diplomacy")
    table.do("diplomacy-draw")
    offered = {(o.name, o.values("kingdom")) for o in get("divine-right").legal(table.state)}
    assert {("prisoner-execute", ("Neuth",)), ("prisoner-free", ("Neuth",))} <= offered
    events = table.do("prisoner-execute", 5, kingdom="Neuth")
    assert of(events, MonarchDied)[0].kingdom == "Neuth"


def test_a_prisoner_is_released_when_the_kingdom_holding_him_deactivates(table: Table) -> None:
    """Heroes › Capture of a Monarch, way 2: the kingdom he is held in deactivates."""
    ally(table, "Neuth", "alice")
    ally(table, "Shucassam", ME)
    table.set_state(table.state.without_units(["Neuth-monarch"]))
    table.set_kingdom("Neuth", captive_of=ME, prison="Kuzdol")
    out = deciding(table.state)
    deactivate(out, "Shucassam", "test")
    freed = of(out.events, PrisonerFreed)[0]
    assert freed.kingdom == "Neuth" and freed.hex == LAPSPELL
    assert out.state.kingdoms["Neuth"].captive_of is None


@pytest.mark.parametrize(
    ("plunderer", "freed_at"), [("alice", "Castle Lapspell"), ("bob", "Kuzdol")]
)
def test_a_plundered_prison_frees_its_captive(table: Table, plunderer: str, freed_at: str) -> None:
    """Heroes › Capture of a Monarch, ways 1 and 3: plundered by his own or allied troops
    he goes to his nearest friendly castle; by other enemies of his jailor he is freed but
    stays where he is (a seam for the siege rules)."""
    ally(table, "Neuth", "alice")
    table.set_state(table.state.without_units(["Neuth-monarch"]))
    table.set_kingdom("Neuth", captive_of=ME, prison="Kuzdol")
    out = deciding(table.state)
    out.dice = dice(table)
    heroes.castle_falls(out, "Kuzdol", plunderer)
    assert of(out.events, PrisonerFreed)[0].hex == hex_of(freed_at)


def test_storm_without_heroes_aboard_records_no_fate(table: Table) -> None:
    """Random Events Phase › Storms: a fleet carrying nobody is simply lost."""
    out = deciding(table.state)
    hire(table, "K", (3, 25), ME)
    out.dice = dice(table)
    heroes.shipwreck(out, table.state.units["K"])
    assert out.events == []
