"""Seams for the Siege Phase rules (sieges are recorded by a later issue).

Movement, random events and the heroes' fates ask these questions about sieges; until
sieges are recorded no castle is besieged, nobody besieges, and no move can declare one,
so hostile combat units never enter an unbesieged castle space.
"""

from __future__ import annotations

from collections.abc import Sequence

from .data import DRData
from .state import Hex, State, Unit


def besieged(state: State, hex_: Hex) -> bool:
    """Whether the castle on `hex_` is under siege (Siege Phase › Effects of a Siege)."""
    return False


def besieger(state: State, hex_: Hex) -> str | None:
    """The player besieging the castle on `hex_`, if any."""
    return None


def may_besiege(state: State, data: DRData, player: str, hex_: Hex, units: Sequence[Unit]) -> bool:
    """Whether `units` entering the castle space `hex_` meet the conditions to declare a
    siege there (Siege Phase › Declaring a Siege); the siege rules record the declaration."""
    return False
