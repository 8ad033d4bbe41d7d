"""The caches of what is installed (engine/installed.py): made once, read back by the next
process, and made again when a distribution is installed or a source not installed changes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from warscribe.engine import installed


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path, and a cache folder of its own."""
    monkeypatch.setenv("WARSCRIBE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "site").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    installed.forget()
    yield tmp_path / "site"
    installed.forget()


def made(counter: list[int]) -> str:
    """The text of the cache `test`, as a new process reads it (memory forgotten)."""
    installed.forget()

    def make() -> str:
        counter.append(1)
        return f"made {len(counter)}\nline two"

    return installed.cached("test", make)


def test_a_cache_is_made_once_while_the_same_distributions_are_installed(place: Path) -> None:
    counter: list[int] = []
    assert made(counter) == made(counter) == "made 1\nline two"
    (place / "other-1.0.dist-info").mkdir()
    assert made(counter) == made(counter) == "made 2\nline two"
    os.utime(place / "other-1.0.dist-info", ns=(0, 0))  # installed again, same version
    assert made(counter) == "made 3\nline two"


def test_a_source_no_install_copied_is_watched(place: Path) -> None:
    """An editable install's (or a checkout's) modules are read where they are written."""
    (place / "game_source.py").write_text("VALUE = 1\n")
    __import__("game_source")
    counter: list[int] = []
    assert made(counter) == made(counter) == "made 1\nline two"
    os.utime(place / "game_source.py", ns=(0, 0))
    assert made(counter) == "made 2\nline two"


def test_an_unwritable_cache_folder_is_worked_around(
    place: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WARSCRIBE_CACHE", str(place / "game_file"))
    (place / "game_file").write_text("")
    counter: list[int] = []
    assert made(counter) == "made 1\nline two" and made(counter) == "made 2\nline two"


def test_a_cache_someone_else_could_write_is_not_read(place: Path) -> None:
    """A cache names the modules a run imports: one writable by others is made again."""
    counter: list[int] = []
    made(counter)
    cache = next((place.parent / "cache").iterdir())
    assert cache.stat().st_mode & 0o777 == 0o600
    cache.chmod(0o622)
    assert made(counter) == "made 2\nline two"
