"""Divine Right, basic game."""
