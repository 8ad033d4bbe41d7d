"""Argument checking is written once, in the core (issue 12, part 1 and bug 5): every
argument of every command of every game, and of the record's own commands, given any
value, is read by its kind or refused with InvalidCommand naming the argument and citing
the rule; nothing else escapes (no TypeError, no ValueError). The toy duel's commands
(plugins/warscribe-duel) are checked with warscribe's own games'."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warscribe_duel import rules as duel

from warscribe.engine.commands import Arg, CommandSpec, Kind, follow, read
from warscribe.engine.common import RECORD
from warscribe.engine.decision import Decision
from warscribe.engine.dice import Dice
from warscribe.engine.errors import InvalidCommand
from warscribe.engine.events import Command
from warscribe.engine.rulebook import RuleBook
from warscribe.engine.rulesets import get, names


def _specs() -> list[CommandSpec[Any]]:
    found: list[CommandSpec[Any]] = list(RECORD.values())
    for name in names():
        ruleset = get(name)
        if isinstance(ruleset, RuleBook):
            found += ruleset.commands.values()
    return found


ARGUMENTS = [(spec, arg) for spec in _specs() for arg in spec.args]
JUNK = st.one_of(
    st.booleans(),
    st.integers(-5, 30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions(max_denominator=4),
    st.text(max_size=12),
    st.sampled_from(["adm", "dip,mil", "a=1", "adm=x", "=", ",", "none", "12½", "2d6", "0d0"]),
    st.lists(st.one_of(st.integers(-2, 3), st.text(max_size=4), st.none()), max_size=3),
    st.tuples(st.text(max_size=4), st.integers()),
    st.dictionaries(st.text(max_size=4), st.one_of(st.integers(), st.text(max_size=3)), max_size=2),
    st.builds(object),
)


def test_both_games_and_the_record_declare_their_commands_as_specs() -> None:
    named = {spec.name for spec, _ in ARGUMENTS}
    assert {"roll", "note", "ruling", "cut-ties", "income-cut-costs"} <= named
    assert {"move", "attack-declare", "retreat-to", "siege-lift", "discard", "place"} <= named


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ARGUMENTS), JUNK)
def test_every_bad_argument_of_every_command_is_an_invalid_command_naming_it(
    target: tuple[CommandSpec[Any], Arg], value: Any
) -> None:
    spec, arg = target
    command = Command("alice", spec.name, ((arg.name, value),))
    accepted = arg.kind.read(value) is not None
    try:
        call = read(spec, command)
    except InvalidCommand as error:
        rules = {spec.rule, arg.rule}
        named = f"{arg.name} must be" in error.message
        assert named != accepted and error.rule in rules, (spec.name, arg.name, value, error)
    else:
        assert accepted and call.given(arg.name), (spec.name, arg.name, value)


@pytest.mark.parametrize(
    ("name", "key", "value"),
    [
        ("cut-ties", "penalty", 2),
        ("cut-ties", "end", 2),
        ("income-cut-costs", "fire", 2),
        ("income-cut-costs", "fire", True),
        ("income-cut-costs", "fire", 2.5),
        ("roll", "dice", 3),
        ("note", "first", "x"),
    ],
)
def test_issue_12_bad_argument_types_are_refused_by_the_core(
    name: str, key: str, value: Any
) -> None:
    spec = next(spec for spec in _specs() if spec.name == name)
    with pytest.raises(InvalidCommand, match=f"{key} must be") as info:
        read(spec, Command("alice", name, ((key, value),)))
    assert info.value.rule == spec.rule


def test_an_unknown_argument_and_a_missing_one_are_named() -> None:
    with pytest.raises(InvalidCommand, match="takes no argument colour"):
        read(RECORD["note"], Command("alice", "note", (("colour", "red"),)))
    with pytest.raises(InvalidCommand, match="note needs text=TEXT"):
        read(RECORD["note"], Command("alice", "note", (("first", 1), ("last", 1))))


def test_a_kind_that_resolves_gives_what_its_value_names_in_the_games_data() -> None:
    """A kind with `resolve` is read as text first (a bad value refused as any), then
    given to the decision as what it names in the game's data; a name it does not know is
    refused by the resolver, citing the argument's rule, only when the decision reads it."""

    def named(data: Any, value: Any, rule: str) -> int:
        if value not in data:
            raise InvalidCommand(f"no place {value!r}", rule)
        found: int = data[value]
        return found

    place = Kind("a place", lambda value: value if isinstance(value, str) else None, "PLACE")
    spec = CommandSpec[Any](
        "go",
        lambda d: None,
        (Arg("to", Kind(place.wanted, place.read, place.metavar, resolve=named), "Where."),),
        "Going",
        "Go.",
        (),
    )
    call = read(spec, Command("alice", "go", (("to", "home"),)), data={"home": 7})
    assert call.get("to") == 7
    astray = read(spec, Command("alice", "go", (("to", "Mars"),)), data={"home": 7})
    with pytest.raises(InvalidCommand, match="no place 'Mars'") as refused:
        astray.get("to")
    assert refused.value.rule == "Going"
    with pytest.raises(InvalidCommand, match="to must be a place"):
        read(spec, Command("alice", "go", (("to", 3),)), data={"home": 7})


def test_a_decision_evolves_as_it_emits_and_decides_a_followed_command_within_it() -> None:
    """`emit` evolves the state event by event (a rule sees what the ones before it
    did); `follow` decides a command the rules give for a player on the same decision,
    then its own call is back; `ask` needs the rule set's question event."""
    seen: list[int] = []

    def rest(d: Decision[int, None]) -> None:
        seen.append(d.state)
        d.emit(duel.Rested(d.call.actor))

    spec = CommandSpec[int]("rest", rest, (), "Resting", "Rest.", ())
    dice = Dice(key=bytes(32), game_id=UUID(int=0), chain=bytes(32), next_index=0)
    given = read(spec, Command("alice", "rest", ()))
    d: Decision[int, None] = Decision(0, given, None, dice, lambda state, event: state + 1)
    d.emit(duel.Rested("alice"), duel.Rested("bob"))
    assert d.state == 2
    follow(d, spec, Command("bob", "rest", ()))
    assert (seen, d.state, d.call) == ([2], 3, given)
    assert [e.player for e in d.events if isinstance(e, duel.Rested)] == ["alice", "bob", "bob"]
    with pytest.raises(TypeError, match="asks no decisions"):
        d.ask("double", "alice")
