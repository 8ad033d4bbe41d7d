"""Diplomacy Phase (rulebook "Diplomacy Phase", all subsections) and the kingdom status
changes it causes (rulebook "Kingdoms"). Dice are entered by hand (table mode)."""

from __future__ import annotations

import pytest

from warscribe.engine.errors import IllegalCommand, InvalidCommand, NotYourTurn
from warscribe.engine.events import Command
from warscribe.engine.record import fold
from warscribe.engine.rulesets.divine_right import RULESET
from warscribe.engine.rulesets.divine_right.diplomacy import HIDDEN_CARD
from warscribe.engine.rulesets.divine_right.events import (
    AmbassadorBanished,
    AmbassadorKilled,
    ConfusionBegan,
    DiplomacyAttempted,
    DiscardsReshuffled,
    DuelFought,
    ForcedPeaceBegan,
    KingdomActivated,
    KingdomDeactivated,
    MonarchCrowned,
    MonarchDied,
    PersonalityRevealed,
)
from warscribe.engine.rulesets.divine_right.evolving import scratch_dice
from warscribe.engine.rulesets.divine_right.projections import banishments, kingdoms
from warscribe.store.logfile import redact_for

from .play import Table, of


def at_diplomacy(table: Table, turn: int = 1, player: str | None = None) -> str:
    """Advance to `player`'s (by default the first player's) Diplomacy Phase of game turn
    `turn`, card drawn: the player."""
    table.to_phase(turn, player or table.player, "diplomacy")
    table.do("diplomacy-draw")
    return table.player


def refused_on(table: Table, turns: tuple[int, ...], kingdom: str, match: str) -> None:
    """On each of `turns` alice draws, and even a 6 may not activate `kingdom` (`match`)."""
    for turn in turns:
        at_diplomacy(table, turn, "alice")
        table.refuse(IllegalCommand, match, "diplomacy-activate", 6, kingdom=kingdom)


def give(table: Table, player: str, *cards: str) -> None:
    """Put cards in a player's hand (as earlier draws would have)."""
    table.set_state(
        table.state.with_player(player, hand=(*table.state.player(player).hand, *cards))
    )


def ally(table: Table, kingdom: str, player: str) -> None:
    table.set_kingdom(kingdom, ally=player, activations=1, revealed=True)


def test_activation_succeeds_on_6_or_more_and_deploys_the_whole_force_pool() -> None:
    """Diplomacy Phase › Activation Attempts; Kingdoms › Activation of Kingdoms."""
    table = Table()
    player = at_diplomacy(table)
    events = table.do("diplomacy-activate", 6, kingdom="Neuth")
    assert of(events, PersonalityRevealed), "the personality card is read out"
    attempt = of(events, DiplomacyAttempted)[0]
    assert (attempt.roll, attempt.total, attempt.needed, attempt.succeeded) == (6, 6, 6, True)
    activated = of(events, KingdomActivated)[0]
    assert activated.ally == player and activated.first_time
    assert {p.unit for p in activated.placements} >= {"Neuth-monarch"}
    assert len(activated.placements) == 1 + 6, "monarch and the six elven armies"
    assert table.state.kingdoms["Neuth"].status == "active"


def test_activation_fails_below_6() -> None:
    """Diplomacy Phase › Activation Attempts: 6 or greater after modifiers."""
    table = Table()
    at_diplomacy(table)
    attempt = of(table.do("diplomacy-activate", 5, kingdom="Neuth"), DiplomacyAttempted)[0]
    assert not attempt.succeeded and table.state.kingdoms["Neuth"].status == "inactive"


def test_a_card_adds_its_bonus_and_is_discarded() -> None:
    """Diplomacy Phase › Activation Attempts: one card per roll, discarded after it."""
    table = Table()
    player = at_diplomacy(table)
    give(table, player, "bribe+2#1")
    held = table.state.player(player).hand.count("bribe+2#1")
    attempt = of(
        table.do("diplomacy-activate", 4, kingdom="Neuth", card="bribe+2#1"), DiplomacyAttempted
    )[0]
    assert attempt.total == 6 and attempt.succeeded
    assert table.state.player(player).hand.count("bribe+2#1") == held - 1
    assert table.state.discards[-1] == "bribe+2#1"


def test_a_failed_plus_1_threat_banishes_for_two_full_turns() -> None:
    """Diplomacy Phase › Banishing Ambassadors, the rulebook's example: "if a player is
    unsuccessful with a +1 Threat, the ambassador would be banished from that kingdom for
    two full game turns"."""
    table = Table()
    player = at_diplomacy(table)
    give(table, player, "threats+1#1")
    events = table.do("diplomacy-activate", 2, kingdom="Neuth", card="threats+1#1")
    banished = of(events, AmbassadorBanished)[0]
    assert banished.until == 1 + 2 + 1, "banished for turns 2 and 3, free again on turn 4"
    assert banishments(table.state)[player] == [
        {
            "kingdom": "Neuth",
            "until_turn": 4,
            "turns_left": 2,
            "why": "failed Threats +1",
            "since_turn": 1,
        }
    ]
    at_diplomacy(table, 3, player)
    table.refuse(
        IllegalCommand, "banished from Neuth until turn 4", "diplomacy-activate", 6, kingdom="Neuth"
    )
    at_diplomacy(table, 4, player)
    assert of(table.do("diplomacy-activate", 6, kingdom="Neuth"), KingdomActivated)


def test_turns_left_counts_the_full_game_turns_still_banished() -> None:
    """Diplomacy Phase › Banishing Ambassadors: "While banished, the ambassador may not
    attempt any of the diplomatic functions upon the offended monarch or kingdom", "for
    two full game turns" after a failed +1 Threat. Issue 32: carol, banished from Hothior
    on turn 2 until turn 5, was told `turns_left: 0` on turn 4 while her activation was
    refused; turn 4 is still a turn of her banishment."""
    table = Table({"alice": "Muetar", "bob": "Mivior", "carol": "Shucassam"})
    at_diplomacy(table, 2, "carol")
    give(table, "carol", "threats+1#1")
    table.do("diplomacy-activate", 2, kingdom="Hothior", card="threats+1#1")
    left = {}
    for turn in (2, 3, 4):
        if turn > 2:
            at_diplomacy(table, turn, "carol")
        [banished] = banishments(table.state)["carol"]
        assert banished["until_turn"] == 5
        left[turn] = banished["turns_left"]
    assert left == {2: 2, 3: 2, 4: 1}, "turns 3 and 4 banished, 4 the last of them"
    table.refuse(
        IllegalCommand,
        "banished from Hothior until turn 5",
        "diplomacy-activate",
        6,
        kingdom="Hothior",
    )
    at_diplomacy(table, 5, "carol")
    assert banishments(table.state)["carol"] == []
    assert of(table.do("diplomacy-activate", 6, kingdom="Hothior"), KingdomActivated)


def test_personality_banishment_adds_to_the_cards() -> None:
    """Diplomacy Phase › Banishing Ambassadors: both kinds at once are added together."""
    table = Table()
    player = at_diplomacy(table)
    table.set_kingdom("Neuth", personality=9)  # Irascible: any failure banishes for 2 turns
    give(table, player, "threats+1#1")
    banished = of(
        table.do("diplomacy-activate", 1, kingdom="Neuth", card="threats+1#1"), AmbassadorBanished
    )
    assert banished[0].until == 1 + (2 + 2) + 1


def test_deactivation_needs_7_and_keeps_survivors_for_reactivation() -> None:
    """Diplomacy Phase › Deactivation Attempts (7 or more); Kingdoms › Deactivation of
    Kingdoms (eliminated regulars stay eliminated) and Activation (survivors redeploy)."""
    table = Table()
    at_diplomacy(table, 1, "bob")  # bob wins the elves
    table.do("diplomacy-activate", 6, kingdom="Neuth")
    lost = (
        "Neuth-A1"
        if "Neuth-A1" in table.state.units
        else sorted(u.id for u in table.state.units_of("Neuth"))[1]
    )
    table.set_state(table.state.without_units([lost]))  # an elven army lost in battle
    at_diplomacy(table, 2, "alice")
    attempt = of(table.do("diplomacy-deactivate", 6, kingdom="Neuth"), DiplomacyAttempted)[0]
    assert (attempt.total, attempt.needed, attempt.succeeded) == (6, 7, False)
    at_diplomacy(table, 3, "alice")
    give(table, "alice", "bribe+1#1")
    events = table.do("diplomacy-deactivate", 6, kingdom="Neuth", card="bribe+1#1")
    gone = of(events, KingdomDeactivated)[0]
    assert lost not in gone.removed and len(gone.removed) == 6, "the monarch and five armies leave"
    assert table.state.kingdoms["Neuth"].status == "inactive" and not table.state.units_of("Neuth")
    at_diplomacy(table, 4, "alice")
    again = of(table.do("diplomacy-activate", 6, kingdom="Neuth"), KingdomActivated)[0]
    assert (
        not again.first_time
        and len(again.placements) == 6
        and lost not in {p.unit for p in again.placements}
    )


def test_only_one_ambassador_task_per_phase() -> None:
    """Diplomacy Phase › Resolving Diplomacy: one of the four tasks."""
    table = Table()
    at_diplomacy(table)
    table.do("diplomacy-activate", 2, kingdom="Neuth")
    table.refuse(IllegalCommand, "already acted", "diplomacy-activate", 6, kingdom="Zorn")


def test_diplomacy_needs_a_drawn_card_first_and_the_right_player_and_phase() -> None:
    """The Game Turn (Phase 2 A: draw a card first); out of turn and out of phase."""
    table = Table()
    table.refuse(IllegalCommand, "belongs to the Diplomacy Phase", "diplomacy-draw")
    other = next(p for p in table.state.turn.order if p != table.player)  # type: ignore[union-attr]
    table.refuse(NotYourTurn, f"it is {table.player}'s turn", "events-roll", 3, 4, by=other)
    table.to_phase(1, table.player, "diplomacy")
    table.refuse(IllegalCommand, "draw a diplomacy card", "diplomacy-activate", 6, kingdom="Neuth")
    table.refuse(IllegalCommand, "draw a diplomacy card first", "end-phase")


def test_unknown_kingdoms_and_cards_are_refused() -> None:
    table = Table()
    at_diplomacy(table)
    table.refuse(
        InvalidCommand, "no kingdom 'Atlantis'", "diplomacy-activate", 6, kingdom="Atlantis"
    )
    table.refuse(
        IllegalCommand,
        "not a non-allied non-player kingdom",
        "diplomacy-activate",
        6,
        kingdom="Muetar",
    )
    table.refuse(
        InvalidCommand,
        "holds no diplomacy card",
        "diplomacy-activate",
        6,
        kingdom="Neuth",
        card="nope",
    )


def test_hand_limit_of_four_at_the_end_of_the_phase() -> None:
    """Diplomacy Phase › Diplomacy Cards: no more than four at the end of the phase."""
    table = Table()
    player = at_diplomacy(table)
    give(table, player, "bribe+1#1", "bribe+1#2", "bribe+1#3", "bribe+1#4")
    table.refuse(IllegalCommand, "discard down to 4", "end-phase")
    table.do("discard", cards=("bribe+1#1",))
    table.do("end-phase")
    assert len(table.state.player(player).hand) == 4


def test_the_discards_are_reshuffled_when_the_deck_runs_out() -> None:
    """Diplomacy Phase › Diplomacy Cards: the discard pile is reshuffled for reuse."""
    table = Table()
    table.to_phase(1, table.player, "diplomacy")
    table.set_state(table.state.replace(deck=(), deck_size=0, discards=("bribe+1#1", "bribe+1#2")))
    events = table.do("diplomacy-draw")
    reshuffled = of(events, DiscardsReshuffled)[0]
    assert reshuffled.size == 2 and table.state.deck_size == 1 and table.state.discards == ()


def test_an_ambassador_killed_on_turn_5_works_again_on_turn_8() -> None:
    """Diplomacy Phase › Death of an Ambassador, the rulebook's example."""
    table = Table()
    at_diplomacy(table, 5, "alice")
    table.set_kingdom("Neuth", ally="bob", activations=1, revealed=True)
    events = table.do("diplomacy-assassinate", 1, 6, kingdom="Neuth")
    killed = of(events, AmbassadorKilled)[0]
    assert killed.back_on == 8
    assert of(events, AmbassadorBanished)[0].until is None, "banished until the monarch dies"
    refused_on(table, (6, 7), "Zorn", "ambassador is dead: diplomacy resumes on turn 8")
    at_diplomacy(table, 8, "alice")
    assert of(table.do("diplomacy-activate", 6, kingdom="Zorn"), KingdomActivated)


def test_a_successful_assassination_deactivates_into_confusion_with_no_points() -> None:
    """Diplomacy Phase › Assassination Attempts; Victory (no points for assassination)."""
    table = Table()
    player = at_diplomacy(table)
    enemy = next(p for p in table.state.turn.order if p != player)  # type: ignore[union-attr]
    table.set_kingdom("Neuth", ally=enemy, activations=1, revealed=True)
    events = table.do("diplomacy-assassinate", 5, 2, 3, kingdom="Neuth")
    assert of(events, MonarchDied) and of(events, KingdomDeactivated)
    assert of(events, ConfusionBegan)[0].until == 1 + 3 + 1
    assert table.state.ledger == ()
    assert table.state.player(player).assassination_used
    at_diplomacy(table, 2, player)
    table.set_kingdom("Zorn", ally=enemy, activations=1, revealed=True)
    table.refuse(
        IllegalCommand,
        "already attempted an assassination",
        "diplomacy-assassinate",
        6,
        1,
        kingdom="Zorn",
    )


def test_the_confusion_example_killed_on_turn_7_rolled_4_available_on_turn_12() -> None:
    """Kingdoms › Confusion, the rulebook's example."""
    table = Table()
    at_diplomacy(table, 7, "alice")
    table.set_kingdom("Neuth", ally="bob", activations=1, revealed=True)
    events = table.do("diplomacy-assassinate", 6, 1, 4, kingdom="Neuth")
    assert of(events, ConfusionBegan)[0].until == 12
    refused_on(table, (8, 11), "Neuth", "Confusion: no diplomacy until turn 12")
    table.to_phase(12, "alice", "random-events")
    crowned = [e for e in table.log if isinstance(e.event, MonarchCrowned)]
    assert crowned and crowned[-1].event.kingdom == "Neuth"
    assert table.state.kingdoms["Neuth"].status == "inactive"
    assert table.state.kingdoms["Neuth"].personality is not None
    at_diplomacy(table, 12, "alice")
    table.set_kingdom("Neuth", personality=1)
    assert of(table.do("diplomacy-activate", 6, kingdom="Neuth"), KingdomActivated)


def test_a_duel_kills_the_lower_roll_and_a_tie_kills_both() -> None:
    """Diplomacy Phase › Dueling an Enemy Ambassador: once per pair of players."""
    table = Table()
    at_diplomacy(table, 1, "alice")
    duel = of(table.do("diplomacy-duel", 2, 5, player="bob"), DuelFought)[0]
    assert duel.killed == ("alice",)
    at_diplomacy(table, 4, "carol")
    tie = of(table.do("diplomacy-duel", 3, 3, player="bob"), DuelFought)[0]
    assert set(tie.killed) == {"bob", "carol"}
    at_diplomacy(table, 5, "bob")
    table.refuse(IllegalCommand, "dead", "diplomacy-duel", 1, 1, player="alice")


def test_duel_once_per_pair_regardless_of_who_challenges() -> None:
    table = Table()
    at_diplomacy(table, 1, "alice")
    table.do("diplomacy-duel", 4, 4, player="bob")
    at_diplomacy(table, 4, "bob")
    table.refuse(IllegalCommand, "already duelled", "diplomacy-duel", 1, 2, player="alice")


def test_forced_peace_needs_a_captive_monarch_or_held_plundered_royal_castle() -> None:
    """Diplomacy Phase › Forced Peace Attempts: 5-6 succeeds, lasts 1d6 turns."""
    table = Table()
    player = at_diplomacy(table)
    enemy = next(p for p in table.state.turn.order if p != player)  # type: ignore[union-attr]
    table.set_kingdom("Neuth", ally=enemy, activations=1, revealed=True)
    table.refuse(
        IllegalCommand, "after the ambassador", "diplomacy-force-peace", 6, kingdom="Neuth"
    )
    table.do("diplomacy-pass")
    table.refuse(IllegalCommand, "neither holds", "diplomacy-force-peace", 6, kingdom="Neuth")
    table.set_kingdom("Neuth", captive_of=player)
    failed = table.do("diplomacy-force-peace", 4, kingdom="Neuth")
    assert table.state.kingdoms["Neuth"].status == "active" and not of(failed, ForcedPeaceBegan)
    table.refuse(
        IllegalCommand,
        "already attempted to force peace",
        "diplomacy-force-peace",
        6,
        kingdom="Neuth",
    )
    at_diplomacy(table, 2, player)
    table.do("diplomacy-pass")
    events = table.do("diplomacy-force-peace", 5, 3, kingdom="Neuth")
    assert of(events, ForcedPeaceBegan)[0].until == 2 + 3 + 1
    assert table.state.kingdoms["Neuth"].status == "forced peace"
    assert (
        kingdoms(table.state)[[k["kingdom"] for k in kingdoms(table.state)].index("Neuth")][
            "forced_peace_until"
        ]
        == 6
    )


def test_no_forced_peace_and_deactivation_on_one_kingdom_in_the_same_turn() -> None:
    """Diplomacy Phase › Forced Peace Attempts (last paragraph)."""
    table = Table()
    player = at_diplomacy(table)
    enemy = next(p for p in table.state.turn.order if p != player)  # type: ignore[union-attr]
    table.set_kingdom("Neuth", ally=enemy, activations=1, revealed=True, captive_of=player)
    table.do("diplomacy-deactivate", 1, kingdom="Neuth")
    table.refuse(
        IllegalCommand,
        "attempted to deactivate Neuth this turn",
        "diplomacy-force-peace",
        6,
        kingdom="Neuth",
    )


def test_deactivation_is_refused_while_another_player_holds_the_monarch() -> None:
    """Diplomacy Phase › Deactivation Attempts: not a monarch held captive by another player."""
    table = Table()
    player = at_diplomacy(table)
    others = [p for p in table.state.turn.order if p != player]  # type: ignore[union-attr]
    table.set_kingdom("Neuth", ally=others[0], activations=1, revealed=True, captive_of=others[1])
    table.refuse(IllegalCommand, "held captive", "diplomacy-deactivate", 6, kingdom="Neuth")


@pytest.mark.parametrize(
    ("card", "personality", "total"), [("threats+1#1", 2, 5), ("bribe+1#1", 7, 3), (None, 8, 4)]
)
def test_personality_roll_modifiers(card: str | None, personality: int, total: int) -> None:
    """Personality cards as data: Cowardly +1 to Threats, Obstinate ignores Bribes,
    Gullible +1 to every roll (rulebook: The Cards › Personality Cards)."""
    table = Table()
    player = at_diplomacy(table)
    table.set_kingdom("Neuth", personality=personality)
    if card:
        give(table, player, card)
    attempt = of(table.do("diplomacy-activate", 3, kingdom="Neuth", card=card), DiplomacyAttempted)[
        0
    ]
    assert attempt.total == total


def test_cowardly_never_banishes_on_threats() -> None:
    table = Table()
    player = at_diplomacy(table)
    table.set_kingdom("Neuth", personality=2)
    give(table, player, "threats+2#1")
    assert not of(
        table.do("diplomacy-activate", 1, kingdom="Neuth", card="threats+2#1"), AmbassadorBanished
    )


def test_the_diplomatic_penalty_is_minus_1_for_the_rest_of_the_game() -> None:
    """Inactive Kingdoms: a -1 penalty on diplomacy rolls with a violated kingdom."""
    table = Table()
    player = at_diplomacy(table)
    table.set_state(table.state.with_player(player, penalties=frozenset({"Neuth"})))
    attempt = of(table.do("diplomacy-activate", 6, kingdom="Neuth"), DiplomacyAttempted)[0]
    assert ("diplomatic penalty", -1) in attempt.modifiers and not attempt.succeeded


def test_a_copy_that_hides_a_hand_still_counts_its_cards() -> None:
    """Diplomacy Phase › Diplomacy Cards: how many cards a player holds is public, which
    cards is not. In another player's copy each hidden card reads `hidden`, never a wrong
    count (issue 13: carol showed 'no cards' while she held one)."""
    table = Table()
    first = table.player
    # the first player draws a card and holds it; the next player's turn begins
    table.do("events-roll", 3, 4)
    table.do("end-phase")
    table.do("diplomacy-draw")
    drawn = table.state.player(first).hand
    assert len(drawn) == 1
    other = next(p.name for p in table.state.players if p.name != first)
    copy = fold(redact_for(table.log, other))
    assert copy.state.player(first).hand == (HIDDEN_CARD,)
    assert fold(redact_for(table.log, first)).state.player(first).hand == drawn
    # the card is discarded: the hidden one leaves the other player's count too
    table.do("discard", cards=drawn[0])
    assert fold(redact_for(table.log, other)).state.player(first).hand == ()


def test_a_card_a_copy_hides_is_never_offered_nor_played() -> None:
    """Diplomacy Phase › Diplomacy Cards, in another player's copy (issue 32: `status` in
    a player's store ended in StopIteration): the copy offers the drawing player no card
    it reads as `hidden`, and a command naming `hidden` is refused as naming no card."""
    table = Table()
    first = at_diplomacy(table)
    other = next(p.name for p in table.state.players if p.name != first)
    copy = fold(redact_for(table.log, other)).state
    assert copy.player(first).hand == (HIDDEN_CARD,)
    offered = [o for o in RULESET.legal(copy) if o.actor == first]
    assert {o.name for o in offered} >= {"diplomacy-activate", "diplomacy-pass"}
    assert HIDDEN_CARD not in repr(offered)
    play = Command(first, "diplomacy-activate", (("kingdom", "Neuth"), ("card", HIDDEN_CARD)))
    with pytest.raises(InvalidCommand, match=f"{first} holds no diplomacy card 'hidden'"):
        RULESET.decide(copy, play, scratch_dice())
