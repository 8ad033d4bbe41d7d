"""A table of two realms driven through the record, as the CLI and the store drive it."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import pytest

from warscribe.engine import codec
from warscribe.engine.dice import new_key
from warscribe.engine.errors import RuleError
from warscribe.engine.events import Command, Event
from warscribe.engine.record import Entry, fold, open_game, record_command
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets.eu_pop import RULESET
from warscribe.engine.rulesets.eu_pop.state import EuState, Realm

PLAYERS = (("alice", "France"), ("bob", "Austria"))


def realm(**changes: Any) -> dict[str, Any]:
    """A realm of a starting-position file: plain figures, then `changes`."""
    base: dict[str, Any] = {
        "ducats": 10,
        "monarch_power": {"adm": 3, "dip": 3, "mil": 3},
        "manpower": {"available": 4, "exhausted": 6},
        "stability": 0,
        "prestige": 0,
        "ruler": {"name": "Ruler", "adm": 2, "dip": 2, "mil": 2},
        "tax": {"base": 8},
        "armies": ["Army I", "Army II"],
        "fleets": ["Fleet I"],
    }
    return {**base, **changes}


def treasury_row(
    player: str,
    ducats: float,
    interest_tokens: int,
    power: tuple[int, int, int],
    manpower: tuple[int, int],
    stability: int,
    prestige: int,
) -> dict[str, Any]:
    """A realm's row of the `treasury` view: monarch power as (adm, dip, mil), manpower
    as (available, exhausted)."""
    adm, dip, mil = power
    available, exhausted = manpower
    return {
        "player": player,
        "ducats": ducats,
        "interest_tokens": interest_tokens,
        "monarch_power": {"adm": adm, "dip": dip, "mil": mil},
        "manpower": {"available": available, "exhausted": exhausted},
        "stability": stability,
        "prestige": prestige,
    }


def position(
    france: dict[str, Any] | None = None, austria: dict[str, Any] | None = None, **top: Any
) -> dict[str, Any]:
    """A starting position for France (alice) and Austria (bob), in round 1's Action phase."""
    return {
        "round": 1,
        "phase": "action",
        "realms": {"France": realm(**(france or {})), "Austria": realm(**(austria or {}))},
        **top,
    }


def spec(
    start: dict[str, Any] | str,
    players: tuple[tuple[str, str | None], ...] = PLAYERS,
    close_steps: bool | None = None,
) -> GameSpec:
    """`new`'s spec; `close_steps` None leaves the option out, as games before it did."""
    text = start if isinstance(start, str) else json.dumps(start)
    closing = () if close_steps is None else (("close_steps", close_steps),)
    return GameSpec(
        "test", tuple(PlayerSpec(n, r) for n, r in players), (("start", text), *closing)
    )


class Table:
    """The record of one game: `do` records a command, `refuse` expects a RuleError."""

    def __init__(self, start: dict[str, Any] | str, close_steps: bool | None = None) -> None:
        self.key = new_key("seeded", "1")[0]
        self.entries: list[Entry] = open_game(
            RULESET, spec(start, close_steps=close_steps), UUID(int=1), "seeded:1", self.key
        )
        self.head = fold(self.entries)

    @property
    def state(self) -> EuState:
        state: EuState = self.head.state
        return state

    def realm(self, name: str) -> Realm:
        return self.state.realm(name)

    def do(self, actor: str, name: str, /, **args: Any) -> list[Event]:
        """Record the command; its events (after CommandIssued)."""
        entries = record_command(self.head, Command(actor, name, tuple(args.items())), self.key)
        self.head = fold(entries, self.head)
        self.entries += entries
        return [entry.event for entry in entries[1:]]

    def refuse(self, actor: str, name: str, /, **args: Any) -> RuleError:
        """Expect the command refused, the game left exactly as it was."""
        before, seq = codec.encode(self.head.state), self.head.seq
        with pytest.raises(RuleError) as info:
            self.do(actor, name, **args)
        assert codec.encode(self.head.state) == before and self.head.seq == seq
        return info.value

    def project(self, name: str) -> Any:
        return RULESET.projections[name](self.state)

    def end_phase(self, until: str) -> None:
        while self.state.phase != until:
            self.do("alice", "end-phase")

    def both_pass(self) -> None:
        for player in ("alice", "bob"):
            self.do(player, "pass")

    def to_income(self) -> None:
        """From the Action phase, with nothing done: both pass, on to Phase 4."""
        self.both_pass()
        self.end_phase("income-upkeep")

    def step(self, name: str, /, **args: Any) -> None:
        """Both realms record the same Phase 4 step."""
        for player in ("alice", "bob"):
            self.do(player, name, **args)
