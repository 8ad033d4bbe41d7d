"""Cargo travels with its fleet and dies with it (Movement Phase › Transporting Troops;
Combat Phase › Making Attacks: "Land units aboard eliminated fleets are also
eliminated"; Random Events Phase › Storms, Mutiny, Desertion; Replacements/Reinforcements:
nobody steals a fleet transporting enemy troops). Positions found in seeded play (issue
#17, items 4 and 5; issue #12, bug 2); `play.Table` checks every position after every
command (`invariants.check_invariants`).

In play.Table's game carol (Muetar) plays first on turn 1, then alice (Hothior), then bob
(Mivior). Dice are entered by hand.
"""

from __future__ import annotations

import pytest

from warscribe.engine.rulesets.divine_right.events import (
    CargoLost,
    KingdomActivated,
    UnitsRetreated,
)
from warscribe.engine.rulesets.divine_right.random_events import MercenaryEntered, UnitsLost

from .board import EVENT_ROLLS, SEA, ally, hex_of, hire, put, where
from .play import Table, of


def test_fleets_retreating_before_combat_take_their_cargo_along() -> None:
    """Combat Phase › Retreat Before Combat: Rombune's fleet (alice's ally) carrying an
    army retreats from bob's fleet attack; the army aboard goes with it (issue #17, 4)."""
    table = Table()
    ally(table, "Rombune", "alice")
    put(table, "Rombune-F2", (3, 29))
    put(table, "Rombune-A4", (3, 29), aboard="Rombune-F2")
    put(table, "Mivior-F1", (3, 28))
    table.to_phase(1, "bob", "combat")
    # bob's fleet attacks; alice rolls a 6 for her fleet and retreats it to (3,30)
    table.do("attack-declare", attacks=("fleet:Mivior-F1>3,29",))
    table.do("attack-resolve", number=1)
    table.do("retreat-roll", 6, by="alice", space="3,29", fleets=True)
    events = table.do("retreat-to", by="alice", to="3,30", space="3,29", fleets=True)
    assert of(events, UnitsRetreated)[0].units == ("Rombune-F2",)
    assert where(table, "Rombune-F2") == where(table, "Rombune-A4") == (3, 30)
    assert table.state.units["Rombune-A4"].aboard == "Rombune-F2"


@pytest.mark.parametrize("event", ["Mutiny", "Desertion"])
def test_a_fleet_lost_to_a_random_event_takes_its_cargo_with_it(event: str) -> None:
    """Random Events Phase › Mutiny, Desertion (as Storms): carol's mercenary fleet K,
    carrying Muetar-A1, is lost, and Muetar-A1 with it (issue #12, bug 2: it stayed on
    the map aboard a fleet gone back to the pool). When alice later brings K in as a
    reinforcement it carries nothing (issue #17, 5: she "stole" a fleet carrying enemy
    troops)."""
    table = Table()
    hire(table, "K", SEA, "carol")
    put(table, "Muetar-A1", SEA, aboard="K")
    # carol rolls the event and chooses K
    table.do("events-roll", *EVENT_ROLLS[event])
    events = table.do("events-lose", units="K")
    assert of(events, UnitsLost)[0].units == ("K",)
    assert of(events, CargoLost)[0].units == ("Muetar-A1",)
    assert "Muetar-A1" not in table.state.units
    assert "Muetar-A1" in table.state.kingdoms["Muetar"].eliminated
    # alice's Reinforcements: the pool's fleet K enters at her castle-port Lapspell, empty
    table.do("end-phase")
    table.to_phase(1, "alice", "random-events")
    table.do("events-roll", *EVENT_ROLLS["Reinforcements"])
    events = table.do("events-reinforce", kind="fleet", at="Castle Lapspell")
    assert of(events, MercenaryEntered)[0].unit == "K"
    assert where(table, "K") == hex_of("Castle Lapspell")
    assert not [u for u in table.state.units.values() if u.aboard == "K"]


def test_a_fleet_lost_to_an_epidemic_takes_its_cargo_with_it() -> None:
    """Random Events Phase › Epidemic: one combat unit of the largest stack is lost; carol's
    only stack is her mercenary fleet K at sea carrying Muetar-A1, and she chooses K:
    Muetar-A1 goes down with it (issue #12, bug 2, as with Mutiny and Desertion)."""
    table = Table()
    hire(table, "K", SEA, "carol")
    put(table, "Muetar-A1", SEA, aboard="K")
    others = [
        u.id for u in table.state.units_of("Muetar") if u.id != "Muetar-A1" and u.kind != "hero"
    ]
    table.set_state(table.state.without_units(others))
    # carol rolls the Epidemic: the stack at sea is her largest; she loses K
    table.do("events-roll", *EVENT_ROLLS["Epidemic"])
    events = table.do("events-lose", units="K")
    assert of(events, CargoLost)[0] == CargoLost(fleet="K", units=("Muetar-A1",))
    assert "Muetar-A1" not in table.state.units and "K" not in table.state.units


def test_a_fleet_removed_with_its_deactivated_kingdom_takes_its_cargo_with_it() -> None:
    """Kingdoms › Deactivation of Kingdoms: "the forces of a deactivated kingdom are
    removed from the map"; a Muetaran army aboard a fleet of carol's ally Rombune goes
    with the fleet, as with any fleet lost (issue #17, 6b: it stayed aboard a fleet no
    longer on the map, and turned up aboard it elsewhere once Rombune was activated
    again)."""
    table = Table()
    ally(table, "Rombune", "carol")
    put(table, "Rombune-F1", SEA)
    put(table, "Muetar-A1", SEA, aboard="Rombune-F1")
    # carol's Random Events: Untimely Death (1+1) of her only ally's monarch; Confusion 4
    events = table.do("events-roll", 1, 1, 4)
    assert of(events, CargoLost)[0] == CargoLost(fleet="Rombune-F1", units=("Muetar-A1",))
    assert "Rombune-F1" not in table.state.units and "Muetar-A1" not in table.state.units


def test_a_fleet_that_leaves_and_rejoins_play_at_once_carries_nothing_it_carried() -> None:
    """Diplomacy Phase › Deactivation Attempts; personality 12, Treacherous: "When
    deactivated, he joins the alliance of the ambassador who deactivated him." Bob
    deactivates alice's ally Rombune, whose fleet carries alice's Hothior-A1 at sea:
    Rombune's units leave the map and deploy again for bob; the army went down with the
    fleet and is not found aboard bob's fleet in its deployment space."""
    table = Table()
    ally(table, "Rombune", "alice")
    table.set_kingdom("Rombune", personality=12, revealed=True)
    put(table, "Rombune-F1", SEA)
    put(table, "Hothior-A1", SEA, aboard="Rombune-F1")
    table.to_phase(1, "bob", "diplomacy")
    table.do("diplomacy-draw")
    hand = (*table.state.player("bob").hand, "bribe+1#1")
    table.set_state(table.state.with_player("bob", hand=hand))
    # bob's 6 with the +1 bribe deactivates Rombune, which joins bob
    events = table.do("diplomacy-deactivate", 6, kingdom="Rombune", card="bribe+1#1")
    assert of(events, KingdomActivated)[0].ally == "bob"
    assert of(events, CargoLost)[0] == CargoLost(fleet="Rombune-F1", units=("Hothior-A1",))
    assert "Hothior-A1" not in table.state.units and "Rombune-F1" in table.state.units
