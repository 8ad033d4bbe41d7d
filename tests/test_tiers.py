"""The test tiers stay true: every test the slow tier names exists (tests/tiers.py), and a
named test is marked `slow` while its module's others are not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.tiers import SLOW, mark_slow

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_the_slow_tier_names_exists() -> None:
    missing = []
    for module, names in SLOW.items():
        path = ROOT / module
        source = path.read_text(encoding="utf-8") if path.exists() else ""
        defined = set(re.findall(r"^(?:def|class) (\w+)", source, re.MULTILINE))
        missing += [f"{module}::{name}" for name in names if name not in defined]
        if not source:
            missing.append(module)
    assert missing == [], "tests/tiers.py names tests that do not exist"


class _Item:
    """What `mark_slow` reads of a collected test, and the markers it adds."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid
        self.markers: list[str] = []

    def add_marker(self, marker: pytest.MarkDecorator) -> None:
        self.markers.append(marker.name)


def test_the_named_tests_and_modules_are_marked_slow_and_no_others() -> None:
    module, names = next((m, n) for m, n in SLOW.items() if n)
    whole = next(m for m, n in SLOW.items() if not n)
    items = [
        _Item(f"{module}::{names[0]}[sqlite]"),
        _Item(f"{module}::test_not_named_there"),
        _Item(f"{whole}::test_anything[3]"),
        _Item("tests/test_tiers.py::test_every_test_the_slow_tier_names_exists"),
    ]
    mark_slow(items)  # type: ignore[arg-type]
    assert [item.markers for item in items] == [["slow"], [], ["slow"], []]
