"""A store that knows whose it is (`init`), and a default game that only `new`, a first
`import` or `use` changes, never a fork (issue 13, items 3 and 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from warscribe.cli.main import cli


class Stores:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.runner = CliRunner()

    def run(self, *args: str, store: str = "referee", ok: bool = True) -> Result:
        result = self.runner.invoke(cli, ["--store", str(self.folder / f"{store}.db"), *args])
        if ok:
            assert result.exit_code == 0, (args, result.output, result.exception)
        return result

    def json(self, *args: str, store: str = "referee") -> object:
        return json.loads(self.run(*args, "--json", store=store).stdout)


@pytest.fixture
def stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Stores:
    monkeypatch.chdir(tmp_path)
    here = Stores(tmp_path)
    for player in ("alice", "bob"):
        here.run("keys", "new", player)
    here.run(
        "new", "divine-right", "--player", "alice=Hothior", "--player", "bob=Mivior",
        "--dice", "seeded:owner", "--name", "g", "--key", "alice=alice.pub", "--key", "bob=bob.pub",
    )  # fmt: skip
    for player in ("alice", "bob"):
        here.run("export", "--for", player, "-o", f"{player}.wlog")
        here.run("import", f"{player}.wlog", store=player)
        here.run("init", "--as", player, "--key", f"{player}.key", store=player)
    return here


def test_status_tells_the_owner_whose_move_it_is(stores: Stores) -> None:
    status = stores.json("status", store="alice")
    assert isinstance(status, dict)
    whose = status["whose_turn"]
    mine = stores.json("status", store=whose)
    other = "bob" if whose == "alice" else "alice"
    theirs = stores.json("status", store=other)
    assert isinstance(mine, dict) and isinstance(theirs, dict)
    assert mine["you"] == whose and mine["next"].startswith("your move: events roll")
    assert theirs["next"] == f"waiting for {whose}"
    assert f"{whose}: your move" in stores.run("status", store=whose).stdout


def test_orders_and_hand_default_to_the_owner(stores: Stores) -> None:
    whose = stores.json("status")["whose_turn"]  # type: ignore[index]
    stores.run("orders", "-o", "orders.txt", "events roll", store=whose)
    assert stores.run("import-orders", "orders.txt").exit_code == 0
    hand = stores.json("hand", store=whose)
    assert isinstance(hand, dict) and hand["player"] == whose


def test_init_refuses_someone_elses_key(stores: Stores) -> None:
    refused = stores.run("init", "--as", "alice", "--key", "bob.key", store="alice", ok=False)
    assert refused.exit_code == 1 and "bob's private key, not alice's" in refused.stderr


def test_a_fork_does_not_become_the_default_game_and_use_chooses_one(stores: Stores) -> None:
    stores.run("fork", "--at", "1.1.random-events", "--name", "what-if")
    status = stores.json("status")
    assert isinstance(status, dict) and status["name"] == "g", "the fork is not the default"
    listed = stores.json("games")
    assert isinstance(listed, list)
    assert [g["name"] for g in listed if g["default"]] == ["g"]
    assert stores.run("games").stdout.startswith("* ")
    stores.run("use", "what-if")
    assert stores.json("status")["name"] == "what-if"  # type: ignore[index]
    assert "no game 'nope'" in stores.run("use", "nope", ok=False).stderr


def test_status_text_reads_as_words_not_python(stores: Stores) -> None:
    """Issue 13: `status` was a dump of Python reprs (None, False, [])."""
    whose = stores.json("status")["whose_turn"]  # type: ignore[index]
    text = stores.run("status", store=whose).stdout
    for python in (": None", ": False", ": True", ": []", ": {}"):
        assert python not in text, python
    assert "position: 1.1.random-events" in text and "events roll" in text
