"""The events every rule set shares, and the command record."""

from __future__ import annotations

import dataclasses
from typing import Any
from uuid import UUID

from .codec import record


class Event:
    """Base of every fact recorded in a game log (each one a registered frozen dataclass).

    A field declared with `private()` holds hidden information (a hand, a face-down card,
    a deck order): the chain covers a salted digest of it, so a copy with it removed still
    verifies and a later reveal can be checked against the digest.
    """


def private(default: Any = dataclasses.MISSING) -> Any:
    """Declare an event field as hidden information."""
    return dataclasses.field(default=default, metadata={"private": True})


def private_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("private"))


@record("warscribe.DiceSpec")
class DiceSpec:
    """How a game's dice are made: `host`, `table` or `seeded`; the commitment is
    SHA-256 of the dice secret; the seed is public (seeded mode only)."""

    mode: str
    commitment: bytes
    seed: str | None = None


@record("warscribe.DataRef")
class DataRef:
    """A game data file the game was created with: its kind, name and SHA-256."""

    kind: str
    name: str
    digest: str


@record("warscribe.GameCreated")
class GameCreated(Event):
    game_id: UUID
    name: str
    ruleset: str
    players: tuple[str, ...]
    dice: DiceSpec
    data: tuple[DataRef, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()


@record("warscribe.CommandIssued")
class CommandIssued(Event):
    """A decision as it was given, recorded before the events that decide it."""

    actor: str
    name: str
    args: tuple[tuple[str, Any], ...]


@record("warscribe.DiceRolled")
class DiceRolled(Event):
    """Roll number `index` of the game: value i lies in 1..sides[i].

    `entered_by` is set when physical dice were entered by hand (table mode).
    """

    index: int
    purpose: str
    sides: tuple[int, ...]
    values: tuple[int, ...]
    entered_by: str | None = None

    @property
    def total(self) -> int:
        return sum(self.values)


@record("warscribe.SecretRevealed")
class SecretRevealed(Event):
    """The host published the dice secret: from now on anyone can check every roll."""

    secret: bytes


@record("warscribe.Command")
class Command:
    """A decision as a player gives it: who, which command, its arguments by name."""

    actor: str
    name: str
    args: tuple[tuple[str, Any], ...] = ()

    def arg(self, key: str, default: Any = None) -> Any:
        for name, value in self.args:
            if name == key:
                return value
        return default

    @property
    def issued(self) -> CommandIssued:
        return CommandIssued(actor=self.actor, name=self.name, args=self.args)
