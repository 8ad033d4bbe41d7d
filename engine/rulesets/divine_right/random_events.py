"""The Random Events Phase: the 2d6 table, its results, and the choices it asks for.

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
from .tables import Answer, Evolvers
from .turn import asked_now, offered_units, playing
from .units import remove

PHASE = "random-events"

TABLE = {
    2: "Untimely Death",
    3: "Storms",
    4: "Mutiny",
    5: "Bad Omens",
    6: "Replacements",
    7: "No Event",
    8: "Reinforcements",
    9: "Epidemic",
    10: "Replacements / Reinforcements",
    11: "Desertion",
    12: "Help from Afar",
}

HERO = "monarch"
ARMY, FLEET = UnitKind.ARMY.value, UnitKind.FLEET.value
KINDS = (ARMY, FLEET)
EPIDEMIC_STACK = 10

# Pending decision kinds, and the table result each belongs to.
STORM, MUTINY, EPIDEMIC, DESERTION = "storm", "mutiny", "epidemic", "desertion"
REPLACEMENT, REINFORCEMENT, EITHER = "replacement", "reinforcement", "replacement-or-reinforcement"
KIND_RESULT = {
    STORM: 3,
    MUTINY: 4,
    REPLACEMENT: 6,
    REINFORCEMENT: 8,
    EPIDEMIC: 9,
    EITHER: 10,
    DESERTION: 11,
}
LOSSES = (STORM, MUTINY, EPIDEMIC, DESERTION)
GAINS = (REPLACEMENT, REINFORCEMENT, EITHER)

_REPLACE = "events replace unit=ID [at=PLACE]"
_REINFORCE = "events reinforce kind=army|fleet at=PLACE, or unit=ID at=PLACE to steal"
_WHY = {
    STORM: "Storms: choose one of your fleets not in a port to lose (events lose unit=ID)",
    MUTINY: "Mutiny: choose one friendly regular or mercenary unit to lose (events lose unit=ID)",
    EPIDEMIC: "Epidemic: choose the {count} combat unit(s) to lose {where}"
    " (events lose units=A,B,...)",
    DESERTION: "Desertion: choose one common mercenary to lose (events lose unit=ID)",
    REPLACEMENT: f"Replacements: bring back {{count}} eliminated regular(s) ({_REPLACE})",
    REINFORCEMENT: f"Reinforcements: bring {{count}} common mercenary unit(s) in ({_REINFORCE})",
    EITHER: f"Replacements / Reinforcements: bring back one eliminated regular ({_REPLACE})"
    f" or one common mercenary ({_REINFORCE})",
}
_VOID = {
    STORM: "no fleet of {player}'s is out of port",
    MUTINY: "{player} has no regular or mercenary unit on the map",
    EPIDEMIC: "{player} has no combat unit on the map",
    DESERTION: "{player} has no common mercenary on the map",
    REPLACEMENT: "no eliminated regular of {player}'s active kingdoms can return to its"
    " deployment space",
    REINFORCEMENT: "no common mercenary can enter an available friendly castle or port of"
    " {player}'s",
    EITHER: "neither an eliminated regular nor a common mercenary can enter for {player}",
}


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


# -- the roll and the table --------------------------------------------------------------------

Result = Callable[[Decision, str], None]


def roll(d: Decision) -> None:
    """Two dice on the Random Events Table; the result happens at once."""
    turn = playing(d.state)
    if turn.progress.rolled:
        raise IllegalCommand(
            f"{turn.player} has already rolled the random events this turn", RANDOM_EVENTS_PHASE
        )
    rolled = d.dice.roll("random events", 2)
    total = rolled.total
    d.emit(rolled, RandomEventRolled(player=turn.player, total=total, event=TABLE[total]))
    result = RESULTS.get(total)
    if result is not None:
        result(d, turn.player)


def _void(d: Decision, player: str, total: int, why: str, short: int = 0) -> None:
    d.emit(RandomEventVoid(player=player, event=TABLE[total], why=why, short=short))


def _pick(d: Decision, player: str, total: int, candidates: Sequence[str], what: str) -> str:
    """A random pick among `candidates` (taken in alphabetical order, whatever order the
    state's maps give them in), recorded with the roll that made it."""
    candidates = sorted(candidates)
    if len(candidates) == 1:
        picked, value = candidates[0], None
    else:
        rolled, picked = d.dice.pick(f"{TABLE[total]}: {what}", candidates)
        d.emit(rolled)
        value = rolled.values[0]
    event = RandomlyPicked(
        player=player, event=TABLE[total], candidates=tuple(candidates), roll=value, picked=picked
    )
    d.emit(event)
    return picked


def _ask(d: Decision, player: str, kind: str, options: Sequence[str], count: int, why: str) -> None:
    """Ask the player to choose, or record the result void when there is nothing to choose."""
    if options:
        d.ask(kind, player, tuple(options), count=count, why=why, queue=False)
    else:
        short = count if kind in GAINS else 0
        _void(d, player, KIND_RESULT[kind], _VOID[kind].format(player=player), short)


def _untimely_death(d: Decision, player: str) -> None:
    allies = [k.name for k in d.state.kingdoms.values() if k.ally == player]
    if not allies:
        _void(d, player, 2, f"no non-player monarch is allied to {player}")
        return
    kingdom = _pick(d, player, 2, allies, "which allied monarch dies")
    monarch_dies(d, kingdom, "Untimely Death (random event)")


def _storms(d: Decision, player: str) -> None:
    _ask(d, player, STORM, _exposed_fleets(d, player), 1, _WHY[STORM])


def _mutiny(d: Decision, player: str) -> None:
    _ask(d, player, MUTINY, [u.id for u in _forces(d.state, player)], 1, _WHY[MUTINY])


def _desertion(d: Decision, player: str) -> None:
    mercenaries = [u.id for u in _forces(d.state, player) if u.kingdom == MERCENARY]
    _ask(d, player, DESERTION, mercenaries, 1, _WHY[DESERTION])


def _bad_omens(d: Decision, player: str) -> None:
    friendly = sorted(d.state.alliance(player))
    if not friendly:
        _void(d, player, 5, f"{player} has no friendly kingdom")
        return
    kingdom = _pick(d, player, 5, friendly, "which friendly kingdom has bad omens")
    d.emit(BadOmensFell(kingdom=kingdom, turn=d.state.number))


def _epidemic(d: Decision, player: str) -> None:
    stacks = _stacks(d.state, player)
    big = _epidemic_stacks(stacks)
    if not stacks:
        _ask(d, player, EPIDEMIC, (), 1, "")
        return
    if big:
        where = (
            "(half of each stack of 10 or more: " + ", ".join(label(d.data, h) for h in big) + ")"
        )
        options = [unit for h in big for unit in stacks[h]]
        count = sum(len(stacks[h]) // 2 for h in big)
    else:
        hex_ = _largest_stack(d, player, stacks)
        where, options, count = f"from the largest stack, at {label(d.data, hex_)}", stacks[hex_], 1
    _ask(d, player, EPIDEMIC, options, count, _WHY[EPIDEMIC].format(count=count, where=where))


def _largest_stack(d: Decision, player: str, stacks: dict[Hex, list[str]]) -> Hex:
    """The largest stack; among equally large ones, a random pick."""
    size = max(len(units) for units in stacks.values())
    largest = {label(d.data, h): h for h, units in stacks.items() if len(units) == size}
    if len(largest) == 1:
        return next(iter(largest.values()))
    return largest[_pick(d, player, 9, list(largest), "which of the largest stacks loses a unit")]


def _gains_result(kind: str, count: int) -> Result:
    def result(d: Decision, player: str) -> None:
        _ask_gains(d, player, kind, count)

    return result


def _ask_gains(d: Decision, player: str, kind: str, count: int) -> None:
    options = [g.label for g in gains(d.state, d.data, player, kind)]
    _ask(d, player, kind, options, count, _WHY[kind].format(count=count))


def _help_from_afar(d: Decision, player: str) -> None:
    candidates = [k.name for k in d.state.kingdoms.values() if k.player is None and k.ally is None]
    if not candidates:
        _void(d, player, 12, "every non-player monarch is already allied")
        return
    kingdom = _pick(d, player, 12, candidates, "which non-allied monarch becomes an ally")
    if d.state.kingdoms[kingdom].confusion_until is not None:
        crown(d, kingdom)
    activate(d, kingdom, player, "Help from Afar (random event)")


RESULTS: dict[int, Result] = {
    2: _untimely_death,
    3: _storms,
    4: _mutiny,
    5: _bad_omens,
    6: _gains_result(REPLACEMENT, 2),
    8: _gains_result(REINFORCEMENT, 2),
    9: _epidemic,
    10: _gains_result(EITHER, 1),
    11: _desertion,
    12: _help_from_afar,
}


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
    found = []
    if kind != REINFORCEMENT:
        found += _replacements(state, data, player)
    if kind != REPLACEMENT:
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
    rule = f"{RANDOM_EVENTS_PHASE} › {TABLE[KIND_RESULT[pending.kind]]}"
    units = _unit_list(d.call, rule)
    for unit in units:
        if unit not in pending.options:
            raise IllegalCommand(
                f"{unit} is not one to lose; choose from {', '.join(pending.options)}", rule
            )
    if len(units) != pending.count:
        raise IllegalCommand(f"name {pending.count} unit(s) to lose, not {len(units)}", rule)
    if pending.kind == EPIDEMIC:
        _check_halves(d, pending.player, units, rule)
    d.emit(UnitsLost(player=pending.player, event=TABLE[KIND_RESULT[pending.kind]], units=units))


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
        _ask_gains(d, pending.player, pending.kind, pending.count - 1)


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


DECISIONS: dict[str, Answer] = {
    **{kind: Answer(offered_units) for kind in LOSSES},
    **{kind: Answer(_gain_stands) for kind in GAINS},
}


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


EVOLVERS: Evolvers = {
    RandomEventVoid: _closed,
    ReinforcementsDeclined: _closed,
    RandomEventRolled: _rolled,
    UnitsLost: _lost,
    RegularReplaced: _replaced,
    MercenaryEntered: _entered,
    BadOmensFell: _omens,
}
