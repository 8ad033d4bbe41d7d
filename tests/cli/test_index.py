"""Commands added on first use (issue 14): the index the CLI lists them from is made from
what is installed and cached (cli/index.py), and `--help` reads the same as with every
command loaded. What a call imports is held by its start-up time (tests/test_startup.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from warscribe.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent


# `warscribe ARGS` run, then the modules of the rule sets it loaded, as a JSON list
HELP_LOADED = (
    "import json, sys; from click.testing import CliRunner; from warscribe.cli.main import cli\n"
    "print(CliRunner().invoke(cli, sys.argv[1:]).output.splitlines()[0])\n"
    "print(json.dumps([m for m in sys.modules if m.startswith('warscribe.engine.rulesets.')]))"
)


def fresh(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    """What a fresh interpreter prints running `code` (nothing of the CLI loaded before)."""
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_index_is_made_at_first_use_and_read_back_after(tmp_path: Path) -> None:
    """A first `--help` (no cache yet) works the index out from every installed game and
    writes it; the next reads it and imports no game; both print the same."""
    cache = {"WARSCRIBE_CACHE": str(tmp_path)}
    first = fresh(HELP_LOADED, "--help", env=cache)
    assert sorted(p.name.split("-")[0] for p in tmp_path.iterdir()) == ["commands", "rulesets"]
    second = fresh(HELP_LOADED, "--help", env=cache)
    assert first.split("\n", 1)[0] == second.split("\n", 1)[0]
    assert "divine_right" in first.rsplit("\n", 2)[-2]
    assert "warscribe.engine.rulesets." not in second.rsplit("\n", 2)[-2]
    index = next(tmp_path.glob("commands-*")).read_text(encoding="utf-8")
    for line in ("new\tduel\tduel\t", "duel\tstrike\tduel\t", "cli\tfork\tpbem\t"):
        assert line in index


def test_help_lists_every_command_as_if_all_were_loaded() -> None:
    show_help = (
        "import sys; from click.testing import CliRunner; from warscribe.cli.main import cli; "
        "print(CliRunner().invoke(cli, sys.argv[1:]).output, end='')"
    )
    main.load_all()
    runner = CliRunner()
    for args in (["--help"], ["new", "--help"]):
        loaded = runner.invoke(main.cli, args).output
        assert fresh(show_help, *args) == loaded
        assert "divine-right" in loaded if args[0] == "new" else "treasury" in loaded


def test_a_fresh_process_verifies_a_game_with_snapshots(tmp_path: Path) -> None:
    """`verify` checks each stored snapshot against the replay: in a process that has not
    imported the store's aggregates (a read defines none), as every CLI call is."""
    store = str(tmp_path / "game.db")
    runner = CliRunner()
    players = ["--player", "a", "--player", "b", "--dice", "seeded:1"]
    assert (
        runner.invoke(main.cli, ["--store", store, "new", "divine-right", *players]).exit_code == 0
    )
    roll = ["--store", store, "roll", "2d6", "--purpose", "weather"]
    for _ in range(110):  # past the first snapshot (every 100 entries)
        assert runner.invoke(main.cli, roll).exit_code == 0
    code = (
        "import sys; from warscribe.cli.main import cli\n"
        "try:\n    cli(sys.argv[1:])\nexcept SystemExit as exit:\n    print('exit', exit.code)"
    )
    assert fresh(code, "--store", store, "verify").splitlines()[-1] == "exit 0"


def test_a_listing_of_commands_is_written_as_click_writes_it() -> None:
    """`--help` writes a listing whose texts fit their lines itself (wrapping each again
    was most of the call): the same text as click's `write_dl`, at any width; a listing
    that does not fit (a long name, a long text) goes through `write_dl`."""
    fitting = [("audit", "Re-decide every recorded command..."), ("games", ""), ("x", "A b.")]
    too_long = [("a" * 31, "Long name."), ("b", "word " * 40)]
    tabbed = [("c", "A\tb.")]
    for rows in (fitting, too_long, tabbed):
        for width in (40, 80, 200):
            ours, clicks = (click.HelpFormatter(width=width) for _ in range(2))
            with ours.section("Commands"):
                main._write_rows(ours, rows)
            with clicks.section("Commands"):
                clicks.write_dl(rows)
            assert ours.getvalue() == clicks.getvalue()
