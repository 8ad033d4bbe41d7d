"""Words shared by the sentences that tell a record (`store/story.py` and each rule set's
`sentence`)."""

from __future__ import annotations

from collections.abc import Iterable

MOST = 8
"""The most names a list spells out; beyond it, the first ones and how many more."""


def listed(names: Iterable[str], most: int = MOST) -> str:
    """`a, b and c` (empty names left out; `none` for no name); beyond `most` names, the
    first ones and how many more."""
    shown = [name for name in names if name]
    if not shown:
        return "none"
    if len(shown) > most:
        shown = [*shown[: most - 1], f"{len(shown) - most + 1} more"]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
