"""A Divine Right table for tests: a game with dice entered by hand, driven command by
command through the real record (decide, chain, fold), like a transcript."""

from __future__ import annotations

import dataclasses
from typing import Any
from uuid import UUID

import pytest

from warscribe.engine.dice import seeded_key
from warscribe.engine.errors import IllegalCommand, WarscribeError
from warscribe.engine.events import Command, Event
from warscribe.engine.record import Entry, Head, fold, open_game, record_command
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right.state import State

from .invariants import check_invariants

NEUTRAL = 1  # Disciplined: a personality with no effect on diplomacy
KINGDOMS = {"alice": "Hothior", "bob": "Mivior", "carol": "Muetar"}


class Table:
    """Three players (alice Hothior, bob Mivior, carol Muetar) and table dice (or
    `dice="seeded:table-tests"`: derived rolls, for play that enters none)."""

    def __init__(
        self,
        kingdoms: dict[str, str] | None = None,
        options: tuple[tuple[str, Any], ...] = (),
        dice: str = "table",
    ) -> None:
        from warscribe.engine.ruleset import GameSpec, PlayerSpec

        chosen = kingdoms or KINGDOMS
        spec = GameSpec(
            name="t", players=tuple(PlayerSpec(n, k) for n, k in chosen.items()), options=options
        )
        self.key = seeded_key("table-tests")
        # Record version 1: the positions these tests arrange were found under its dice.
        entries = open_game(
            get("divine-right"), spec, UUID(int=7), dice, self.key, record_version=1
        )
        self.head: Head = fold(entries)
        self.log: list[Entry] = list(entries)
        self.checked = True  # False: a test arranged a position the invariants forbid
        for name in self.state.kingdoms:
            if self.state.kingdoms[name].player is None:
                self.set_kingdom(name, personality=NEUTRAL)

    @property
    def state(self) -> State:
        state: State = self.head.state
        return state

    def set_state(self, state: State) -> None:
        """Arrange the board for a test (what earlier play, or later rules, would have done)."""
        self.head = dataclasses.replace(self.head, state=state)

    def set_kingdom(self, name: str, **changes: Any) -> None:
        self.set_state(self.state.with_kingdom(name, **changes))

    @property
    def player(self) -> str:
        assert self.state.turn is not None
        return self.state.turn.player

    def do(self, name: str, *rolls: int, by: str | None = None, **args: Any) -> list[Event]:
        """Record a command (dice as thrown); return the events it decided. The position
        it leads to is checked against the invariants of every position."""
        command = Command(actor=by or self.player, name=name, args=tuple(args.items()))
        entries = record_command(self.head, command, self.key, rolls)
        self.head = fold(entries, self.head)
        self.log += entries
        if self.checked:
            check_invariants(self.state)
        return [e.event for e in entries[1:]]

    def refuse(
        self, error: type[WarscribeError], match: str, name: str, *rolls: int, **kw: Any
    ) -> None:
        """The command is refused and the record is unchanged."""
        before = self.head
        with pytest.raises(error, match=match):
            self.do(name, *rolls, **kw)
        assert self.head == before

    def refuse_move(
        self,
        units: str,
        path: str,
        match: str,
        error: type[WarscribeError] = IllegalCommand,
        **kw: Any,
    ) -> None:
        """Moving `units` along `path` (`kw`: the other arguments, and `by`) is refused
        (`error`, matching `match`) and the record is unchanged."""
        self.refuse(error, match, "move", units=units, path=path, **kw)

    def phase(self) -> str:
        assert self.state.turn is not None
        return self.state.turn.phase

    def to_phase(self, turn: int, player: str, phase: str) -> None:
        """Play quiet phases (random events: 7, no event; diplomacy: draw and pass)
        until `player`'s `phase` of game turn `turn`."""
        while not (self.state.number == turn and self.player == player and self.phase() == phase):
            if self.phase() == "random-events":
                self.do("events-roll", 3, 4)
            elif self.phase() == "diplomacy":
                assert self.state.turn is not None
                if not self.state.turn.progress.drew:
                    self.do("diplomacy-draw")
                while len(self.state.player(self.player).hand) > 4:
                    self.do("discard", cards=(self.state.player(self.player).hand[0],))
            self.do("end-phase")


def of(events: list[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]
