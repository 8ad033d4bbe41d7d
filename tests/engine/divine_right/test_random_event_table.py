"""Random Events Phase › Random Events Table as one declaration per result (`EVENTS`):
the table the rules print, and every lookup the rules read derived from it, so that a new
random event is one `RandomEvent` and nothing else (issue 34)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from warscribe.engine.errors import IllegalCommand
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right import random_events, specs, tables
from warscribe.engine.rulesets.divine_right.evolving import Decision
from warscribe.engine.rulesets.divine_right.random_events import (
    EVENTS,
    Choice,
    RandomEvent,
    RandomEventRolled,
    RandomEventsTable,
    UnitsLost,
)
from warscribe.engine.rulesets.divine_right.rulebook import RULEBOOK

from .play import Table, of

# Random Events Phase: the table as the rulebook prints it.
PRINTED = {
    2: "Untimely Death",
    3: "Storms",
    4: "Mutiny",
    5: "Bad Omens",
    6: "Replacements",
    7: "No Event",
    8: "Reinforcements",
    9: "Epidemic",
    10: "Replacements / Reinforcements",
    11: "Desertion",
    12: "Help from Afar",
}


def test_every_total_of_two_dice_rolls_one_declared_event() -> None:
    """Random Events Phase: the total of two dice is referenced on the table, each of
    2 to 12 naming one result."""
    rolls = [t for e in EVENTS.events for t in e.rolls]
    assert sorted(rolls) == list(range(2, 13))
    assert random_events.TABLE == PRINTED


def test_the_old_lookups_are_the_table_read_one_way() -> None:
    """Each lookup the rules (and other modules) read is derived from `EVENTS`."""
    assert random_events.LOSSES == ("storm", "mutiny", "epidemic", "desertion")
    assert random_events.GAINS == ("replacement", "reinforcement", "replacement-or-reinforcement")
    assert random_events.KIND_RESULT == {
        "storm": 3,
        "mutiny": 4,
        "replacement": 6,
        "reinforcement": 8,
        "epidemic": 9,
        "replacement-or-reinforcement": 10,
        "desertion": 11,
    }
    assert sorted(random_events.RESULTS) == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]
    assert random_events.REPLACES == ("replacement", "replacement-or-reinforcement")
    assert random_events.REINFORCES == ("reinforcement", "replacement-or-reinforcement")
    assert set(random_events.DECISIONS) == set(random_events.KIND_RESULT)
    assert RULEBOOK.decisions["storm"] == random_events.DECISIONS["storm"]
    assert RULEBOOK.evolvers[UnitsLost] is random_events.EVOLVERS[UnitsLost]


def test_the_commands_answer_the_decisions_the_table_asks() -> None:
    """`events-lose` answers every loss the table asks, `events-replace` every gain that
    brings back a regular, `events-reinforce` and `events-decline` every one bringing in
    a mercenary."""
    commands = specs.COMMANDS
    assert commands["events-lose"].answers == random_events.LOSSES
    assert commands["events-replace"].answers == random_events.REPLACES
    assert commands["events-reinforce"].answers == random_events.REINFORCES
    assert commands["events-decline"].answers == random_events.REINFORCES


def test_two_evolvers_for_one_event_class_is_a_mistake() -> None:
    """Results sharing an event (UnitsLost) share its evolver; a second one is refused."""
    clash = RandomEvent("Clash", (7,), evolvers=((UnitsLost, lambda state, event: state),))
    with pytest.raises(RuntimeError, match="Clash: a second evolver for UnitsLost"):
        random_events.evolvers(EVENTS.with_event(clash))


# -- a made-up event, registered in a copy of the table only ----------------------------------


def _plague(d: Decision, player: str, event: RandomEvent) -> None:
    """Lose one regular of the rolling player's alliance."""
    friendly = sorted(d.state.alliance(player))
    regulars = [u.id for k in friendly for u in d.state.units_of(k) if u.kind != "monarch"]
    random_events._ask(d, player, event, regulars)


def _check(d: Decision, player: str, units: tuple[str, ...], rule: str) -> None:
    if units == ("Muetar-A1",):
        raise IllegalCommand("the plague spares Muetar-A1", rule)


PLAGUE = RandomEvent(
    "Plague",
    (7,),
    _plague,
    Choice("plague", "Plague: choose one of your regulars to lose", check=_check),
    "{player} has no regular left",
    ((UnitsLost, random_events.EVOLVERS[UnitsLost]),),
)


@pytest.fixture
def plague(monkeypatch: pytest.MonkeyPatch) -> Iterator[RandomEventsTable]:
    """The table with Plague for No Event, in play: `EVENTS` replaced, and what is derived
    from it at import derived again (the rule book's decisions and evolvers, the
    commands' answers), each through the same function the modules use."""
    table = EVENTS.with_event(PLAGUE)
    monkeypatch.setattr(random_events, "EVENTS", table)
    ruleset = get("divine-right")
    lose = dataclasses.replace(ruleset.commands["events-lose"], answers=table.kinds(gains=False))
    monkeypatch.setattr(ruleset, "commands", {**ruleset.commands, "events-lose": lose})
    book = dataclasses.replace(
        RULEBOOK,
        decisions={**RULEBOOK.decisions, **random_events.decisions(table)},
        evolvers={**RULEBOOK.evolvers, **random_events.evolvers(table)},
    )
    tables.bind(book)
    yield table
    tables.bind(RULEBOOK)


def test_a_made_up_event_is_rolled_asked_answered_and_evolved(
    plague: RandomEventsTable,
) -> None:
    """A new result is one declaration: rolled on its total, its decision asked with its
    reason, an answer checked by its rule and cited to its section, and its events evolved."""
    assert plague.names()[7] == "Plague" and "plague" in plague.kinds(gains=False)
    game = Table()
    events = game.do("events-roll", 3, 4)
    assert of(events, RandomEventRolled)[0].event == "Plague"
    pending = game.state.turn.progress.pending if game.state.turn else None
    assert pending is not None and pending.kind == "plague"
    assert pending.why == "Plague: choose one of your regulars to lose"
    game.refuse(IllegalCommand, "spares Muetar-A1", "events-lose", unit="Muetar-A1")
    with pytest.raises(IllegalCommand) as refused:
        game.do("events-lose", unit="Muetar-monarch")
    assert refused.value.rule == "Random Events Phase › Plague"
    lost = game.do("events-lose", unit="Muetar-A2")
    assert of(lost, UnitsLost) == [UnitsLost(player="carol", event="Plague", units=("Muetar-A2",))]
    assert "Muetar-A2" in game.state.kingdoms["Muetar"].eliminated
    assert game.state.turn is not None and game.state.turn.progress.pending is None


# The reasons players read (a void result's, a decision's), kept word for word.
VOID = {
    "Untimely Death": "no non-player monarch is allied to carol",
    "Storms": "no fleet of carol's is out of port",
    "Mutiny": "carol has no regular or mercenary unit on the map",
    "Bad Omens": "carol has no friendly kingdom",
    "Replacements": "no eliminated regular of carol's active kingdoms can return to its"
    " deployment space",
    "Reinforcements": "no common mercenary can enter an available friendly castle or port of"
    " carol's",
    "Epidemic": "carol has no combat unit on the map",
    "Replacements / Reinforcements": "neither an eliminated regular nor a common mercenary"
    " can enter for carol",
    "Desertion": "carol has no common mercenary on the map",
    "Help from Afar": "every non-player monarch is already allied",
}
_REPLACE = "events replace unit=ID [at=PLACE]"
_REINFORCE = "events reinforce kind=army|fleet at=PLACE, or unit=ID at=PLACE to steal"
WHY = {
    "Storms": "Storms: choose one of your fleets not in a port to lose (events lose unit=ID)",
    "Mutiny": "Mutiny: choose one friendly regular or mercenary unit to lose (events lose unit=ID)",
    "Replacements": f"Replacements: bring back 2 eliminated regular(s) ({_REPLACE})",
    "Reinforcements": f"Reinforcements: bring 2 common mercenary unit(s) in ({_REINFORCE})",
    "Epidemic": "Epidemic: choose the 2 combat unit(s) to lose (at X) (events lose units=A,B,...)",
    "Replacements / Reinforcements": "Replacements / Reinforcements: bring back one eliminated"
    f" regular ({_REPLACE}) or one common mercenary ({_REINFORCE})",
    "Desertion": "Desertion: choose one common mercenary to lose (events lose unit=ID)",
}


def test_the_reasons_players_read_are_kept_word_for_word() -> None:
    """Random Events Phase: why a result is "no event", and what a decision asks for."""
    voids = {e.name: e.void.format(player="carol") for e in EVENTS.events if e.void}
    assert voids == VOID
    whys = {e.name: e.asks.why.format(count=2, where="(at X)") for e in EVENTS.events if e.choice}
    assert whys == WHY
