"""Placing pieces on the map (rulebook: Game Setup; Kingdoms › Activation of Kingdoms;
Special Rules for Select Kingdoms › Zorn): where a kingdom's pieces are `deployment`
spaces, and the placements a rule leaves to a player's `choice`."""
