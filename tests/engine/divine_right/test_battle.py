"""The Combat Phase recorded and played (Combat Phase, all subsections; Siege Phase ›
Mixed-unit Combat During Relief; Heroes › Hero Fate Roll 1; Capture of a Monarch).

In play.Table's game carol (Muetar) plays first on turn 1, then alice (Hothior), then bob
(Mivior). Allied kingdoms here have a personality without combat effect (Obstinate)
unless a test is about personalities. Dice are entered by hand: the attacker's combat
die first, then the defender's.
"""

from __future__ import annotations

import pytest

from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.events import Event
from warscribe.engine.rulesets.divine_right.events import (
    AttackBegun,
    AttackEnded,
    BattleFought,
    DecisionAsked,
    HeroFateRolled,
    RetreatRolled,
    SiegeDeclared,
    SiegeInvalidated,
    UnitsAdvanced,
    UnitsEliminated,
    UnitsRetreated,
    WithdrawalLosses,
)

from .board import DATA, ally, besiege, hex_of, hire, put, where
from .play import Table, of

ME = "carol"
PLAIN = 7  # Obstinate: no effect in combat
FRONT, ENEMY, BEYOND = (21, 12), (22, 12), (23, 12)


def plain_ally(table: Table, kingdom: str, player: str) -> None:
    ally(table, kingdom, player)
    table.set_kingdom(kingdom, personality=PLAIN)


def place(table: Table, at: tuple[int, int], *units: str) -> None:
    for unit in units:
        put(table, unit, at)


def attack_enemy(table: Table) -> list[Event]:
    """Carol declares attack 1, from FRONT on ENEMY, and resolves it: the events it decided."""
    table.do("attack-declare", attacks=("21,12>22,12",))
    return table.do("attack-resolve", number=1)


def _example_2_attacked(table: Table) -> None:
    """Retreat Before Combat, example 2: three of carol's armies attack elves (Neuth) and
    dwarves (Ghem), both alice's."""
    plain_ally(table, "Neuth", "alice")
    plain_ally(table, "Ghem", "alice")
    place(table, FRONT, "Muetar-A1", "Muetar-A2", "Muetar-A3")
    place(table, ENEMY, "Neuth-A1", "Ghem-A1")
    attack_enemy(table)


@pytest.fixture
def table() -> Table:
    game = Table()
    game.to_phase(1, ME, "combat")
    return game


def fought(events: list[object]) -> BattleFought:
    found: list[BattleFought] = of(events, BattleFought)
    assert len(found) == 1
    return found[0]


# -- a whole attack --------------------------------------------------------------------------


def test_an_attack_declared_resolved_and_advanced(table: Table) -> None:
    """Combat Phase › Making Attacks; Modifying the Combat Roll; Advance After Combat: the
    defender may first try to retreat (here he stands); the loser removes the difference;
    the heroes of a stack that lost units roll; a vacated space may be advanced into."""
    place(table, FRONT, "Muetar-A1", "Muetar-A2")
    hire(table, "A", ENEMY, "alice")
    place(table, ENEMY, "Hothior-monarch")
    events = attack_enemy(table)
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind) == ("alice", "retreat")
    table.refuse(IllegalCommand, "alice must decide", "retreat-stand", 5, 2)
    events = table.do("retreat-stand", 5, 2, 4, by="alice")  # 5+2 against 2+1; the king rolls 4
    battle = fought(events)
    assert (battle.attacker_total, battle.defender_total) == (7, 3)
    assert (battle.attacker_losses, battle.defender_losses) == (0, 1)
    assert of(events, UnitsEliminated)[0].units == ("A",)
    fate = of(events, HeroFateRolled)[0]
    assert (fate.hero, fate.trigger, fate.by) == ("Hothior-monarch", 1, ME)
    assert of(events, DecisionAsked)[0].kind == "advance"
    events = table.do("advance-into", to="22,12", units="Muetar-A1")
    assert of(events, UnitsAdvanced)[0].units == ("Muetar-A1",)
    assert not of(events, HeroFateRolled)  # one roll only for the lone king (Hero Fate Roll)
    assert of(events, AttackEnded)[0].number == 1
    assert where(table, "Muetar-A1") == ENEMY and where(table, "Muetar-A2") == FRONT
    table.do("end-phase")


def test_losses_are_chosen_by_their_owner(table: Table) -> None:
    """Combat Phase › Making Attacks: the owner always decides which units are lost."""
    place(table, FRONT, "Muetar-A1")
    hire(table, "A", ENEMY, "alice")
    hire(table, "B", ENEMY, "alice")
    attack_enemy(table)
    events = table.do("retreat-stand", 6, 3, by="alice")  # 6+1 against 3+2: alice loses 2
    assert fought(events).defender_losses == 2
    assert of(events, UnitsEliminated)[0].units == ("A", "B")
    table.do("advance-none")


def test_a_tie_costs_both_sides(table: Table) -> None:
    """Combat Phase › Ties: both lose the unmodified roll of the weaker force, the larger
    never more than twice the smaller's actual losses."""
    place(table, FRONT, "Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4", "Muetar-A5")
    place(table, FRONT, "Muetar-A6")
    hire(table, "A", ENEMY, "alice")
    attack_enemy(table)
    events = table.do("retreat-stand", 1, 6, by="alice")  # 1+6 against 6+1
    battle = fought(events)
    assert (battle.attacker_losses, battle.defender_losses) == (2, 1)
    events = table.do("losses", units="Muetar-A5,Muetar-A6")
    assert of(events, DecisionAsked)[0].kind == "advance"


# -- which units may attack --------------------------------------------------------------------


def test_declarations_that_break_the_rules_are_refused(table: Table) -> None:
    """Combat Phase › Which Units May Attack?; Mixed-Type Combat; Effects of Terrain on
    Combat: the whole declaration is refused and nothing is recorded."""
    place(table, FRONT, "Muetar-A1", "Muetar-A2")
    place(table, BEYOND, "Muetar-A3")
    hire(table, "A", ENEMY, "alice")
    hire(table, "B", (21, 13), "alice")
    twice = ("21,12>22,12", "21,12>21,13")
    table.refuse(IllegalCommand, "would attack twice", "attack-declare", attacks=twice)
    both = ("Muetar-A1,Muetar-A2>22,12", "23,12>22,12")
    table.refuse(IllegalCommand, "attacked twice", "attack-declare", attacks=both)
    table.refuse(
        IllegalCommand, "all its units attack", "attack-declare", attacks=("Muetar-A1>22,12",)
    )
    table.refuse(IllegalCommand, "not next to", "attack-declare", attacks=("23,12>21,13",))
    table.refuse(InvalidCommand, "ATTACKERS>SPACES", "attack-declare", attacks=("21,12",))
    place(table, (20, 12), "Hothior-monarch")
    table.refuse(IllegalCommand, "lone heroes", "attack-declare", attacks=("21,12>20,12",))
    table.set_kingdom("Muetar", bad_omens_on=1)
    table.refuse(IllegalCommand, "Bad Omens", "attack-declare", attacks=("21,12>22,12",))


def test_no_attack_across_the_navigable_river(table: Table) -> None:
    """Combat Phase › Effects of Terrain on Combat: land units may not attack across a
    navigable river hexside."""
    a, b = next(
        (s for s in sorted(DATA.map.river_sides) if all(_land(h) for h in s)),
    )
    place(table, a, "Muetar-A1")
    hire(table, "A", b, "alice")
    text = f"{a[0]},{a[1]}>{b[0]},{b[1]}"
    table.refuse(IllegalCommand, "navigable river", "attack-declare", attacks=(text,))


def _land(hex_: tuple[int, int]) -> bool:
    place_ = DATA.map.get(*hex_)
    return place_ is not None and not {str(t) for t in place_.terrain} & {"SEA", "LAKE"}


def test_units_that_declared_a_siege_this_turn_do_not_attack() -> None:
    """Combat Phase › Which Units May Attack?: not units that moved into an enemy castle
    and declared a siege this turn."""
    table = Table()
    for unit in ("Hothior-A5", "Hothior-A6"):
        put(table, unit, "Tadafat", inside=True)
    table.to_phase(1, ME, "movement")
    place(table, (9, 14), "Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4")
    hire(table, "A", (9, 13), "alice")
    table.do("move", units="9,14", path="Tadafat")
    table.do("end-phase")
    table.refuse(IllegalCommand, "declared a siege", "attack-declare", attacks=("Tadafat>9,13",))


def test_a_newly_activated_kingdom_attacks_only_inside_itself(table: Table) -> None:
    """Kingdoms › Activation of Kingdoms: on the turn of activation its units attack only
    enemy units within their own kingdom."""
    ally(table, "Pon", ME, fresh=True)
    place(table, (27, 21), "Pon-A4")
    hire(table, "A", (26, 21), "alice")
    kingdom = DATA.map.get(26, 21)
    assert kingdom is not None and kingdom.kingdom != "Pon"
    table.refuse(IllegalCommand, "only inside Pon", "attack-declare", attacks=("27,21>26,21",))


def test_every_declared_attack_is_resolved_before_the_phase_ends(table: Table) -> None:
    """Combat Phase: all attacks are declared first, then each resolved in the attacker's
    order; declarations are made once."""
    place(table, FRONT, "Muetar-A1")
    place(table, (22, 13), "Muetar-A2")
    hire(table, "A", ENEMY, "alice")
    hire(table, "B", (23, 13), "alice")
    table.do("attack-declare", attacks=("21,12>22,12", "22,13>23,13"))
    table.refuse(IllegalCommand, "declared already", "attack-declare", attacks=("21,12>22,12",))
    table.refuse(IllegalCommand, r"resolve the declared attacks first \(1, 2", "end-phase")
    table.do("attack-resolve", number=2)
    table.do("retreat-stand", 1, 6, by="alice")  # 1+1 against 6+1: carol loses her unit
    table.refuse(IllegalCommand, "resolve the declared attacks first", "end-phase")
    table.refuse(IllegalCommand, "resolved already", "attack-resolve", number=2)
    table.do("attack-resolve", number=1)
    table.do("retreat-stand", 3, 3, by="alice")  # 3+1 against 3+1: a tie, one each
    table.do("end-phase")


# -- retreat before combat ---------------------------------------------------------------------


def test_retreat_example_1_mercenaries_with_elves(table: Table) -> None:
    """Combat Phase › Retreat Before Combat, example 1: mercenaries (humans) with elves of
    Neuth; a 2 lets nobody go: the humans must stand, the elves may roll on their own;
    their 3 lets them retreat, and the mercenaries fight alone."""
    plain_ally(table, "Neuth", "alice")
    place(table, FRONT, "Muetar-A1", "Muetar-A2", "Muetar-A3")
    hire(table, "A", ENEMY, "alice")
    place(table, ENEMY, "Neuth-A1")
    attack_enemy(table)
    events = table.do("retreat-roll", 2, by="alice")
    rolled = of(events, RetreatRolled)[0]
    assert (rolled.groups, rolled.roll, rolled.allowed) == ((("Neuth", 3), ("humans", 4)), 2, ())
    table.refuse(IllegalCommand, "no further retreat roll", "retreat-roll", 5, by="alice")
    events = table.do("retreat-roll", 3, by="alice", groups="Neuth")
    assert of(events, RetreatRolled)[0].allowed == ("Neuth",)
    table.refuse(IllegalCommand, "enemy combat units", "retreat-to", by="alice", to="21,12")
    events = table.do("retreat-to", by="alice", to="23,12")
    assert of(events, UnitsRetreated)[0].units == ("Neuth-A1",)
    events = table.do("retreat-stand", 4, 4, by="alice")
    battle = fought(events)
    assert (battle.attacking, battle.defending) == (3, 1)


def test_retreat_example_1_a_five_lets_the_whole_stack_go(table: Table) -> None:
    """Combat Phase › Retreat Before Combat, example 1 (a 5); Advance After Combat: the
    attacker may advance into a space vacated by a retreat (it counts as his attack)."""
    plain_ally(table, "Neuth", "alice")
    place(table, FRONT, "Muetar-A1", "Muetar-A2", "Muetar-A3")
    hire(table, "A", ENEMY, "alice")
    place(table, ENEMY, "Neuth-A1", "Hothior-monarch")
    attack_enemy(table)
    table.do("retreat-roll", 5, by="alice")
    events = table.do("retreat-to", by="alice", to="23,12")
    assert set(of(events, UnitsRetreated)[0].units) == {"A", "Neuth-A1", "Hothior-monarch"}
    assert not of(events, BattleFought)
    assert of(events, DecisionAsked)[0].kind == "advance"
    table.do("advance-into", to="22,12")
    assert where(table, "Muetar-A3") == ENEMY


def test_retreat_example_2_elves_with_dwarves(table: Table) -> None:
    """Combat Phase › Retreat Before Combat, example 2: elves and dwarves; a 2 lets neither
    go (and neither has a better chance to roll again); a 3 would let the player retreat
    the elves, the dwarves or both: here the elves alone, the dwarves standing."""
    _example_2_attacked(table)
    events = table.do("retreat-roll", 2, by="alice")
    assert of(events, RetreatRolled)[0].allowed == ()
    table.refuse(IllegalCommand, "no further retreat roll", "retreat-roll", 3, by="alice")
    table.do("retreat-stand", 2, 2, by="alice")


def test_retreat_example_2_a_three_retreats_the_elves_alone(table: Table) -> None:
    _example_2_attacked(table)
    events = table.do("retreat-roll", 3, by="alice")
    assert of(events, RetreatRolled)[0].allowed == ("Ghem", "Neuth")
    events = table.do("retreat-to", by="alice", to="23,12", groups="Neuth")
    assert of(events, UnitsRetreated)[0].units == ("Neuth-A1",)
    events = table.do("retreat-stand", 6, 1, by="alice")
    assert fought(events).defending == 1
    assert "Ghem-A1" not in table.state.units


def test_no_retreat_into_a_space_awaiting_an_attack(table: Table) -> None:
    """Combat Phase › Retreat Before Combat: not into a space of friendly units engaged in
    an unresolved attack."""
    place(table, FRONT, "Muetar-A1")
    place(table, (24, 12), "Muetar-A2")
    hire(table, "A", ENEMY, "alice")
    hire(table, "B", BEYOND, "alice")
    table.do("attack-declare", attacks=("21,12>22,12", "24,12>23,12"))
    table.do("attack-resolve", number=1)
    table.do("retreat-roll", 6, by="alice")
    table.refuse(IllegalCommand, "awaiting an attack", "retreat-to", by="alice", to="23,12")


# -- terrain, personalities, absent monarchs ---------------------------------------------


def test_a_pass_doubles_the_defenders_and_a_mountain_adds_one(table: Table) -> None:
    """Combat Phase › Effects of Terrain on Combat (the Terrain Effects Chart)."""
    mace = hex_of("Mace Pass")
    front = DATA.map.neighbours(*mace)[0]
    place(table, front, "Muetar-A1", "Muetar-A2", "Muetar-A3")
    hire(table, "A", mace, "alice")
    table.do("attack-declare", attacks=(f"{front[0]},{front[1]}>Mace Pass",))
    table.do("attack-resolve", number=1)
    battle = fought(table.do("retreat-stand", 4, 4, by="alice"))
    assert (battle.attacking, battle.defending) == (3, 2)


def test_personality_and_captive_monarch_modifiers(table: Table) -> None:
    """Personality Cards (Disciplined: +1 when his regulars are at least half the force);
    Heroes › Capture of a Monarch: -1 while his monarch is captive."""
    ally(table, "Pon", ME)
    place(table, FRONT, "Pon-A1", "Pon-A2")
    hire(table, "A", ENEMY, "alice")
    table.set_kingdom("Pon", captive_of="alice", prison="Tadafat")
    table.set_state(table.state.without_units(["Pon-monarch"]))
    attack_enemy(table)
    battle = fought(table.do("retreat-stand", 3, 3, by="alice"))
    names = [m[0] for m in battle.attacker_modifiers]
    assert "personality of Pon's monarch: his regulars" in names
    assert "the monarch of Pon is captive" in names
    assert battle.attacker_total == 3 + 2 + 1 - 1


# -- relief and amphibious attacks ---------------------------------------------------------------


def test_relief_example_fleets_fight_fleets_and_enter_with_their_cargo() -> None:
    """Siege Phase › Mixed-unit Combat During Relief, example; Combat Phase › Relieving
    Forces at Sieges: a castle-port besieged by two fleets and six land units; four
    relieving fleets carrying two land units fight only the two besieging fleets, at 2 to
    1; the three surviving relieving fleets enter the port with the two carried units,
    which may not attack this turn (the time for declaring attacks has passed)."""
    table = Table()
    colist = hex_of("Colist")
    put(table, "Mivior-A1", colist, inside=True)
    besiegers = ("Hothior-F1", "Hothior-F2", "Hothior-A1", "Hothior-A2", "Hothior-A3")
    place(table, colist, *besiegers, "Hothior-A4", "Hothior-A7")
    hire(table, "A", colist, "alice")
    besiege(table, "Colist", "alice")
    for fleet in ("Mivior-F1", "Mivior-F2", "Mivior-F3", "Mivior-F4"):
        put(table, fleet, (5, 21), inside=False)
    put(table, "Mivior-A2", (5, 21), aboard="Mivior-F1")
    put(table, "Mivior-A3", (5, 21), aboard="Mivior-F2")
    table.to_phase(1, "bob", "combat")
    fleets = "fleet:Mivior-F1,Mivior-F2,Mivior-F3,Mivior-F4>Colist"
    table.do("attack-declare", attacks=(fleets,))
    table.do("attack-resolve", number=1)
    events = table.do("retreat-stand", 3, 5, by="alice")  # 3+2 against 5+1
    battle = fought(events)
    assert (battle.attacking, battle.defending, battle.attacker_losses) == (4, 2, 1)
    table.do("losses", units="Mivior-F4")
    events = table.do("advance-into", to="Colist")
    advanced = of(events, UnitsAdvanced)[0]
    assert advanced.inside and set(advanced.carried) == {"Mivior-A2", "Mivior-A3"}
    assert all(table.state.units[u].inside for u in ("Mivior-F1", "Mivior-A2", "Mivior-A3"))
    assert table.state.units["Mivior-A2"].aboard is None
    assert of(events, SiegeInvalidated)[0].inside == 6  # 4 + 6 > 8 besiegers
    table.refuse(IllegalCommand, "declared already", "attack-declare", attacks=("Colist>Colist",))


def _thores_besieged(fleets: int) -> Table:
    """Four Mivioran land units besiege Thores (a Rombuni army within) from outside;
    `fleets` Rombuni fleets, each carrying a land unit, stop beside it: alice's Combat
    Phase."""
    table = Table()
    plain_ally(table, "Rombune", "alice")
    thores = hex_of("Thores")
    put(table, "Rombune-A5", thores, inside=True)
    place(table, thores, "Mivior-A4", "Mivior-A5", "Mivior-A6", "Mivior-A7")
    besiege(table, "Thores", "bob")
    for number in range(1, fleets + 1):
        put(table, f"Rombune-F{number}", (3, 29))
        put(table, f"Rombune-A{number}", (3, 29), aboard=f"Rombune-F{number}")
    table.to_phase(1, "alice", "combat")
    return table


def _thores() -> Table:
    """Four Mivioran land units besiege Thores from outside; the Rombuni fleet (four fleets,
    four land units aboard) stops beside it (Combat Phase › Amphibious Attacks, example)."""
    table = _thores_besieged(4)
    fleets = ",".join(f"Rombune-F{n}" for n in range(1, 5))
    table.do("attack-declare", attacks=(f"amphibious:{fleets}>Thores",))
    return table


def test_amphibious_example_at_thores_destroying_the_besiegers() -> None:
    """Combat Phase › Amphibious Attacks, example: 8 against 4, 2 to 1; all the Mivioran
    units destroyed, the Rombunis advance into the space, inside or outside as they wish."""
    table = _thores()
    events = table.do("attack-resolve", 5, 1, number=1)  # no retreat from an island: 7 vs 2
    battle = fought(events)
    assert (battle.attacking, battle.defending, battle.defender_losses) == (8, 4, 4)
    table.do("advance-into", to="Thores")
    assert not table.state.units["Rombune-F1"].inside
    assert table.state.units["Rombune-A1"].aboard is None
    assert table.state.sieges == ()


def test_amphibious_example_at_thores_entering_as_a_relieving_force() -> None:
    """Combat Phase › Amphibious Attacks, example: not all the besiegers destroyed, the
    Rombunis may nonetheless enter the castle as a relieving force."""
    table = _thores()
    table.do("attack-resolve", 3, 3, number=1)  # 3+2 against 3+1: bob loses 1
    events = table.do("losses", by="bob", units="Mivior-A7")
    assert of(events, SiegeInvalidated)[0].besieging == 3  # against defence 3 and 1 inside
    events = table.do("advance-into", to="Thores")
    assert of(events, UnitsAdvanced)[0].inside
    assert table.state.sieges[0].doomed


def test_a_lost_amphibious_attack_loses_half_its_survivors_withdrawing() -> None:
    """Combat Phase › Amphibious Attacks: an attacker who takes greater or equal losses
    loses half his surviving attackers, rounded down, as he chooses."""
    table = _thores()
    table.do("attack-resolve", 1, 5, number=1)  # 1+2 against 5+1: alice loses 3
    events = table.do("losses", units="Rombune-A1,Rombune-A2,Rombune-A3")
    withdrawal = of(events, WithdrawalLosses)[0]
    assert (withdrawal.survivors, withdrawal.count) == (5, 2)
    events = table.do("losses", units="Rombune-A4,Rombune-F4")
    assert of(events, DecisionAsked)[0].kind == "advance"
    table.do("advance-none")


def test_advancing_into_an_enemy_castle_space_declares_a_siege() -> None:
    """Siege Phase › Declaring a Siege: a new siege by advance after combat, once the
    defenders outside are gone."""
    table = Table()
    put(table, "Hothior-A5", "Tadafat", inside=True)
    put(table, "Hothior-A6", "Tadafat")
    table.to_phase(1, ME, "combat")
    place(table, (9, 14), "Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4")
    table.do("attack-declare", attacks=("9,14>Tadafat",))
    table.do("attack-resolve", number=1)
    table.do("retreat-stand", 6, 1, by="alice")
    events = table.do("advance-into", to="Tadafat")
    assert of(events, SiegeDeclared)[0].how == "advance after combat"
    assert table.state.sieges[0].besieger == ME


def test_units_that_broke_out_do_not_attack_in_the_combat_phase() -> None:
    """Siege Phase › Breakouts: besieged units that attacked their besiegers in the Siege
    Phase cannot attack in the Combat Phase of the same player turn."""
    table = Table()
    for unit in ("Hothior-A5", "Hothior-A6"):
        put(table, unit, "Tadafat", inside=True)
    place(table, hex_of("Tadafat"), "Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4")
    besiege(table, "Tadafat", ME)
    table.to_phase(1, "alice", "siege")
    table.do("breakout", 4, 4, castle="Tadafat")  # 4+1 against 4+2: alice loses 1
    table.do("losses", units="Hothior-A6")
    table.to_phase(1, "alice", "movement")
    table.do("move", units="Hothior-A5", path="9,14")
    hire(table, "A", (8, 14), ME)
    table.to_phase(1, "alice", "combat")
    table.refuse(IllegalCommand, "broke out", "attack-declare", attacks=("9,14>8,14",))


def test_units_that_retreated_may_be_added_to_another_declared_attack(table: Table) -> None:
    """Combat Phase › Retreat Before Combat: units that retreated next to the attackers of
    another declared, unresolved attack may be included in it (they retreat no more)."""
    place(table, FRONT, "Muetar-A1")
    place(table, (23, 11), "Muetar-A2", "Muetar-A3")
    hire(table, "A", ENEMY, "alice")
    hire(table, "B", (24, 11), "alice")
    table.do("attack-declare", attacks=("21,12>22,12", "23,11>24,11"))
    table.do("attack-resolve", number=1)
    table.do("retreat-roll", 4, by="alice")
    table.do("retreat-to", by="alice", to="23,12")
    table.do("advance-none")
    table.do("attack-resolve", number=2, retreated=True)
    events = table.do("retreat-stand", 3, 3, by="alice")
    assert fought(events).defending == 2


def test_a_genius_monarch_leads_his_force_and_parros_canals_help_its_defenders(
    table: Table,
) -> None:
    """Heroes › Hero Combat Bonus (personality 16, Genius); Special Rules for Select
    Kingdoms › Rombune: +2 to the stack defending outside Parros against an attack
    without the support of fleets."""
    ally(table, "Pon", ME)
    table.set_kingdom("Pon", personality=16)
    plain_ally(table, "Rombune", "alice")
    place(table, (12, 28), "Pon-A1", "Pon-monarch")
    table.do("attack-declare", attacks=("12,28>Parros",))
    table.do("attack-resolve", number=1)
    battle = fought(table.do("retreat-stand", 3, 3, 4, by="alice"))  # Pon's king rolls 4
    assert ("led by the monarch of Pon", 1) in battle.attacker_modifiers
    assert ("the canals of Parros", 2) in battle.defender_modifiers


def test_a_fleet_sunk_in_battle_takes_its_cargo_and_shipwrecks_its_heroes(table: Table) -> None:
    """Combat Phase › Making Attacks: land units aboard eliminated fleets are lost too (not
    counted in the losses); Heroes › Shipwrecked Heroes: the heroes aboard roll."""
    sea = (5, 21)
    hire(table, "K", (6, 21), ME)
    hire(table, "L", (6, 21), ME)
    put(table, "Hothior-F1", sea)
    put(table, "Hothior-A1", sea, aboard="Hothior-F1")
    put(table, "Hothior-monarch", sea, aboard="Hothior-F1")
    table.do("attack-declare", attacks=("fleet:K,L>5,21",))
    table.do("attack-resolve", number=1)
    events = table.do("retreat-stand", 6, 1, 3, by="alice")  # the king rolls 3
    assert of(events, UnitsEliminated)[0].units == ("Hothior-F1",)
    fate = of(events, HeroFateRolled)[0]
    assert (fate.trigger, fate.result) == (9, "castaway")
    assert "Hothior-A1" not in table.state.units


def test_the_besieged_join_an_amphibious_relief_and_are_spared_its_withdrawal() -> None:
    """Combat Phase › Amphibious Attacks: the attacker may add the land or sea units inside
    the besieged castle (not both); they are not subject to the withdrawal."""
    table = _thores_besieged(1)
    table.do("attack-declare", attacks=("amphibious:Rombune-F1,Rombune-A5>Thores",))
    events = table.do("attack-resolve", 4, 4, number=1)  # 4+1 against 4+2: alice loses 1
    assert fought(events).attacking == 3
    events = table.do("losses", units="Rombune-A1")
    withdrawal = of(events, WithdrawalLosses)[0]
    assert (withdrawal.survivors, withdrawal.count) == (1, 0)  # Rombune-A5 not counted
    events = table.do("advance-into", to="Thores")
    assert table.state.units["Rombune-F1"].inside


# -- gaps closed: sorties, pursuit, riding heroes --------------------------------------------


def _thores_port_attacked() -> Table:
    """Rombune (alice's ally) holds Thores: an army outside, a fleet within the port; bob's
    two fleets, each carrying an army, attack the port amphibiously from (3,29)."""
    table = Table()
    plain_ally(table, "Rombune", "alice")
    thores = hex_of("Thores")
    put(table, "Rombune-A5", thores)
    put(table, "Rombune-F4", thores, inside=True)
    for number in (1, 2):
        put(table, f"Mivior-F{number}", (3, 29), inside=False)
        put(table, f"Mivior-A{number + 3}", (3, 29), aboard=f"Mivior-F{number}")
    table.to_phase(1, "bob", "combat")
    table.do("attack-declare", attacks=("amphibious:Mivior-F1,Mivior-F2>Thores",))
    return table


def test_fleets_inside_a_castle_port_come_out_to_defend_and_stay_out() -> None:
    """Combat Phase › Amphibious Attacks: fleets inside a castle-port can come outside to
    defend against the attack if their owner desires (his recorded decision); fleets that
    came out remain outside the port after the battle."""
    table = _thores_port_attacked()
    events = table.do("attack-resolve", number=1)
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind, asked.options) == ("alice", "sortie", ("Rombune-F4",))
    table.refuse(IllegalCommand, "not a fleet of yours", "sortie", by="alice", units="Rombune-A5")
    table.refuse(IllegalCommand, "alice must first decide", "attack-resolve", number=1)
    events = table.do("sortie", by="alice", units="Rombune-F4")
    assert not table.state.units["Rombune-F4"].inside
    assert of(events, DecisionAsked)[0].kind == "retreat"  # the fleet may now retreat by sea
    battle = fought(table.do("retreat-stand", 3, 3, by="alice"))  # 3+2 against 3+1
    assert (battle.attacking, battle.defending, battle.defender_losses) == (4, 2, 1)
    table.do("losses", by="alice", units="Rombune-A5")
    table.do("advance-none")
    assert not table.state.units["Rombune-F4"].inside


def test_fleets_inside_a_castle_port_may_stay_within_the_walls() -> None:
    """Combat Phase › Amphibious Attacks: coming out is the owner's choice."""
    table = _thores_port_attacked()
    table.do("attack-resolve", number=1)
    events = table.do("sortie-none", 3, 3, by="alice")  # no retreat from the island
    assert fought(events).defending == 1
    assert table.state.units["Rombune-F4"].inside


def test_fleets_that_assist_an_amphibious_relief_return_inside_the_port() -> None:
    """Combat Phase › Amphibious Attacks: fleets from inside a castle-port that assist an
    amphibious attack against their besiegers return inside the port after the battle."""
    table = Table()
    plain_ally(table, "Rombune", "alice")
    thores = hex_of("Thores")
    put(table, "Rombune-F4", thores, inside=True)
    place(table, thores, "Mivior-A4", "Mivior-A5", "Mivior-A6")
    besiege(table, "Thores", "bob")
    put(table, "Rombune-F1", (3, 29))
    put(table, "Rombune-A1", (3, 29), aboard="Rombune-F1")
    table.to_phase(1, "alice", "combat")
    table.do("attack-declare", attacks=("amphibious:Rombune-F1,Rombune-F4>Thores",))
    events = table.do("attack-resolve", 6, 1, number=1)  # 6+1 against 1+1: bob loses all 3
    assert fought(events).attacking == 3
    table.do("advance-none")
    assert table.state.units["Rombune-F4"].inside
    assert table.state.units["Rombune-F4"].hex == thores


def _next_to_both() -> tuple[int, int]:
    return sorted(set(DATA.map.neighbours(*FRONT)) & set(DATA.map.neighbours(*ENEMY)))[0]


def _free_to_retreat_beside(table: Table) -> tuple[int, int]:
    """Two of carol's armies attack alice's lone mercenary, whose 5 lets it retreat: the
    space next to both sides it may go to."""
    side = _next_to_both()
    place(table, FRONT, "Muetar-A1", "Muetar-A2")
    hire(table, "A", ENEMY, "alice")
    attack_enemy(table)
    table.do("retreat-roll", 5, by="alice")
    return side


def test_units_retreated_still_next_to_their_attackers_may_still_be_attacked(
    table: Table,
) -> None:
    """Combat Phase › Retreat Before Combat: a stack still adjacent after its retreat to
    the enemy units that were attacking it may still be attacked (the attacker's choice);
    no second Retreat Before Combat is allowed."""
    side = _free_to_retreat_beside(table)
    events = table.do("retreat-to", by="alice", to=f"{side[0]},{side[1]}")
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind, asked.options) == (ME, "pursue", ("A",))
    table.refuse(IllegalCommand, "may not be attacked now", "pursue", 6, 1, units="Muetar-A1")
    events = table.do("pursue", 6, 1)  # 6+2 against 1+1: no retreat asked again
    assert not of(events, RetreatRolled)
    battle = fought(events)
    assert (battle.attacking, battle.defending, battle.defender_losses) == (2, 1, 1)
    asked = of(events, DecisionAsked)[0]
    assert asked.kind == "advance" and len(asked.options) == 2  # the space left, and the new
    table.do("advance-none")


def test_retreated_units_next_to_their_attackers_may_be_let_go(table: Table) -> None:
    """Combat Phase › Retreat Before Combat: the attacker may leave them be; the space they
    left is vacated (Advance After Combat)."""
    side = _free_to_retreat_beside(table)
    table.do("retreat-to", by="alice", to=f"{side[0]},{side[1]}")
    events = table.do("pursue-none")
    assert not of(events, BattleFought)
    assert of(events, DecisionAsked)[0].options == ("22,12",)
    table.do("advance-none")
    assert where(table, "A") == side


def test_the_player_chooses_the_heroes_riding_away_with_a_partial_retreat(table: Table) -> None:
    """Combat Phase › Retreat Before Combat: heroes do not retreat unless at least one
    friendly combat unit does, riding it away: here the king goes with the elves while
    the mercenaries stand."""
    plain_ally(table, "Neuth", "alice")
    place(table, FRONT, "Muetar-A1", "Muetar-A2", "Muetar-A3")
    hire(table, "A", ENEMY, "alice")
    place(table, ENEMY, "Neuth-A1", "Hothior-monarch")
    attack_enemy(table)
    table.do("retreat-roll", 3, by="alice")  # the elves may go, the mercenaries not
    wrong = {"to": "23,12", "heroes": "Muetar-monarch"}
    table.refuse(IllegalCommand, "not a hero of alice's", "retreat-to", by="alice", **wrong)
    events = table.do("retreat-to", by="alice", to="23,12", heroes="Hothior-monarch")
    assert set(of(events, UnitsRetreated)[0].units) == {"Neuth-A1", "Hothior-monarch"}
    assert where(table, "Hothior-monarch") == BEYOND and where(table, "A") == ENEMY


def test_units_attacked_after_retreating_are_not_attacked_again(table: Table) -> None:
    """Combat Phase › Which Units May Attack?: no combat unit is attacked twice in a
    Combat Phase: a retreated unit attacked all the same is not added to another attack."""
    side = _next_to_both()  # (21,11), next to (21,10), the attackers of attack 2
    place(table, FRONT, "Muetar-A1", "Muetar-A2")
    place(table, (21, 10), "Muetar-A3")
    hire(table, "A", ENEMY, "alice")
    hire(table, "B", (20, 11), "alice")
    table.do("attack-declare", attacks=("21,12>22,12", "21,10>20,11"))
    table.do("attack-resolve", number=1)
    table.do("retreat-roll", 5, by="alice")
    table.do("retreat-to", by="alice", to=f"{side[0]},{side[1]}")
    events = table.do("pursue", 1, 6)  # 1+2 against 6+1: carol loses both, A survives
    assert fought(events).attacker_losses == 2 and where(table, "A") == side
    events = table.do("attack-resolve", number=2, retreated=True)
    assert of(events, AttackBegun)[0].defenders == ("B",)
