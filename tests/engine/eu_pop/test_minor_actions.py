"""5.2 Minor Actions: advisors, leaders, rulers, manpower, cutting ties; when each may be
taken, and as a Reaction. Loans and Calls to Arms have files of their own."""

from __future__ import annotations

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.errors import IllegalCommand, InvalidCommand, NotYourTurn
from warscribe.engine.rulesets.eu_pop import rules
from warscribe.engine.rulesets.eu_pop.events import (
    AdvisorAppointed,
    AdvisorFired,
    GeneralReassigned,
    LeaderAppointed,
    RulerAppointed,
)
from warscribe.engine.rulesets.eu_pop.state import Advisor, Leader, Power, Ruler

COEUR = {"name": "Jacques Coeur", "slot": "adm", "skill": 1, "upkeep": 2}
DUNOIS = {"name": "Jean de Dunois", "kind": "general", "mat": "Army I"}
COLBERT = {"slot": "adm", "name": "Colbert", "skill": 2, "cost": 4, "upkeep": 3}


# 5.2 Minor Actions: timing


def test_5_2_minor_actions_are_taken_on_your_own_turn() -> None:
    table = Table(position())
    error = table.refuse("bob", "appoint-advisor", **COLBERT)
    assert isinstance(error, NotYourTurn) and error.rule == rules.ADVISOR


def test_5_2_minor_actions_may_come_before_passing_but_not_again_that_round() -> None:
    """5.2 Minor Actions: taken on the Turn you Pass; not again this Round once Passed."""
    table = Table(position())
    table.do("alice", "replenish-manpower", units=3)
    table.do("alice", "pass")
    table.do("bob", "end-turn")
    error = table.refuse("alice", "appoint-advisor", **COLBERT)
    assert isinstance(error, IllegalCommand) and "passed" in error.message
    assert error.rule == rules.MINOR


def test_5_2_minor_actions_belong_to_the_action_phase() -> None:
    table = Table(position(phase="peace"))
    error = table.refuse("alice", "replenish-manpower", units=3)
    assert "Action phase" in error.message and "1.peace" in error.message


def test_5_2_reactions_only_for_actions_the_rulebook_marks() -> None:
    """5.2 Minor Actions › Reactions: replenishing manpower has no £ icon."""
    table = Table(position())
    error = table.refuse("alice", "replenish-manpower", units=3, reaction=True)
    assert error.rule == rules.REACTIONS


# Appoint Advisor


def test_5_2_appoint_advisor_pays_its_ducat_cost_into_its_slot() -> None:
    """5.2 › Appoint Advisor: pay the cost, tuck the card under its matching slot."""
    table = Table(position())
    events = table.do("alice", "appoint-advisor", **COLBERT)
    assert events == [AdvisorAppointed("France", Advisor("Colbert", "adm", 2, 3), 4)]
    france = table.realm("France")
    assert france.ducats == 6 and france.advisor("adm") == Advisor("Colbert", "adm", 2, 3)


def test_5_2_appoint_advisor_one_per_slot_unless_the_old_one_is_fired() -> None:
    table = Table(position(france={"advisors": [COEUR]}))
    error = table.refuse("alice", "appoint-advisor", **COLBERT)
    assert error.rule == rules.ADVISOR and "one advisor per slot" in error.message
    events = table.do("alice", "appoint-advisor", fire=True, **COLBERT)
    assert [type(e) for e in events] == [AdvisorFired, AdvisorAppointed]
    assert table.realm("France").advisors == (Advisor("Colbert", "adm", 2, 3),)


def test_5_2_appoint_advisor_may_only_fire() -> None:
    table = Table(position(france={"advisors": [COEUR]}))
    assert table.do("alice", "appoint-advisor", slot="adm", fire=True) == [
        AdvisorFired("France", "adm", "Jacques Coeur")
    ]
    assert table.realm("France").advisors == ()
    table.refuse("alice", "appoint-advisor", slot="dip", fire=True)


def test_5_2_appoint_advisor_is_refused_without_the_ducats() -> None:
    table = Table(position(france={"ducats": 3}))
    error = table.refuse("alice", "appoint-advisor", **COLBERT)
    assert error.rule == rules.LOAN and "--borrow 1" in error.message


def test_5_2_appoint_advisor_reads_its_card() -> None:
    """Upkeep is 1-4 ducats (4.4 B); the slot is a power type."""
    table = Table(position())
    assert isinstance(
        table.refuse("alice", "appoint-advisor", **{**COLBERT, "upkeep": 5}), InvalidCommand
    )
    assert isinstance(
        table.refuse("alice", "appoint-advisor", **{**COLBERT, "slot": "war"}), InvalidCommand
    )
    assert isinstance(
        table.refuse("alice", "appoint-advisor", **{**COLBERT, "colour": "red"}), InvalidCommand
    )


def test_5_2_appoint_advisor_is_no_reaction() -> None:
    table = Table(position())
    assert (
        table.refuse("alice", "appoint-advisor", reaction=True, **COLBERT).rule == rules.REACTIONS
    )


# Appoint General/Admiral


def test_5_2_appoint_general_pays_military_power_and_takes_an_army_mat() -> None:
    table = Table(position())
    events = table.do(
        "alice", "appoint-leader", kind="general", name="Dunois", mat="Army I", cost=2
    )
    assert events == [LeaderAppointed("France", Leader("Dunois", "general", "Army I"), 2, False)]
    france = table.realm("France")
    assert france.power == Power(3, 3, 1) and france.leader_on("Army I") is not None


def test_5_2_appoint_admiral_takes_a_fleet_mat() -> None:
    table = Table(position())
    table.do("alice", "appoint-leader", kind="admiral", name="Prégent", mat="Fleet I", cost=1)
    assert table.realm("France").leaders == (Leader("Prégent", "admiral", "Fleet I"),)
    assert isinstance(
        table.refuse("alice", "appoint-leader", kind="admiral", name="X", mat="Army II", cost=1),
        InvalidCommand,
    )


def test_5_2_appoint_leader_refusals() -> None:
    table = Table(position(france={"leaders": [DUNOIS]}))
    occupied = table.refuse(
        "alice", "appoint-leader", kind="general", name="La Hire", mat="Army I", cost=1
    )
    assert "already led" in occupied.message and occupied.rule == rules.LEADER
    poor = table.refuse(
        "alice", "appoint-leader", kind="general", name="La Hire", mat="Army II", cost=4
    )
    assert "military power" in poor.message
    twice = table.refuse(
        "alice", "appoint-leader", kind="general", name="Jean de Dunois", mat="Army II", cost=1
    )
    assert "already employed" in twice.message


def test_5_2_appoint_general_as_a_reaction_on_another_turn() -> None:
    """5.2 › Appoint General/Admiral: when an army in your realm is attacked, as a Reaction."""
    table = Table(position())
    table.do("alice", "pass")
    events = table.do(
        "alice",
        "appoint-leader",
        kind="general",
        name="Dunois",
        mat="Army I",
        cost=1,
        reaction=True,
    )
    assert events[0].reaction is True  # type: ignore[attr-defined]
    error = table.refuse(
        "alice", "appoint-leader", kind="admiral", name="P", mat="Fleet I", cost=1, reaction=True
    )
    assert "only a General" in error.message


def test_5_2_reassign_general_is_free() -> None:
    table = Table(position(france={"leaders": [DUNOIS]}))
    events = table.do("alice", "reassign-general", name="Jean de Dunois", army="Army II")
    assert events == [GeneralReassigned("France", "Jean de Dunois", "Army II", False)]
    france = table.realm("France")
    assert france.leader_on("Army II") is not None and france.power == Power(3, 3, 3)


def test_5_2_reassign_general_as_a_reaction_and_its_refusals() -> None:
    la_hire = {"name": "La Hire", "kind": "general", "mat": "Army II"}
    table = Table(position(france={"leaders": [DUNOIS, la_hire]}))
    table.do("alice", "end-turn")
    unknown = table.refuse("alice", "reassign-general", name="Nobody", army="Army I", reaction=True)
    assert isinstance(unknown, InvalidCommand)
    occupied = table.refuse(
        "alice", "reassign-general", name="Jean de Dunois", army="Army II", reaction=True
    )
    assert "already led by La Hire" in occupied.message
    assert isinstance(
        table.refuse("alice", "reassign-general", name="La Hire", army="Army I"), NotYourTurn
    )
    table.do("alice", "adjust", reason="Dunois falls in battle", discard="Jean de Dunois")
    events = table.do("alice", "reassign-general", name="La Hire", army="Army I", reaction=True)
    assert events == [GeneralReassigned("France", "La Hire", "Army I", True)]


# Appoint New Ruler and the interregnum


def test_5_2_appoint_ruler_only_without_a_ruler() -> None:
    table = Table(position())
    error = table.refuse("alice", "appoint-ruler", name="Louis XI", adm=3, dip=2, mil=1)
    assert error.rule == rules.RULER and "has a ruler" in error.message


def test_5_2_appoint_ruler_in_an_interregnum_is_free() -> None:
    """5.2 › Appoint New Ruler: a ruler named Interregnum is replaced for free."""
    interregnum = {"name": "Interregnum", "adm": 0, "dip": 0, "mil": 0}
    table = Table(position(france={"ruler": interregnum}))
    assert (
        table.refuse(
            "alice", "appoint-ruler", name="Louis XI", adm=3, dip=2, mil=1, reaction=True
        ).rule
        == rules.RULER
    )
    events = table.do("alice", "appoint-ruler", name="Louis XI", adm=3, dip=2, mil=1)
    assert events == [RulerAppointed("France", Ruler("Louis XI", Power(3, 2, 1)), False)]
    france = table.realm("France")
    assert france.ducats == 10 and france.power == Power(3, 3, 3) and not france.in_interregnum


def test_5_2_appoint_ruler_as_a_reaction_when_the_ruler_is_discarded() -> None:
    """5.2 › Appoint New Ruler: a Reaction when the ruler is discarded without replacement."""
    table = Table(position())
    table.do("alice", "pass")
    table.do("bob", "adjust", realm="France", reason="Event: the king dies", discard="Ruler")
    assert table.realm("France").ruler is None
    events = table.do("alice", "appoint-ruler", name="Louis XI", adm=3, dip=2, mil=1, reaction=True)
    assert events[0].reaction is True  # type: ignore[attr-defined]


def test_5_2_appoint_ruler_as_a_reaction_only_after_a_discard() -> None:
    """5.2 › Appoint New Ruler: the Reaction's condition is that "the current Ruler is
    discarded without any replacement"; a realm with no ruler from the start appoints one
    on its own turn, not as a Reaction (issue #18). Once replaced, the Reaction is gone."""
    table = Table(position(france={"ruler": None}))
    table.do("alice", "pass")
    error = table.refuse(
        "alice", "appoint-ruler", name="Louis XI", adm=3, dip=2, mil=1, reaction=True
    )
    assert error.rule == rules.RULER and "was not" in error.message
    table.do("bob", "adjust", realm="Austria", reason="Event: the emperor dies", discard="Ruler")
    table.do("bob", "appoint-ruler", name="Maximilian", adm=2, dip=2, mil=2, reaction=True)
    table.do("bob", "adjust", realm="Austria", reason="Event: a usurper", discard="Maximilian")
    table.do("bob", "appoint-ruler", name="Albert", adm=1, dip=1, mil=1, reaction=True)
    assert table.state.rulers_discarded == ()


def test_5_2_a_new_ruler_comes_from_the_hand_not_an_army() -> None:
    table = Table(position(france={"ruler": None, "leaders": [DUNOIS]}))
    error = table.refuse("alice", "appoint-ruler", name="Jean de Dunois", adm=1, dip=1, mil=3)
    assert "from the hand" in error.message


# Replenish Manpower


def test_5_2_replenish_manpower_costs_1_military_power_per_3_units() -> None:
    table = Table(position())
    table.do("alice", "replenish-manpower", units=6)
    france = table.realm("France")
    assert (france.manpower, france.exhausted, france.power.mil) == (10, 0, 1)


def test_5_2_replenish_manpower_a_part_of_3_units_costs_a_whole_point() -> None:
    table = Table(position())
    table.do("alice", "replenish-manpower", units=4)
    assert table.realm("France").power.mil == 1


def test_5_2_replenish_manpower_refusals() -> None:
    table = Table(position(france={"monarch_power": {"adm": 3, "dip": 3, "mil": 1}}))
    assert "exhausted" in table.refuse("alice", "replenish-manpower", units=7).message
    assert "military power" in table.refuse("alice", "replenish-manpower", units=6).message
    assert isinstance(table.refuse("alice", "replenish-manpower", units=0), InvalidCommand)


# Cut Ties

SAVOY = {"name": "Savoy", "kind": "npr", "tax_value": 5, "influence": 2, "adjacent": True}


def test_5_2_cut_ties_returns_influence_and_tokens() -> None:
    table = Table(position(france={"influence": 3, "tokens": 2, "allies": [SAVOY]}))
    table.do("alice", "cut-ties", influence=2, tokens=1, ally_influence="Savoy=1")
    france = table.realm("France")
    assert (france.influence, france.tokens, france.allies[0].influence) == (1, 1, 1)


def test_5_2_cut_ties_ends_an_alliance_with_the_penalty_entered() -> None:
    """5.2 › Cut Ties: the 'Ending an Alliance' penalty is entered with the command."""
    table = Table(position(france={"influence": 3, "allies": [SAVOY]}))
    error = table.refuse("alice", "cut-ties", end="Savoy")
    assert error.rule == rules.CUT_TIES and "penalty" in error.message
    table.do("alice", "cut-ties", end="Savoy", penalty="prestige=-1,stability=-1,prestige=-1")
    france = table.realm("France")
    assert france.allies == () and (france.prestige, france.stability) == (-2, -1)
    assert france.influence == 5, "the influence on Savoy's areas stays on the board"


def test_5_2_cut_ties_refusals() -> None:
    table = Table(position(france={"influence": 1, "allies": [SAVOY]}))
    assert isinstance(table.refuse("alice", "cut-ties"), InvalidCommand)
    assert table.refuse("alice", "cut-ties", influence=1, reaction=True).rule == rules.REACTIONS
    assert isinstance(table.refuse("alice", "cut-ties", influence=2), InvalidCommand)
    assert isinstance(
        table.refuse("alice", "cut-ties", end="Genoa", penalty="none"), InvalidCommand
    )
    assert "has 2 influence" in table.refuse("alice", "cut-ties", ally_influence="Savoy=3").message
    assert (
        table.refuse("alice", "cut-ties", end="Savoy", penalty="stability=-4").rule
        == rules.CUT_TIES
    )


def test_5_2_cut_ties_penalty_is_checked_after_the_tokens_are_returned() -> None:
    """5.2 › Cut Ties: the penalty applies to the figures the realm has once the returned
    influence and tokens are gone; none may fall below 0 (issue #18)."""
    table = Table(position(france={"influence": 3, "tokens": 1, "allies": [SAVOY]}))
    error = table.refuse("alice", "cut-ties", influence=3, end="Savoy", penalty="influence=-3")
    assert error.rule == rules.CUT_TIES and "influence would be -1" in error.message
    error = table.refuse("alice", "cut-ties", tokens=1, end="Savoy", penalty="tokens=-1")
    assert error.rule == rules.CUT_TIES and "tokens would be -1" in error.message
    table.do("alice", "cut-ties", influence=3, end="Savoy", penalty="influence=-2")
    france = table.realm("France")
    assert (france.influence, france.tokens, france.allies) == (0, 1, ())
