"""The Movement Phase (rulebook: Movement Phase, all subsections): stacks `move`d along a
path over the `terrain`, read from the `stacks` a command names, and `fleets` carrying
troops (Transporting Troops)."""

PHASE = "movement"
