"""Shared fixtures: stores on both backends, and a seeded Divine Right game."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from warscribe.engine import rulesets
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.store.app import Warscribe

# The caches of what is installed (engine/installed.py) made afresh for the suite, in a
# folder of its own that the CLI processes the tests start inherit: the user's are left as
# they are, and every run tests the sources as they are.
CACHE = os.environ["WARSCRIBE_CACHE"] = tempfile.mkdtemp(prefix="warscribe-test-cache-")

PG_URL = os.environ.get("WARSCRIBE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture
def cli_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`tmp_path` as the working folder of the CLI run in-process, with no WARSCRIBE_STORE
    or WARSCRIBE_GAME of the environment choosing its store or game."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WARSCRIBE_STORE", raising=False)
    monkeypatch.delenv("WARSCRIBE_GAME", raising=False)
    return tmp_path


def _postgres_reachable() -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install 'warscribe[postgres]')"
    try:
        with psycopg.connect(
            PG_URL.replace("postgresql://", "postgresql://", 1), connect_timeout=3
        ):
            return None
    except Exception as exc:
        return f"no PostgreSQL server answers at {PG_URL}: {exc}"


def require_postgres() -> None:
    """Skip with the reason when no server answers; in CI (CI=true) fail instead."""
    reason = _postgres_reachable()
    if reason is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but PostgreSQL is unavailable: {reason}")
    pytest.skip(reason)


def fresh_pg_url() -> str:
    """A URL with a schema of its own, so tests never see each other's games."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"{PG_URL}?schema={schema}"


def drop_pg_schema(url: str) -> None:
    import psycopg

    schema = url.rpartition("schema=")[2]
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """A fresh, empty store on each backend."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.db")  # type: ignore[operator]
        return
    require_postgres()
    url = fresh_pg_url()
    yield url
    drop_pg_schema(url)


@pytest.fixture
def app(store_url: str) -> Iterator[Warscribe]:
    application = Warscribe(store_url)
    yield application
    application.close()


def three_players(*choices: str | None) -> GameSpec:
    names = ("alice", "bob", "carol")
    picks = choices + (None,) * (3 - len(choices))
    return GameSpec(
        name="", players=tuple(PlayerSpec(n, c) for n, c in zip(names, picks, strict=True))
    )


@pytest.fixture(autouse=True)
def _secrets_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL stores keep their secrets files under $XDG_DATA_HOME/warscribe: a
    temporary one, never the home folder of whoever runs the tests."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
    monkeypatch.delenv("WARSCRIBE_SECRETS", raising=False)
    monkeypatch.delenv("WARSCRIBE_PASSPHRASE", raising=False)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tier (tests/tiers.py): what `pytest -m "not slow"` leaves out."""
    from tests.tiers import mark_slow

    mark_slow(items)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The toy duel (plugins/warscribe-duel) is a distribution of its own that the tests
    play: the README's test command installs it beside warscribe."""
    if "duel" not in rulesets.names():
        raise pytest.UsageError(
            "the duel is not installed: pip install -e plugins/warscribe-duel "
            "(the README's test command installs it with warscribe)"
        )


def pytest_sessionfinish(session: pytest.Session) -> None:
    shutil.rmtree(CACHE, ignore_errors=True)
