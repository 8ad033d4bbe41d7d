"""Divine Right, basic game."""

from .rules import DivineRight

RULESET = DivineRight()

__all__ = ["RULESET", "DivineRight"]
