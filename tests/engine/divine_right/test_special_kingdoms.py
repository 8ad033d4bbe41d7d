"""Special Rules for Select Kingdoms (the Trolls, Zorn, Shucassam's Obelisk; Hothior and
Rombune are in test_fleets) and the Activation of Invaded Inactive Kingdoms."""

from __future__ import annotations

from uuid import UUID

from warscribe.engine.dice import Dice
from warscribe.engine.errors import IllegalCommand, NotYourTurn
from warscribe.engine.events import Event
from warscribe.engine.rulesets.divine_right import special_kingdoms
from warscribe.engine.rulesets.divine_right.arguments import hex_arg
from warscribe.engine.rulesets.divine_right.data import Terrain
from warscribe.engine.rulesets.divine_right.events import (
    DecisionAsked,
    KingdomActivated,
    MonarchCrowned,
    PenaltyIncurred,
    PlacementBlocked,
    TrollRegenerated,
    UnitPlaced,
    UnitsAwaitPlacement,
    UnitsRelocated,
)
from warscribe.engine.rulesets.divine_right.inactive_kingdoms import invaded
from warscribe.engine.rulesets.divine_right.kingdoms import activate
from warscribe.engine.rulesets.divine_right.state import Hex, Pending

from .board import DATA, ally, deciding, eliminate, hex_of, movement, put, spread
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
    out = deciding(table.state)  # a regeneration within game turn 2 passes it over
    out.dice = Dice(table.key, UUID(int=7), bytes(32), 10_000)
    special_kingdoms.regenerate(out)
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
    out = deciding(table.state)
    out.dice = Dice(table.key, UUID(int=7), bytes(32), 10_000)
    activate(out, "Trolls", ME, "test")
    table.set_state(out.state)
    asked = of(out.events, DecisionAsked)[-1]
    assert (asked.player, asked.kind) == (ME, special_kingdoms.TROLL_MONARCH)
    assert asked.options == tuple(
        f"Trolls-monarch at {p}" for p in ("The Crag", "The Face", "The Shunned Vale")
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


ZORN_RULE = r"\(Special Rules for Select Kingdoms › Zorn\)"


def goblin_spaces(table: Table) -> list[Hex]:
    return [u.hex for u in table.state.units_of("Zorn") if u.kind != "monarch"]


def asked_now(table: Table) -> Pending:
    assert table.state.turn is not None and table.state.turn.progress.pending is not None
    return table.state.turn.progress.pending


def test_a_zorn_player_places_his_goblins_one_per_mountain_or_pass_none_adjacent() -> None:
    """Special Rules for Select Kingdoms › Zorn: "Their units must be deployed on the
    mountain and pass spaces of Zorn; only one may be placed per space, and no two may be
    deployed in adjacent spaces. This rule must be followed both when setting up and when
    bringing in replacements." The rule leaves the spaces to the player: he is asked."""
    table = Table({"alice": "Zorn", "bob": "Mivior", "carol": "Muetar"})
    # As the game begins, Zorn's king is in The Pits; its 11 goblins wait for alice.
    assert table.state.units["Zorn-monarch"].hex == hex_of("The Pits")
    assert goblin_spaces(table) == [] and len(table.state.kingdoms["Zorn"].unplaced) == 11
    asked = asked_now(table)
    assert (asked.player, asked.kind) == ("alice", special_kingdoms.SPREAD)
    assert len(asked.options) == 34 and asked.options[0].startswith("Zorn-A1 at ")
    # Nothing else happens until she has placed them.
    table.refuse(IllegalCommand, "alice must first decide", "events-roll", 3, 4)
    # The Pits, a castle, is no mountain: refused, citing the rule.
    table.refuse(
        IllegalCommand, "not a mountain or pass space of Zorn", "place", by="alice", at="The Pits"
    )
    table.refuse(IllegalCommand, ZORN_RULE, "place", by="alice", at="The Pits")
    # The first goblin goes to Snow Pass (19,5).
    table.do("place", by="alice", at="Snow Pass")
    assert table.state.units["Zorn-A1"].hex == (19, 5)
    # A second one there, or next to it (19,4), is refused.
    table.refuse(IllegalCommand, "already there", "place", by="alice", at="Snow Pass")
    table.refuse(IllegalCommand, "no two may be in adjacent", "place", by="alice", at="19,4")
    # She places the other ten, each in the first space offered.
    spread(table)
    spaces = goblin_spaces(table)
    assert len(spaces) == len(set(spaces)) == 11
    for hex_ in spaces:
        place = DATA.map.get(*hex_)
        assert place is not None and place.kingdom == "Zorn"
        assert place.terrain & {Terrain.MOUNTAIN, Terrain.PASS}
        assert not set(DATA.map.neighbours(*hex_)) & set(spaces)
    assert table.state.kingdoms["Zorn"].unplaced == ()
    assert table.state.turn is not None and table.state.turn.progress.pending is None


def test_each_space_offered_leaves_room_for_the_goblins_still_to_come() -> None:
    """Special Rules for Select Kingdoms › Zorn: with nine goblins placed and two to
    come, three spaces are free in a row (21,0 22,0 23,0): the middle one would leave no
    room for the eleventh, so it is not offered; the last goblin's one space is taken."""
    table = Table({"alice": "Zorn", "bob": "Mivior", "carol": "Muetar"})
    nine = ["26,4", "23,6", "25,6", "25,2", "21,6", "20,4", "19,7", "19,0", "18,4"]
    for space in nine:
        table.do("place", by="alice", at=space)
    assert [o.partition(" at ")[2] for o in asked_now(table).options] == ["21,0", "23,0"]
    table.refuse(IllegalCommand, "leave no room", "place", by="alice", at="22,0")
    events = table.do("place", by="alice", at="21,0")
    assert [(e.unit, e.hex) for e in of(events, UnitPlaced)] == [
        ("Zorn-A10", (21, 0)),
        ("Zorn-A11", (23, 0)),
    ]
    assert table.state.turn is not None and table.state.turn.progress.pending is None


def test_the_player_activating_zorn_places_its_goblins() -> None:
    """Special Rules for Select Kingdoms › Zorn; Kingdoms › Activation of Kingdoms: the
    monarch in the royal castle; the goblins placed by the new ally, never where an enemy
    stands."""
    table = Table()
    put(table, "Muetar-A1", "Snow Pass")
    out = deciding(table.state)
    out.dice = Dice(table.key, UUID(int=7), bytes(32), 10_000)
    activate(out, "Zorn", "alice", "test")
    table.set_state(out.state)
    assert of(out.events, UnitsAwaitPlacement)[0].units == tuple(f"Zorn-A{n}" for n in range(1, 12))
    asked = of(out.events, DecisionAsked)[-1]
    assert (asked.player, asked.kind) == ("alice", special_kingdoms.SPREAD)
    assert "Zorn-A1 at Snow Pass" not in asked.options and len(asked.options) == 33
    table.refuse(IllegalCommand, "held by the enemy", "place", by="alice", at="Snow Pass")
    spread(table)
    assert len(set(goblin_spaces(table))) == 11 and (19, 5) not in goblin_spaces(table)


def test_with_enemies_on_the_mountains_as_many_goblins_as_fit_are_placed() -> None:
    """Special Rules for Select Kingdoms › Zorn (reading): nine Muetaran armies hold
    mountains and passes of Zorn where only ten goblins then fit: each space offered
    leaves room for as many of the others as can still be placed, so ten are placed and
    the eleventh stays out, eliminated."""
    table = Table()
    held = [(18, 0), (20, 6), (19, 0), (20, 0), (21, 0), (22, 0), (23, 0), (18, 1), (19, 1)]
    for n, hex_ in enumerate(held, 1):
        put(table, f"Muetar-A{n}", hex_)
    ally(table, "Zorn", "alice")
    assert len(set(goblin_spaces(table))) == 10
    assert table.state.kingdoms["Zorn"].eliminated == {"Zorn-A11"}
    assert not set(goblin_spaces(table)) & set(held)


def test_goblins_with_no_space_left_stay_out_of_play_as_eliminated() -> None:
    """Special Rules for Select Kingdoms › Zorn (reading): a goblin entering play with no
    mountain or pass space the rule allows does not enter; it counts as eliminated, to
    come back as a replacement when there is room."""
    table = Table()
    ally(table, "Zorn", ME)
    eliminate(table, "Zorn-A11")
    # Hothioran armies hold every mountain and pass space the ten goblins leave free.
    spaces = set(goblin_spaces(table))
    near = spaces.union(*(DATA.map.neighbours(*h) for h in spaces))
    free = [h for h in DATA.spread_hexes(DATA.unit("Zorn-A1")) if h not in near]
    armies = [u.id for u in table.state.units_of("Hothior") if u.kind == "army"]
    assert 0 < len(free) <= len(armies)
    for unit, hex_ in zip(armies, free, strict=False):
        put(table, unit, hex_)
    table.set_kingdom("Zorn", eliminated=frozenset(), unplaced=("Zorn-A11",))
    out = deciding(table.state)
    special_kingdoms.next_spread(out, "Zorn")
    blocked = of(out.events, PlacementBlocked)[0]
    assert blocked.units == ("Zorn-A11",)
    assert out.state.kingdoms["Zorn"].eliminated == {"Zorn-A11"}
    assert out.state.kingdoms["Zorn"].unplaced == ()


def test_the_obelisk_is_wasteland_in_the_basic_game() -> None:
    """Special Rules for Select Kingdoms › Shucassam: the Obelisk is not part of
    Shucassam: entering it is no violation."""
    table = Table()
    movement(table, ME)
    put(table, "Muetar-A1", (18, 21))
    assert not of(table.do("move", units="Muetar-A1", path="The Obelisk"), PenaltyIncurred)
    assert of(table.do("move", units="Muetar-A1", path="18,23"), PenaltyIncurred)


def invade(table: Table, castle: str = "Kuzdol") -> list[object]:
    out = deciding(table.state)
    out.dice = Dice(table.key, UUID(int=7), bytes(32), 10_000)
    invaded(out, castle, ME)
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
