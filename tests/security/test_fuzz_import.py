"""The import fuzzer (issue 11): damaged and mail-mangled log files fed to the real
`warscribe import`. For every file: exit 0 with the game imported, or `Error:` and exit 1
with the store byte for byte as it was; never a traceback. Mangling alone (what mail
clients do) must import. FUZZ_CASES and FUZZ_SEED (tools/fuzz_import.py) run it longer."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.security.conftest import Table, new_game
from tests.security.fuzz_cases import Case, Generator
from warscribe.cli.main import cli

CASES = int(os.environ.get("FUZZ_CASES", "2000"))
SEED = int(os.environ.get("FUZZ_SEED", "11"))


class Stores:
    """Two stores to import into, restored from their first bytes before each case: an
    empty one (a whole game is imported) and one holding the game (a continuation)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.saved = {name: self._files(name) for name in ("empty", "holding")}

    def _files(self, name: str) -> dict[str, bytes]:
        return {
            p.name: p.read_bytes()
            for p in sorted(self.folder.glob(f"{name}.db*"))
            if not p.name.endswith("-shm")
        }

    def restore(self, name: str) -> None:
        for path in self.folder.glob(f"{name}.db*"):
            path.unlink()
        for file, data in self.saved[name].items():
            (self.folder / file).write_bytes(data)

    def changed(self, name: str) -> bool:
        return self._files(name) != self.saved[name]


@pytest.fixture
def generator(table: Table) -> Iterator[Generator]:
    new_game(table, "seeded:1")
    table.run("note", "--at", "#13", "a comment to carry along")
    table.run("export", "-o", "full.wlog")
    armored = table.run("export", "--armor").stdout
    table.run("games", store="empty")
    table.run("import", "full.wlog", store="holding")
    yield Generator(Path("full.wlog").read_bytes(), armored, SEED)


def _check(case: Case, stores: Stores, runner: CliRunner, number: int) -> None:
    store = "empty" if number % 2 else "holding"
    Path("case.bin").write_bytes(case.data)
    result = runner.invoke(cli, ["--store", f"{store}.db", "import", "case.bin"])
    where = f"case {number} (seed {SEED}): {case.what}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        where,
        result.exception,
    )
    assert "Traceback" not in result.output, where
    if case.must_import:
        assert result.exit_code == 0, (where, result.output)
    if result.exit_code == 0:
        assert result.stdout.startswith("imported "), (where, result.output)
        stores.restore(store)
        return
    assert result.exit_code == 1, (where, result.output)
    assert result.stderr.startswith("Error: "), (where, result.output)
    assert not stores.changed(store), f"{where}: a refused import changed the store"


def test_no_damaged_file_crashes_import_or_changes_the_store(generator: Generator) -> None:
    stores = Stores(Path.cwd())
    runner = CliRunner()
    kinds: set[str] = set()
    for number, case in enumerate(generator.cases(CASES)):
        _check(case, stores, runner, number)
        kinds.add(case.what.split(" ")[0])
    assert len(kinds) >= 6, kinds


def test_the_base_files_import(generator: Generator, tmp_path: Path) -> None:
    shutil.copy("full.wlog", tmp_path / "copy.wlog")
    result = CliRunner().invoke(cli, ["--store", "empty.db", "import", str(tmp_path / "copy.wlog")])
    assert result.exit_code == 0, result.output
