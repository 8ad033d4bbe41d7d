"""The docs stay true: every test docs/security.md names as the proof of a guarantee exists;
the README's quick start leaves `warscribe` on the PATH."""

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


def test_the_readme_quick_start_puts_warscribe_on_the_path() -> None:
    """Issue 32: after the quick start `warscribe` was not found, and the README never
    said to activate the virtual environment its commands install into. The quick start
    activates it before the README's first bare `warscribe` command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^(\.|source) \.venv/bin/activate$", quick_start, re.MULTILINE)
    lines = readme.splitlines()
    fences = [n for n, line in enumerate(lines) if line.startswith("```")]
    in_code = {
        n for start, end in zip(fences[::2], fences[1::2], strict=True) for n in range(start, end)
    }
    first = min(n for n in in_code if lines[n].startswith("warscribe "))
    assert any(".venv/bin/activate" in line for line in lines[:first]), lines[first]
