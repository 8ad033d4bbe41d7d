"""The state of an EU: The Price of Power economy: realms, the world they share, the round.

Everything is immutable: frozen records and tuples. Ducats are `Fraction`s so that half
ducats (ships at sea, plague) stay exact; every other count is an int.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from warscribe.engine.codec import added, record

if TYPE_CHECKING:
    from .events import IncomeStatement, MonarchPowerCollected, PrestigeScored

POWER_TYPES = ("adm", "dip", "mil")
PHASES = ("draw", "action", "peace", "income-upkeep")
ACTION, INCOME_UPKEEP = PHASES[1], PHASES[3]
STEPS = ("A", "B", "C", "D", "E")
DONE = "done"
MAX_INTEREST_TOKENS = 5
INTERREGNUM = "interregnum"


@record("eu.Power")
class Power:
    """Monarch power of the three types: administrative, diplomatic, military."""

    adm: int = 0
    dip: int = 0
    mil: int = 0

    def of(self, kind: str) -> int:
        value: int = getattr(self, kind)
        return value

    def plus(self, other: Power) -> Power:
        return Power(self.adm + other.adm, self.dip + other.dip, self.mil + other.mil)

    def minus(self, other: Power) -> Power:
        return Power(self.adm - other.adm, self.dip - other.dip, self.mil - other.mil)

    def as_dict(self) -> dict[str, int]:
        return {kind: self.of(kind) for kind in POWER_TYPES}


@record("eu.Ruler")
class Ruler:
    name: str
    skills: Power


@record("eu.Advisor")
class Advisor:
    """An active advisor: its slot (a power type), skill and upkeep in ducats."""

    name: str
    slot: str
    skill: int
    upkeep: int


@record("eu.Leader")
class Leader:
    """A general or admiral tucked under one of the realm's army or fleet mats."""

    name: str
    kind: str
    mat: str


@record("eu.Ally")
class Ally:
    """An alliance: `npr` or `pr`; for an NPR, the tax value of the provinces it and its
    vassals own, the realm's influence on its areas, adjacency, peace, and the K side."""

    name: str
    kind: str
    tax_value: int = 0
    influence: int = 0
    adjacent: bool = False
    at_peace: bool = True
    active: bool = False


@record("eu.Realm")
class Realm:
    name: str
    player: str
    ducats: Fraction
    power: Power
    manpower: int
    exhausted: int
    stability: int
    prestige: int
    loans: int
    ruler: Ruler | None
    advisors: tuple[Advisor, ...] = ()
    leaders: tuple[Leader, ...] = ()
    armies: tuple[str, ...] = ()
    fleets: tuple[str, ...] = ()
    regulars: int = 0
    mercenaries: int = 0
    ships_at_sea: int = 0
    ships_in_port: int = 0
    base_tax: int = 0
    vassal_tax: int = 0
    plague_tax: int = 0
    idea_income: int = 0
    allies: tuple[Ally, ...] = ()
    influence: int = 0
    tokens: int = 0
    ideas: tuple[str, ...] = ()
    crusade: bool = added(False)
    """It holds an active Crusade token: step E waits for it to enter the prestige (4.4 E)."""
    power_struggle: bool = added(False)
    """It holds power struggle tokens: step E waits for it to enter the prestige (4.4 E)."""

    @property
    def in_interregnum(self) -> bool:
        return self.ruler is None or self.ruler.name.lower() == INTERREGNUM

    def advisor(self, slot: str) -> Advisor | None:
        return next((a for a in self.advisors if a.slot == slot), None)

    def leader(self, name: str) -> Leader | None:
        return next((lead for lead in self.leaders if lead.name == name), None)

    def leader_on(self, mat: str) -> Leader | None:
        return next((lead for lead in self.leaders if lead.mat == mat), None)

    def ally(self, name: str) -> Ally | None:
        return next((a for a in self.allies if a.name == name), None)

    def has_idea(self, idea: str) -> bool:
        return any(i.lower() == idea.lower() for i in self.ideas)

    @property
    def tax_problem(self) -> str | None:
        """Why the tax figures cannot be (plague tax is part of base and vassal tax), or None."""
        income = self.base_tax + self.vassal_tax
        if self.plague_tax <= income:
            return None
        return (
            f"{self.name}'s plague_tax {self.plague_tax} is more than its tax income {income} "
            f"(base_tax {self.base_tax} + vassal_tax {self.vassal_tax}): plague tax is the part "
            "of that income from areas with plague"
        )


@record("eu.World")
class World:
    """What realms share: the papacy and the Holy Roman Empire."""

    papal_controller: str | None = None
    papal_contested: bool = False
    catholic_prs: int = 0
    emperor: str | None = None
    imperial_authority: int = 0


@record("eu.State")
class EuState:
    """The whole game. `turn` is the realm to act in the Action phase; `step` is the open
    step of Phase 4 (A-E, then `done`) and `recorded` the realms that have recorded it;
    `rulers_discarded` the realms whose ruler was discarded and not yet replaced."""

    round: int = 0
    phase: str = ""
    order: tuple[str, ...] = ()
    turn: str | None = None
    passed: tuple[str, ...] = ()
    step: str | None = None
    recorded: tuple[str, ...] = ()
    realms: tuple[Realm, ...] = ()
    world: World = World()
    statements: tuple[IncomeStatement, ...] = ()
    collections: tuple[MonarchPowerCollected, ...] = ()
    scores: tuple[PrestigeScored, ...] = ()
    rulers_discarded: tuple[str, ...] = ()
    closing: bool = added(False)
    """Whether a Phase 4 step closes itself for a realm with no choice in it (the game's
    `close_steps` option; games recorded before it have every step recorded as a command)."""

    def realm(self, name: str) -> Realm:
        """The realm called `name` (it must exist: decisions check names first)."""
        return next(r for r in self.realms if r.name == name)

    def find(self, name: str) -> Realm | None:
        return next((r for r in self.realms if r.name == name), None)

    def realm_of_player(self, player: str) -> Realm | None:
        return next((r for r in self.realms if r.player == player), None)

    @property
    def label(self) -> str | None:
        """The position label: `ROUND.PHASE`, e.g. `2.action`, `2.income-upkeep`."""
        return f"{self.round}.{self.phase}" if self.round else None


def update_realm(state: EuState, name: str, change: Callable[[Realm], Realm]) -> EuState:
    realms = tuple(change(r) if r.name == name else r for r in state.realms)
    return dataclasses.replace(state, realms=realms)


def replace_realm(state: EuState, name: str, **changes: Any) -> EuState:
    return update_realm(state, name, lambda r: dataclasses.replace(r, **changes))


def add_ducats(state: EuState, name: str, ducats: Fraction | int) -> EuState:
    return update_realm(state, name, lambda r: dataclasses.replace(r, ducats=r.ducats + ducats))


def drop_allies(realm: Realm, names: Collection[str]) -> Realm:
    """The realm without those alliances; its influence on their areas stays on the board."""
    left = sum(a.influence for a in realm.allies if a.name in names)
    allies = tuple(a for a in realm.allies if a.name not in names)
    return dataclasses.replace(realm, influence=realm.influence + left, allies=allies)


def ducats_text(amount: Fraction | int) -> str:
    """Ducats as the table reads them: `12`, `12½`, `-½`."""
    value = Fraction(amount)
    if value.denominator != 2:
        return str(value)
    whole = int(abs(value) - Fraction(1, 2))
    return f"{'-' if value < 0 else ''}{whole or ''}½"
