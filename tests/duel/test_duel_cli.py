"""A third game with no change to warscribe (issue 12, part 4; issue 34, move 5): the toy
duel is a distribution of its own (plugins/warscribe-duel, installed with the test
command), found by its entry point the way the real rule sets are, and gets `new`, its
commands, `status`, `show --at`, `export`/`import`, `verify` and `audit` from the generated
CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import pytest
from click.testing import CliRunner, Result
from warscribe_duel import rules

from warscribe.cli.main import cli
from warscribe.engine.dice import Dice
from warscribe.engine.errors import IllegalCommand
from warscribe.engine.events import Command


def run(store: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--store", str(store), *args])


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def test_a_duel_is_played_recorded_and_checked_through_the_cli(tmp_path: Path) -> None:
    store = tmp_path / "duel.db"
    # A duel is created from its NewSpec: two players, 12 health each.
    new = ["new", "duel", "--player", "alice", "--player", "bob", "--health", "12"]
    ok(run(store, *new, "--dice", "seeded:duel"))
    status = json.loads(ok(run(store, "status", "--json")).stdout)
    assert status["ruleset"] == "duel" and status["commands"] == ["strike"]
    # Strikes until someone falls: `strike` at top level (the current game's), or in its
    # group; a double asks the striker to press or rest (`double press`).
    for _ in range(40):
        status = json.loads(ok(run(store, "status", "--json")).stdout)
        if status["winner"]:
            break
        if status["commands"] == ["press", "rest"]:
            ok(run(store, "duel", "double", "rest"))
        else:
            ok(run(store, "strike"))
    assert status["winner"] in ("alice", "bob")
    assert min(status["health"].values()) <= 0
    # The game's own health query and the record's `show --at` a position.
    assert json.loads(ok(run(store, "health", "--json")).stdout) == status["health"]
    shown = json.loads(ok(run(store, "show", "--at", "1.alice", "--json")).stdout)
    assert shown["health"] == {"alice": 12, "bob": 12}
    # The record checks it: verify, audit, export and import into another store.
    ok(run(store, "verify"))
    assert "0 differ from the rules" in ok(run(store, "audit")).output
    ok(run(store, "export", "-o", str(tmp_path / "duel.wlog")))
    other = tmp_path / "other.db"
    ok(run(other, "import", str(tmp_path / "duel.wlog")))
    assert json.loads(ok(run(other, "status", "--json")).stdout)["health"] == status["health"]


def test_the_duels_help_shows_only_its_own_commands(tmp_path: Path) -> None:
    top = ok(run(tmp_path / "x.db", "--help")).output
    assert "duel commands:" in top and "strike" in top
    own = ok(run(tmp_path / "x.db", "duel", "--help")).output
    assert "strike" in own and "end-phase" not in own and "treasury" not in own
    strike = ok(run(tmp_path / "x.db", "duel", "strike", "--help")).output
    assert "Rule: Duel › Strike." in strike and "--roll" in strike


def test_a_double_must_be_answered_before_anything_else() -> None:
    """Duel › Doubles: after a double only `press` or `rest` (the core's pending check)."""
    begun = rules.DuelState()
    state = rules.RULESET.after(begun, [rules.DuelBegun(("alice", "bob"), 20)])
    state = rules.RULESET.after(state, [rules.Struck("alice", 6, True)])
    assert rules.RULESET.legal_commands(state) == ("double press", "double rest")
    with pytest.raises(
        IllegalCommand, match=r"alice must first decide: after a double, press or rest \(double\)"
    ):
        rules.RULESET.decide(state, Command("alice", "strike"), cast(Dice, None))


def test_a_duel_is_played_by_signed_orders_in_the_words_status_shows(tmp_path: Path) -> None:
    """Issue 13: each player types what `status` offers them (`strike`, after a double
    `double press` or `double rest`) into signed orders; the referee records them."""
    store = tmp_path / "duel.db"
    keys = []
    for player in ("alice", "bob"):
        ok(run(store, "keys", "new", player, "-o", str(tmp_path / player)))
        keys += ["--key", f"{player}={tmp_path / player}.pub"]
    new = ["new", "duel", "--player", "alice", "--player", "bob", "--health", "12", *keys]
    ok(run(store, *new, "--dice", "seeded:duel"))
    orders = str(tmp_path / "orders.txt")
    for _ in range(40):
        status = json.loads(ok(run(store, "status", "--json")).stdout)
        if status["winner"]:
            break
        player = status["whose_turn"]
        # Duel › Strike, or Duel › Doubles: the lines status shows, none with a choice.
        offered = [hint["text"] for hint in status["may_type"]]
        assert offered in (["strike"], ["double press", "double rest"]), offered
        key = f"{tmp_path / player}.key"
        ok(run(store, "orders", "--as", player, "--key", key, "-o", orders, "--force", offered[-1]))
        ok(run(store, "import-orders", orders))
    assert status["winner"] in ("alice", "bob")
    ok(run(store, "verify"))
