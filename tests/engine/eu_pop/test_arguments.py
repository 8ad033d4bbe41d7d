"""Every argument of every eu-pop command, given any value, is either accepted or refused
with a rule error; a malformed one with InvalidCommand naming the argument and citing the
rule (issue #12: `cut-ties penalty=2`, `income-cut-costs fire=2.5` raised TypeError).

Each command has a valid example below, giving every argument it takes, in a position
where it is accepted; the property replaces one argument by an arbitrary value."""

from __future__ import annotations

from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.dice import Dice
from warscribe.engine.errors import InvalidCommand, RuleError
from warscribe.engine.events import Command
from warscribe.engine.rulesets.eu_pop import COMMANDS, RULESET, rules
from warscribe.engine.rulesets.eu_pop.income import STEP_COMMANDS
from warscribe.engine.rulesets.eu_pop.state import EuState

RULES = {value for name, value in vars(rules).items() if name.isupper() and name != "_IN"}
SAVOY = {"name": "Savoy", "kind": "npr", "tax_value": 5, "influence": 3, "adjacent": True}
GENOA = {"name": "Genoa", "kind": "npr", "influence": 1}
FRANCE = {
    "ruler": {"name": "Interregnum", "adm": 0, "dip": 0, "mil": 0},
    "ducats": 20,
    "loans": 1,
    "stability": 3,
    "influence": 2,
    "tokens": 2,
    "allies": [SAVOY, GENOA],
    "advisors": [{"name": "Coeur", "slot": "adm", "skill": 1, "upkeep": 2}],
    "leaders": [{"name": "Dunois", "kind": "general", "mat": "Army I"}],
    "units": {"regulars": 2, "mercenaries": 1, "ships_at_sea": 2},
    "tax": {"base": 8, "vassal": 1, "plague": 1},
}
WORLD = {"empire": {"emperor": "France", "imperial_authority": 2}}

# command -> (the position it is given in, its arguments)
ACTION, STEP_A, STEP_C, STEP_D, STEP_E, PEACE = "action", "A", "C", "D", "E", "peace"
EXAMPLES: dict[str, tuple[str, dict[str, Any]]] = {
    "appoint-advisor": (
        ACTION,
        {
            "slot": "adm",
            "name": "Colbert",
            "skill": 2,
            "cost": 24,
            "upkeep": 3,
            "fire": True,
            "borrow": 1,
            "reaction": False,
        },
    ),
    "appoint-leader": (
        ACTION,
        {"kind": "general", "name": "La Hire", "mat": "Army II", "cost": 1, "reaction": True},
    ),
    "reassign-general": (ACTION, {"name": "Dunois", "army": "Army II", "reaction": True}),
    "appoint-ruler": (
        ACTION,
        {"name": "Louis XI", "adm": 3, "dip": 2, "mil": 1, "reaction": False},
    ),
    "replenish-manpower": (ACTION, {"units": 3, "reaction": False}),
    "cut-ties": (
        ACTION,
        {
            "influence": 1,
            "ally_influence": "Savoy=1",
            "tokens": 1,
            "end": "Genoa",
            "penalty": "prestige=-1",
            "reaction": False,
        },
    ),
    "call-to-arms": (
        ACTION,
        {
            "mode": "defensive",
            "allies": "Savoy",
            "near_enemy": "Savoy",
            "accepting": True,
            "enemy": "Austria",
            "reaction": True,
        },
    ),
    "take-loan": (ACTION, {"count": 2, "reaction": False}),
    "repay-loan": (ACTION, {"count": 1, "reaction": False}),
    "end-turn": (ACTION, {"action": "Recruit"}),
    "pass": (ACTION, {"ducats": 2, "repay": 1}),
    "end-phase": (PEACE, {"order": "Austria,France"}),
    "adjust": (
        ACTION,
        {
            "reason": "Card",
            "realm": "France",
            "borrow": 0,
            "set": False,
            "crusade_token": True,
            "power_struggle_tokens": False,
            "ducats": -1,
            "adm": 1,
            "dip": 1,
            "mil": 1,
            "manpower": 1,
            "exhausted": 1,
            "stability": -1,
            "prestige": 1,
            "loans": 1,
            "regulars": 1,
            "mercenaries": 1,
            "ships_at_sea": 1,
            "ships_in_port": 1,
            "base_tax": 1,
            "vassal_tax": 1,
            "plague_tax": 1,
            "idea_income": 1,
            "influence": 1,
            "tokens": 1,
            "papal_controller": "France",
            "papal_contested": False,
            "catholic_prs": 3,
            "emperor": "none",
            "imperial_authority": 1,
            "ally": "Savoy",
            "ally_kind": "npr",
            "ally_tax_value": 4,
            "ally_influence": 2,
            "ally_adjacent": True,
            "ally_at_peace": True,
            "ally_active": False,
            "drop_ally": "Genoa",
            "discard": "Dunois",
            "gain_idea": "Bureaucracy",
            "lose_idea": "",
        },
    ),
    "income-cut-costs": (
        STEP_A,
        {
            "fire": "adm",
            "disband_regulars": 1,
            "disband_mercenaries": 1,
            "disband_ships": 1,
            "recall": 1,
        },
    ),
    "income-corruption": (STEP_C, {"keep": 10, "pay": 0}),
    "income-monarch-power": (
        STEP_D,
        {"gain": "adm,mil", "lose": "", "emperor": "dip=1", "ideas": {"adm": 1}},
    ),
    "income-prestige": (STEP_E, {"crusade": 1, "power_struggle": -1}),
}


AUSTRIA = {"stability": 3, "allies": [{"name": "Savoy", "kind": "npr"}]}
STEPS_BEFORE = {STEP_C: ("A",), STEP_D: ("A", "C"), STEP_E: ("A", "C", "D")}


def _table(at: str) -> Table:
    table = Table(position(france=FRANCE, austria=AUSTRIA, **WORLD))
    if at == PEACE:
        table.both_pass()
        table.end_phase(PEACE)
    elif at != ACTION:
        table.to_income()
        for step in STEPS_BEFORE.get(at, ()):
            table.step(STEP_COMMANDS[step], **({"gain": "adm,adm"} if step == "D" else {}))
    return table


STATES: dict[str, EuState] = {}


def state_at(at: str) -> EuState:
    if at not in STATES:
        STATES[at] = _table(at).state
    return STATES[at]


def decide(name: str, args: dict[str, Any]) -> None:
    at, _ = EXAMPLES[name]
    command = Command("alice", name, tuple(args.items()))
    RULESET.decide(state_at(at), command, cast(Dice, None))


def test_every_command_has_an_example_giving_every_argument() -> None:
    assert set(EXAMPLES) == set(COMMANDS)
    for name, (_, args) in EXAMPLES.items():
        assert set(args) == set(COMMANDS[name].arg_names), name


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_example_is_accepted(name: str) -> None:
    decide(name, EXAMPLES[name][1])


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions(max_denominator=4),
    st.text(max_size=12),
    st.sampled_from(["adm", "dip,mil", "Savoy", "Savoy=1", "adm=x", "=", ",", "none", "12½"]),
    st.lists(st.one_of(st.integers(-2, 3), st.text(max_size=4), st.none()), max_size=3),
    st.tuples(st.text(max_size=4), st.integers()),
    st.dictionaries(st.text(max_size=4), st.one_of(st.integers(), st.text(max_size=3)), max_size=2),
    st.builds(object),
)
ARGUMENTS = [(name, key) for name, spec in sorted(COMMANDS.items()) for key in spec.arg_names]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ARGUMENTS), JUNK)
def test_any_value_of_any_argument_is_accepted_or_refused_by_the_rules(
    target: tuple[str, str], value: Any
) -> None:
    """A value either fits or is refused with a rule error; when it is malformed, the
    InvalidCommand names the argument and cites a rule section."""
    name, key = target
    args = {**EXAMPLES[name][1], key: value}
    try:
        decide(name, args)
    except InvalidCommand as error:
        assert key in error.message and error.rule in RULES, (name, key, value, error)
    except RuleError as error:
        assert error.rule in RULES, (name, key, value, error)


def test_issue_12_an_argument_given_as_none_is_not_given() -> None:
    """`fire=None` reads as no `fire` (a caller's unset option), and so does any None."""
    decide("income-cut-costs", {**EXAMPLES["income-cut-costs"][1], "fire": None})
