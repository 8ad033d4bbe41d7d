"""The Random Events Phase: the 2d6 table, its results, and the choices it asks for.

The table is `EVENTS`, one `RandomEvent` per result (at the end of this module): what
it does on the roll, the decision it asks, when it is void, its evolvers. Every other
lookup (`TABLE`, `LOSSES`, `GAINS`, `DECISIONS`, `EVOLVERS`, the commands' `answers`) is
derived from it, so a new result is one declaration there.

`events-roll` rolls the two dice and carries out the result. Random picks (which allied
monarch dies, which friendly kingdom has bad omens, which kingdom helps from afar, which of
several equally largest stacks an epidemic strikes) are derived rolls, each recorded as
`DiceRolled` followed by `RandomlyPicked`. Every choice the rules leave to the player is
that player's recorded decision: the result records `DecisionAsked` (asked at once, not
queued: the pending decision:
its kind, options and how many units), and play goes on only once it is answered by

- `events-lose unit=ID` or `units=A,B,...` (pending kinds `storm`, `mutiny`, `epidemic`,
  `desertion`): the units lost, all of them in one answer;
- `events-replace unit=ID [at=PLACE]` (kinds `replacement`, `replacement-or-reinforcement`):
  an eliminated regular back at its deployment space (`at` only where it has several, as
  Zorn's goblins in the Nithmere mountains: a hex name or `COL,ROW`; not in or next to the
  space of another goblin, wherever it stands now);
- `events-reinforce kind=army|fleet at=PLACE` or `unit=ID at=PLACE` (kinds
  `reinforcement`, `replacement-or-reinforcement`): a common mercenary from the pool (with
  `kind`, the lowest ID letter of that kind), or one stolen from another player when the
  rules allow it (`unit` names it);
- `events-decline` (reinforcement kinds, only when stealing is all that is left): the
  player does not steal.

Each answer brings in or takes away units one decision at a time; a result that gains two
units asks again after the first. Policy on forced choices: the player is always asked,
even when there is a single option, so that every unit lost or gained is his recorded
decision. A result that cannot be carried out, in full or for its remaining units, is
recorded as `RandomEventVoid` with the reason ("treat the result as no event").

Seams: `besieged` (sieges, recorded by a later issue) and `aboard` (fleets carrying troops
and heroes: see `movement.fleets`).

A fleet lost to any of these events (not only Storms) takes what it carries with it, once
the decision is made (`heroes`: cargo dies with its fleet): the land units aboard are
lost and the heroes aboard are shipwrecked (Combat Phase › Making Attacks: "Land units
aboard eliminated fleets are also eliminated"; Heroes › Shipwrecked Heroes).

Doubts: a mercenary stolen from another player is taken to enter like a reinforcement,
at a castle or port of the thief's choice; a non-castle port shelters one of the rolling
player's fleets from a storm (other players' fleets in it are not counted).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from warscribe.engine.codec import frozen, record, replace
from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand, InvalidCommand
from warscribe.engine.events import Event

from .arguments import hex_arg, label, names
from .data import DRData, Location, UnitKind, UnitSpec
from .evolving import Decision
from .kingdoms import activate, crown, monarch_dies
from .movement.fleets import aboard
from .placement.deployment import kin_spaces, spread_refusal, spread_spaces
from .sections import MERCENARY_REINFORCEMENTS, RANDOM_EVENTS_PHASE, REPLACEMENTS, ZORN_RULES
from .siege.declare import besieged
from .state import MERCENARY, Hex, Pending, State, Unit
from .tables import Answer, Evolver, Evolvers
from .turn import asked_now, offered_units, playing
from .units import remove

PHASE = "random-events"

HERO = "monarch"
ARMY, FLEET = UnitKind.ARMY.value, UnitKind.FLEET.value
KINDS = (ARMY, FLEET)
EPIDEMIC_STACK = 10

# Pending decision kinds (each asked by one result of the table, `EVENTS`).
STORM, MUTINY, EPIDEMIC, DESERTION = "storm", "mutiny", "epidemic", "desertion"
REPLACEMENT, REINFORCEMENT, EITHER = "replacement", "reinforcement", "replacement-or-reinforcement"
# What a gain brings in (`Choice.brings`).
REPLACING, REINFORCING = "replacement", "reinforcement"

_REPLACE = "events replace unit=ID [at=PLACE]"
_REINFORCE = "events reinforce kind=army|fleet at=PLACE, or unit=ID at=PLACE to steal"


# -- events ----------------------------------------------------------------------------------


@record("dr.RandomEventRolled")
class RandomEventRolled(Event):
    """The player's two dice on the Random Events Table."""

    player: str
    total: int
    event: str


@record("dr.RandomEventVoid")
class RandomEventVoid(Event):
    """The result cannot be carried out and is treated as no event; `short` is the number
    of units still due when it could be carried out only in part."""

    player: str
    event: str
    why: str
    short: int = 0


@record("dr.RandomlyPicked")
class RandomlyPicked(Event):
    """A random pick the table calls for: the die `roll` chose `picked` among `candidates`
    (no roll when there is a single candidate)."""

    player: str
    event: str
    candidates: tuple[str, ...]
    roll: int | None
    picked: str


@record("dr.UnitsLost")
class UnitsLost(Event):
    """Units the player chose to lose: regulars become eliminated units of their kingdom,
    common mercenaries go back to the mercenary force pool."""

    player: str
    event: str
    units: tuple[str, ...]


@record("dr.RegularReplaced")
class RegularReplaced(Event):
    """An eliminated regular back at its deployment space."""

    player: str
    unit: str
    kingdom: str
    kind: str
    hex: Hex
    place: str


@record("dr.MercenaryEntered")
class MercenaryEntered(Event):
    """A common mercenary entered the player's forces at `place`: from the pool, or stolen
    from `stolen_from`'s forces."""

    player: str
    unit: str
    kind: str
    hex: Hex
    place: str
    stolen_from: str | None = None


@record("dr.ReinforcementsDeclined")
class ReinforcementsDeclined(Event):
    """Only stealing was left and the player chose not to steal `short` unit(s)."""

    player: str
    short: int


@record("dr.BadOmensFell")
class BadOmensFell(Event):
    """The kingdom's regulars will not attack or initiate a siege during game turn `turn`."""

    kingdom: str
    turn: int


# -- seams for rules built later ---------------------------------------------------------------


# `besieged` (no replacements or reinforcements enter a besieged castle; besieged units
# cannot be stolen) and `aboard` (a fleet carrying troops or heroes cannot be stolen) are
# imported above as module names.


# -- the shape of the table --------------------------------------------------------------------

Result = Callable[[Decision, str, "RandomEvent"], None]
Check = Callable[[Decision, str, tuple[str, ...], str], None]


@frozen
class Choice:
    """The decision a result leaves to its player, asked at once: its pending `kind`, the
    units due (`count`; an epidemic works its own out), what it brings in (`brings`:
    `REPLACING` and/or `REINFORCING`; none: units are lost), why it is asked (`why`, with
    `{count}` and `{where}` filled in) and what else an answer must meet (`check`)."""

    kind: str
    why: str
    count: int = 1
    brings: tuple[str, ...] = ()
    check: Check | None = None

    @property
    def gains(self) -> bool:
        return bool(self.brings)


@frozen
class RandomEvent:
    """One result of the Random Events Table, declared once: the 2d6 totals that roll it,
    its name, what it does on the roll (`result`; None: nothing), the decision it asks
    (`choice`), why it is void (`void`, with `{player}` filled in: "treat the result as no
    event") and what its own events do to the state (`evolvers`)."""

    name: str
    rolls: tuple[int, ...]
    result: Result | None = None
    choice: Choice | None = None
    void: str = ""
    evolvers: tuple[tuple[type[Event], Evolver], ...] = ()

    @property
    def rule(self) -> str:
        """The section it cites."""
        return f"{RANDOM_EVENTS_PHASE} › {self.name}"

    @property
    def asks(self) -> Choice:
        if self.choice is None:
            raise RuntimeError(f"{self.name} asks no decision")
        return self.choice


@frozen
class RandomEventsTable:
    """The table: every result, each declared once; the lookups the rules need derive
    from it (`names`, `kinds`, `decisions`, `evolvers`)."""

    events: tuple[RandomEvent, ...]

    def on(self, total: int) -> RandomEvent:
        return next(e for e in self.events if total in e.rolls)

    def of_kind(self, kind: str) -> RandomEvent:
        return next(e for e in self.events if e.choice is not None and e.choice.kind == kind)

    def names(self) -> dict[int, str]:
        return {total: e.name for e in self.events for total in e.rolls}

    def kinds(self, *, gains: bool) -> tuple[str, ...]:
        """The pending kinds of the results that bring units in (or take them away)."""
        return tuple(e.choice.kind for e in self.events if e.choice and e.choice.gains == gains)

    def bringing(self, what: str) -> tuple[str, ...]:
        """The pending kinds answered by bringing in `what` (`REPLACING`, `REINFORCING`)."""
        return tuple(e.choice.kind for e in self.events if e.choice and what in e.choice.brings)

    def with_event(self, event: RandomEvent) -> RandomEventsTable:
        """The table with `event` in place of whatever its totals rolled before."""
        kept = tuple(e for e in self.events if not set(e.rolls) & set(event.rolls))
        return RandomEventsTable((*kept, event))


# -- the roll and the table --------------------------------------------------------------------


def roll(d: Decision) -> None:
    """Two dice on the Random Events Table; the result happens at once."""
    turn = playing(d.state)
    if turn.progress.rolled:
        raise IllegalCommand(
            f"{turn.player} has already rolled the random events this turn", RANDOM_EVENTS_PHASE
        )
    rolled = d.dice.roll("random events", 2)
    event = EVENTS.on(rolled.total)
    d.emit(rolled, RandomEventRolled(player=turn.player, total=rolled.total, event=event.name))
    if event.result is not None:
        event.result(d, turn.player, event)


def _void(d: Decision, player: str, event: RandomEvent, short: int = 0) -> None:
    why = event.void.format(player=player)
    d.emit(RandomEventVoid(player=player, event=event.name, why=why, short=short))


def _pick(
    d: Decision, player: str, event: RandomEvent, candidates: Sequence[str], what: str
) -> str:
    """A random pick among `candidates` (taken in alphabetical order, whatever order the
    state's maps give them in), recorded with the roll that made it."""
    candidates = sorted(candidates)
    if len(candidates) == 1:
        picked, value = candidates[0], None
    else:
        rolled, picked = d.dice.pick(f"{event.name}: {what}", candidates)
        d.emit(rolled)
        value = rolled.values[0]
    picks = RandomlyPicked(
        player=player, event=event.name, candidates=tuple(candidates), roll=value, picked=picked
    )
    d.emit(picks)
    return picked


def _ask(
    d: Decision,
    player: str,
    event: RandomEvent,
    options: Sequence[str],
    count: int = 1,
    where: str = "",
) -> None:
    """Ask the player to choose, or record the result void when there is nothing to choose."""
    choice = event.asks
    if options:
        why = choice.why.format(count=count, where=where)
        d.ask(choice.kind, player, tuple(options), count=count, why=why, queue=False)
    else:
        _void(d, player, event, count if choice.gains else 0)


def _untimely_death(d: Decision, player: str, event: RandomEvent) -> None:
    allies = [k.name for k in d.state.kingdoms.values() if k.ally == player]
    if not allies:
        _void(d, player, event)
        return
    kingdom = _pick(d, player, event, allies, "which allied monarch dies")
    monarch_dies(d, kingdom, "Untimely Death (random event)")


def _storms(d: Decision, player: str, event: RandomEvent) -> None:
    _ask(d, player, event, _exposed_fleets(d, player))


def _mutiny(d: Decision, player: str, event: RandomEvent) -> None:
    _ask(d, player, event, [u.id for u in _forces(d.state, player)])


def _desertion(d: Decision, player: str, event: RandomEvent) -> None:
    mercenaries = [u.id for u in _forces(d.state, player) if u.kingdom == MERCENARY]
    _ask(d, player, event, mercenaries)


def _bad_omens(d: Decision, player: str, event: RandomEvent) -> None:
    friendly = sorted(d.state.alliance(player))
    if not friendly:
        _void(d, player, event)
        return
    kingdom = _pick(d, player, event, friendly, "which friendly kingdom has bad omens")
    d.emit(BadOmensFell(kingdom=kingdom, turn=d.state.number))


def _epidemic(d: Decision, player: str, event: RandomEvent) -> None:
    stacks = _stacks(d.state, player)
    big = _epidemic_stacks(stacks)
    if not stacks:
        _ask(d, player, event, ())
        return
    if big:
        where = (
            "(half of each stack of 10 or more: " + ", ".join(label(d.data, h) for h in big) + ")"
        )
        options = [unit for h in big for unit in stacks[h]]
        count = sum(len(stacks[h]) // 2 for h in big)
    else:
        hex_ = _largest_stack(d, player, event, stacks)
        where, options, count = f"from the largest stack, at {label(d.data, hex_)}", stacks[hex_], 1
    _ask(d, player, event, options, count, where)


def _largest_stack(
    d: Decision, player: str, event: RandomEvent, stacks: dict[Hex, list[str]]
) -> Hex:
    """The largest stack; among equally large ones, a random pick."""
    size = max(len(units) for units in stacks.values())
    largest = {label(d.data, h): h for h, units in stacks.items() if len(units) == size}
    if len(largest) == 1:
        return next(iter(largest.values()))
    return largest[
        _pick(d, player, event, list(largest), "which of the largest stacks loses a unit")
    ]


def _bring(d: Decision, player: str, event: RandomEvent) -> None:
    """Ask for the units the result brings in."""
    _ask_gains(d, player, event, event.asks.count)


def _ask_gains(d: Decision, player: str, event: RandomEvent, count: int) -> None:
    options = [g.label for g in gains(d.state, d.data, player, event.asks.kind)]
    _ask(d, player, event, options, count)


def _help_from_afar(d: Decision, player: str, event: RandomEvent) -> None:
    candidates = [k.name for k in d.state.kingdoms.values() if k.player is None and k.ally is None]
    if not candidates:
        _void(d, player, event)
        return
    kingdom = _pick(d, player, event, candidates, "which non-allied monarch becomes an ally")
    if d.state.kingdoms[kingdom].confusion_until is not None:
        crown(d, kingdom)
    activate(d, kingdom, player, "Help from Afar (random event)")


# -- reading the board ---------------------------------------------------------------------------


def _forces(state: State, player: str) -> list[Unit]:
    """The player's combat units: regulars of his alliance and his common mercenaries."""
    return [u for u in state.units.values() if u.kind != HERO and state.controller(u) == player]


def _at(state: State, hex_: Hex) -> list[Unit]:
    return [u for u in state.units.values() if u.hex == hex_]


def _stacks(state: State, player: str) -> dict[Hex, list[str]]:
    stacks: dict[Hex, list[str]] = {}
    for unit in _forces(state, player):
        stacks.setdefault(unit.hex, []).append(unit.id)
    return dict(sorted(stacks.items()))


def _epidemic_stacks(stacks: dict[Hex, list[str]]) -> list[Hex]:
    return [h for h, units in stacks.items() if len(units) >= EPIDEMIC_STACK]


def _non_castle_ports(data: DRData) -> dict[Hex, Location]:
    return {loc.hex: loc for loc in data.locations.values() if loc.port}


def _exposed_fleets(d: Decision, player: str) -> list[str]:
    """The player's fleets not in a port: a castle-port shelters every fleet, a non-castle
    port one only (Movement Phase › Non-Castle Ports)."""
    fleets = [u for u in _forces(d.state, player) if u.kind == FLEET]
    shelters = _non_castle_ports(d.data)
    exposed = []
    for fleet in fleets:
        castle = d.data.castle_at(*fleet.hex)
        if castle is not None and castle.port:
            continue
        if fleet.hex in shelters and sum(f.hex == fleet.hex for f in fleets) == 1:
            continue
        exposed.append(fleet.id)
    return exposed


def _open(state: State, player: str, hex_: Hex) -> bool:
    """Free of enemy units and not under siege: a space units may enter."""
    return not besieged(state, hex_) and all(
        state.controller(u) == player for u in _at(state, hex_)
    )


# -- what may come in: replacements and reinforcements ------------------------------------------


@frozen
class _Gain:
    """One way to bring a unit in: a replacement (`source` "replacement"), a mercenary from
    the pool ("pool"; `unit` None: any of `kind`), or one stolen from `owner` ("steal")."""

    source: str
    unit: str | None
    kind: str
    hex: Hex
    place: str
    owner: str | None = None

    @property
    def label(self) -> str:
        if self.source == "steal":
            return f"steal {self.unit} from {self.owner} at {self.place}"
        return f"{self.unit or self.kind} at {self.place}"


def gains(state: State, data: DRData, player: str, kind: str) -> list[_Gain]:
    """The ways to bring in a unit the decision `kind` asks for."""
    brings = EVENTS.of_kind(kind).asks.brings
    found = []
    if REPLACING in brings:
        found += _replacements(state, data, player)
    if REINFORCING in brings:
        found += _reinforcements(state, data, player)
    return found


def _replacements(state: State, data: DRData, player: str) -> list[_Gain]:
    return [
        _Gain("replacement", spec.id, str(spec.kind), hex_, place)
        for kingdom in state.alliance(player)
        for spec in data.player_units(kingdom)
        for hex_, place in replacement_spaces(state, data, player, spec)
    ]


def replacement_spaces(
    state: State, data: DRData, player: str, spec: UnitSpec
) -> list[tuple[Hex, str]]:
    """Where the eliminated regular may come back now (none if it may not)."""
    if _replacement_problem(state, data, player, spec) is not None:
        return []
    return _deployment_spaces(state, data, player, spec)


def _replacement_problem(state: State, data: DRData, player: str, spec: UnitSpec) -> str | None:
    """Why the regular cannot be a replacement now (None: it can, given a free space)."""
    standing = state.kingdoms.get(spec.kingdom)
    if standing is None or standing.controller() != player:
        return (
            f"{spec.kingdom} is not an active kingdom of {player}'s alliance: regulars are "
            "replaced only while their kingdom is active"
        )
    if spec.id in state.units or spec.id not in standing.eliminated:
        return f"{spec.id} is not an eliminated unit"
    pool = len(data.player_units(spec.kingdom))
    if sum(u.kind != HERO for u in state.units_of(spec.kingdom)) >= pool:
        return f"{spec.kingdom} already has the {pool} regulars of its identity card on the map"
    return None


def _deployment_spaces(
    state: State, data: DRData, player: str, spec: UnitSpec
) -> list[tuple[Hex, str]]:
    """Where the regular may re-enter: the space on its counter (or, for units spread over
    a start area, each space the area's rule allows), if free of enemies and unbesieged."""
    start = data.start_hex(spec)
    if start is not None:
        spaces = [(start, spec.start)]
    else:
        kin = kin_spaces(state, spec.kingdom)
        spaces = [(h, label(data, h)) for h in spread_spaces(data, spec, kin)]
    return [(h, place) for h, place in spaces if _open(state, player, h)]


def _reinforcements(state: State, data: DRData, player: str) -> list[_Gain]:
    """Deployment of Common Mercenary Reinforcements: either type while both remain in the
    pool (fleets only with a port); the type that remains when the other is all on the
    board; stealing the other type when the remaining one cannot enter, or either type
    when the pool is empty; nothing without an available space."""
    pool = {k: [m for m in state.mercenary_pool if data.mercenary(m).kind == k] for k in KINDS}
    sites = {k: _entry_sites(state, data, player, k) for k in KINDS}
    remaining = [k for k in KINDS if pool[k]]
    takeable = [k for k in remaining if sites[k]]
    if takeable:
        return [_Gain("pool", None, k, h, place) for k in takeable for h, place in sites[k]]
    if len(remaining) == len(KINDS):
        return []
    return [
        _Gain("steal", u.id, k, h, place, u.owner)
        for k in KINDS
        if k not in remaining
        for u in _stealable(state, player, k)
        for h, place in sites[k]
    ]


def _entry_sites(state: State, data: DRData, player: str, kind: str) -> list[tuple[Hex, str]]:
    """Unbesieged friendly castles (the Trolls' royal seat, The Face, serving as theirs) for
    an army; unbesieged friendly castle-ports and friendly-held non-castle ports for a fleet."""
    sites = [
        (c.hex, c.name)
        for c in data.castles.values()
        if c.basic
        and (kind == ARMY or c.port)
        and _friendly_castle(state, player, c.hex, c.name, c.kingdom)
    ]
    if kind == ARMY:
        seats = (data.royal_castle(k) for k in state.alliance(player))
        sites += [(s.hex, s.name) for s in seats if isinstance(s, Location)]
    else:
        sites += [
            (h, loc.name)
            for h, loc in _non_castle_ports(data).items()
            if _port_holder(state, h) == player
        ]
    return [(h, place) for h, place in sites if _open(state, player, h)]


def _friendly_castle(state: State, player: str, hex_: Hex, name: str, kingdom: str | None) -> bool:
    """A castle of a kingdom of the player's alliance; a plundered one is friendly to the
    force occupying it, and to its original owner while unoccupied (Castles)."""
    holders = {state.controller(u) for u in _at(state, hex_) if u.kind != HERO}
    if name in state.plundered and holders:
        return holders == {player}
    standing = state.kingdoms.get(kingdom or "")
    return standing is not None and standing.controller() == player


def _port_holder(state: State, hex_: Hex) -> str | None:
    """Who holds a non-castle port: its land units' side, else its fleets' side."""
    units = [u for u in _at(state, hex_) if u.kind != HERO]
    land = {state.controller(u) for u in units if u.kind == ARMY}
    holders = land or {state.controller(u) for u in units}
    return holders.pop() if len(holders) == 1 else None


def _stealable(state: State, player: str, kind: str) -> list[Unit]:
    """Other players' common mercenaries of `kind`, except those under siege (within the
    walls of a besieged castle: its besiegers may be stolen) and fleets transporting
    troops or heroes."""
    return [
        u
        for u in state.units.values()
        if u.kingdom == MERCENARY
        and u.kind == kind
        and u.owner not in (None, player)
        and not (u.inside and besieged(state, u.hex))
        and not aboard(state, u)
    ]


# -- the player's answers -------------------------------------------------------------------------


def lose(d: Decision) -> None:
    """The units the player loses to Storms, Mutiny, Epidemic or Desertion."""
    pending = asked_now(d.state)
    event = EVENTS.of_kind(pending.kind)
    rule = event.rule
    units = _unit_list(d.call, rule)
    for unit in units:
        if unit not in pending.options:
            raise IllegalCommand(
                f"{unit} is not one to lose; choose from {', '.join(pending.options)}", rule
            )
    if len(units) != pending.count:
        raise IllegalCommand(f"name {pending.count} unit(s) to lose, not {len(units)}", rule)
    if event.asks.check is not None:
        event.asks.check(d, pending.player, units, rule)
    d.emit(UnitsLost(player=pending.player, event=event.name, units=units))


def _unit_list(command: Call, rule: str) -> tuple[str, ...]:
    return names(command.get("units", command.get("unit")), rule)


def _check_halves(d: Decision, player: str, units: tuple[str, ...], rule: str) -> None:
    stacks = _stacks(d.state, player)
    for hex_ in _epidemic_stacks(stacks):
        stack = stacks[hex_]
        chosen = sum(unit in stack for unit in units)
        if chosen != len(stack) // 2:
            raise IllegalCommand(
                f"the stack at {label(d.data, hex_)} has {len(stack)} combat units: exactly "
                f"{len(stack) // 2} of them are lost, not {chosen}",
                rule,
            )


def replace_unit(d: Decision) -> None:
    """An eliminated regular back at its deployment space."""
    pending = asked_now(d.state)
    unit = str(d.call.get("unit", ""))
    returns = [
        g
        for g in gains(d.state, d.data, pending.player, pending.kind)
        if g.unit == unit and g.source == "replacement"
    ]
    if not returns:
        raise IllegalCommand(
            f"{unit} cannot return now: {_refusal(d.state, d.data, pending.player, unit)}",
            REPLACEMENTS,
        )
    _check_spread(d, pending.player, unit, d.call.get("at"), returns)
    gain = _site(d, returns, d.call.get("at"), unit, REPLACEMENTS)
    kingdom = d.data.unit(unit).kingdom
    d.emit(
        RegularReplaced(
            player=pending.player,
            unit=unit,
            kingdom=kingdom,
            kind=gain.kind,
            hex=gain.hex,
            place=gain.place,
        )
    )
    _next(d, pending)


def _check_spread(d: Decision, player: str, unit: str, at: object, gains: list[_Gain]) -> None:
    """A regular spread over a start area (Zorn's) may come back only where the area's rule
    allows: say why not, citing that rule."""
    spec = d.data.unit(unit)
    if at is None or d.data.start_area(spec) is None:
        return
    hex_ = hex_arg(d.data, str(at), ZORN_RULES)
    if any(g.hex == hex_ for g in gains):
        return
    barred = [h for h in d.data.spread_hexes(spec) if not _open(d.state, player, h)]
    why = spread_refusal(d.data, spec, hex_, kin_spaces(d.state, spec.kingdom), barred)
    places = ", ".join(g.place for g in gains)
    raise IllegalCommand(
        f"{unit} may not come back at {at}: {why}; it may at: {places}", ZORN_RULES
    )


def _refusal(state: State, data: DRData, player: str, unit: str) -> str:
    try:
        spec = data.unit(unit)
    except KeyError:
        raise InvalidCommand(
            f"no regular unit {unit!r} (name it with unit=ID)", REPLACEMENTS
        ) from None
    problem = _replacement_problem(state, data, player, spec)
    return (
        problem or f"its deployment space ({spec.start}) is occupied by enemy units or under siege"
    )


def reinforce(d: Decision) -> None:
    """A common mercenary into play: from the pool, or stolen where the rules allow."""
    pending = asked_now(d.state)
    player = pending.player
    offered = gains(d.state, d.data, player, pending.kind)
    unit, candidates = _reinforcement(d.state, d.data, d.call, offered)
    if not candidates:
        allowed = ", ".join(g.label for g in offered if g.source != "replacement") or "none"
        raise IllegalCommand(
            f"{unit} cannot enter now; {player} may bring in: {allowed}", MERCENARY_REINFORCEMENTS
        )
    gain = _site(d, candidates, d.call.get("at"), unit, MERCENARY_REINFORCEMENTS)
    d.emit(
        MercenaryEntered(
            player=player,
            unit=unit,
            kind=gain.kind,
            hex=gain.hex,
            place=gain.place,
            stolen_from=gain.owner,
        )
    )
    _next(d, pending)


def _reinforcement(
    state: State, data: DRData, command: Call, gains: list[_Gain]
) -> tuple[str, list[_Gain]]:
    """The mercenary the command names (by `unit`, or the lowest ID of `kind` in the pool)
    and the ways it may enter."""
    unit, kind = command.get("unit"), command.get("kind")
    if unit is None:
        if kind not in KINDS:
            raise InvalidCommand(
                "name kind=army or kind=fleet, or unit=ID", MERCENARY_REINFORCEMENTS
            )
        in_pool = sorted(m for m in state.mercenary_pool if data.mercenary(m).kind == kind)
        unit = in_pool[0] if in_pool else f"a mercenary {kind}"
    unit = str(unit)
    if unit in state.mercenary_pool:
        kind = data.mercenary(unit).kind
        return unit, [g for g in gains if g.source == "pool" and g.kind == kind]
    return unit, [g for g in gains if g.source == "steal" and g.unit == unit]


def _site(d: Decision, candidates: list[_Gain], at: object, what: str, rule: str) -> _Gain:
    """The candidate entering at `at` (which may be left out when there is one place)."""
    places = ", ".join(dict.fromkeys(g.place for g in candidates))
    if at is None:
        if len({g.hex for g in candidates}) == 1:
            return candidates[0]
        raise InvalidCommand(f"say where {what} enters (at=PLACE): {places}", rule)
    hex_ = hex_arg(d.data, str(at), rule)
    for gain in candidates:
        if gain.hex == hex_:
            return gain
    raise IllegalCommand(f"{what} cannot enter at {at}; it may enter at: {places}", rule)


def _next(d: Decision, pending: Pending) -> None:
    """Ask for the next unit due, if any."""
    if pending.count > 1:
        _ask_gains(d, pending.player, EVENTS.of_kind(pending.kind), pending.count - 1)


def decline(d: Decision) -> None:
    """Decline to steal when stealing is all the reinforcement rules leave."""
    pending = asked_now(d.state)
    if any(g.source != "steal" for g in gains(d.state, d.data, pending.player, pending.kind)):
        raise IllegalCommand(
            "only stealing may be declined; a unit can enter without it", MERCENARY_REINFORCEMENTS
        )
    d.emit(ReinforcementsDeclined(player=pending.player, short=pending.count))


def _gain_stands(state: State, pending: Pending) -> bool:
    """Units are brought in during the player's own Random Events Phase."""
    turn = state.turn
    return turn is not None and turn.phase == PHASE and turn.player == pending.player


# -- evolve ----------------------------------------------------------------------------------------


def _answered(state: State, count: int, /, **changes: Any) -> State:
    """The state with `changes` (a map in the codec's order) and the pending decision
    `count` units fewer due (closed when none is left)."""
    pending = state.turn.progress.pending if state.turn else None
    if pending is not None:
        left = pending.count - count
        still = replace(pending, count=left) if left > 0 else None
        changes["turn"] = state.progressed(pending=still)
    return replace(state, **changes) if changes else state


def _rolled(state: State, event: RandomEventRolled) -> State:
    return state.with_progress(rolled=True)


def _closed(state: State, event: Event) -> State:
    return state.with_progress(pending=None)


def _lost(state: State, event: UnitsLost) -> State:
    return _answered(remove(state, event.units), len(event.units))


def _replaced(state: State, event: RegularReplaced) -> State:
    eliminated = state.kingdoms[event.kingdom].eliminated - {event.unit}
    unit = Unit(id=event.unit, kingdom=event.kingdom, kind=event.kind, hex=event.hex)
    return _answered(
        state,
        1,
        units=state.placed((unit,)),
        kingdoms=state.kingdoms_with(event.kingdom, eliminated=eliminated),
    )


def _entered(state: State, event: MercenaryEntered) -> State:
    pool = tuple(m for m in state.mercenary_pool if m != event.unit)
    unit = Unit(
        id=event.unit, kingdom=MERCENARY, kind=event.kind, hex=event.hex, owner=event.player
    )
    return _answered(state, 1, mercenary_pool=pool, units=state.placed((unit,)))


def _omens(state: State, event: BadOmensFell) -> State:
    return state.with_kingdom(event.kingdom, bad_omens_on=event.turn)


# -- the table ---------------------------------------------------------------------------------

_LOST = ((UnitsLost, _lost),)
_REPLACED = ((RegularReplaced, _replaced),)
_ENTERED = ((MercenaryEntered, _entered), (ReinforcementsDeclined, _closed))

# Random Events Phase › Random Events Table: one declaration per result.
EVENTS = RandomEventsTable(
    (
        RandomEvent(
            "Untimely Death",
            (2,),
            _untimely_death,
            void="no non-player monarch is allied to {player}",
        ),
        RandomEvent(
            "Storms",
            (3,),
            _storms,
            Choice(
                STORM,
                "Storms: choose one of your fleets not in a port to lose (events lose unit=ID)",
            ),
            "no fleet of {player}'s is out of port",
            _LOST,
        ),
        RandomEvent(
            "Mutiny",
            (4,),
            _mutiny,
            Choice(
                MUTINY,
                "Mutiny: choose one friendly regular or mercenary unit to lose"
                " (events lose unit=ID)",
            ),
            "{player} has no regular or mercenary unit on the map",
            _LOST,
        ),
        RandomEvent(
            "Bad Omens",
            (5,),
            _bad_omens,
            void="{player} has no friendly kingdom",
            evolvers=((BadOmensFell, _omens),),
        ),
        RandomEvent(
            "Replacements",
            (6,),
            _bring,
            Choice(
                REPLACEMENT,
                f"Replacements: bring back {{count}} eliminated regular(s) ({_REPLACE})",
                count=2,
                brings=(REPLACING,),
            ),
            "no eliminated regular of {player}'s active kingdoms can return to its"
            " deployment space",
            _REPLACED,
        ),
        RandomEvent("No Event", (7,)),
        RandomEvent(
            "Reinforcements",
            (8,),
            _bring,
            Choice(
                REINFORCEMENT,
                f"Reinforcements: bring {{count}} common mercenary unit(s) in ({_REINFORCE})",
                count=2,
                brings=(REINFORCING,),
            ),
            "no common mercenary can enter an available friendly castle or port of {player}'s",
            _ENTERED,
        ),
        RandomEvent(
            "Epidemic",
            (9,),
            _epidemic,
            Choice(
                EPIDEMIC,
                "Epidemic: choose the {count} combat unit(s) to lose {where}"
                " (events lose units=A,B,...)",
                check=_check_halves,
            ),
            "{player} has no combat unit on the map",
            _LOST,
        ),
        RandomEvent(
            "Replacements / Reinforcements",
            (10,),
            _bring,
            Choice(
                EITHER,
                f"Replacements / Reinforcements: bring back one eliminated regular ({_REPLACE})"
                f" or one common mercenary ({_REINFORCE})",
                brings=(REPLACING, REINFORCING),
            ),
            "neither an eliminated regular nor a common mercenary can enter for {player}",
            _REPLACED + _ENTERED,
        ),
        RandomEvent(
            "Desertion",
            (11,),
            _desertion,
            Choice(
                DESERTION,
                "Desertion: choose one common mercenary to lose (events lose unit=ID)",
            ),
            "{player} has no common mercenary on the map",
            _LOST,
        ),
        RandomEvent(
            "Help from Afar",
            (12,),
            _help_from_afar,
            void="every non-player monarch is already allied",
        ),
    )
)


def decisions(table: RandomEventsTable) -> dict[str, Answer]:
    """The decisions the table's results ask: a loss stands while its options do, a gain
    during its player's own Random Events Phase."""
    return {
        e.choice.kind: Answer(_gain_stands if e.choice.gains else offered_units)
        for e in table.events
        if e.choice is not None
    }


def evolvers(table: RandomEventsTable) -> Evolvers:
    """What the phase's events do to the state: the roll and a void result, and each
    result's own (one evolver per event class, however many results record it)."""
    merged: dict[type[Event], Evolver] = {RandomEventRolled: _rolled, RandomEventVoid: _closed}
    for event in table.events:
        for cls, evolver in event.evolvers:
            if merged.setdefault(cls, evolver) is not evolver:
                raise RuntimeError(f"{event.name}: a second evolver for {cls.__name__}")
    return merged


# The lookups the rules read, all derived from `EVENTS`.
TABLE = EVENTS.names()
RESULTS: dict[int, Result] = {t: r for e in EVENTS.events for t in e.rolls if (r := e.result)}
KIND_RESULT = {e.asks.kind: e.rolls[0] for e in EVENTS.events if e.choice is not None}
LOSSES = EVENTS.kinds(gains=False)
GAINS = EVENTS.kinds(gains=True)
DECISIONS = decisions(EVENTS)
EVOLVERS = evolvers(EVENTS)
# The decisions answered by bringing back a regular, and by bringing in a mercenary.
REPLACES = EVENTS.bringing(REPLACING)
REINFORCES = EVENTS.bringing(REINFORCING)
