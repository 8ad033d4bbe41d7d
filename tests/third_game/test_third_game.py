"""A third game with no edit to warscribe (issue 34, move 5): tests/third_game/countdown is a
distribution of its own, written as an author outside the repository would write one
(docs/developing.md). Built and installed beside warscribe, it is found by its entry point
and played through the CLI; added by a test (`rulesets.added`), it is forgotten after."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from warscribe.cli.main import cli
from warscribe.engine import rulesets

SOURCE = Path(__file__).resolve().parent / "countdown"
WARSCRIBE = "from warscribe.cli.main import main; main()"


def test_a_game_installed_beside_warscribe_is_played_through_the_cli(tmp_path: Path) -> None:
    """pip builds the package and installs it into a folder on the path (as into a
    virtualenv): the next `warscribe` finds it (a cache of what is installed made before
    it is made again), creates a game of it, plays a command, shows its status and log."""
    site, cache = tmp_path / "site", tmp_path / "cache"
    env = {**os.environ, "WARSCRIBE_CACHE": str(cache), "WARSCRIBE_STORE": str(tmp_path / "g.db")}

    def warscribe(*args: str, code: int = 0) -> str:
        done = subprocess.run(
            [sys.executable, "-c", WARSCRIBE, *args],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert done.returncode == code, done.stdout + done.stderr
        return done.stdout + done.stderr

    assert "countdown" not in warscribe("--help")  # the cache made without it
    shutil.copytree(SOURCE, tmp_path / "src")  # pip builds in the source folder
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site)]
    subprocess.run([*pip, str(tmp_path / "src")], check=True, capture_output=True)
    env["PYTHONPATH"] = str(site)
    assert "countdown  The commands of countdown games." in warscribe("--help")
    warscribe("new", "countdown", "--player", "ann", "--player", "bob", "--start", "2")
    warscribe("tick", "--as", "ann")
    warscribe("countdown", "tick", "--as", "ann", code=1)  # bob's turn
    status = json.loads(warscribe("status", "--json"))
    assert (status["ruleset"], status["left"], status["whose_turn"]) == ("countdown", 1, "bob")
    assert "Ticked" in warscribe("log") and "ok" in warscribe("verify").lower()


@pytest.fixture
def countdown_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SOURCE))


@pytest.mark.usefixtures("countdown_source")
def test_a_game_a_test_adds_is_known_in_its_block_only(tmp_path: Path) -> None:
    store = ["--store", str(tmp_path / "g.db")]
    new = [*store, "new", "countdown", "--player", "ann", "--player", "bob"]
    runner = CliRunner()
    with rulesets.added("countdown", "warscribe_countdown:RULESET"):
        assert "countdown commands:" in runner.invoke(cli, [*store, "--help"]).output
        assert runner.invoke(cli, new).exit_code == 0
        assert runner.invoke(cli, [*store, "tick", "--as", "ann"]).exit_code == 0
    assert "countdown" not in rulesets.names()
    assert "countdown" not in runner.invoke(cli, [*store, "--help"]).output
    assert runner.invoke(cli, new).exit_code == 2  # no such command


@pytest.mark.usefixtures("countdown_source")
def test_a_test_cannot_add_a_game_under_a_name_or_prefix_taken() -> None:
    with (
        pytest.raises(ValueError, match="duel"),
        rulesets.added("duel", "warscribe_countdown:RULESET"),
    ):
        pass
