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
from warscribe.engine.errors import RuleError
from warscribe.engine.events import Command
from warscribe.engine.offers import scratch_dice
from warscribe.engine.ruleset import LegalCommand
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right.answers import Offered

from .board import DATA, ally, besiege, hex_of, hire, movement, put
from .play import Table

RULES = get("divine-right")


def offers(table: Table, name: str) -> list[LegalCommand]:
    return [o for o in RULES.legal(table.state) if o.name == name]


def domain(table: Table, name: str, key: str) -> set[object]:
    """Every value `key` takes in the offers of `name`."""
    return {v for o in offers(table, name) for v in o.values(key)}


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


def accepts(table: Table, command: Command) -> bool:
    """Whether the rules accept `command` now, on scratch dice."""
    try:
        RULES.decide(table.state, command, scratch_dice())
    except RuleError:
        return False
    return True


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
    carded = [o for o in offers(table, "diplomacy-activate") if o.values("card")]
    assert {k for o in carded for k in o.values("kingdom")} <= kingdoms
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
    # the first answer offered, a standing answer's `first`, is to stand (the table's order)
    pending = table.state.turn.progress.pending  # type: ignore[union-attr]
    assert pending is not None
    assert Offered(table.state, DATA, pending, RULES.decide).all[0].name == "retreat-stand"
    table.do("retreat-roll", 6, by="alice", space="3,29", fleets=True)
    assert "3,30" in domain(table, "retreat-to", "to")
    assert "3,28" not in domain(table, "retreat-to", "to")  # bob's fleet is there
    # every space next to it the rules let the fleet retreat into is offered
    near = [f"{c},{r}" for c, r in DATA.map.neighbours(3, 29)]
    retreat = (("space", "3,29"), ("fleets", True))
    open_ = {
        to for to in near if accepts(table, Command("alice", "retreat-to", (("to", to), *retreat)))
    }
    assert domain(table, "retreat-to", "to") == open_
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


def test_status_shows_the_commands_legal_offers() -> None:
    """The Game Turn: `status` reads the commands off `legal` (one source: a command
    dropped from `legal` is dropped from `status`, and the other way round). carol has
    drawn in her Diplomacy Phase: her ambassador may pass, attempt an activation (no
    kingdom is an enemy's ally yet: nothing to deactivate, assassinate or force into
    peace), duel either enemy ambassador, discard, or end the phase."""
    table = Table()
    table.to_phase(1, "carol", "diplomacy")
    table.do("diplomacy-draw")
    assert RULES.legal_commands(table.state) == (
        "diplomacy pass",
        "diplomacy activate",
        "diplomacy duel",
        "discard",
        "end-phase",
    )
    assert domain(table, "diplomacy-duel", "player") == {"alice", "bob"}
    assert_all_accepted(table, most=5)
    # once the ambassador has acted, only discards and the end of the phase are left
    table.do("diplomacy-pass")
    assert RULES.legal_commands(table.state) == ("discard", "end-phase")


def _offered(table: Table, name: str, **args: object) -> list[LegalCommand]:
    """The offers of `name` that take each value of `args` (given or in a domain; None:
    that argument left out)."""
    return [
        o
        for o in offers(table, name)
        if all(v in o.values(k) if v is not None else not o.values(k) for k, v in args.items())
    ]


def test_a_monarch_is_offered_to_lead_the_units_of_his_space() -> None:
    """Heroes › Hero Movement Bonus and Terrain Bonus, first EXAMPLE: Muetar's monarch
    leads his regular and a mercenary 7 clear spaces, where on their own they go 5."""
    table = Table()
    movement(table, "carol")
    clear = ((12, 25), (13, 25), (14, 25), (15, 25), (16, 25), (17, 25), (18, 24), (17, 23))
    for unit in ("Muetar-monarch", "Muetar-A1"):
        put(table, unit, clear[0])
    hire(table, "A", clear[0], "carol")
    (led,) = _offered(table, "move", leader="Muetar-monarch")
    assert set(dict(led.args)["units"]) == {"Muetar-monarch", "Muetar-A1", "A"}
    assert clear[7] in {path[-1] for path in dict(led.domains)["path"]}
    (alone,) = _offered(table, "move", units=dict(led.args)["units"], leader=None)
    assert clear[7] not in {path[-1] for path in dict(alone.domains)["path"]}
    assert_all_accepted(table, most=40)


def test_a_stack_by_a_river_is_offered_the_ferry_of_a_fleet_on_it() -> None:
    """Movement Phase › Fleets and Navigable Rivers, Ferrying: carol's mercenary fleet K
    on the river at (18,15) ferries her armies at (20,16) across without a stop: the
    spaces beyond the river only the ferry reaches are offered."""
    table = Table()
    movement(table, "carol")
    hire(table, "K", (18, 15), "carol")
    for unit in ("Muetar-A1", "Muetar-A2"):
        put(table, unit, (20, 16))
    (ferry,) = _offered(table, "ferry", units=("Muetar-A1", "Muetar-A2"), fleet="K")
    assert (18, 15) in {path[-1] for path in dict(ferry.domains)["path"]}
    assert RULES.legal_commands(table.state)[:2] == ("move", "ferry")
    assert_all_accepted(table, most=5)


def test_several_attacks_are_offered_at_once() -> None:
    """Combat Phase › Which Units May Attack?: all the phase's attacks are declared at
    once; bob's two stacks next to alice's are offered each attack alone and both."""
    table = Table()
    put(table, "Hothior-A1", (20, 11))
    put(table, "Hothior-A2", (22, 11))
    put(table, "Mivior-A1", (21, 11))
    put(table, "Mivior-A2", (21, 10))
    table.to_phase(1, "bob", "combat")
    declared = domain(table, "attack-declare", "attacks")
    assert ("Mivior-A1>20,11",) in declared and ("Mivior-A2>22,11",) not in declared
    assert any(len(attacks) == 2 for attacks in declared)
    assert_all_accepted(table)
