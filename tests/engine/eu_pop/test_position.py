"""Starting positions: the sample file, the checks made on load, set-up recorded as events."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from importlib.resources import files
from typing import Any

import pytest

from tests.engine.eu_pop.table import Table, position, spec
from warscribe.engine import codec
from warscribe.engine.errors import DataError, InvalidCommand
from warscribe.engine.events import GameCreated
from warscribe.engine.record import fold, verify
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.eu_pop import RULESET
from warscribe.engine.rulesets.eu_pop.events import PhaseBegun, RealmEstablished, WorldSet
from warscribe.engine.rulesets.eu_pop.state import World

EXAMPLE = (
    files("warscribe.engine.rulesets.eu_pop").joinpath("datafiles/example-start.json").read_text()
)


def test_the_rule_set_is_registered_as_eu_pop() -> None:
    assert get("eu-pop") is RULESET


def test_the_example_file_sets_up_two_realms() -> None:
    table = Table(EXAMPLE)
    assert [(r.name, r.player) for r in table.state.realms] == [
        ("France", "alice"),
        ("Austria", "bob"),
    ]
    assert table.state.label == "1.draw" and table.state.order == ("France", "Austria")
    assert table.state.world == World("France", False, 3, "Austria", 2)
    assert table.realm("France").ally("Savoy") is not None


def test_set_up_records_the_checked_position_so_replay_reads_no_file() -> None:
    table = Table(position())
    events = [entry.event for entry in table.entries]
    assert [type(e) for e in events] == [
        GameCreated,
        RealmEstablished,
        RealmEstablished,
        WorldSet,
        PhaseBegun,
    ]
    created = events[0]
    assert isinstance(created, GameCreated)
    text = json.dumps(position())
    assert created.data[0].kind == "start"
    assert created.data[0].digest == hashlib.sha256(text.encode()).hexdigest()


def test_the_log_replays_to_the_same_state_from_its_bytes() -> None:
    table = Table(EXAMPLE)
    table.do("alice", "end-phase")
    table.do("alice", "take-loan")
    table.do("alice", "pass", ducats="1.5")
    copied = [codec.decode(codec.encode(entry)) for entry in table.entries]
    assert fold(copied).state == table.state
    assert verify(copied).entries == len(copied)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[key]
        if value is None:
            del data[last]
        else:
            data[last] = value

    return change


BAD = [
    (_set("realms.France.stability", 4), "realms.France.stability: 4 is outside -3..3"),
    (_set("realms.France.treasure", 1), "realms.France: unknown treasure"),
    (_set("realms.France.ducats", None), "realms.France: missing ducats"),
    (_set("realms.France.ducats", 10.25), "realms.France.ducats: expected whole or half ducats"),
    (_set("realms.France.ducats", "10"), "realms.France.ducats"),
    (_set("realms.France.loans", -1), "realms.France.loans"),
    (_set("realms.France.monarch_power", {"adm": 1, "dip": 1}), "monarch_power: missing mil"),
    (
        _set("realms.France.advisors", [{"name": "A", "slot": "adm", "skill": 1, "upkeep": 1}] * 2),
        "advisors (one per slot): adm",
    ),
    (
        _set("realms.France.advisors", [{"name": "A", "slot": "adm", "skill": 1, "upkeep": 5}]),
        "upkeep",
    ),
    (
        _set("realms.France.leaders", [{"name": "L", "kind": "general", "mat": "Fleet I"}]),
        "leaders[0].mat",
    ),
    (_set("realms.France.allies", [{"name": "Savoy", "kind": "friend"}]), "allies[0].kind"),
    (_set("realms.France.ideas", [3]), "realms.France.ideas"),
    (_set("realms.France.armies", ["Army I", "Army I"]), "Army I appear more than once"),
    (_set("phase", "lunch"), "phase"),
    (_set("round", 0), "round"),
    (_set("realms", {}), "realms"),
    (_set("papacy", {"controller": "France", "pope": "Pius"}), "unknown pope"),
    # 4.4 › B: plague tax is the part of the tax income from areas with plague (issue #18)
    (
        _set("realms.France.tax", {"base": 3, "vassal": 1, "plague": 5}),
        "realms.France.tax.plague: France's plague_tax 5 is more than its tax income 4",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_bad_starting_position_is_refused_naming_the_field(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = position()
    change(data)
    with pytest.raises(DataError) as info:
        RULESET.validate_spec(spec(data))
    assert message in info.value.message


def test_a_starting_position_that_is_not_json_is_refused() -> None:
    with pytest.raises(DataError, match="not JSON"):
        RULESET.validate_spec(spec("{realms:"))


@pytest.mark.parametrize(
    "players",
    [
        (("alice", None), ("bob", "Austria")),
        (("alice", "Spain"), ("bob", "Austria")),
        (("alice", "France"), ("bob", "France")),
        (("alice", "France"), ("alice", "Austria")),
        (),
    ],
)
def test_every_player_names_a_realm_of_the_file_once(
    players: tuple[tuple[str, str | None], ...],
) -> None:
    with pytest.raises(InvalidCommand):
        RULESET.validate_spec(spec(position(), players))


def test_a_game_needs_a_starting_position() -> None:
    with pytest.raises(InvalidCommand, match="--start FILE"):
        RULESET.validate_spec(GameSpec("test", (PlayerSpec("alice", "France"),)))


def test_realms_nobody_plays_are_left_out_and_the_turn_order_kept() -> None:
    data = position(turn_order=["Castile", "Austria", "France"])
    data["realms"]["Castile"] = data["realms"]["France"]
    table = Table(data)
    assert [r.name for r in table.state.realms] == ["France", "Austria"]
    assert table.state.order == ("Austria", "France") and table.state.turn == "Austria"


def test_a_turn_order_must_name_every_played_realm() -> None:
    with pytest.raises(DataError, match="misses France"):
        RULESET.validate_spec(spec(position(turn_order=["Austria"])))
