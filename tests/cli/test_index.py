"""Commands added on first use (issue 14): the index the CLI lists them from is made from
what is installed and cached (cli/index.py), `--help` reads the same as with every command
loaded, and a call imports only what it uses (a Divine Right status: not eu-pop, not the
signing code, not log files or audit, not the aggregates of checkpoints, not the file
writer; `--help`: no rule set, no store)."""

from __future__ import annotations

import json
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


def loaded_by(*args: str) -> list[str]:
    """The modules a fresh interpreter has loaded once `warscribe ARGS` is done."""
    code = (
        "import json, sys; from warscribe.cli.main import cli\n"
        "try:\n    cli(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    loaded: list[str] = json.loads(fresh(code, *args).splitlines()[-1])
    return loaded


def test_a_divine_right_status_imports_only_what_it_uses(tmp_path: Path) -> None:
    store = str(tmp_path / "game.db")
    runner = CliRunner()
    players = ["--player", "a", "--player", "b", "--dice", "seeded:1"]
    created = runner.invoke(main.cli, ["--store", store, "new", "divine-right", *players])
    assert created.exit_code == 0, created.output
    loaded = loaded_by("--store", store, "status")
    assert "warscribe.engine.rulesets.divine_right" in loaded
    unwanted = (
        "warscribe.engine.rulesets.eu_pop",
        "warscribe.engine.rulesets.divine_right.present",
        "warscribe.cli.pbem",
        "warscribe.engine.audit",
        "warscribe.store.logfile",
        "warscribe.store.anchors",
        "warscribe.store.aggregates",  # a head, the settings and the index are read as rows
        "warscribe.store.registry",
        "warscribe.store.app",  # ... by a read-only connection (store/reading.py)
        "eventsourcing",
        "cryptography",
        "tempfile",
    )
    assert [m for m in loaded if m.startswith(unwanted)] == []


def test_a_command_defines_the_games_aggregate_only(tmp_path: Path) -> None:
    """A command writes the game's events: the catalog's and the settings' aggregates
    (store/registry.py), whose event classes eventsourcing makes when they are defined,
    are left to the calls that write them (a third of what a roll imported for them)."""
    store = str(tmp_path / "game.db")
    runner = CliRunner()
    players = ["--player", "a", "--player", "b", "--dice", "seeded:1"]
    created = runner.invoke(main.cli, ["--store", store, "new", "divine-right", *players])
    assert created.exit_code == 0, created.output
    before = json.loads(runner.invoke(main.cli, ["--store", store, "status", "--json"]).output)
    loaded = loaded_by("--store", store, "roll", "2d6", "--purpose", "weather")
    after = json.loads(runner.invoke(main.cli, ["--store", store, "status", "--json"]).output)
    assert after["seq"] == before["seq"] + 2, "the roll was recorded"
    assert "warscribe.store.aggregates" in loaded
    assert "warscribe.store.registry" not in loaded


def test_a_sqlite_store_never_imports_psycopg(tmp_path: Path) -> None:
    """psycopg is imported only where a PostgreSQL store is used (its import is most of
    what a PostgreSQL call pays beyond SQLite's): no command on a SQLite store imports
    it, a host's creating, rolling, signing and checking included."""
    store = str(tmp_path / "game.db")
    players = ["--player", "a", "--player", "b"]
    for args in (["new", "divine-right", *players], ["roll", "2d6"], ["export", "--armor"]):
        loaded = loaded_by("--store", store, *args)
        assert [m for m in loaded if m.startswith("psycopg")] == [], args
    assert "DiceRolled" in CliRunner().invoke(main.cli, ["--store", store, "log"]).output


def test_help_imports_neither_engine_nor_store() -> None:
    """`--help` lists the commands from the index and the rule sets from their registry: no
    rule set, no codec, no store, no eventsourcing (once the index is cached: the first
    `--help` after an install works it out)."""
    loaded_by("--help")
    loaded = loaded_by("--help")
    unwanted = ("warscribe.engine.rulesets.", "warscribe.store.app", "eventsourcing", "msgpack")
    assert [m for m in loaded if m.startswith(unwanted)] == []


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
