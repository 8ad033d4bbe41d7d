"""The Movement Phase: stacks moved along a path, checked step by step against the map
and the rules (Movement Phase, all subsections; Heroes › Hero Movement Bonus and Terrain
Bonus; Inactive Kingdoms; Kingdoms › Activation of Kingdoms).

`move units=STACK path=HEX,...` moves a stack (`leader=HERO` for a monarch leading it);
`ferry ... fleet=FLEET` is the same with the river crossed over a friendly fleet; a stack
of fleets carries the units aboard it. The whole path is checked before anything is
recorded, so a refused move records nothing and says which step breaks which rule;
then the move is walked, recording the Hero Fate Rolls, diplomatic penalties, searches
and rescues each step brings. Also `search`, `disband`, `inside` and `outside`.
"""

from __future__ import annotations

import copy
import heapq
from collections.abc import Mapping
from typing import Any

from warscribe.engine.codec import frozen, replace
from warscribe.engine.errors import IllegalCommand, InvalidCommand, RuleError
from warscribe.engine.events import Command, Event

from ..arguments import label, names
from ..data import DRData, MovementRule
from ..data import Hex as MapHex
from ..diplomacy import penalty
from ..events import FerryUsed, HexSearched, StackMoved, UnitsDisbanded, UnitsWalled
from ..evolving import Decision, trial
from ..heroes import (
    castaway,
    castle_trigger,
    eliminate_voluntarily,
    entry_trigger,
    fate,
    voluntary_refusal,
)
from ..placement.deployment import monarch_id
from ..sections import (
    ACTIVATION_OF_KINGDOMS,
    DECLARING_A_SIEGE,
    EFFECTS_OF_A_SIEGE,
    ENEMY_UNITS,
    FATE_ROLL,
    FLEET_MOVEMENT,
    HERO_MOVEMENT,
    HOTHIOR_RULES,
    INACTIVE_KINGDOMS,
    MOVEMENT_PHASE,
    MOVEMENT_RESTRICTIONS,
    MOVEMENT_TERRAIN,
    MOVING_INTO_CASTLES,
    NAVIGABLE_RIVERS,
    PERSONALITY_CARDS,
    RIVER_FLEETS,
    SHIPWRECKED_HEROES,
    TERRAIN_CHART,
    TRANSPORTING_TROOPS,
)
from ..siege import declare as siege
from ..special_kingdoms import boom_refusal, canal_extra
from ..state import MERCENARY, Hex, State, Unit
from ..tables import Evolvers
from ..turn import playing
from ..units import (
    allowance,
    bonuses,
    bump,
    castle,
    castle_side,
    enemy_fleets,
    enemy_land,
    hostile_castle,
    is_army,
    is_fleet,
    is_hero,
    lone_heroes,
    moved,
    moves_with,
    record_of,
    remove,
    rules_of,
    spent,
    with_moves,
)
from .fleets import aboard, can_rescue, first_turn_limit, rescue, side_controller
from .stacks import own, stack
from .terrain import (
    SHORE,
    Cost,
    all_sea,
    geography,
    is_isle,
    is_minor_river,
    land_cost,
)

HALF_HOME = 2
BESIEGED_CASTLE = 6  # the Hero Fate trigger of a lone hero leaving a besieged castle: one roll


# -- the stack and how it moves --------------------------------------------------------------


class Stack:
    """A stack about to move: its units, its leader, the fleet ferrying it, and for each
    unit the points it has left (None: a hero carried along, who needs none; set once the
    stack is known). A plain class, as cheap to define as any (issue 14)."""

    def __init__(self, player: str, units: list[Unit], leader: Unit | None, ferry: Unit | None):
        self.player = player
        self.units = units
        self.leader = leader
        self.ferry = ferry
        self.left: dict[str, int | None] = {}

    @property
    def fleets(self) -> bool:
        return any(is_fleet(u) for u in self.units)

    @property
    def lone(self) -> bool:
        return not any(not is_hero(u) for u in self.units)

    @property
    def start(self) -> Hex:
        return self.units[0].hex


def _stack(state: State, data: DRData, player: str, ferry: bool, given: Mapping[str, Any]) -> Stack:
    """The stack a move names (`given`: the values of its `units`, `leader` and, when
    it is a `ferry`, `fleet`)."""
    units = stack(state, data, given.get("units"), player)
    for unit in units:
        _check_free(state, data, unit)
    kinds = {is_fleet(u) for u in units}
    if len(kinds) > 1:
        raise IllegalCommand(
            "fleets move with the units aboard them: embark land units and heroes first",
            TRANSPORTING_TROOPS,
        )
    leader = _leader(state, data, given.get("leader"), units)
    fleet = _ferry(state, given.get("fleet"), player) if ferry else None
    moving = Stack(player=player, units=units, leader=leader, ferry=fleet)
    moving.left = _budgets(state, data, moving)
    return moving


def _check_free(state: State, data: DRData, unit: Unit) -> None:
    """The unit may move now: not aboard, not marooned, not transported this turn, not
    besieged, not a monarch kept in his royal castle."""
    if unit.aboard is not None:
        raise IllegalCommand(
            f"{unit.id} is aboard {unit.aboard}: move the fleet", TRANSPORTING_TROOPS
        )
    if castaway(state, data, unit):
        raise IllegalCommand(
            f"{unit.id} is cast away on the Isle of Fright until a friendly fleet rescues him",
            SHIPWRECKED_HEROES,
        )
    record = moved(state, unit.id)
    if record is not None and record.done:
        raise IllegalCommand(
            f"{unit.id} was transported by sea this turn: it may not move further",
            TRANSPORTING_TROOPS,
        )
    held = siege.movement_refusal(state, unit)
    if held is not None:
        raise IllegalCommand(held, EFFECTS_OF_A_SIEGE)
    if MovementRule.MONARCH_STAYS_IN_ROYAL_CASTLE in rules_of(state, data, unit):
        raise IllegalCommand(f"{unit.id} may not leave his royal castle", PERSONALITY_CARDS)


def _leader(state: State, data: DRData, name: object, units: list[Unit]) -> Unit | None:
    """The monarch leading the stack, after checking whom he may lead (his own regulars,
    common mercenaries and other heroes) and that they moved with him or not at all."""
    if name is None:
        for unit in units:
            record = moved(state, unit.id)
            if record is not None and record.leader is not None:
                raise IllegalCommand(
                    f"{unit.id} began moving with {record.leader}: it may not split off and "
                    "move on its own",
                    HERO_MOVEMENT,
                )
        return None
    leader = next((u for u in units if u.id == name), None)
    if leader is None or not is_hero(leader):
        raise InvalidCommand(
            f"the leader must be a monarch in the stack, not {name!r}", HERO_MOVEMENT
        )
    if MovementRule.NO_MOVEMENT_BONUS in rules_of(state, data, leader):
        raise IllegalCommand(f"{leader.id} lends no movement bonus to any unit", PERSONALITY_CARDS)
    for unit in units:
        if unit is not leader:
            _check_led(state, leader, unit)
    return leader


def _check_led(state: State, leader: Unit, unit: Unit) -> None:
    if is_army(unit) and unit.kingdom not in (leader.kingdom, MERCENARY):
        raise IllegalCommand(
            f"{unit.id} is a regular of {unit.kingdom}: the monarch of {leader.kingdom} may "
            "not lead it",
            HERO_MOVEMENT,
        )
    record = moved(state, unit.id)
    if record is None or (record.spent == 0 and record.leader is None):
        return
    if record.leader != leader.id or record.spent != spent(state, leader.id):
        raise IllegalCommand(
            f"{unit.id} has moved without {leader.id} this phase: it may not be led by him now",
            HERO_MOVEMENT,
        )


def _ferry(state: State, name: object, player: str) -> Unit:
    if name is None:
        raise InvalidCommand("name the fleet ferrying the stack (fleet=ID)", RIVER_FLEETS)
    fleet = own(state, str(name), player, RIVER_FLEETS)
    if not is_fleet(fleet):
        raise IllegalCommand(f"{fleet.id} is not a fleet", RIVER_FLEETS)
    return fleet


def _budgets(state: State, data: DRData, moving: Stack) -> dict[str, int | None]:
    """Points left: the leader's for a led stack; each unit's own otherwise, heroes
    riding along with combat units needing none."""
    if moving.leader is not None:
        left = allowance(state, data, moving.leader) - spent(state, moving.leader.id)
        return {u.id: left for u in moving.units}
    carried = not moving.lone
    return {
        u.id: None if carried and is_hero(u) else allowance(state, data, u) - spent(state, u.id)
        for u in moving.units
    }


# -- the commands ----------------------------------------------------------------------------


def move(d: Decision) -> None:
    """Move a stack along a path (also `ferry`, crossing the river over a fleet)."""
    player = playing(d.state).player
    call = d.call
    moving = _stack(d.state, d.data, player, call.name == "ferry", call.values)
    path: tuple[Hex, ...] = call.value("path")
    if not path:
        raise InvalidCommand("the path is empty", MOVEMENT_PHASE)
    Walk(d.trial(), moving, dry=True).run(path)
    _check_end(d.state, d.data, moving, path)
    Walk(d, moving, dry=False).run(path)


@frozen
class Route:
    """One way to a space: the path `move` accepts, and the movement points it costs (the
    most any unit of the stack pays; a led stack pays the leader's)."""

    path: tuple[Hex, ...]
    cost: int


def destinations(
    state: State,
    data: DRData,
    player: str,
    units: tuple[str, ...],
    most: int | None = None,
    leader: str | None = None,
    fleet: str | None = None,
) -> dict[Hex, tuple[Hex, ...]]:
    """Each space the stack may end its move in now, with one path there that `move`
    accepts (`routes`; none for a stack that may not move). `leader`: the monarch leading
    the stack; `fleet`: the fleet ferrying it (`ferry`)."""
    given = (("leader", leader), ("fleet", fleet))
    args = (("units", units), *((key, value) for key, value in given if value is not None))
    command = Command(player, "move" if fleet is None else "ferry", args)
    try:
        found = routes(state, data, command, most)
    except RuleError:
        return {}
    return {space: route.path for space, route in found.items()}


def routes(
    state: State, data: DRData, command: Command, most: int | None = None
) -> dict[Hex, Route]:
    """The path finder: each space the stack of `command` (a `move` or a `ferry`, its
    `units`, `leader` and `fleet`, no path) may end its move in now, with one route there
    (the one leaving it the most movement points found). A stack that may not move at all
    is refused (RuleError, citing the rule). Every step is checked as `move` checks it, by
    a dry walk; the search goes on past neither a hostile castle (entering it declares a
    siege, which stops the stack) nor a space where an enemy stands in the way. `most`:
    stop once that many spaces are found."""
    player = command.actor
    moving = _stack(state, data, player, command.name == "ferry", dict(command.args))
    start = Walk(trial(state, data), moving, dry=True)
    found: dict[Hex, Route] = {}
    best: dict[Hex, int] = {moving.start: _left(start)}
    queue: list[tuple[int, tuple[Hex, ...], Walk]] = [(-best[moving.start], (), start)]
    while queue:
        negative, path, walk = heapq.heappop(queue)
        if -negative < best[walk.here]:
            continue  # a better way here was found since
        for b in data.map.neighbours(*walk.here):
            route = (*path, b)
            step = _stepped(walk, len(route), b, last=True)
            if step is None:
                continue
            if b not in found and b != moving.start and _ends(state, data, moving, route):
                found[b] = Route(route, max(step.paid.values(), default=0))
                if most is not None and len(found) >= most:
                    return found
            if moving.fleets:  # a fleet stops where a hostile fleet controls a river side
                step = _stepped(walk, len(route), b, last=False)
                if step is None:
                    continue
            left = _left(step)
            if left > best.get(b, -1) and _passable(state, data, player, b):
                best[b] = left
                heapq.heappush(queue, (-left, route, step))
    return found


def _left(walk: Walk) -> int:
    return sum(points for points in walk.left.values() if points is not None)


def _stepped(walk: Walk, number: int, b: Hex, last: bool) -> Walk | None:
    """The walk one step further (to `b`, its `last`?), or None when the rules refuse it."""
    step = copy.copy(walk)
    step.left, step.segment, step.paid = dict(walk.left), list(walk.segment), dict(walk.paid)
    try:
        step.step(number, b, last)
    except RuleError:
        return None
    return step


def _ends(state: State, data: DRData, moving: Stack, path: tuple[Hex, ...]) -> bool:
    try:
        _check_end(state, data, moving, path)
    except RuleError:
        return False
    return True


def _passable(state: State, data: DRData, player: str, hex_: Hex) -> bool:
    """A space the stack may walk on through: no hostile castle, nobody else's unit."""
    return hostile_castle(state, data, player, hex_) is None and not any(
        state.controller(u) != player for u in state.units.values() if u.hex == hex_
    )


def _check_end(state: State, data: DRData, moving: Stack, path: tuple[Hex, ...]) -> None:
    """Where the stack stops: fleets not with enemy land units; a Paranoid monarch's
    kingdom keeping half its regulars at home."""
    end = path[-1]
    relief = siege.relieving(state, data, moving.player, end)
    if moving.fleets and enemy_land(state, moving.player, end) and not relief:
        raise IllegalCommand(
            f"fleets may not stop at {label(data, end)}, where enemy land units are", ENEMY_UNITS
        )
    for kingdom in sorted({u.kingdom for u in moving.units}):
        monarch = state.units.get(monarch_id(kingdom))
        if monarch is None:
            continue
        if MovementRule.HALF_REGULARS_STAY_HOME in rules_of(state, data, monarch):
            _check_half_home(state, data, moving, kingdom, end)


def _check_half_home(state: State, data: DRData, moving: Stack, kingdom: str, end: Hex) -> None:
    ids = {u.id for u in moving.units}
    regulars = [u for u in state.units_of(kingdom) if not is_hero(u)]
    home = 0
    for unit in regulars:
        where = end if unit.id in ids else unit.hex
        place = data.map.get(*where)
        home += place is not None and place.kingdom == kingdom
    if home < len(regulars) // HALF_HOME:
        raise IllegalCommand(
            f"half of {kingdom}'s regulars must stay inside {kingdom} ({home} of "
            f"{len(regulars)} would)",
            PERSONALITY_CARDS,
        )


# -- walking the path --------------------------------------------------------------------------


class Walk:
    """A stack walking its path. Dry, it only checks each step; for real, it records the
    stack's movement in segments between the rolls, penalties and rescues of the way."""

    def __init__(self, d: Decision, moving: Stack, dry: bool):
        self.d, self.data, self.dry = d, d.data, dry
        self.moving = moving
        self.player = moving.player
        self.ids = [u.id for u in moving.units]
        self.left = dict(moving.left)
        self.here = moving.start
        self.segment: list[Hex] = []
        self.paid: dict[str, int] = {}
        self.ferried = 0
        self.geo = geography(d.data)

    @property
    def state(self) -> State:
        return self.d.state

    def units(self) -> list[Unit]:
        return [self.state.units[u] for u in self.ids]

    def run(self, path: tuple[Hex, ...]) -> None:
        for number, target in enumerate(path, 1):
            if not self.ids:
                break
            self.step(number, target, last=number == len(path))
        self.flush()

    def step(self, number: int, b: Hex, last: bool) -> None:
        a, where = self.here, f"step {number} ({b[0]},{b[1]})"
        place = self.geo.place(b)
        if place is None or b not in self.data.map.neighbours(*a):
            raise InvalidCommand(
                f"{where}: not a space next to {label(self.data, a)}", MOVEMENT_PHASE
            )
        if self.moving.fleets:
            costs = self.fleet_step(where, a, b, place, last)
        else:
            costs = self.land_step(where, number, a, b, place)
        self.before(number, a, b)
        if not self.ids:
            return
        for unit_id, points in costs.items():
            if unit_id in self.ids:
                self.paid[unit_id] = self.paid.get(unit_id, 0) + points
        self.segment.append(b)
        self.here = b
        self.after(a, b, place)

    # -- checks --------------------------------------------------------------------------

    def land_step(self, where: str, number: int, a: Hex, b: Hex, place: MapHex) -> dict[str, int]:
        units = self.units()
        combat = [u for u in units if not is_hero(u)]
        if all_sea(place):
            raise IllegalCommand(
                f"{where}: land units may not enter open water", MOVEMENT_RESTRICTIONS
            )
        if is_isle(place):
            raise IllegalCommand(
                f"{where}: land units may not enter the Isle of Fright", TERRAIN_CHART
            )
        self.check_first_turn(where, units, b)
        if combat:
            self.check_castle(where, b, combat)
            if self.blocking(b):
                raise IllegalCommand(
                    f"{where}: enemy land combat units hold {label(self.data, b)}", ENEMY_UNITS
                )
        extra = self.crossing(where, number, a, b, combat)
        extra += int(_valley(self.geo.place(a), place))
        extra += canal_extra(self.state, self.data, self.player, a, b)
        return self.pay(where, b, place, extra)

    def blocking(self, b: Hex) -> list[Unit]:
        """Enemy land combat units holding the space (those within a castle's walls do not
        prevent entry: Siege Phase › "Inside" and "Outside" of Castles)."""
        return [u for u in enemy_land(self.state, self.player, b) if not u.inside]

    def check_castle(self, where: str, b: Hex, combat: list[Unit]) -> None:
        found = hostile_castle(self.state, self.data, self.player, b)
        if found is None or siege.besieger(self.state, b) == self.player:
            return
        if not siege.may_besiege(self.state, self.data, self.player, b, combat):
            refused = siege.refusal(self.state, self.data, self.player, b, combat)
            raise IllegalCommand(
                f"{where}: {found.name} is an unbesieged enemy or neutral castle: hostile "
                f"units enter it only to besiege it, and {refused}",
                DECLARING_A_SIEGE,
            )

    def check_first_turn(self, where: str, units: list[Unit], b: Hex) -> None:
        limited = first_turn_limit(self.state, self.data, units, b)
        if limited is not None:
            raise IllegalCommand(
                f"{where}: {limited}'s kingdom was activated this turn: it moves only within "
                "its kingdom, the sea and unclaimed land",
                ACTIVATION_OF_KINGDOMS,
            )

    def crossing(self, where: str, number: int, a: Hex, b: Hex, combat: list[Unit]) -> int:
        """The extra cost of crossing the navigable river between a and b, after checking
        the crossing is allowed (Navigable Rivers; Fleets and Navigable Rivers; Ferrying)."""
        if not self.data.map.is_river_side(a, b):
            return 0
        if combat and side_controller(self.state, self.player, a, b):
            raise IllegalCommand(
                f"{where}: an enemy fleet controls the river hexside: land units may not cross it",
                RIVER_FLEETS,
            )
        ferry = self.moving.ferry
        if ferry is not None and ferry.hex in (a, b):
            self.use_ferry(where, ferry, combat)
            return 0
        fresh = all(moved(self.state, u.id) is None for u in self.moving.units)
        if number != 1 or not fresh:
            raise IllegalCommand(
                f"{where}: land units cross a navigable river only from the space they began "
                "the Movement Phase in, beside the hexside (they stop to prepare the "
                "crossing), unless a fleet ferries them",
                NAVIGABLE_RIVERS,
            )
        return 2

    def use_ferry(self, where: str, ferry: Unit, combat: list[Unit]) -> None:
        room = allowance(self.state, self.data, ferry) - spent(self.state, ferry.id) - self.ferried
        if len(combat) > room:
            raise IllegalCommand(
                f"{where}: {ferry.id} can ferry only {max(room, 0)} more combat unit(s), not "
                f"{len(combat)}",
                RIVER_FLEETS,
            )
        self.ferried += len(combat)
        if not self.dry:
            self.interject()
            ids = tuple(u.id for u in combat) or tuple(self.ids)
            self.d.emit(FerryUsed(fleet=ferry.id, units=ids, points=len(combat)))

    def pay(self, where: str, b: Hex, place: MapHex, extra: int) -> dict[str, int]:
        """Each unit's cost to enter, after checking it has the points left."""
        costs: dict[str, int] = {}
        leader = self.moving.leader
        riders = []
        for unit in self.units():
            mover = leader or unit
            cost = land_cost(place.terrain, bonuses(self.data, mover, b))
            costs[unit.id] = cost.points + extra
            if self.left[unit.id] is None:
                riders.append(unit.id)
            else:
                self.afford(where, unit, cost, extra)
        for rider in riders:
            costs[rider] = max((c for u, c in costs.items() if u not in riders), default=0)
        return costs

    def afford(self, where: str, unit: Unit, cost: Cost, extra: int) -> None:
        left = self.left[unit.id]
        assert left is not None
        total = cost.points + extra
        if total > left:
            more = f" (+{extra} for rivers and canals)" if extra else ""
            who = f"the stack led by {self.moving.leader.id}" if self.moving.leader else unit.id
            raise IllegalCommand(
                f"{where}: entering {cost.what} costs {total}{more}, {who} has only {left} "
                f"movement point{'s' if left != 1 else ''} left",
                MOVEMENT_TERRAIN,
            )
        self.left[unit.id] = left - total

    def fleet_step(self, where: str, a: Hex, b: Hex, place: MapHex, last: bool) -> dict[str, int]:
        fleets = self.units()
        self.check_waters(where, a, b, place)
        self.check_first_turn(where, fleets + self.carried(), b)
        found = hostile_castle(self.state, self.data, self.player, b)
        if found is not None:
            self.check_castle(where, b, fleets)
        besieging = siege.besieger(self.state, b) == self.player
        if enemy_fleets(self.state, self.player, b) and not besieging:
            raise IllegalCommand(f"{where}: enemy fleets hold {label(self.data, b)}", ENEMY_UNITS)
        refusal = boom_refusal(self.state, self.data, self.player, fleets, a, b, last)
        if refusal is not None:
            raise IllegalCommand(f"{where}: {refusal}", HOTHIOR_RULES)
        if not last and self.must_stop(b):
            raise IllegalCommand(
                f"{where}: {label(self.data, b)} shares a river hexside controlled by an enemy "
                "fleet: fleets stop on entering it",
                RIVER_FLEETS,
            )
        points = 2 if self.geo.upriver(a, b) else 1
        for fleet in fleets:
            what = "the river upstream" if points == 2 else "water"
            self.afford(where, fleet, Cost(points, what), 0)
        return {f.id: points for f in fleets}

    def check_waters(self, where: str, a: Hex, b: Hex, place: MapHex) -> None:
        if not self.geo.floats(place):
            raise IllegalCommand(f"{where}: fleets may not enter land", FLEET_MOVEMENT)
        if is_isle(place) and not can_rescue(self.state, self.player, b):
            raise IllegalCommand(
                f"{where}: fleets enter the Isle of Fright only to rescue a hero", TERRAIN_CHART
            )
        banks = [self.geo.place(h) for h in (a, b)]
        inland = all(p is not None and not _water(p) and self.geo.on_river(p.coord) for p in banks)
        if inland and not self.geo.along_river(a, b):
            raise IllegalCommand(f"{where}: fleets follow the navigable river", RIVER_FLEETS)

    def must_stop(self, b: Hex) -> bool:
        return any(
            enemy_fleets(self.state, self.player, other)
            for side in self.geo.river_sides_of(b)
            for other in side
            if other != b
        )

    def carried(self) -> list[Unit]:
        """The units aboard the moving fleets now (castaways rescued on the way included)."""
        return [c for u in self.units() if is_fleet(u) for c in aboard(self.state, u)]

    # -- what the way brings ------------------------------------------------------------

    def before(self, number: int, a: Hex, b: Hex) -> None:
        """Lone heroes' rolls for leaving the enemy stack they began the turn in, leaving an
        enemy castle, and crossing a river hexside an enemy fleet controls (triggers 4, 6,
        7, 10)."""
        if self.dry or self.moving.fleets or not self.moving.lone:
            return
        fresh = all(moved(self.state, u) is None for u in self.ids)
        held = enemy_land(self.state, self.player, a)
        trigger, by = castle_trigger(self.state, self.data, self.player, a)
        if number == 1 and fresh and held and trigger != BESIEGED_CASTLE:
            self.rolls(4, self.state.controller(held[0]))
        if trigger:
            self.rolls(trigger, by)
        if self.data.map.is_river_side(a, b):
            fleet = side_controller(self.state, self.player, a, b)
            if fleet is not None:
                self.rolls(10, self.state.controller(fleet))

    def after(self, a: Hex, b: Hex, place: MapHex) -> None:
        """Diplomatic penalty, rescues, searches, and lone heroes' rolls for entering."""
        if self.dry:
            return
        kingdom, before = place.kingdom, self.geo.place(a)
        if kingdom and (before is None or before.kingdom != kingdom):
            why = f"{', '.join(self.ids)} entered {label(self.data, b)}"
            self.interject(*penalty(self.state, self.player, kingdom, why))
        if self.moving.fleets:
            if is_isle(place):
                self.interject()
                rescue(self.d, self.units(), self.player)
            self.besiege(b)
            return
        if not self.moving.lone:
            self.besiege(b)
            self.search(b)
            return
        trigger, by = entry_trigger(self.state, self.data, self.player, b)
        if trigger:
            self.rolls(trigger, by)

    def besiege(self, b: Hex) -> None:
        """Entering an enemy or neutral castle space declares its siege; if the siege
        turns invalid at once (a neutral kingdom's units set up inside), the stack stops
        there to be displaced."""
        found = hostile_castle(self.state, self.data, self.player, b)
        if found is None or siege.besieger(self.state, b) == self.player:
            return
        self.interject()
        siege.declare(self.d, self.player, b, "movement")
        if self.state.turn is not None and self.state.turn.progress.pending is not None:
            self.ids = []

    def search(self, b: Hex) -> None:
        for hero in lone_heroes(self.state, self.player, b):
            self.interject()
            fate(self.d, hero.id, 3, self.player)

    def rolls(self, trigger: int, by: str | None) -> None:
        """Each moving hero rolls; those killed or captured stop, as do the heroes he led."""
        self.interject()
        for hero in list(self.ids):
            if hero in self.state.units:
                fate(self.d, hero, trigger, by)
        self.ids = [u for u in self.ids if self.free(u)]
        leader = self.moving.leader
        if leader is not None and leader.id not in self.ids:
            self.ids = []

    def free(self, unit_id: str) -> bool:
        unit = self.state.units.get(unit_id)
        return unit is not None and self.state.kingdoms[unit.kingdom].captive_of is None

    def interject(self, *events: Event) -> None:
        """Record the movement so far before something happens on the way."""
        self.flush()
        self.d.emit(*events)

    def flush(self) -> None:
        if not self.segment:
            return
        if not self.dry:
            self.record()
        self.segment, self.paid = [], {}

    def record(self) -> None:
        walled = siege.walls_close_on(self.state, self.data, self.player, self.here)
        relief = siege.relieving(self.state, self.data, self.player, self.here)
        inside = (self.moving.lone and walled) or relief
        leader = self.moving.leader
        self.d.emit(
            StackMoved(
                player=self.player,
                units=tuple(self.ids),
                start=self.segment_start(),
                path=tuple(self.segment),
                spent=tuple((u, self.paid.get(u, 0)) for u in self.ids),
                leader=leader.id if leader is not None and leader.id in self.ids else None,
                carried=tuple(c.id for c in self.carried()),
                inside=inside,
            )
        )

    def segment_start(self) -> Hex:
        return self.state.units[self.ids[0]].hex


def _water(place: MapHex) -> bool:
    return bool(place.terrain & SHORE) or all_sea(place)


def _valley(a: MapHex | None, b: MapHex) -> bool:
    """Entering or leaving a minor river's valley (+1; Movement Phase › Rivers)."""
    return a is not None and is_minor_river(a) != is_minor_river(b)


# -- searching, disbanding, castle walls ------------------------------------------------------


def search(d: Decision) -> None:
    """Combat units spend the space's terrain cost to search it: each lone enemy hero there
    rolls (Heroes › Hero Fate Roll, trigger 3; once per enemy movement)."""
    player = playing(d.state).player
    units = stack(d.state, d.data, d.call.get("units"), player)
    rule = FATE_ROLL
    if not any(not is_hero(u) for u in units):
        raise IllegalCommand("only combat units search for heroes", rule)
    hex_ = units[0].hex
    assert d.state.turn is not None
    found = [
        h for h in lone_heroes(d.state, player, hex_) if h.id not in d.state.turn.progress.fated
    ]
    if not found:
        raise IllegalCommand(f"no lone enemy hero at {label(d.data, hex_)} to search for", rule)
    place = d.data.map.get(*hex_)
    assert place is not None
    costs = []
    for unit in units:
        cost = land_cost(place.terrain, bonuses(d.data, unit, hex_))
        left = allowance(d.state, d.data, unit) - spent(d.state, unit.id)
        if cost.points > left and not is_hero(unit):
            raise IllegalCommand(
                f"searching {cost.what} costs {cost.points}, {unit.id} has only {left} "
                "movement points left",
                rule,
            )
        costs.append((unit.id, 0 if is_hero(unit) else cost.points))
    d.emit(
        HexSearched(player=player, units=tuple(u.id for u in units), hex=hex_, spent=tuple(costs))
    )
    for hero in found:
        fate(d, hero.id, 3, player)


def disband(d: Decision) -> None:
    """Voluntarily eliminate units (to avoid a diplomatic penalty: Inactive Kingdoms): a
    non-player monarch among them dies (Confusion), a player's own monarch may not."""
    player = playing(d.state).player
    units = [own(d.state, u, player) for u in names(d.call.get("units"), MOVEMENT_PHASE)]
    for unit in units:
        refusal = voluntary_refusal(d.state, unit) if is_hero(unit) else None
        if refusal is not None:
            raise IllegalCommand(refusal, INACTIVE_KINGDOMS)
        if aboard(d.state, unit):
            raise IllegalCommand(f"{unit.id} carries units: debark them first", TRANSPORTING_TROOPS)
    why = "voluntarily eliminated (Inactive Kingdoms)"
    combat = tuple(u.id for u in units if not is_hero(u))
    if combat:
        d.emit(UnitsDisbanded(player=player, units=combat, why=why))
    for hero in (u.id for u in units if is_hero(u)):
        if hero in d.state.units:
            eliminate_voluntarily(d, hero, why)


def walls(d: Decision) -> None:
    """`inside`: units go within the walls of a friendly castle (a fleet into its port);
    `outside`: they come out. A lone hero in a castle not his side's is always inside."""
    player = playing(d.state).player
    inside = d.call.name == "inside"
    units = stack(d.state, d.data, d.call.get("units"), player)
    hex_ = units[0].hex
    found = castle(d.state, d.data, hex_)
    if found is None or any(u.aboard for u in units):
        raise IllegalCommand(
            f"there is no standing castle at {label(d.data, hex_)}", MOVING_INTO_CASTLES
        )
    if castle_side(d.state, found) != player:
        raise IllegalCommand(f"{found.name} is not a friendly castle", MOVING_INTO_CASTLES)
    if any(is_fleet(u) for u in units) and not found.port:
        raise IllegalCommand(f"{found.name} is not a castle-port", MOVING_INTO_CASTLES)
    if siege.relieving(d.state, d.data, player, hex_):
        raise IllegalCommand(
            f"{found.name} is under siege: its defenders stay within the walls", EFFECTS_OF_A_SIEGE
        )
    d.emit(UnitsWalled(player=player, units=tuple(u.id for u in units), inside=inside))


# -- evolve --------------------------------------------------------------------------------


def _moved(state: State, event: StackMoved) -> State:
    end = event.path[-1]
    units = state.units
    placed = state.placed(
        replace(units[u], hex=end, inside=event.inside and u in event.units)
        for u in (*event.units, *event.carried)
        if u in units
    )
    records = [
        bump(state, unit, points, leader=None if unit == event.leader else event.leader)
        for unit, points in event.spent
    ]
    records += [replace(record_of(state, c), done=True) for c in event.carried]
    return replace(state, units=placed, turn=state.progressed(moves=moves_with(state, records)))


def _ferried(state: State, event: FerryUsed) -> State:
    return with_moves(state, [bump(state, event.fleet, event.points)])


def _searched(state: State, event: HexSearched) -> State:
    return with_moves(state, [bump(state, unit, points) for unit, points in event.spent])


def _walled(state: State, event: UnitsWalled) -> State:
    units = [replace(state.units[u], inside=event.inside) for u in event.units]
    return state.with_units(units)


def _disbanded(state: State, event: UnitsDisbanded) -> State:
    return remove(state, event.units)


EVOLVERS: Evolvers = {
    StackMoved: _moved,
    FerryUsed: _ferried,
    HexSearched: _searched,
    UnitsWalled: _walled,
    UnitsDisbanded: _disbanded,
}
