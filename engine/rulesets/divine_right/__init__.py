"""Divine Right, basic game."""

from .ruleset import DivineRight

RULESET = DivineRight()

__all__ = ["RULESET", "DivineRight"]
