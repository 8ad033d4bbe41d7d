"""The Game Turn, Player-Order Determination, Victory, Fate of Player Kingdoms and the
re-entry option, as a transcript of play with dice entered by hand."""

from __future__ import annotations

import pytest

from warscribe.engine.dice import Dice
from warscribe.engine.errors import (
    HiddenInformation,
    IllegalCommand,
    InvalidCommand,
    NotYourTurn,
    hidden_strictly,
)
from warscribe.engine.events import Event
from warscribe.engine.rulesets.divine_right.data import load_builtin
from warscribe.engine.rulesets.divine_right.events import (
    ConfusionBegan,
    DecisionAsked,
    GameEnded,
    KingdomDeactivated,
    PhaseEnded,
    PlayerEliminated,
    PlayerOrderDrawn,
    PlayerReentered,
    PointsForfeited,
    SiegeEnded,
    UnitsAwaitPlacement,
)
from warscribe.engine.rulesets.divine_right.kingdoms import effects, eliminate, score
from warscribe.engine.rulesets.divine_right.projections import vp
from warscribe.engine.rulesets.divine_right.state import PHASES

from .board import besiege, deciding, hex_of, put, spread
from .play import Table, of


def test_each_player_plays_the_five_phases_in_order() -> None:
    """The Game Turn: five phases per player turn, players in the drawn order."""
    table = Table()
    order = table.state.turn.order  # type: ignore[union-attr]
    seen = []
    for _ in range(len(order) * len(PHASES)):
        seen.append((table.player, table.phase()))
        table.to_phase(1, table.player, table.phase())
        if table.phase() == "random-events":
            table.do("events-roll", 3, 4)
        elif table.phase() == "diplomacy":
            table.do("diplomacy-draw")
        ended = of(table.do("end-phase"), PhaseEnded)
        assert ended
    assert seen == [(p, phase) for p in order for phase in PHASES]
    assert table.state.number == 2


def test_each_game_turn_draws_a_new_player_order_by_chits() -> None:
    """Player-Order Determination: one chit per player, lowest first, every turn."""
    table = Table()
    table.to_phase(3, table.player, "random-events")
    draws = [e.event for e in table.log if isinstance(e.event, PlayerOrderDrawn)]
    assert [d.turn for d in draws] == [1, 2, 3]
    for draw in draws:
        chits = dict(draw.chits)
        assert sorted(chits.values()) == [1, 2, 3]
        assert list(draw.order) == sorted(chits, key=chits.__getitem__)


def test_positions_name_turn_player_turn_and_phase() -> None:
    table = Table()
    assert table.head.marks == {} and table.state.turn.label == "1.1.random-events"  # type: ignore[union-attr]
    table.to_phase(1, table.state.turn.order[1], "diplomacy")  # type: ignore[union-attr]
    assert table.state.turn.label == "1.2.diplomacy"  # type: ignore[union-attr]
    assert "1.1.combat" in table.head.marks


def test_a_phase_cannot_end_before_its_duties() -> None:
    """The Game Turn: random events are rolled; a diplomacy card is drawn."""
    table = Table()
    table.refuse(IllegalCommand, "roll the random events first", "end-phase")
    table.refuse(InvalidCommand, "takes no argument order", "end-phase", order="1")
    table.refuse(InvalidCommand, "has no command .teleport.", "teleport")


def test_the_game_ends_after_turn_20_with_the_winner_by_victory_points() -> None:
    """Victory B: the most victory points after 20 turns."""
    table = Table()
    table.to_phase(20, table.player, "random-events")
    out = deciding(table.state)
    score(out, "bob", "Plundering Enemy Castle", 15)
    table.set_state(out.state)
    last = table.state.turn.order[-1]  # type: ignore[union-attr]
    table.to_phase(20, last, "combat")
    ended = of(table.do("end-phase"), GameEnded)[0]
    assert ended.winners == ("bob",) and dict(ended.scores)["bob"] == 15
    assert table.state.outcome is not None
    table.refuse(IllegalCommand, "the game is over", "events-roll", 3, 4, by=last)
    assert vp(table.state)["ledger"] == [
        {"turn": 20, "player": "bob", "deed": "Plundering Enemy Castle", "points": 15}
    ]


def eliminated(table: Table, player: str, *rolls: int) -> list[object]:
    dice = Dice(
        key=None,
        game_id=table.head.game_id,
        chain=bytes(32),
        next_index=table.head.dice_next,
        entered=list(rolls),
        entered_by="test",
    )
    out = deciding(table.state)
    out.dice = dice
    eliminate(out, player, "monarch killed")
    table.set_state(out.state)
    return out.events


def test_fate_of_player_kingdoms() -> None:
    """Kingdoms › Fate of Player Kingdoms: out of the game, units gone, allies
    deactivated, the kingdom a non-player kingdom in Confusion."""
    table = Table()
    table.set_kingdom("Neuth", ally="carol", activations=1, revealed=True)
    events = eliminated(table, "carol", 2)
    assert of(events, PlayerEliminated)[0].player == "carol"
    assert {e.kingdom for e in of(events, KingdomDeactivated)} == {"Neuth", "Muetar"}
    assert of(events, ConfusionBegan)[0].kingdom == "Muetar"
    assert table.state.kingdoms["Muetar"].status == "confusion" and not table.state.units_of(
        "Muetar"
    )
    assert table.state.player("carol").eliminated


def test_the_game_ends_when_one_player_monarch_remains() -> None:
    """Victory A: all opposing player monarchs eliminated."""
    table = Table()
    eliminated(table, "carol", 2)
    events = eliminated(table, "bob", 3)
    assert of(events, GameEnded)[0].winners == ("alice",)


def test_an_eliminated_player_plays_no_more_of_the_game_turn() -> None:
    """Kingdoms › Fate of Player Kingdoms: "A player is eliminated from the game": his
    player turn later in the game turn is skipped (issue #12, bug 1). Turn 1's order is
    carol, alice, bob."""
    table = Table()
    assert table.state.turn is not None and table.state.turn.order == ("carol", "alice", "bob")
    table.to_phase(1, "carol", "movement")
    # bob's monarch alone beside Muetar-A1; carol moves onto him: fate 1, Confusion 3
    put(table, "Mivior-monarch", (20, 11))
    events = table.do("move", 1, 3, units="Muetar-A1", path="20,11")
    assert of(events, PlayerEliminated)[0].player == "bob"
    # carol ends her movement and combat phases: alice's player turn follows
    table.do("end-phase")
    table.do("end-phase")
    assert table.state.turn is not None and table.state.turn.label == "1.2.random-events"
    table.refuse(NotYourTurn, "alice's turn", "events-roll", 6, 6, by="bob")
    # alice's player turn ends the game turn: bob's, third, is skipped
    table.to_phase(1, "alice", "combat")
    table.do("end-phase")
    assert table.state.turn is not None and table.state.turn.number == 2
    # the new order has only carol and alice
    assert sorted(table.state.turn.order) == ["alice", "carol"]


def test_the_game_turn_ends_when_the_players_left_to_play_are_eliminated() -> None:
    """Fate of Player Kingdoms: alice, last in turn 1's order, eliminated during carol's
    turn: bob's turn is the game turn's last (invalid sieges are displaced as it ends)."""
    table = Table()
    eliminated(table, "alice", 2)
    table.to_phase(1, "bob", "combat")
    assert table.state.next_player_turn() is None
    table.do("end-phase")
    assert table.state.turn is not None and table.state.turn.number == 2
    assert sorted(table.state.turn.order) == ["bob", "carol"]


def test_reentry_needs_the_option_and_forfeits_points() -> None:
    """Basic Game Optional Rules › Re-entry of Eliminated Players."""
    table = Table(options=(("reentry", True),))
    out = deciding(table.state)
    score(out, "carol", "Capturing Enemy Allied Monarch", 30)
    table.set_state(out.state)
    eliminated(table, "carol", 4)
    table.refuse(IllegalCommand, "consent", "rejoin", by="carol")
    events = table.do("rejoin", by="carol", consent="true")
    back = of(events, PlayerReentered)[0]
    assert table.state.kingdoms[back.kingdom].player == "carol"
    assert of(events, PointsForfeited)[0].points == 30
    assert vp(table.state)["totals"]["carol"] == 0
    assert not table.state.player("carol").eliminated


def test_reentry_may_draw_the_former_player_kingdom_in_its_confusion() -> None:
    """Basic Game Optional Rules › Re-entry of Eliminated Players: the draw is "from the
    currently available neutral monarchs (including his former player kingdom)". His
    kingdom is in Confusion for 2-7 turns after his elimination (Fate of Player Kingdoms);
    the rule names it all the same, so it can be drawn; another kingdom in Confusion has no
    monarch to draw (issue #18). Here the only neutral kingdoms are Neuth, in Confusion,
    and carol's Muetar."""
    table = Table(options=(("reentry", True),))
    eliminated(table, "carol", 4)
    assert table.state.kingdoms["Muetar"].status == "confusion"
    for name, standing in table.state.kingdoms.items():
        if standing.status == "inactive":
            table.set_kingdom(name, ally="alice")
    table.set_kingdom("Neuth", ally=None, confusion_until=5)
    events = table.do("rejoin", by="carol", consent="true")
    assert of(events, PlayerReentered)[0].kingdom == "Muetar"
    muetar = table.state.kingdoms["Muetar"]
    assert (muetar.player, muetar.status, muetar.confusion_until) == ("carol", "player", None)
    assert "Muetar-monarch" in table.state.units


def test_reentry_is_refused_without_the_option() -> None:
    table = Table()
    eliminated(table, "carol", 4)
    table.refuse(
        IllegalCommand, "without the re-entry option", "rejoin", by="carol", consent="true"
    )


@pytest.mark.parametrize("phase", PHASES[2:])
def test_siege_movement_and_combat_phases_can_be_passed_through(phase: str) -> None:
    table = Table()
    table.to_phase(1, table.player, phase)
    assert of(table.do("end-phase"), PhaseEnded)[0].phase == phase


def rejoined_as(kingdom: str) -> tuple[Table, list[Event]]:
    """carol, eliminated, re-enters when `kingdom` is the only neutral monarch left (every
    other inactive kingdom allied to alice): the rejoin's events."""
    table = Table(options=(("reentry", True),))
    eliminated(table, "carol", 4)
    for name, standing in table.state.kingdoms.items():
        if standing.status == "inactive" and name != kingdom:
            table.set_kingdom(name, ally="alice")
    events = table.do("rejoin", by="carol", consent="true")
    assert of(events, PlayerReentered)[0].kingdom == kingdom
    return table, events


def test_a_player_reentering_as_the_trolls_chooses_his_monarchs_space() -> None:
    """Basic Game Optional Rules › Re-entry of Eliminated Players; Special Rules for Select
    Kingdoms › The Trolls: the Trollish monarch enters play in a scenic space his player
    chooses."""
    table, _ = rejoined_as("Trolls")
    assert table.state.turn is not None
    pending = table.state.turn.progress.pending
    assert pending is not None and (pending.player, pending.kind) == ("carol", "troll-monarch")
    table.do("place", by="carol", at="The Shunned Vale")
    assert table.state.units["Trolls-monarch"].hex == load_builtin().place("The Shunned Vale").hex


def test_a_player_reentering_as_zorn_places_its_goblins() -> None:
    """Basic Game Optional Rules › Re-entry of Eliminated Players ("The player receives
    its full force pool for deployment"); Special Rules for Select Kingdoms › Zorn: he
    places the eleven goblins, one per mountain or pass space, none adjacent."""
    table, events = rejoined_as("Zorn")
    assert len(of(events, UnitsAwaitPlacement)[0].units) == 11
    assert table.state.turn is not None and table.state.turn.progress.pending is not None
    assert table.state.turn.progress.pending.player == "carol"
    spread(table)
    goblins = {u.hex for u in table.state.units_of("Zorn") if u.kind != "monarch"}
    assert len(goblins) == 11 and table.state.kingdoms["Zorn"].unplaced == ()


def test_every_command_names_the_rule_that_decides_it() -> None:
    """The audit cites a rulebook section for every Divine Right command."""
    from warscribe.engine.rulesets.divine_right import RULESET

    assert all(RULESET.rule_of(name) for name in RULESET.commands)
    assert RULESET.rule_of("diplomacy-activate") == "Diplomacy Phase › Activation Attempts"
    assert RULESET.rule_of("events-lose") == "Random Events Phase"


def test_a_face_down_personality_this_copy_cannot_see_is_hidden_not_absent() -> None:
    """Kingdoms › Personality cards are face down: in a player's copy (the deal's cards
    and pool hidden) a decision reading one raises HiddenInformation instead of deciding
    as if the monarch had no card (a player's import refused the referee's battle in
    Immer, whose monarch weakens his regulars) while the audit re-decides; a revealed card
    is read as it is."""
    table = Table()
    table.set_kingdom("Immer", personality=None)
    copy = table.state.replace(personality_pool=None)
    with hidden_strictly(), pytest.raises(HiddenInformation, match="Immer's monarch is face down"):
        effects(copy, load_builtin(), "Immer")
    assert effects(copy, load_builtin(), "Immer") == ()  # status, legal: as a player reads it
    assert effects(table.state, load_builtin(), "Immer") == ()
    revealed = copy.with_kingdom("Immer", personality=7, revealed=True)
    assert effects(revealed, load_builtin(), "Immer") == effects(
        table.state.with_kingdom("Immer", personality=7), load_builtin(), "Immer"
    )


def test_an_invalid_siege_is_displaced_when_the_last_player_is_eliminated_in_his_turn() -> None:
    """Siege Phase › Besieger Displacement: "the besieger must displace his forces from the
    space at the end of the current game turn", however the game turn ends. bob, last in
    turn 1's order, loses his lone monarch entering alice's Castle Lapspell (Hero Fate Roll
    7: killed) and is out of the game at once; carol is asked to displace her invalid
    siege of Tadafat before turn 2 begins, as when bob ends his Combat Phase (issue 34)."""
    table = Table()
    table.to_phase(1, "carol", "siege")
    for unit in ("Muetar-A1", "Muetar-A2"):
        put(table, unit, hex_of("Tadafat"))
    besiege(table, "Tadafat", "carol")
    table.do("siege-attack", 1, castles="Tadafat")
    table.do("losses", units="Muetar-A2")
    assert table.state.sieges[0].doomed
    table.to_phase(1, "bob", "movement")
    put(table, "Mivior-monarch", (13, 17))
    events = table.do("move", 1, 3, units="Mivior-monarch", path="Castle Lapspell")
    assert of(events, PlayerEliminated)[0].player == "bob"
    asked = of(events, DecisionAsked)
    assert [(a.player, a.kind, a.options) for a in asked] == [("carol", "displace", ("Tadafat",))]
    assert table.state.number == 1
    events = table.do("siege-displace", by="carol", to="9,14")
    assert of(events, SiegeEnded)[0].castle == "Tadafat"
    assert table.state.number == 2
