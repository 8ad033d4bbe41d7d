"""One storage interface: each backend is one module of `store/backends/`, and nothing else
in the store or the CLI tells the backends apart (issue 34: `kind == "sqlite"` decisions
were spread through the store). A new backend is one module implementing
`backends.Driver` (its `DRIVER` is checked against the protocol by mypy)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from warscribe.engine.record import fold
from warscribe.store import backends, logfile
from warscribe.store.app import Warscribe
from warscribe.store.backends import resolve
from warscribe.store.reading import Reader

from ..conftest import drop_pg_schema, fresh_pg_url, require_postgres, three_players

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
BACKENDS = ROOT / "store" / "backends"
# What only a backend's module may say: a test of the kind, a kind's or driver's name,
# its settings, its catalog, its SQL of its own, eventsourcing's recorders of one kind.
_BACKEND_ONLY = re.compile(
    r"""\b(backend|driver)\.kind\b|["'](sqlite|postgresql|postgres)["']"""
    r"|\b(import|from)\s+(sqlite3|psycopg)\b"
    r"|eventsourcing\.(sqlite|postgres)|SQLite\w*Recorder|Postgres\w*Recorder"
    r"|\b(SQLITE|POSTGRES)_[A-Z]+|sqlite_master|pg_catalog|to_regclass|pg_\w*advisory"
    r"|\bBYTEA\b|%s"
)


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a module, comments left out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(n, line.split("#", 1)[0]) for n, line in enumerate(lines, 1)]


def _outside_backends() -> list[Path]:
    found = [*sorted((ROOT / "store").rglob("*.py")), *sorted((ROOT / "cli").rglob("*.py"))]
    return [p for p in found if BACKENDS not in p.parents]


def test_nothing_outside_the_backends_tells_them_apart() -> None:
    said = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _outside_backends()
        for n, line in _code_lines(path)
        if _BACKEND_ONLY.search(line)
    ]
    assert said == [], "backend decisions outside store/backends/:\n" + "\n".join(said)


def test_the_check_finds_a_kind_test(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    for line in ('if backend.kind == "sqlite":', "import sqlite3", 'env["SQLITE_DBNAME"]'):
        module.write_text(f"{line}  # a comment\n", encoding="utf-8")
        assert any(_BACKEND_ONLY.search(code) for _, code in _code_lines(module)), line


@pytest.mark.parametrize(
    ("target", "kind"),
    [
        ("club.db", "sqlite"),
        ("postgresql://u@h/db", "postgresql"),
        ("postgres://h/db", "postgresql"),
    ],
)
def test_each_kind_is_the_module_of_its_backend(tmp_path: Path, target: str, kind: str) -> None:
    backend = resolve(str(tmp_path / target) if "://" not in target else target)
    assert backend.kind == kind
    assert type(backend.driver).__module__ == f"{backends.__name__}.{kind}"
    assert backend.driver.backend == backend


def test_a_store_address_of_no_backend_is_refused() -> None:
    with pytest.raises(backends.StoreError, match="unsupported store 'mysql://h/db'"):
        resolve("mysql://h/db")


def test_a_store_made_before_the_backends_were_modules_opens_as_it_is(tmp_path: Path) -> None:
    """tests/data/store-before-backends.db: made by the code before this interface (the
    golden setup log imported, then vacuumed). The schema is eventsourcing's and did not
    change, so it opens with no migration: read-only and whole, with the same head and
    a sound log, and takes a new game in its tables."""
    path = tmp_path / "old.db"
    shutil.copy(DATA / "store-before-backends.db", path)
    log = logfile.read((DATA / "golden-setup.wlog").read_bytes())
    reader = Reader.open(resolve(str(path)))
    assert reader is not None, "the store is read as it is, nothing put right first"
    assert reader.head(log.game_id) == fold(log.entries)
    reader.close()
    app = Warscribe(str(path), cache=False)
    assert app.head(log.game_id) == fold(log.entries)
    assert app.verify_game(log.game_id).report.entries == len(log.entries)
    created = app.create("divine-right", three_players(), "seeded:3")
    assert [g.game_id for g in app.games()] == [log.game_id, created.game_id]
    app.close()


_READ = """
import sys
from warscribe.store.backends import resolve
from warscribe.store.reading import Reader
reader = Reader.open(resolve(sys.argv[1]))
read = reader is not None and reader.games() != ()
print(read, any(m.startswith("eventsourcing") for m in sys.modules))
"""


def test_a_read_only_call_on_postgresql_imports_no_eventsourcing() -> None:
    """The backend's module is what a read-only call imports; eventsourcing's factory for
    PostgreSQL is a module apart (`postgresql_factory.py`), as eventsourcing is on SQLite
    (tests/cli/test_index.py)."""
    require_postgres()
    url = fresh_pg_url()
    try:
        Warscribe(url).create("divine-right", three_players(), "seeded:3")
        read = subprocess.run([sys.executable, "-c", _READ, url], capture_output=True, text=True)
        assert read.stdout.split() == ["True", "False"], read.stderr
    finally:
        drop_pg_schema(url)


@pytest.mark.parametrize("value", ["abc", "-1", "nan", "1.5", "１"])
def test_a_lock_timeout_that_is_not_whole_seconds_is_an_error_naming_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """WARSCRIBE_LOCK_TIMEOUT set to something not a whole number of seconds is refused
    with an `Error:` naming it (it was a traceback on SQLite), and no store is made."""
    from click.testing import CliRunner

    from warscribe.cli.main import cli

    monkeypatch.setenv("WARSCRIBE_LOCK_TIMEOUT", value)
    store = tmp_path / "game.db"
    players = ("--player", "a", "--player", "b", "--player", "c")
    args = ["--store", str(store), "new", "divine-right", *players]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output
    assert "Error: WARSCRIBE_LOCK_TIMEOUT" in result.output
    assert "whole number of seconds" in result.output
    assert not store.exists()
