"""docs/security.md stays true: every test it names as the proof of a guarantee exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_the_security_page_names_exists() -> None:
    page = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    files = {p.name for p in (ROOT / "tests").rglob("test_*.py")}
    named_tests = set(re.findall(r"\b(test_\w+)\b(?!\.py)", page))
    named_files = set(re.findall(r"\b(test_\w+\.py)\b", page))
    assert named_tests, "the page names its tests"
    missing = sorted(t for t in named_tests if f"def {t}(" not in sources)
    assert not missing, f"docs/security.md names tests that do not exist: {missing}"
    assert named_files <= files, sorted(named_files - files)
