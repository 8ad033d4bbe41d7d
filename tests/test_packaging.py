"""The wheel holds every package and data file of engine/, store/ and cli/ (setup.py finds
them; nothing to list by hand) and declares warscribe's own games as entry points."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("engine", "store", "cli")


def shipped(folder: Path) -> set[str]:
    """What the wheel must hold of the checkout: every file of the packages but bytecode."""
    return {
        f"warscribe/{path.relative_to(folder).as_posix()}"
        for top in TOP
        for path in (folder / top).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def test_the_wheel_holds_every_package_and_data_file(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: pip builds in the source folder, and a stale
    for name in (*TOP, "setup.py", "pyproject.toml", "README.md"):  # build/ would leak in
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path)]
    subprocess.run([*pip, str(source)], check=True, capture_output=True)
    with zipfile.ZipFile(next(tmp_path.glob("warscribe-*.whl"))) as wheel:
        names = set(wheel.namelist())
        points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        declared = wheel.read(points).decode()
    assert shipped(source) - names == set()
    assert any(name.endswith("datafiles/map.json") for name in names)
    assert "divine-right = warscribe.engine.rulesets.divine_right:RULESET" in declared
    assert "eu-pop = warscribe.engine.rulesets.eu_pop:RULESET" in declared
