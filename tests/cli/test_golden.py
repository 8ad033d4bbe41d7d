"""Golden logs: a recorded game replays to the same state on every backend and version."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from warscribe.cli.main import cli

DATA = Path(__file__).resolve().parent.parent / "data"


def test_the_golden_set_up_replays_to_its_recorded_status(store_url: str) -> None:
    runner = CliRunner()
    imported = runner.invoke(cli, ["--store", store_url, "import", str(DATA / "golden-setup.wlog")])
    assert imported.exit_code == 0, imported.output
    verified = runner.invoke(cli, ["--store", store_url, "verify", "--json"])
    assert verified.exit_code == 0 and json.loads(verified.stdout)["rolls_checked"] == 5
    status = runner.invoke(cli, ["--store", store_url, "status", "--json"])
    expected = json.loads((DATA / "golden-setup.status.json").read_text())
    assert json.loads(status.stdout) == expected


def test_importing_the_same_log_twice_adds_nothing(tmp_path: Path) -> None:
    runner = CliRunner()
    store = str(tmp_path / "twice.db")
    golden = str(DATA / "golden-setup.wlog")
    assert runner.invoke(cli, ["--store", store, "import", golden]).exit_code == 0
    again = runner.invoke(cli, ["--store", store, "import", golden])
    assert again.exit_code == 0 and "imported 0 new entries" in again.output


def test_three_played_turns_replay_to_the_recorded_answers(store_url: str) -> None:
    """Three turns of random events and diplomacy (seeded dice; Zorn won by carol, who
    places its goblins), recorded by tests/cli/golden.py: every backend rebuilds the
    same kingdoms, victory points and banishments at each position."""
    runner = CliRunner()
    log = str(DATA / "golden-three-turns.wlog")
    assert runner.invoke(cli, ["--store", store_url, "import", log]).exit_code == 0
    assert runner.invoke(cli, ["--store", store_url, "verify"]).exit_code == 0
    expected = json.loads((DATA / "golden-three-turns.json").read_text())
    for at, answers in expected.items():
        where = [] if at == "end" else ["--at", at]
        for query, answer in answers.items():
            result = runner.invoke(cli, ["--store", store_url, query, *where, "--json"])
            assert result.exit_code == 0, result.output
            assert json.loads(result.stdout) == answer, (at, query)
