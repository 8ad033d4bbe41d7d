"""Special Rules for Select Kingdoms (the Trolls, Zorn, Shucassam's Obelisk; Hothior and
Rombune are in test_fleets) and the Activation of Invaded Inactive Kingdoms."""

from __future__ import annotations

from uuid import UUID

from warscribe.engine.dice import Dice
from warscribe.engine.rulesets.divine_right import special_kingdoms
from warscribe.engine.rulesets.divine_right.events import (
    KingdomActivated,
    MonarchCrowned,
    PenaltyIncurred,
    TrollRegenerated,
    UnitsRelocated,
)
from warscribe.engine.rulesets.divine_right.evolving import Outcome
from warscribe.engine.rulesets.divine_right.neutrals import invaded
from warscribe.engine.rulesets.divine_right.state import Hex

from .board import DATA, ally, hex_of, movement, put
from .play import Table, of

ME = "carol"


def lose(table: Table, *units: str) -> None:
    """Regulars eliminated earlier (in combat, say)."""
    for unit in units:
        kingdom = table.state.units[unit].kingdom
        eliminated = table.state.kingdoms[kingdom].eliminated | {unit}
        table.set_state(
            table.state.without_units([unit]).with_kingdom(kingdom, eliminated=eliminated)
        )


def regenerated(table: Table) -> list[TrollRegenerated]:
    return [e.event for e in table.log if isinstance(e.event, TrollRegenerated)]


def test_the_trolls_regenerate_one_eliminated_regular_each_turn() -> None:
    """Special Rules for Select Kingdoms › The Trolls: one eliminated regular back at its
    original deployment space at the beginning of each turn."""
    table = Table()
    ally(table, "Trolls", ME)
    lose(table, "Trolls-A3", "Trolls-A5")
    table.to_phase(2, table.player, "random-events")
    assert [(r.unit, r.place) for r in regenerated(table)] == [("Trolls-A3", "The Crag")]
    assert table.state.units["Trolls-A3"].hex == hex_of("The Crag")
    table.to_phase(3, table.player, "random-events")
    assert [r.unit for r in regenerated(table)] == ["Trolls-A3", "Trolls-A5"]
    assert not table.state.kingdoms["Trolls"].eliminated


def test_a_troll_is_not_regenerated_into_an_enemy_held_space() -> None:
    """Special Rules for Select Kingdoms › The Trolls: if the deployment space is
    enemy-occupied, no regeneration that turn."""
    table = Table()
    ally(table, "Trolls", ME)
    lose(table, "Trolls-A3", "Trolls-A4")
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
    deployment space the enemy holds set up elsewhere in the kingdom; those of the besieged
    castle deploy regardless."""
    table = Table()
    lepers: Hex = hex_of("Lepers")
    put(table, "Muetar-A1", lepers)
    events = invade(table)
    activated = of(events, KingdomActivated)[0]
    assert activated.kingdom == "Shucassam" and activated.ally in ("alice", "bob")
    relocated = of(events, UnitsRelocated)[0]
    assert relocated.hex != lepers and DATA.map.get(*relocated.hex).kingdom == "Shucassam"  # type: ignore[union-attr]
    kuzdol = [u for u in table.state.units_of("Shucassam") if u.hex == hex_of("Kuzdol")]
    assert kuzdol


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
