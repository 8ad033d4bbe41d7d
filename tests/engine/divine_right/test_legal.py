"""The commands `legal` offers (issue 12, part 2), in positions taken from the rule tests:
a decision asked offers its answers with their domains filled from the position (retreat
spaces, displacement spaces, siege vetoes: today's DecisionAsked options name none of
them), a stack's moves offer a path to each space it reaches, diplomacy offers the
kingdoms it may target and the cards in hand; and everything offered is accepted."""

from __future__ import annotations

from itertools import cycle, islice, product
from uuid import UUID

from warscribe.engine.authority import check_authority
from warscribe.engine.dice import Dice
from warscribe.engine.ruleset import LegalCommand
from warscribe.engine.rulesets import get

from .board import DATA, ally, besiege, hex_of, movement, put
from .play import Table

RULES = get("divine-right")


def offers(table: Table, name: str) -> list[LegalCommand]:
    return [o for o in RULES.legal(table.state) if o.name == name]


def domain(table: Table, name: str, key: str) -> set[object]:
    """Every value `key` takes in the offers of `name`."""
    return {v for o in offers(table, name) for k, values in o.domains if k == key for v in values}


def assert_all_accepted(table: Table, most: int = 30) -> None:
    """Each offer, with up to `most` choices of its domains, is accepted by the rules
    (who may give it, then decide), on scratch dice."""
    for offer in RULES.legal(table.state):
        keys = [key for key, _ in offer.domains]
        for values in islice(product(*(v for _, v in offer.domains)), most):
            command = offer.command(**dict(zip(keys, values, strict=True)))
            check_authority(RULES, table.head.players, command)
            scratch = Dice(key=bytes(32), game_id=UUID(int=1), chain=bytes(32), next_index=0)
            RULES.decide(table.state, command, scratch)


def test_the_set_up_offers_the_random_events_roll_then_the_end_of_the_phase() -> None:
    """The Game Turn: the first player rolls the random events, then may end the phase."""
    table = Table()
    assert {o.name for o in RULES.legal(table.state)} == {"events-roll", "end-phase"} - {
        "end-phase"
    }
    table.do("events-roll", 3, 4)  # 7: no event
    assert {o.name for o in RULES.legal(table.state)} == {"end-phase"}


def test_diplomacy_offers_the_kingdoms_it_may_target_and_the_cards_in_hand() -> None:
    """Diplomacy Phase › Activation Attempts: a non-allied non-player kingdom, with or
    without a card of the hand."""
    table = Table()
    table.to_phase(1, table.player, "diplomacy")
    table.do("diplomacy-draw")
    hand = set(table.state.player(table.player).hand)
    kingdoms = domain(table, "diplomacy-activate", "kingdom")
    assert "Immer" in kingdoms and "Muetar" not in kingdoms and "Hothior" not in kingdoms
    assert domain(table, "discard", "cards") == {(card,) for card in hand}
    carded = [o for o in offers(table, "diplomacy-activate") if o.args]
    assert {dict(o.args)["kingdom"] for o in carded} <= kingdoms
    assert_all_accepted(table, most=5)


def test_a_stack_is_offered_a_path_to_each_space_it_reaches() -> None:
    """Movement Phase: carol's army at Pennol reaches the spaces next to it; every path
    offered is one `move` accepts (the path finder walks as `move` checks)."""
    table = Table()
    movement(table, "carol")
    put(table, "Muetar-A1", "Pennol")
    (offer,) = [o for o in offers(table, "move") if dict(o.args)["units"] == ("Muetar-A1",)]
    paths = dict(offer.domains)["path"]
    ends = {path[-1] for path in paths}
    assert set(DATA.map.neighbours(*hex_of("Pennol"))) & ends
    assert all(len(set(path)) == len(path) for path in paths)
    assert_all_accepted(table, most=200)


def test_a_retreat_offers_the_spaces_to_retreat_into() -> None:
    """Combat Phase › Retreat Before Combat: alice's fleet attacked at (3,29) may roll,
    stand, and once the roll lets it go, retreat into any space the rules allow (the
    DecisionAsked names none)."""
    table = Table()
    ally(table, "Rombune", "alice")
    put(table, "Rombune-F2", (3, 29))
    put(table, "Mivior-F1", (3, 28))
    table.to_phase(1, "bob", "combat")
    table.do("attack-declare", attacks=("fleet:Mivior-F1>3,29",))
    table.do("attack-resolve", number=1)
    assert {o.name for o in RULES.legal(table.state)} >= {"retreat-roll", "retreat-stand"}
    assert all(o.actor == "alice" for o in RULES.legal(table.state))
    table.do("retreat-roll", 6, by="alice", space="3,29", fleets=True)
    assert "3,30" in domain(table, "retreat-to", "to")
    assert "3,28" not in domain(table, "retreat-to", "to")  # bob's fleet is there
    assert_all_accepted(table)


def test_a_displacement_offers_the_spaces_next_to_the_castle() -> None:
    """Siege Phase › Besieger Displacement: carol, asked to displace her besiegers of
    Tadafat as the game turn ends, is offered the spaces next to it."""
    table = Table()
    table.to_phase(2, "carol", "siege")
    tadafat = hex_of("Tadafat")
    for unit in ("Muetar-A1", "Muetar-A2"):
        put(table, unit, tadafat)
    besiege(table, "Tadafat", "carol")
    for number, space in zip(range(1, 8), cycle(DATA.map.neighbours(*tadafat)), strict=False):
        put(table, f"Hothior-A{number}", space)
    table.do("siege-attack", 1, castles="Tadafat")
    table.do("losses", units="Muetar-A2")
    assert table.state.turn is not None
    table.to_phase(2, table.state.turn.order[-1], "combat")
    table.do("end-phase")
    targets = domain(table, "siege-displace", "to")
    assert "11,14" in targets and targets <= {f"{c},{r}" for c, r in DATA.map.neighbours(*tadafat)}
    assert_all_accepted(table)


def test_an_ongoing_siege_offers_keeping_or_lifting_it() -> None:
    """Kingdoms › Deactivation of Kingdoms, ONGOING SIEGES: carol besieging Muscaster is
    asked whether Immer's Confusion happens: keep or lift, for Immer."""
    table = Table()
    ally(table, "Immer", "bob")
    for unit in ("Immer-A4", "Immer-A5"):
        put(table, unit, "Muscaster", inside=True)
    for unit in ("Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4", "Muetar-A5"):
        put(table, unit, "Muscaster")
    besiege(table, "Muscaster", "carol")
    table.to_phase(1, "alice", "diplomacy")
    table.do("diplomacy-draw")
    table.do("diplomacy-assassinate", 6, 1, kingdom="Immer")
    assert {(o.actor, o.name) for o in RULES.legal(table.state)} == {
        ("carol", "siege-keep"),
        ("carol", "siege-lift"),
    }
    assert domain(table, "siege-keep", "kingdom") == {"Immer"}
    assert_all_accepted(table)
