"""Where a stack can go this Movement Phase (the `reach` query): each space it may end
its move in, the movement points that costs and one path `move` accepts, found by the
path finder `legal` offers moves from (`move.routes`). A stack moves alone; led by a
monarch among its units (Heroes › Hero Movement Bonus); or, a land stack, over one of
its player's fleets on the navigable river nearby (Movement Phase › Ferrying), to the
spaces only the ferry reaches. A stack of fleets carries the units aboard it
(Transporting Troops)."""

from __future__ import annotations

from warscribe.engine.codec import frozen, replace
from warscribe.engine.errors import IllegalCommand, RuleError
from warscribe.engine.events import Command

from ..data import DRData
from ..placement.deployment import monarch_id
from ..sections import MOVEMENT_PHASE
from ..state import FRESH, PHASES, Hex, State, Unit
from ..tables import phase_title
from ..turn import current
from ..units import is_fleet
from . import PHASE
from .move import Route, routes
from .stacks import stack

FERRY_REACH = 3  # land stacks nearer than this to a fleet on a river may be ferried over it


@frozen
class Reached:
    """A space the stack can reach: its route, and the command moving it there."""

    space: Hex
    route: Route
    command: Command


def ferries(state: State, data: DRData, player: str, start: Hex) -> list[Unit]:
    """The player's fleets on the navigable river near enough to `start` to ferry a land
    stack standing there (in the order of their ids)."""
    return near(data, river_fleets(state, data, player), start)


def river_fleets(state: State, data: DRData, player: str) -> list[Unit]:
    """The player's fleets on a navigable river (in the order of their ids): those that may
    ferry a land stack near them."""
    return sorted(
        (
            u
            for u in state.units.values()
            if is_fleet(u) and state.controller(u) == player and _on_river(data, u.hex)
        ),
        key=lambda u: u.id,
    )


def near(data: DRData, fleets: list[Unit], start: Hex) -> list[Unit]:
    """The `fleets` near enough to `start` to ferry a land stack standing there."""
    return [u for u in fleets if data.map.distance(start, u.hex) < FERRY_REACH]


def _on_river(data: DRData, hex_: Hex) -> bool:
    return any(data.map.is_river_side(hex_, near) for near in data.map.neighbours(*hex_))


def reach(state: State, data: DRData, units: object) -> list[Reached]:
    """Every space the stack named by `units` (its units' ids, or its space) can reach
    in its player's Movement Phase, cheapest first (see `movement_phase`). Refused
    (RuleError, citing the rule) after that phase, while a decision is asked, and for a
    stack its player may not move; empty when it may move but can take no step."""
    state = movement_phase(state)
    turn = state.turn
    player = turn.player if turn is not None else ""
    current(state, Command(player, "reach"), PHASE)
    ids = tuple(u.id for u in stack(state, data, units, player))
    found = _reached(state, data, Command(player, "move", (("units", ids),)), strict=True)
    ways = [("leader", u) for u in ids if u == monarch_id(state.units[u].kingdom)]
    if not any(is_fleet(state.units[u]) for u in ids):
        start = state.units[ids[0]].hex
        ways += [("fleet", f.id) for f in ferries(state, data, player, start)]
    for key, value in ways:
        name = "ferry" if key == "fleet" else "move"
        command = Command(player, name, (("units", ids), (key, value)))
        for space, reached in _reached(state, data, command, strict=False).items():
            found.setdefault(space, reached)
    return sorted(found.values(), key=lambda r: (r.route.cost, r.space))


def movement_phase(state: State) -> State:
    """`state` in its player's Movement Phase: as it is, or, in a phase of that player's
    turn before it, the board as it stands as that phase would open (so a player plans
    the whole turn in one mail; what the phases between may change, a unit the random
    events take, the dry run of `orders` tells). Refused in any other phase."""
    turn = state.turn
    if turn is None or turn.phase == PHASE:
        return state
    if turn.phase not in PHASES[: PHASES.index(PHASE)]:
        raise IllegalCommand(
            f"stacks move only in their player's Movement Phase; {turn.player} is in the "
            f"{phase_title(turn.phase)} ({turn.label})",
            MOVEMENT_PHASE,
        )
    current(state, Command(turn.player, "reach"))
    return replace(state, turn=replace(turn, phase=PHASE, progress=FRESH))


def _reached(state: State, data: DRData, command: Command, strict: bool) -> dict[Hex, Reached]:
    """The spaces `command`'s stack reaches, each with its command; a way the rules
    refuse is an error when `strict`, else reaches nothing."""
    try:
        found = routes(state, data, command)
    except RuleError:
        if strict:
            raise
        return {}
    return {
        space: Reached(
            space,
            route,
            Command(command.actor, command.name, (*command.args, ("path", route.path))),
        )
        for space, route in found.items()
    }
