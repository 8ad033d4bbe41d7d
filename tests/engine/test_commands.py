"""Argument checking is written once, in the core (issue 12, part 1 and bug 5): every
argument of every command of every game, and of the record's own commands, given any
value, is read by its kind or refused with InvalidCommand naming the argument and citing
the rule; nothing else escapes (no TypeError, no ValueError). The toy duel's commands
(plugins/warscribe-duel) are checked with warscribe's own games'."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warscribe.engine.commands import Arg, CommandSpec, read
from warscribe.engine.common import RECORD
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
