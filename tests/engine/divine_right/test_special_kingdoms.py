"""Special Rules for Select Kingdoms (the Trolls, Zorn, Shucassam's Obelisk; Hothior and
Rombune are in test_fleets) and the Activation of Invaded Inactive Kingdoms."""

from __future__ import annotations

from uuid import UUID

from warscribe.engine.dice import Dice
from warscribe.engine.errors import IllegalCommand, NotYourTurn
from warscribe.engine.events import Event
from warscribe.engine.rulesets.divine_right import special_kingdoms
from warscribe.engine.rulesets.divine_right.events import (
    DecisionAsked,
    KingdomActivated,
    MonarchCrowned,
    PenaltyIncurred,
    TrollRegenerated,
    UnitsRelocated,
)
from warscribe.engine.rulesets.divine_right.evolving import Outcome
from warscribe.engine.rulesets.divine_right.kingdoms import activate
from warscribe.engine.rulesets.divine_right.neutrals import invaded
from warscribe.engine.rulesets.divine_right.places import hex_arg
from warscribe.engine.rulesets.divine_right.state import Hex

from .board import DATA, ally, eliminate, hex_of, movement, put
from .play import Table, of

ME = "carol"


def regenerated(table: Table) -> list[TrollRegenerated]:
    return [e.event for e in table.log if isinstance(e.event, TrollRegenerated)]


def next_game_turn(table: Table) -> list[Event]:
    """Play quiet phases to the last player's Combat Phase and close it: the events of the
    new game turn's beginning."""
    assert table.state.turn is not None
    table.to_phase(table.state.number, table.state.turn.order[-1], "combat")
    return table.do("end-phase")


def test_the_trolls_regenerate_one_eliminated_regular_each_turn() -> None:
    """Special Rules for Select Kingdoms › The Trolls: one eliminated regular back at its
    original deployment space at the beginning of each turn; the Trolls' controller
    chooses which."""
    table = Table()
    ally(table, "Trolls", ME)
    eliminate(table, "Trolls-A3", "Trolls-A5")
    events = next_game_turn(table)
    asked = of(events, DecisionAsked)[0]
    assert (asked.player, asked.kind) == (ME, special_kingdoms.REGENERATE)
    assert asked.options == ("Trolls-A3 at The Crag", "Trolls-A5 at The Digs")
    assert regenerated(table) == []
    table.refuse(IllegalCommand, "must first decide", "events-roll", 3, 4)
    table.refuse(
        IllegalCommand, "choose one of", "place", by=ME, units="Trolls-A7", at="The Shunned Vale"
    )
    table.refuse(IllegalCommand, "choose one of", "place", by=ME, units="Trolls-A3", at="The Digs")
    table.refuse(NotYourTurn, "carol must decide", "place", by="bob", units="Trolls-A5")
    table.do("place", by=ME, units="Trolls-A5")
    assert [(r.unit, r.place) for r in regenerated(table)] == [("Trolls-A5", "The Digs")]
    assert table.state.units["Trolls-A5"].hex == hex_of("The Digs")
    next_game_turn(table)  # one left that may return: no question asked
    assert [r.unit for r in regenerated(table)] == ["Trolls-A5", "Trolls-A3"]
    assert not table.state.kingdoms["Trolls"].eliminated


def test_trolls_lost_through_random_events_are_not_regenerated_that_game_turn() -> None:
    """Special Rules for Select Kingdoms › The Trolls: "Any Troll regulars lost through
    Random Events may not be regenerated in the same game turn"."""
    table = Table()
    ally(table, "Trolls", ME)
    table.to_phase(2, ME, "random-events")
    eliminate(table, "Trolls-A5")
    table.do("events-roll", 1, 3)  # Mutiny: one friendly regular lost
    table.do("events-lose", unit="Trolls-A3")
    assert table.state.lost_to_events == (("Trolls-A3", 2),)
    out = Outcome(table.state)  # a regeneration within game turn 2 passes it over
    special_kingdoms._regenerate(out, DATA, Dice(table.key, UUID(int=7), bytes(32), 10_000))
    assert [e.unit for e in of(out.events, TrollRegenerated)] == ["Trolls-A5"]
    table.do("end-phase")
    asked = of(next_game_turn(table), DecisionAsked)[0]  # game turn 3: it may return
    assert asked.options == ("Trolls-A3 at The Crag", "Trolls-A5 at The Digs")


def test_a_troll_is_not_regenerated_into_an_enemy_held_space() -> None:
    """Special Rules for Select Kingdoms › The Trolls: if the deployment space is
    enemy-occupied, no regeneration that turn."""
    table = Table()
    ally(table, "Trolls", ME)
    eliminate(table, "Trolls-A3", "Trolls-A4")
    put(table, "Hothior-A1", "The Crag")
    table.to_phase(2, table.player, "random-events")
    assert regenerated(table) == []


def test_the_face_is_the_trolls_royal_seat() -> None:
    """Special Rules for Select Kingdoms › The Trolls: The Face serves as their royal
    castle (their monarch enters play there)."""
    table = Table()
    ally(table, "Trolls", ME)
    assert table.state.units["Trolls-monarch"].hex == hex_of("The Face")
    assert special_kingdoms.TROLLS in table.state.alliance(ME)


def test_the_trollish_monarch_enters_play_in_a_scenic_space_his_player_chooses() -> None:
    """Special Rules for Select Kingdoms › The Trolls: "The Trollish monarch may enter
    play in any of the four scenic spaces of the Troll kingdom"."""
    table = Table()
    put(table, "Hothior-A1", "The Digs")
    out = Outcome(table.state)
    activate(out, DATA, "Trolls", ME, "test", Dice(table.key, UUID(int=7), bytes(32), 10_000))
    table.set_state(out.state)
    asked = of(out.events, DecisionAsked)[-1]
    assert (asked.player, asked.kind) == (ME, special_kingdoms.TROLL_MONARCH)
    assert asked.options == tuple(
        f"Trolls-monarch at {p}" for p in ("The Face", "The Crag", "The Shunned Vale")
    )
    table.refuse(IllegalCommand, "choose one of", "place", by=ME, at="The Digs")
    table.refuse(IllegalCommand, "must first decide", "events-roll", 3, 4, by=ME)
    events = table.do("place", by=ME, at="The Crag")
    assert of(events, UnitsRelocated)[0].units == ("Trolls-monarch",)
    assert table.state.units["Trolls-monarch"].hex == hex_of("The Crag")
    assert table.state.turn is not None and table.state.turn.progress.pending is None


def test_a_trolls_player_chooses_where_his_monarch_enters_play_at_setup() -> None:
    """Special Rules for Select Kingdoms › The Trolls: the same choice for a player whose
    identity card is the Trolls, asked as the game begins."""
    table = Table({"alice": "Trolls", "bob": "Mivior", "carol": "Muetar"})
    assert table.state.turn is not None
    pending = table.state.turn.progress.pending
    assert pending is not None and (pending.player, pending.kind) == ("alice", "troll-monarch")
    assert len(pending.options) == 4
    table.refuse(IllegalCommand, "alice must first decide", "events-roll", 3, 4)
    table.do("place", by="alice", units="Trolls-monarch", at="The Digs")
    assert table.state.units["Trolls-monarch"].hex == hex_of("The Digs")
    assert table.state.turn.progress.pending is None


def test_zorn_goblins_hold_mountains_and_passes_one_per_space_none_adjacent() -> None:
    """Special Rules for Select Kingdoms › Zorn: deployed on Zorn's mountain and pass
    spaces, one per space, no two adjacent."""
    table = Table()
    ally(table, "Zorn", ME)
    spread = [u.hex for u in table.state.units_of("Zorn") if u.id[-2:] not in ("A1", "A2", "A3")]
    spread = [h for h in spread if h != hex_of("The Pits")]
    assert len(spread) == len(set(spread)) == 8
    for hex_ in spread:
        place = DATA.map.get(*hex_)
        assert place is not None and place.kingdom == "Zorn"
        assert {t.value for t in place.terrain} & {"MOUNTAIN", "PASS"}
        assert not set(DATA.map.neighbours(*hex_)) & set(spread)


def test_the_obelisk_is_wasteland_in_the_basic_game() -> None:
    """Special Rules for Select Kingdoms › Shucassam: the Obelisk is not part of
    Shucassam: entering it is no violation."""
    table = Table()
    movement(table, ME)
    put(table, "Muetar-A1", (18, 21))
    assert not of(table.do("move", units="Muetar-A1", path="The Obelisk"), PenaltyIncurred)
    assert of(table.do("move", units="Muetar-A1", path="18,23"), PenaltyIncurred)


def invade(table: Table, castle: str = "Kuzdol") -> list[object]:
    out = Outcome(table.state)
    invaded(out, DATA, castle, ME, Dice(table.key, UUID(int=7), bytes(32), 10_000))
    table.set_state(out.state)
    return list(out.events)


def test_an_invaded_kingdom_joins_another_player_at_random() -> None:
    """Activation of Invaded Inactive Kingdoms: a player besieging a castle of an inactive
    kingdom makes it activate at once for another player, randomly determined; units whose
    non-castle deployment space the enemy holds "may be placed in any space of the
    kingdom" (the new ally chooses); those of the besieged castle deploy regardless."""
    table = Table()
    lepers: Hex = hex_of("Lepers")
    put(table, "Muetar-A1", lepers)
    events = invade(table)
    activated = of(events, KingdomActivated)[0]
    assert activated.kingdom == "Shucassam" and activated.ally in ("alice", "bob")
    kuzdol = [u for u in table.state.units_of("Shucassam") if u.hex == hex_of("Kuzdol")]
    assert kuzdol
    asked = of(events, DecisionAsked)[0]
    assert asked.player == activated.ally and asked.kind == "invaded-setup"
    units = [u.id for u in table.state.units_of("Shucassam") if u.hex == lepers]
    assert all(o.startswith(",".join(units) + " at ") for o in asked.options)
    assert "Lepers" not in " ".join(asked.options)
    target = asked.options[-1].partition(" at ")[2]
    table.refuse(IllegalCommand, "choose one of", "place", by=asked.player, at="Lepers")
    table.refuse(NotYourTurn, "must decide", "place", by=ME, at=target)
    relocated = of(table.do("place", by=asked.player, at=target), UnitsRelocated)[0]
    assert relocated.hex == hex_arg(DATA, target, "") != lepers
    assert DATA.map.get(*relocated.hex).kingdom == "Shucassam"  # type: ignore[union-attr]
    assert {table.state.units[u].hex for u in units} == {relocated.hex}


def test_an_invaded_kingdom_in_confusion_crowns_a_monarch_and_activates() -> None:
    """Activation of Invaded Inactive Kingdoms: even in Confusion (a new monarch is
    selected) or under Forced Peace."""
    table = Table()
    table.set_kingdom("Shucassam", confusion_until=9, personality=None)
    events = invade(table)
    assert of(events, MonarchCrowned) and of(events, KingdomActivated)
    table.set_kingdom("Rombune", peace_until=9)
    invade(table, "Parros")
    assert table.state.kingdoms["Rombune"].status == "active"
    assert invade(table, "Parros") == []
