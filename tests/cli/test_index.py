"""Commands added on first use (issue 14): the index the CLI lists them from is current,
and `--help` reads the same as with every command loaded. What a call imports is held by
its start-up time (tests/test_startup.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from warscribe.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent


def fresh(code: str, *args: str) -> str:
    """What a fresh interpreter prints running `code` (nothing of the CLI loaded before)."""
    result = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_index_is_what_the_modules_add() -> None:
    made = fresh("from tests.cli.command_index import text; print(text(), end='')")
    kept = (ROOT / "cli" / "commands.tsv").read_text(encoding="utf-8")
    assert made == kept, "run `python -m tests.cli.command_index cli/commands.tsv`"


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
