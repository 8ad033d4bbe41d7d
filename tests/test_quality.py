"""The code bar as tests: ruff clean, mypy --strict clean."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DUEL = "plugins/warscribe-duel"


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run([tool("ruff"), "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    """mypy cannot follow the editable install's import hook, so check the package through
    a `warscribe` folder of links to engine/, store/, cli/ and web/; the benchmarks with it (they
    import each other's `common`), and the duel, the example of a game package."""
    package = tmp_path / "warscribe"
    package.mkdir()
    for name in ("engine", "store", "cli", "web"):
        (package / name).symlink_to(ROOT / name)
    result = subprocess.run(
        [
            tool("mypy"),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            *("-p", "warscribe", "-p", "warscribe_duel"),
            *(
                arg
                for path in sorted((ROOT / "benchmarks").glob("*.py"))
                for arg in ("-m", path.stem)
            ),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": f"{ROOT / 'benchmarks'}{os.pathsep}{ROOT / DUEL}"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
