"""The state of a Divine Right game: immutable, rebuilt by folding the log."""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any

from warscribe.engine.codec import record, replace, sorted_map, sorted_map_with

Hex = tuple[int, int]

PHASES = ("random-events", "diplomacy", "siege", "movement", "combat")
TURN_OVER = "turn-over"
LAST_TURN = 20
MERCENARY = "mercenary"


@record("dr.Player")
class Player:
    """A player: their kingdom, hand of diplomacy cards and ambassador's standing."""

    name: str
    kingdom: str
    eliminated: bool = False
    hand: tuple[str, ...] = ()
    ambassador_back: int = 0
    assassination_used: bool = False
    penalties: frozenset[str] = frozenset()

    def ambassador_dead(self, turn: int) -> bool:
        return turn < self.ambassador_back


@record("dr.Unit")
class Unit:
    """A piece on the map: a monarch, a regular army or fleet, or a common mercenary
    (kingdom `mercenary`, `owner` the player who controls it). `inside`: within the walls
    of the castle (or the port) of its space; `aboard`: the fleet carrying it."""

    id: str
    kingdom: str
    kind: str
    hex: Hex
    owner: str | None = None
    inside: bool = False
    aboard: str | None = None


@record("dr.KingdomState")
class KingdomState:
    """A kingdom's standing: whose it is, its ally, its monarch's personality and state.
    `captive_of`: the player holding its monarch, `prison` the castle he is held in (None
    while the captor decides his fate); `deactivated_at`: the position (`Turn.label`) of the
    last deactivation; `unplaced`: units entering play that its controller has still to
    place (Zorn's goblins)."""

    name: str
    player: str | None = None
    ally: str | None = None
    personality: int | None = None
    revealed: bool = False
    activations: int = 0
    survivors: tuple[str, ...] | None = None
    eliminated: frozenset[str] = frozenset()
    confusion_until: int | None = None
    peace_until: int | None = None
    activated_on: int | None = None
    deactivated_on: int | None = None
    bad_omens_on: int | None = None
    captive_of: str | None = None
    prison: str | None = None
    deactivated_at: str | None = None
    unplaced: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        if self.player is not None:
            return "player"
        if self.ally is not None:
            return "active"
        if self.confusion_until is not None:
            return "confusion"
        if self.peace_until is not None:
            return "forced peace"
        return "inactive"

    def controller(self) -> str | None:
        """The player whose forces the kingdom's units are."""
        return self.player or self.ally


@record("dr.Banishment")
class Banishment:
    """An ambassador may not work on `kingdom` until turn `until` (None: until its
    monarch dies). Passed on to successors of a dead ambassador."""

    player: str
    kingdom: str
    until: int | None
    why: str
    since: int


@record("dr.Deed")
class Deed:
    """A line of the victory-point ledger."""

    player: str
    turn: int
    deed: str
    points: int


@record("dr.Pending")
class Pending:
    """A decision the rules ask a player for before play goes on."""

    kind: str
    player: str
    options: tuple[str, ...]
    count: int = 1
    why: str = ""


@record("dr.Moved")
class Moved:
    """A unit's movement so far in the current Movement Phase: points spent, the hero who
    led it (None: it moved on its own, or led), and `done` once it may move no further
    (transported by sea)."""

    unit: str
    spent: int = 0
    leader: str | None = None
    done: bool = False


@record("dr.Siege")
class Siege:
    """A castle under siege (Siege Phase): whose castle, who besieges it since which game
    turn, its intrinsic defence; `doomed` once the besiegers became too weak to keep a
    valid siege (`why`): they are displaced at the end of the game turn."""

    castle: str
    kingdom: str | None
    hex: Hex
    besieger: str
    defence: int
    declared_on: int
    doomed: bool = False
    why: str = ""


@record("dr.Veto")
class Veto:
    """A deactivation, forced peace or Confusion of `kingdom` that waits on the players
    besieging its castles, asked in turn (Kingdoms › Deactivation of Kingdoms, ONGOING
    SIEGES); `by` the player whose diplomacy brought it about."""

    kingdom: str
    change: str
    why: str
    by: str | None
    waiting: tuple[str, ...]


@record("dr.Attack")
class Attack:
    """An attack declared for the Combat Phase: attacking units, defending spaces and
    player, `kind` land, fleet or amphibious; `relief` the castle whose besiegers it
    attacks to relieve it, `helpers` the units inside that castle joining in."""

    number: int
    units: tuple[str, ...]
    spaces: tuple[Hex, ...]
    defender: str
    kind: str
    relief: str | None = None
    helpers: tuple[str, ...] = ()
    resolved: bool = False


@record("dr.RetreatTry")
class RetreatTry:
    """A retreat roll made for the land units (or the fleets) of a defending space: the
    groups it let go, those it failed; `gone` once a retreat (or standing) used it."""

    space: Hex
    fleets: bool
    allowed: tuple[str, ...]
    failed: tuple[str, ...]
    gone: bool = False


@record("dr.Fight")
class Fight:
    """The attack (or breakout, number 0) being resolved: its sides, the stage it is at
    (retreat, losses, withdrawal, advance), the losses still to be chosen (`due`), and
    the retreat rolls made before it and the defenders that retreated from it."""

    number: int
    kind: str
    attacker: str
    defender: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    spaces: tuple[Hex, ...]
    stage: str
    relief: str | None = None
    helpers: tuple[str, ...] = ()
    due: tuple[tuple[str, int], ...] = ()
    failed: bool = False
    tries: tuple[RetreatTry, ...] = ()
    retreated: tuple[str, ...] = ()


@record("dr.Progress")
class Progress:
    """What the player whose turn it is has done in the current phase; `moves` records
    movement, `fated` the heroes an enemy has already forced a Hero Fate Roll on."""

    rolled: bool = False
    drew: bool = False
    acted: bool = False
    forced: tuple[str, ...] = ()
    deactivation_tried: tuple[str, ...] = ()
    pending: Pending | None = None
    moves: tuple[Moved, ...] = ()
    fated: tuple[str, ...] = ()
    queue: tuple[Pending, ...] = ()
    attacks: tuple[Attack, ...] = ()
    declared: bool = False
    fight: Fight | None = None
    siege_rolled: bool = False
    retreated: tuple[str, ...] = ()
    fought: tuple[str, ...] = ()  # units that defended in a battle this phase

    def moved(self, unit: str) -> Moved | None:
        for m in self.moves:
            if m.unit == unit:
                return m
        return None


FRESH = Progress()
"""Nothing done yet in a phase (a record never changes: one value serves every phase)."""


@record("dr.Turn")
class Turn:
    """Where play stands: game turn, the player order drawn for it, player-turn and phase."""

    number: int
    order: tuple[str, ...]
    chits: tuple[tuple[str, int], ...]
    player_turn: int = 1
    phase: str = PHASES[0]
    progress: Progress = Progress()
    engaged: tuple[tuple[str, str], ...] = ()

    def engaged_in(self, unit: str) -> str | None:
        """What the unit did this game turn that limits it (a siege declared or attacked,
        a breakout), if anything."""
        return next((why for u, why in self.engaged if u == unit), None)

    @property
    def player(self) -> str:
        return self.order[self.player_turn - 1]

    @property
    def label(self) -> str:
        return f"{self.number}.{self.player_turn}.{self.phase}"


@record("dr.GameResult")
class GameResult:
    """How the game ended: the winners by victory points (several on a tie) and why."""

    winners: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]
    why: str


_aboard = attrgetter("aboard")


class _Carriers:
    """What the units of the last units map made by `State.placed` or `without_units` may
    be aboard: a superset of their `aboard`s. Moving units asks whether any unit is aboard
    one of them; with this, a move whose map follows the last one's (most of a replay's)
    answers from the units it moves instead of looking at every unit. A state's map is
    never changed once made, and the map is held here, so it is known by identity."""

    last: tuple[dict[str, Unit], frozenset[str | None]] = ({}, frozenset())

    @classmethod
    def aboard_any(
        cls, current: dict[str, Unit], merged: dict[str, Unit], moved: dict[str, Unit]
    ) -> bool:
        """Whether a unit of `merged` (`current` with the `moved` units) is aboard one of
        the moved units."""
        units, aboard = cls.last
        if units is not current:
            aboard = frozenset(map(_aboard, current.values()))
        aboard = aboard.union(map(_aboard, moved.values()))
        if not moved.keys().isdisjoint(aboard):  # perhaps: what they are aboard now
            aboard = frozenset(map(_aboard, merged.values()))
        cls.last = (merged, aboard)
        return not moved.keys().isdisjoint(aboard)

    @classmethod
    def passed_on(cls, current: dict[str, Unit], fewer: dict[str, Unit]) -> None:
        """`fewer`, `current` with units taken away, is aboard no more than it was."""
        units, aboard = cls.last
        if units is current:
            cls.last = (fewer, aboard)


_MAPS = ("kingdoms", "units")  # the state's maps, kept in the codec's order (`State.replace`)


@record("dr.State")
class State:
    """A Divine Right game: players, kingdoms, units, decks, ledger and the turn."""

    players: tuple[Player, ...]
    kingdoms: dict[str, KingdomState]
    units: dict[str, Unit]
    deck: tuple[str, ...] | None = None
    deck_size: int = 0
    discards: tuple[str, ...] = ()
    personality_pool: tuple[int, ...] | None = None
    mercenary_pool: tuple[str, ...] = ()
    turn: Turn | None = None
    banishments: tuple[Banishment, ...] = ()
    duels: frozenset[tuple[str, str]] = frozenset()
    ledger: tuple[Deed, ...] = ()
    plundered: frozenset[str] = frozenset()
    outcome: GameResult | None = None
    reentry: bool = False
    data: tuple[tuple[str, str], ...] = ()
    custom_data: tuple[tuple[str, str], ...] = ()
    sieges: tuple[Siege, ...] = ()
    veto: Veto | None = None
    lost_to_events: tuple[tuple[str, int], ...] = ()  # (Troll regular, game turn)

    def replace(self, **changes: Any) -> State:
        """The state with `changes`; a map of kingdoms or units that gains a key is put in
        the codec's order (`sorted_map`), the order a decoded snapshot gives back, so the
        rules read it alike whether the state was folded or loaded (a random pick among
        kingdoms, the units a Mutiny offers). The helpers below know whether they add a
        key, and replace without looking (a replay calls them thousands of times)."""
        for name in _MAPS:
            new = changes.get(name)
            if new is not None and not new.keys() <= getattr(self, name).keys():
                changes[name] = sorted_map(new)
        return replace(self, **changes)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def has_player(self, name: str) -> bool:
        return any(p.name == name for p in self.players)

    def with_player(self, name: str, **changes: Any) -> State:
        return replace(self, players=self.players_with(name, **changes))

    def players_with(self, name: str, **changes: Any) -> tuple[Player, ...]:
        """The players, with these changes to one of them (for an evolver that changes the
        state's other fields too, in one `replace`)."""
        return tuple(replace(p, **changes) if p.name == name else p for p in self.players)

    def with_kingdom(self, name: str, **changes: Any) -> State:
        return replace(self, kingdoms=self.kingdoms_with(name, **changes))

    def kingdoms_with(self, name: str, **changes: Any) -> dict[str, KingdomState]:
        """The map of kingdoms, with these changes to one it has (its order kept)."""
        kingdoms = dict(self.kingdoms)
        kingdoms[name] = replace(kingdoms[name], **changes)
        return kingdoms

    def with_progress(self, **changes: Any) -> State:
        return replace(self, turn=self.progressed(**changes))

    def progressed(self, **changes: Any) -> Turn:
        """The turn with these changes to its progress (for an evolver that changes the
        state's other fields too, in one `replace`)."""
        turn = self.turn
        assert turn is not None
        return replace(turn, progress=replace(turn.progress, **changes))

    def without_units(self, ids: Iterable[str]) -> State:
        return replace(self, units=self.units_without(ids))

    def units_without(self, ids: Iterable[str]) -> dict[str, Unit]:
        """The map of units without these (the others keep their order)."""
        units = dict(self.units)
        for unit in ids:
            units.pop(unit, None)
        _Carriers.passed_on(self.units, units)
        return units

    def with_units(self, units: Iterable[Unit]) -> State:
        """The units put on the map or moved (`placed`)."""
        return replace(self, units=self.placed(units))

    def placed(self, units: Iterable[Unit]) -> dict[str, Unit]:
        """The map of units with these put on the map or moved, in the codec's order: what
        a fleet on the map carries goes where it goes (a fleet put back on the map carries
        nothing it carried before it left)."""
        current = self.units
        moved = {u.id: u for u in units}
        merged = sorted_map_with(current, moved)
        if _Carriers.aboard_any(current, merged, moved):
            for unit in [u for u in merged.values() if u.aboard in moved]:
                carrier = moved[unit.aboard]  # type: ignore[index]
                if carrier.id in current and unit.hex != carrier.hex:
                    merged[unit.id] = replace(unit, hex=carrier.hex)
        return merged

    def units_of(self, kingdom: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units.values() if u.kingdom == kingdom)

    def controller(self, unit: Unit) -> str | None:
        """The player a unit fights for."""
        if unit.kingdom == MERCENARY:
            return unit.owner
        return self.kingdoms[unit.kingdom].controller()

    def alliance(self, player: str) -> tuple[str, ...]:
        """The player's kingdom and the non-player kingdoms allied to it."""
        return tuple(k.name for k in self.kingdoms.values() if k.controller() == player)

    def active_players(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if not p.eliminated)

    def next_player_turn(self) -> int | None:
        """The game turn's next player turn, skipping players eliminated since the order
        was drawn (Kingdoms › Fate of Player Kingdoms: out of the game); None: none left."""
        turn = self.turn
        if turn is None:
            return None
        following = range(turn.player_turn + 1, len(turn.order) + 1)
        return next((n for n in following if not self.player(turn.order[n - 1]).eliminated), None)

    @property
    def number(self) -> int:
        return self.turn.number if self.turn else 0
