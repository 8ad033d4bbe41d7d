"""A CLI call's start-up within its budget (issue 34: a budget, not a list of modules a
call must not import). Each call is a fresh interpreter; the modules it has loaded when it
exits are counted against a floor's, a fresh interpreter importing only what the call
cannot do without. The count is the budget, not the time: the same code loads the same
modules on any machine, loaded or not, so the test cannot flake (the time is
benchmarks/startup.py's, on an installed copy, with the targets of docs/performance.md). A
call that starts importing what it does not use (a rule set for `--help`, psycopg,
eventsourcing or cryptography for a SQLite `status`) goes over: psycopg alone loads more
modules than a `status` is allowed beyond its floor."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from warscribe.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
COUNT = (
    "import sys, atexit; "
    "atexit.register(lambda: sys.stderr.write(f'\\nMODULES {len(sys.modules)}\\n'))"
)
CALL = f"{COUNT}; from warscribe.cli.main import main; sys.argv[0] = 'warscribe'; main()"


def modules(argv: list[str], env: dict[str, str]) -> int:
    """How many modules a fresh process running `argv` has loaded when it exits."""
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    counted = [line for line in done.stderr.splitlines() if line.startswith("MODULES ")]
    assert counted, f"{argv}: exit {done.returncode}: {done.stderr[-400:]}"
    return int(counted[-1].split()[1])


def beyond(floor: str, args: list[str], env: dict[str, str]) -> int:
    """The modules `warscribe ARGS` loads beyond those of `python -c FLOOR`, once the
    index of installed games is made (the first call after an install or an edit of an
    editable checkout makes it, importing every game: `engine/installed.py`)."""
    floor_count = modules([sys.executable, "-c", f"{COUNT}; {floor}"], env)
    modules([sys.executable, "-c", CALL, *args], env)
    return modules([sys.executable, "-c", CALL, *args], env) - floor_count


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a call on a fresh two-player Divine Right game in a SQLite file,
    with bytecode written and read (this machine may export PYTHONDONTWRITEBYTECODE=1, and
    recompiling every module is no part of a start-up)."""
    store = str(tmp_path_factory.mktemp("startup") / "game.db")
    players = ["--player", "a", "--player", "b", "--dice", "seeded:1"]
    created = CliRunner().invoke(cli, ["--store", store, "new", "divine-right", *players])
    assert created.exit_code == 0, created.output
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "WARSCRIBE_STORE": store}


pytestmark = pytest.mark.slow  # twenty-odd fresh interpreters: several seconds

STATUS_FLOOR = "import click, msgpack, eventsourcing.application, eventsourcing.sqlite"


@pytest.mark.parametrize(
    ("floor", "args", "budget"),
    [
        ("import click", ["--help"], 60),
        (STATUS_FLOOR, ["status"], 100),
        (STATUS_FLOOR, ["log", "--from", "1", "--to", "5"], 90),
        (STATUS_FLOOR, ["roll", "2d6", "--purpose", "weather"], 120),
    ],
    ids=["help", "status", "log", "roll"],
)
def test_a_call_starts_within_its_budget(
    floor: str, args: list[str], budget: int, game: dict[str, str]
) -> None:
    """The budgets: modules loaded beyond the floor's, with some room over what the calls
    load today (measured on the editable checkout: help 25, status 79, log 70, roll 96);
    psycopg alone loads about 150, Divine Right's rule set about 130."""
    found = beyond(floor, args, game)
    assert found <= budget, f"warscribe {' '.join(args)}: {found} modules beyond its floor's"
