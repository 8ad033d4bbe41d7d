"""Random Events Phase: the table's eleven results, the choices they ask for, "impossible
→ no event", Replacements/Reinforcements, the Deployment of Common Mercenary
Reinforcements, and the common mercenary pool's data file.

Dice are entered by hand (table mode); random picks are derived rolls. In play.Table's
game carol (Muetar: five castles, none a port) rolls first.
"""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from warscribe.engine import codec
from warscribe.engine.dice import Dice
from warscribe.engine.errors import DataError, IllegalCommand, InvalidCommand, NotYourTurn
from warscribe.engine.events import DiceRolled, Event
from warscribe.engine.offers import expanded
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right import random_events
from warscribe.engine.rulesets.divine_right.data import load_builtin, load_files
from warscribe.engine.rulesets.divine_right.domains import hex_text
from warscribe.engine.rulesets.divine_right.events import (
    ConfusionBegan,
    DecisionAsked,
    HeroFateRolled,
    KingdomActivated,
    MonarchCrowned,
    MonarchDied,
)
from warscribe.engine.rulesets.divine_right.kingdoms import eliminate as eliminate_player
from warscribe.engine.rulesets.divine_right.random_events import (
    BadOmensFell,
    MercenaryEntered,
    RandomEventVoid,
    RandomlyPicked,
    RegularReplaced,
    ReinforcementsDeclined,
    UnitsLost,
)
from warscribe.engine.rulesets.divine_right.state import MERCENARY, Pending, Unit

from . import board
from .board import EVENT_ROLLS, SEA, besiege, deciding, eliminate, hex_of, hire, put
from .play import Table, of

ME = "carol"
DATA = load_builtin()


@pytest.fixture
def table() -> Table:
    game = Table()
    assert game.player == ME and game.phase() == "random-events"
    return game


# -- arranging the board -------------------------------------------------------------------


def ally(table: Table, kingdom: str, player: str = ME) -> None:
    """The kingdom activated into `player`'s alliance (as diplomacy would) this turn."""
    board.ally(table, kingdom, player, fresh=True)


def roll(table: Table, event: str, *more: int) -> list[Event]:
    events = table.do("events-roll", *EVENT_ROLLS[event], *more)
    assert of(events, random_events.RandomEventRolled)[0].event == event
    return events


def asked(table: Table) -> Pending:
    assert table.state.turn is not None
    pending = table.state.turn.progress.pending
    assert pending is not None
    return pending


def void(events: list[Event], event: str) -> RandomEventVoid:
    (found,) = of(events, RandomEventVoid)
    assert isinstance(found, RandomEventVoid) and found.event == event
    return found


def regulars(table: Table, kingdom: str) -> set[str]:
    return {u.id for u in table.state.units_of(kingdom) if u.kind != "monarch"}


# -- the table -----------------------------------------------------------------------------


def test_7_no_event() -> None:
    """Random Events Phase: a 7 is "No Event"; the phase may end."""
    table = Table()
    assert [type(e) for e in table.do("events-roll", 3, 4)] == [
        DiceRolled,
        random_events.RandomEventRolled,
    ]
    table.do("end-phase")


def test_2_untimely_death_kills_a_randomly_picked_allied_monarch(table: Table) -> None:
    """Random Events Phase › Untimely Death: one of your allied non-player monarchs dies,
    chosen at random (a derived roll); his kingdom goes into Confusion for 1d6 turns."""
    ally(table, "Neuth")
    ally(table, "Pon")
    events = roll(table, "Untimely Death", 4)
    (picked,) = of(events, RandomlyPicked)
    assert picked.candidates == ("Neuth", "Pon") and picked.picked in ("Neuth", "Pon")
    pick_roll = [e for e in of(events, DiceRolled) if "Untimely Death" in e.purpose]
    assert pick_roll and pick_roll[0].values == (picked.roll,) and pick_roll[0].entered_by is None
    assert [e.kingdom for e in of(events, MonarchDied)] == [picked.picked]
    assert of(events, ConfusionBegan)[0].until == 1 + 4 + 1
    survivor = ({"Neuth", "Pon"} - {picked.picked}).pop()
    assert table.state.kingdoms[picked.picked].status == "confusion"
    assert table.state.kingdoms[survivor].ally == ME


def test_2_untimely_death_without_an_allied_monarch_is_no_event(table: Table) -> None:
    """Random Events Phase: impossible to comply → no event."""
    events = roll(table, "Untimely Death")
    assert "no non-player monarch is allied" in void(events, "Untimely Death").why
    assert not of(events, MonarchDied)


def test_3_storms_lose_a_fleet_out_of_port_of_the_players_choice(table: Table) -> None:
    """Random Events Phase › Storms; Movement Phase › Non-Castle Ports: a castle-port
    shelters every fleet, a non-castle port only one."""
    hire(table, "K", SEA, ME)
    hire(table, "L", "Freeport", ME)
    hire(table, "M", "Bartertown", ME)
    hire(table, "N", "Bartertown", ME)
    put(table, "Mivior-F1", SEA)  # bob's fleet: not carol's to lose
    events = roll(table, "Storms")
    (choice,) = of(events, DecisionAsked)
    assert choice.kind == "storm" and set(choice.options) == {"K", "M", "N"} and choice.count == 1
    table.refuse(IllegalCommand, "not one to lose", "events-lose", unit="L")
    table.refuse(IllegalCommand, "must first decide", "end-phase")
    lost = table.do("events-lose", unit="K")
    assert lost == [UnitsLost(player=ME, event="Storms", units=("K",))]
    assert "K" not in table.state.units and "K" in table.state.mercenary_pool
    table.do("end-phase")


def test_3_storms_shipwreck_the_heroes_aboard(table: Table) -> None:
    """Random Events Phase › Storms: heroes aboard a lost fleet are Shipwrecked (Heroes ›
    Shipwrecked Heroes: a Hero Fate Roll, 9; spared on the open sea, cast away on the
    Isle of Fright)."""
    hire(table, "K", SEA, ME)
    put(table, "Muetar-monarch", SEA, aboard="K")
    roll(table, "Storms")
    events = table.do("events-lose", 3, unit="K")
    fate = of(events, HeroFateRolled)[0]
    assert (fate.hero, fate.trigger, fate.result) == ("Muetar-monarch", 9, "castaway")
    castaway = table.state.units["Muetar-monarch"]
    assert castaway.aboard is None and castaway.hex != SEA


def test_3_storms_with_every_fleet_in_port_is_no_event(table: Table) -> None:
    """Random Events Phase: a fleet in a castle-port, or alone in a non-castle port, is safe."""
    hire(table, "K", "Grugongi", ME)
    hire(table, "L", "Freeport", ME)
    assert "out of port" in void(roll(table, "Storms"), "Storms").why
    table.do("end-phase")


def test_4_mutiny_loses_one_friendly_regular_or_mercenary(table: Table) -> None:
    """Random Events Phase › Mutiny: a friendly regular (own or allied) or mercenary unit,
    the player's choice; never a monarch or another player's unit."""
    ally(table, "Neuth")
    hire(table, "A", "Pennol", ME)
    hire(table, "B", "Colist", owner="bob")
    roll(table, "Mutiny")
    options = set(asked(table).options)
    assert options == regulars(table, "Muetar") | regulars(table, "Neuth") | {"A"}
    table.refuse(IllegalCommand, "not one to lose", "events-lose", unit="Muetar-monarch")
    table.refuse(IllegalCommand, "not one to lose", "events-lose", unit="B")
    table.refuse(IllegalCommand, "name 1 unit", "events-lose", units="Neuth-A1,Muetar-A1")
    table.do("events-lose", unit="Neuth-A1")
    assert table.state.kingdoms["Neuth"].eliminated == {"Neuth-A1"}


def test_4_mutiny_without_a_combat_unit_is_no_event(table: Table) -> None:
    """Random Events Phase: impossible to comply → no event."""
    table.set_state(table.state.without_units(regulars(table, "Muetar")))
    void(roll(table, "Mutiny"), "Mutiny")


def test_5_bad_omens_fall_on_a_randomly_picked_friendly_kingdom(table: Table) -> None:
    """Random Events Phase › Bad Omens: the regulars of one friendly kingdom, chosen at
    random, will not attack or initiate a siege this game turn."""
    ally(table, "Neuth")
    events = roll(table, "Bad Omens")
    (picked,) = of(events, RandomlyPicked)
    assert picked.candidates == ("Muetar", "Neuth") and picked.roll is not None
    assert of(events, BadOmensFell) == [BadOmensFell(kingdom=picked.picked, turn=1)]
    assert table.state.kingdoms[picked.picked].bad_omens_on == 1


def test_5_bad_omens_without_a_friendly_kingdom_is_no_event(table: Table) -> None:
    """Random Events Phase: impossible to comply → no event, recorded, and the game goes on
    (issue #12 bug 3: it raised DiceError on every try). carol, eliminated in her own
    player turn, has no friendly kingdom left; once her roll is recorded the rest of her
    player turn is not played (Kingdoms › Fate of Player Kingdoms)."""
    out = deciding(table.state)
    out.dice = Dice(table.key, UUID(int=7), bytes(32), 10_000, [2])
    eliminate_player(out, ME, "test")
    table.set_state(out.state)
    events = roll(table, "Bad Omens")
    assert "carol has no friendly kingdom" in void(events, "Bad Omens").why
    assert not of(events, BadOmensFell)
    assert table.state.turn is not None and table.state.turn.player != ME


def test_6_replacements_bring_back_two_eliminated_regulars(table: Table) -> None:
    """Random Events Phase › Replacements/Reinforcements: each at the deployment space on
    its counter, the player choosing which; one choice per command."""
    eliminate(table, "Muetar-A1", "Muetar-A13", "Muetar-A7")
    roll(table, "Replacements")
    pending = asked(table)
    assert pending.kind == "replacement" and pending.count == 2
    assert set(pending.options) == {
        "Muetar-A1 at Pennol",
        "Muetar-A13 at Yando",
        "Muetar-A7 at Groat",
    }
    table.refuse(
        IllegalCommand, "cannot enter at Basimar", "events-replace", unit="Muetar-A1", at="Basimar"
    )
    first = table.do("events-replace", unit="Muetar-A13")
    assert first[0] == RegularReplaced(ME, "Muetar-A13", "Muetar", "army", hex_of("Yando"), "Yando")
    assert of(first, DecisionAsked)[0].count == 1
    table.do("events-replace", unit="Muetar-A1", at="Pennol")
    assert table.state.units["Muetar-A1"].hex == hex_of("Pennol")
    assert table.state.kingdoms["Muetar"].eliminated == {"Muetar-A7"}
    table.refuse(IllegalCommand, "answers no decision now", "events-replace", unit="Muetar-A7")
    table.do("end-phase")


def test_6_replacements_only_for_active_kingdoms(table: Table) -> None:
    """Kingdoms › Deactivation of Kingdoms: regulars may be replaced only while their
    kingdom is active; eliminated units stay eliminated after a deactivation."""
    ally(table, "Neuth")
    eliminate(table, "Neuth-A1", "Neuth-A2")
    table.set_kingdom("Pon", eliminated=frozenset({"Pon-A1"}))  # inactive
    roll(table, "Replacements")
    assert set(asked(table).options) == {"Neuth-A1 at Ider Bolis", "Neuth-A2 at Ider Bolis"}
    table.refuse(IllegalCommand, "Pon is not an active kingdom", "events-replace", unit="Pon-A1")
    table.refuse(
        IllegalCommand, "Mivior is not an active kingdom", "events-replace", unit="Mivior-A1"
    )
    table.refuse(InvalidCommand, "no regular unit 'Nobody'", "events-replace", unit="Nobody")


def test_6_replacements_never_above_the_force_pool(table: Table) -> None:
    """Random Events Phase › Replacements/Reinforcements: a kingdom's regulars never exceed
    the number on its identity card; a unit on the map is not a replacement."""
    ally(table, "Neuth")
    eliminate(table, "Neuth-A1", "Muetar-A2")
    extra = Unit("Muetar-A14", "Muetar", "army", hex_of("Pennol"))  # 13 regulars again
    table.set_state(table.state.with_units([extra]))
    table.set_kingdom("Muetar", eliminated=frozenset({"Muetar-A1", "Muetar-A2"}))  # A1 on the map
    table.checked = False  # Muetar-A1 both on the map and eliminated: impossible, on purpose
    roll(table, "Replacements")
    assert asked(table).options == ("Neuth-A1 at Ider Bolis",)
    table.refuse(IllegalCommand, "already has the 13 regulars", "events-replace", unit="Muetar-A2")
    table.refuse(
        IllegalCommand, "Muetar-A1 is not an eliminated unit", "events-replace", unit="Muetar-A1"
    )
    assert void(table.do("events-replace", unit="Neuth-A1"), "Replacements").short == 1


def test_6_replacements_not_into_an_enemy_occupied_or_besieged_space(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random Events Phase › Replacements/Reinforcements; Siege Phase › Effects of a Siege."""
    eliminate(table, "Muetar-A1", "Muetar-A13", "Muetar-A7")
    hire(table, "A", "Yando", owner="bob")
    monkeypatch.setattr(random_events, "besieged", lambda state, hex_: hex_ == hex_of("Groat"))
    roll(table, "Replacements")
    assert asked(table).options == ("Muetar-A1 at Pennol",)
    table.refuse(
        IllegalCommand,
        "occupied by enemy units or under siege",
        "events-replace",
        unit="Muetar-A13",
    )
    table.do("events-replace", unit="Muetar-A1")
    assert table.state.turn is not None and table.state.turn.progress.pending is None


def test_6_replacements_partly_impossible_record_what_is_short(table: Table) -> None:
    """Random Events Phase: what cannot be complied with is no event."""
    eliminate(table, "Muetar-A1")
    roll(table, "Replacements")
    events = table.do("events-replace", unit="Muetar-A1")
    assert void(events, "Replacements").short == 1
    table.do("end-phase")


def test_6_replacements_without_an_eliminated_regular_is_no_event(table: Table) -> None:
    """Random Events Phase: impossible to comply → no event."""
    assert void(roll(table, "Replacements"), "Replacements").short == 2


def test_6_zorn_replacements_keep_one_goblin_per_hex_none_adjacent(table: Table) -> None:
    """Special Rules for Select Kingdoms › Zorn: "This rule must be followed both when
    setting up and when bringing in replacements": a goblin comes back only to a mountain
    or pass space of Zorn free of goblins and not next to one; a replacement into an
    occupied or adjacent space is refused, citing the rule."""
    ally(table, "Zorn")
    eliminate(table, "Zorn-A4")
    roll(table, "Replacements")
    spaces = [o.removeprefix("Zorn-A4 at ") for o in asked(table).options]
    table.refuse(InvalidCommand, "say where Zorn-A4 enters", "events-replace", unit="Zorn-A4")
    taken = table.state.units["Zorn-A5"].hex
    beside = next(
        h for h in DATA.map.neighbours(*taken) if h in DATA.spread_hexes(DATA.unit("Zorn-A4"))
    )
    zorn = r"\(Special Rules for Select Kingdoms › Zorn\)"
    for at, why in (
        (taken, "a unit of Zorn is already there: only one may be placed per space"),
        (beside, "a unit of Zorn is next to it: no two may be in adjacent spaces"),
        (hex_of("The Pits"), "it is not a mountain or pass space of Zorn"),
    ):
        table.refuse(
            IllegalCommand,
            f"{why}.*{zorn}",
            "events-replace",
            unit="Zorn-A4",
            at=f"{at[0]},{at[1]}",
        )
    events = table.do("events-replace", unit="Zorn-A4", at=spaces[0])
    hex_ = of(events, RegularReplaced)[0].hex
    others = {
        u.hex for u in table.state.units_of("Zorn") if u.kind != "monarch" and u.id != "Zorn-A4"
    }
    assert hex_ not in others and not others & set(DATA.map.neighbours(*hex_))


def test_8_reinforcements_two_mercenaries_into_friendly_castles(table: Table) -> None:
    """Random Events Phase › Reinforcements; Deployment of Common Mercenary Reinforcements:
    the player chooses type and castle for each; without a port, no fleet."""
    roll(table, "Reinforcements")
    pending = asked(table)
    assert pending.kind == "reinforcement" and pending.count == 2
    assert set(pending.options) == {
        f"army at {c}" for c in ("Pennol", "Plibba", "Beolon", "Groat", "Basimar")
    }
    table.refuse(IllegalCommand, "cannot enter now", "events-reinforce", kind="fleet", at="Pennol")
    table.refuse(
        IllegalCommand, "cannot enter at Port Lork", "events-reinforce", kind="army", at="Port Lork"
    )
    table.refuse(InvalidCommand, "say where", "events-reinforce", kind="army")
    table.refuse(
        InvalidCommand,
        "kind must be one of army, fleet",
        "events-reinforce",
        kind="cavalry",
        at="Pennol",
    )
    first = table.do("events-reinforce", kind="army", at="Basimar")
    assert first[0] == MercenaryEntered(ME, "A", "army", hex_of("Basimar"), "Basimar")
    table.do("events-reinforce", unit="D", at="19,11")
    assert table.state.units["D"] == Unit("D", MERCENARY, "army", hex_of("Pennol"), ME)
    assert "A" not in table.state.mercenary_pool and "D" not in table.state.mercenary_pool
    table.do("end-phase")


def test_8_reinforcements_fleets_enter_friendly_ports(table: Table) -> None:
    """Random Events Phase › Replacements/Reinforcements: a fleet in a friendly castle-port
    or friendly-held non-castle port; the Trolls' Face serves as their castle."""
    ally(table, "Pon")
    ally(table, "Trolls")  # the Trollish monarch enters play at The Face
    hire(table, "A", "Freeport", ME)
    hire(table, "B", "Bartertown", owner="bob")
    roll(table, "Reinforcements")
    options = set(asked(table).options)
    assert {
        "fleet at Grugongi",
        "fleet at Freeport",
        "army at The Face",
        "army at Marzarbol",
    } <= options
    assert "fleet at Bartertown" not in options and "fleet at Pennol" not in options
    table.do("events-reinforce", kind="fleet", at="Freeport")
    assert table.state.units["K"] == Unit("K", MERCENARY, "fleet", hex_of("Freeport"), ME)


def test_8_reinforcements_in_plundered_castles_follow_the_occupier(table: Table) -> None:
    """Castles; Random Events Phase › Replacements/Reinforcements: a plundered castle is
    friendly to the force occupying it, to its original owner while unoccupied."""
    gone = ["Hothior-A3", "Hothior-A4", "Hothior-A5", "Hothior-A6"]
    gone += ["Muetar-A7", "Muetar-A8", "Muetar-A9", "Muetar-A10"]
    plundered = frozenset({"Tadafat", "Groat", "Plibba"})
    table.set_state(table.state.without_units(gone).replace(plundered=plundered))
    hire(table, "A", "Tadafat", ME)  # carol occupies Hothior's plundered Tadafat
    hire(table, "B", "Groat", owner="bob")  # bob occupies carol's plundered Groat
    hire(table, "C", "Castle Lapspell", ME)  # not plundered: still Hothior's (alice's)
    roll(table, "Reinforcements")
    options = set(asked(table).options)
    assert {"army at Tadafat", "army at Plibba"} <= options  # Plibba: empty, still carol's
    assert "army at Groat" not in options and "army at Castle Lapspell" not in options


def offered(table: Table) -> set[tuple[str, tuple[tuple[str, object], ...]]]:
    """The answers `legal` offers, each by name and its arguments in order of name."""
    found = expanded(get("divine-right").legal(table.state))
    return {(c.name, tuple(sorted(c.args))) for c in found}


def test_8_the_remaining_type_must_be_taken(table: Table) -> None:
    """Deployment of Common Mercenary Reinforcements: when one type is all on the board,
    the player must enter the undeployed type."""
    ally(table, "Pon")
    for unit in "ABCDEFGHIJ":
        hire(table, unit, "Colist", owner="bob")
    roll(table, "Reinforcements")
    assert set(asked(table).options) == {"fleet at Grugongi"}
    grugongi = hex_text(hex_of("Grugongi"))
    assert offered(table) == {("events-reinforce", (("at", grugongi), ("kind", "fleet")))}
    table.refuse(IllegalCommand, "cannot enter now", "events-reinforce", unit="A", at="Pennol")
    table.refuse(IllegalCommand, "only stealing may be declined", "events-decline")


def test_8_stealing_the_other_type_when_the_remaining_one_cannot_enter(table: Table) -> None:
    """Deployment of Common Mercenary Reinforcements: only fleets remain and the player
    has no port: he steals armies from another player's forces."""
    for unit in "ABCDEFGHIJ":
        hire(table, unit, "Colist", owner="bob")
    roll(table, "Reinforcements")
    options = asked(table).options
    assert "steal A from bob at Pennol" in options and not any("fleet" in o for o in options)
    answers = offered(table)  # each steal `legal` offers is one asked, or the decline
    assert ("events-decline", ()) in answers
    assert {a for a in answers if a[0] != "events-decline"} == {
        ("events-reinforce", (("at", hex_text(hex_of(at))), ("unit", unit)))
        for unit, at in (o.removeprefix("steal ").split(" from bob at ") for o in options)
    }
    table.refuse(IllegalCommand, "cannot enter now", "events-reinforce", kind="fleet", at="Pennol")
    events = table.do("events-reinforce", unit="C", at="Groat")
    assert events[0] == MercenaryEntered(
        ME, "C", "army", hex_of("Groat"), "Groat", stolen_from="bob"
    )
    assert table.state.units["C"].owner == ME
    declined = table.do("events-decline")
    assert declined == [ReinforcementsDeclined(player=ME, short=1)]
    table.do("end-phase")


def test_8_stealing_either_type_when_the_pool_is_empty(table: Table) -> None:
    """Deployment of Common Mercenary Reinforcements: with every common mercenary on the
    board, steal either type; never units under siege (within the walls of a besieged
    castle; its besiegers outside may be stolen) or fleets transporting troops."""
    ally(table, "Pon")
    for unit in "ABCDEFGHIJ":
        hire(table, unit, "Colist", owner="bob")
    for unit in "KLMN":
        hire(table, unit, SEA, owner="alice")
    hire(table, "J", "Port Lork", owner="alice")
    jailed = dataclasses.replace(table.state.units["J"], inside=True)
    besieging = dataclasses.replace(table.state.units["I"], hex=hex_of("Port Lork"))
    table.set_state(table.state.with_units([jailed, besieging]))
    besiege(table, "Port Lork", "bob")
    put(table, "Hothior-A1", SEA, aboard="K")
    roll(table, "Reinforcements")
    stolen = {o.split()[1] for o in asked(table).options}
    assert stolen == set("ABCDEFGHILMN")
    table.do("events-reinforce", unit="L", at="Grugongi")
    assert table.state.units["L"].owner == ME and table.state.units["L"].hex == hex_of("Grugongi")


def test_8_reinforcements_without_an_available_space_are_no_event(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deployment of Common Mercenary Reinforcements: no available space, no reinforcement."""
    monkeypatch.setattr(random_events, "besieged", lambda state, hex_: True)
    assert void(roll(table, "Reinforcements"), "Reinforcements").short == 2


def test_9_epidemic_halves_each_stack_of_ten_or_more(table: Table) -> None:
    """Random Events Phase › Epidemic: half (rounded down) of each friendly stack of 10 or
    more combat units, the player choosing which."""
    for number in range(1, 12):
        put(table, f"Muetar-A{number}", "Pennol")
    for unit in "ABCDEFGHIJ":
        hire(table, unit, "Basimar", ME)
    roll(table, "Epidemic")
    pending = asked(table)
    assert pending.kind == "epidemic" and pending.count == 10 and len(pending.options) == 21
    six_four = "Muetar-A1,Muetar-A2,Muetar-A3,Muetar-A4,Muetar-A5,Muetar-A6,A,B,C,D"
    table.refuse(IllegalCommand, "exactly 5 of them", "events-lose", units=six_four)
    table.refuse(IllegalCommand, "name 10 unit", "events-lose", units="A,B")
    table.refuse(
        IllegalCommand, "not one to lose", "events-lose", units=six_four.replace("A6", "A12")
    )
    events = table.do("events-lose", units=six_four.replace("Muetar-A6,", "") + ",E")
    assert len(of(events, UnitsLost)[0].units) == 10
    assert len(table.state.kingdoms["Muetar"].eliminated) == 5
    assert len(table.state.mercenary_pool) == 9


def test_9_epidemic_strikes_the_largest_stack_picked_at_random_among_equals(table: Table) -> None:
    """Random Events Phase › Epidemic: no stack of 10: one unit of the largest stack; the
    largest among equals is picked at random (a derived roll)."""
    events = roll(table, "Epidemic")  # Pennol and Basimar hold three Muetar armies each
    (picked,) = of(events, RandomlyPicked)
    assert set(picked.candidates) == {"Pennol", "Basimar"} and picked.roll in (1, 2)
    assert any(e.purpose.startswith("Epidemic") for e in of(events, DiceRolled))
    pending = asked(table)
    stack = {
        u.id
        for u in table.state.units.values()
        if u.hex == hex_of(picked.picked) and u.kind != "monarch"
    }
    assert set(pending.options) == stack and pending.count == 1
    table.do("events-lose", unit=pending.options[0])


def test_9_epidemic_with_one_largest_stack_needs_no_pick(table: Table) -> None:
    """Random Events Phase › Epidemic: a single largest stack is struck without a roll."""
    put(table, "Muetar-A7", "Pennol")
    events = roll(table, "Epidemic")
    assert not of(events, RandomlyPicked) and len(asked(table).options) == 4


def test_9_epidemic_without_a_combat_unit_is_no_event(table: Table) -> None:
    """Random Events Phase: impossible to comply → no event."""
    table.set_state(table.state.without_units(regulars(table, "Muetar")))
    void(roll(table, "Epidemic"), "Epidemic")


def test_10_a_replacement_or_a_reinforcement_of_the_players_choice(table: Table) -> None:
    """Random Events Phase › Replacements / Reinforcements: one eliminated regular or one
    common mercenary, the player's choice."""
    eliminate(table, "Muetar-A13")
    roll(table, "Replacements / Reinforcements")
    pending = asked(table)
    assert pending.kind == "replacement-or-reinforcement" and pending.count == 1
    assert {"Muetar-A13 at Yando", "army at Pennol"} <= set(pending.options)
    table.do("events-reinforce", kind="army", at="Plibba")
    table.refuse(IllegalCommand, "answers no decision now", "events-replace", unit="Muetar-A13")
    assert table.state.kingdoms["Muetar"].eliminated == {"Muetar-A13"}


def test_10_impossible_is_no_event(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random Events Phase: impossible to comply → no event (every space under siege)."""
    monkeypatch.setattr(random_events, "besieged", lambda state, hex_: True)
    eliminate(table, "Muetar-A13")
    events = roll(table, "Replacements / Reinforcements")
    assert void(events, "Replacements / Reinforcements").short == 1


def test_11_desertion_loses_a_common_mercenary_of_the_players_choice(table: Table) -> None:
    """Random Events Phase › Desertion: it returns to the mercenary force pool."""
    hire(table, "A", "Pennol", ME)
    hire(table, "K", SEA, ME)
    hire(table, "B", "Colist", owner="bob")
    roll(table, "Desertion")
    assert set(asked(table).options) == {"A", "K"}
    table.refuse(NotYourTurn, "carol must decide", "events-lose", unit="B", by="bob")
    table.do("events-lose", unit="K")
    assert table.state.mercenary_pool[-1] == "K"


def test_11_desertion_without_a_mercenary_is_no_event(table: Table) -> None:
    """Random Events Phase: impossible to comply → no event."""
    assert "no common mercenary" in void(roll(table, "Desertion"), "Desertion").why


def test_12_help_from_afar_activates_a_random_non_allied_monarch(table: Table) -> None:
    """Random Events Phase › Help from Afar: a randomly chosen non-allied non-player
    monarch becomes the player's ally at once and activates normally."""
    ally(table, "Pon", player="bob")
    events = roll(table, "Help from Afar")
    (picked,) = of(events, RandomlyPicked)
    assert set(picked.candidates) == {
        "Ghem",
        "Immer",
        "Neuth",
        "Rombune",
        "Shucassam",
        "Trolls",
        "Zorn",
    }
    (activated,) = of(events, KingdomActivated)
    assert activated.kingdom == picked.picked and activated.ally == ME
    assert table.state.kingdoms[picked.picked].ally == ME and table.state.units_of(picked.picked)


def test_12_help_from_afar_crowns_a_kingdom_in_confusion_first(table: Table) -> None:
    """Random Events Phase: kingdoms in Confusion or Forced Peace can be selected."""
    for name in ("Ghem", "Immer", "Rombune", "Shucassam", "Trolls", "Zorn", "Pon"):
        table.set_kingdom(name, ally="bob")
    table.set_kingdom("Neuth", confusion_until=5, personality=None)
    events = roll(table, "Help from Afar")
    assert of(events, RandomlyPicked)[0] == RandomlyPicked(
        ME, "Help from Afar", ("Neuth",), None, "Neuth"
    )
    kinds = [type(e) for e in events]
    assert kinds.index(MonarchCrowned) < kinds.index(KingdomActivated)
    neuth = table.state.kingdoms["Neuth"]
    assert neuth.ally == ME and neuth.confusion_until is None and neuth.personality is not None


def test_12_help_from_afar_may_pick_a_kingdom_under_forced_peace(table: Table) -> None:
    """Random Events Phase: kingdoms in Confusion or Forced Peace can be selected for event 12."""
    for name in ("Ghem", "Immer", "Rombune", "Shucassam", "Trolls", "Zorn"):
        table.set_kingdom(name, ally="bob")
    table.set_kingdom("Neuth", confusion_until=5, personality=None)
    table.set_kingdom("Pon", peace_until=4)
    events = roll(table, "Help from Afar")
    (picked,) = of(events, RandomlyPicked)
    assert picked.candidates == ("Neuth", "Pon") and picked.roll is not None
    assert bool(of(events, MonarchCrowned)) == (picked.picked == "Neuth")
    assert table.state.kingdoms[picked.picked].status == "active"


def test_12_help_from_afar_when_every_monarch_is_allied_is_no_event(table: Table) -> None:
    """Random Events Phase: impossible to comply → no event."""
    for name in ("Ghem", "Immer", "Rombune", "Shucassam", "Trolls", "Zorn", "Pon", "Neuth"):
        table.set_kingdom(name, ally="bob")
    void(roll(table, "Help from Afar"), "Help from Afar")


# -- decisions -----------------------------------------------------------------------------


def test_a_pending_decision_blocks_the_phase_and_shows_in_the_legal_commands(table: Table) -> None:
    """The Game Turn: play goes on only once the player has decided."""
    hire(table, "A", "Pennol", ME)
    roll(table, "Desertion")
    ruleset = get("divine-right")
    assert ruleset.legal_commands(table.state) == ("events lose",)
    assert ruleset.whose_turn(table.state) == ME
    table.refuse(IllegalCommand, "must first decide", "end-phase")
    # `events roll` answers no decision, whatever its name shares with those that do
    table.refuse(IllegalCommand, "must first decide", "events-roll", 1, 1)
    table.refuse(
        IllegalCommand, "answers no decision now", "events-reinforce", kind="army", at="Pennol"
    )
    table.refuse(InvalidCommand, "name the unit", "events-lose")
    table.refuse(InvalidCommand, "named twice", "events-lose", units="A,A")
    table.do("events-lose", unit="A")
    assert ruleset.legal_commands(table.state) == ("end-phase",)


def test_answers_outside_a_decision_are_refused(table: Table) -> None:
    """Random Events Phase: the choice commands answer only a decision the rules ask for."""
    table.refuse(IllegalCommand, "answers no decision now", "events-lose", unit="Muetar-A1")
    table.refuse(IllegalCommand, "answers no decision now", "events-decline")


# -- the mercenary pool's data -------------------------------------------------------------


def builtin_mercenaries() -> dict[str, Any]:
    package = resources.files("warscribe.engine.rulesets.divine_right")
    doc: dict[str, Any] = json.loads((package / "datafiles" / "mercenaries.json").read_bytes())
    return doc


def test_the_mercenary_pool_holds_every_common_mercenary_at_the_start(table: Table) -> None:
    """Game Pieces › Mercenaries: all common mercenaries begin in the mercenary force pool
    (the counts are a doubt of the data file)."""
    assert table.state.mercenary_pool == tuple(m.id for m in DATA.mercenaries)
    kinds = [str(m.kind) for m in DATA.mercenaries]
    assert kinds.count("army") == 10 and kinds.count("fleet") == 4
    assert builtin_mercenaries()["doubts"]


def test_a_group_loads_its_own_mercenary_pool(tmp_path: Path) -> None:
    """Game Pieces › Mercenaries: the pool is data; a group loads its own file."""
    doc = builtin_mercenaries()
    doc["mercenaries"] = [
        {"id": "X", "kind": "army", "movement": 6},
        {"id": "Y", "kind": "fleet", "movement": 7},
    ]
    path = tmp_path / "mercenaries-1979.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    data = load_files(mercenaries=path)
    assert [(m.id, str(m.kind), m.movement) for m in data.mercenaries] == [
        ("X", "army", 6),
        ("Y", "fleet", 7),
    ]
    assert data.mercenary("Y").movement == 7


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            {"id": "A", "kind": "fleet", "movement": 8},
            "mercenary 2: field 'id': 'A' is used by another entry",
        ),
        ({"id": "Z", "kind": "cavalry", "movement": 5}, "mercenary 2: field 'kind'"),
        (
            {"id": "Z", "kind": "army", "movement": 0},
            "mercenary 2: field 'movement': must be at least 1",
        ),
        (
            {"id": "Z", "kind": "army", "movement": 5, "cost": 3},
            "mercenary 2: unknown field 'cost'",
        ),
        (
            {"id": "Muetar-A1", "kind": "army", "movement": 5},
            "'Muetar-A1' is already the id of a kingdom's unit",
        ),
    ],
)
def test_a_bad_mercenary_file_is_refused(
    tmp_path: Path, entry: dict[str, Any], expected: str
) -> None:
    """Game Pieces › Mercenaries: the pool file is checked on load, each error naming the field."""
    doc = builtin_mercenaries()
    doc["mercenaries"] = [{"id": "A", "kind": "army", "movement": 5}, entry]
    path = tmp_path / "my-mercenaries.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError) as raised:
        load_files(mercenaries=path)
    message = str(raised.value)
    assert message.startswith("file my-mercenaries.json") and expected in message


def test_4_mutiny_offers_the_same_units_in_every_copy(table: Table) -> None:
    """Random Events Phase › Mutiny (issue 13): the units offered are the player's in the
    order of the state's units; a mercenary hired after the regulars must come where a
    state read back from the store (a snapshot, maps in the codec's order) has it, or a
    player's import re-decides another list than the referee recorded."""
    hire(table, "A", "Pennol", ME)
    stored = codec.decode(codec.encode(table.state))
    assert list(table.state.units) == list(stored.units)
