"""Every event of a rule set changes the state through its evolver, or is declared a
fact that changes nothing; an event the rule set knows no evolver for is an error, never
silently ignored (issue 12, part 1)."""

from __future__ import annotations

from typing import Any

import pytest

from warscribe.engine.codec import record, topic_of
from warscribe.engine.common import RECORD_EVENTS
from warscribe.engine.errors import LogError
from warscribe.engine.events import CommandIssued, Event, Note
from warscribe.engine.rulebook import Evolvers
from warscribe.engine.rulesets import eu_pop, get
from warscribe.engine.rulesets.divine_right import RULESET

from .divine_right.play import Table
from .eu_pop.table import Table as EuTable
from .eu_pop.table import position


def _event_classes(prefix: str) -> set[type]:
    """The registered event classes whose topic begins with `prefix`."""
    found: set[type] = set()
    todo = list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if topic_of(cls).startswith(prefix):
            found.add(cls)
    return found


def test_every_divine_right_event_has_an_evolver_or_is_informational() -> None:
    handled, informational = set(RULESET.rulebook.evolvers), RULESET.rulebook.informational
    assert set(RECORD_EVENTS) <= informational
    missing = _event_classes("dr.") - handled - informational
    assert _event_classes("dr.") and not missing, sorted(topic_of(c) for c in missing)


def test_every_eu_pop_event_has_an_evolver_or_is_informational() -> None:
    evolvers = eu_pop.EVOLVERS
    missing = _event_classes("eu.") - set(evolvers.table) - set(evolvers.informational)
    assert _event_classes("eu.") and not missing, sorted(topic_of(c) for c in missing)


@record("test.Stray")
class Stray(Event):
    """An event of no rule set."""

    what: str


def _states() -> list[tuple[str, Any]]:
    return [("divine-right", Table().state), ("eu-pop", EuTable(position()).state)]


@pytest.mark.parametrize(("ruleset", "state"), _states())
def test_an_event_without_an_evolver_is_an_error(ruleset: str, state: Any) -> None:
    with pytest.raises(LogError, match=r"no evolver for test\.Stray"):
        get(ruleset).evolve(state, Stray("x"))


@pytest.mark.parametrize(("ruleset", "state"), _states())
def test_the_records_own_events_change_no_game_state(ruleset: str, state: Any) -> None:
    note = Note(author="alice", text="a note", first=1, last=1, position=None)
    assert get(ruleset).evolve(state, note) == state


def test_the_records_own_events_have_no_evolver() -> None:
    """A replay folds a plain CommandIssued without reading its command (`record.UnreadCommand`):
    the record's own events may change no rule set's state, so none may have an evolver."""
    with pytest.raises(TypeError, match=r"warscribe\.CommandIssued"):
        Evolvers("test", lambda created: None, {CommandIssued: lambda state, event: state})


@pytest.mark.parametrize(("ruleset", "state"), _states())
def test_a_command_issued_changes_no_game_state(ruleset: str, state: Any) -> None:
    issued = CommandIssued(actor="alice", name="roll", args=(("dice", "2d6"),))
    assert get(ruleset).evolve(state, issued) is state
