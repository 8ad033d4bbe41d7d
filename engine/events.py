"""The events every rule set shares, and the command record."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar
from uuid import UUID

from .codec import added, record

Leaf = tuple[str, int | None]
"""A part of an event's private part: a field, or one item of a tuple field."""


class Event:
    """Base of every fact recorded in a game log (each one a registered frozen dataclass).

    A field declared with `private()` holds hidden information (a hand, a face-down card,
    a deck order): the chain covers a salted commitment to it, so a copy with it removed
    still verifies and a later reveal can be checked against the commitment.

    What an event class may declare about its hidden part (class attributes and methods,
    never fields, so the record of older games is unchanged):

    * `PRIVATE_OWNER`: the field naming the player who may see the private part (the
      drawer of a card); None, the default, means nobody but the referee;
    * `CONCEALS_ROLL`: the derived roll recorded just before this event (in the same
      decision) gives the hidden part away (the numbers of a deck's shuffle), so the
      record keeps its numbers private too, as a `SecretDraw`;
    * `discloses(earlier)`: the parts of an earlier event's private part that this public
      event makes known (a card played from the hand it was drawn into); the record then
      publishes them with a `Disclosed` entry that anyone can check;
    * `rule_section()`: the rule the fact applies, cited by the audit;
    * `upcast()`: the event it is now, for a shape no longer decided.
    """

    PRIVATE_OWNER: ClassVar[str | None] = None
    CONCEALS_ROLL: ClassVar[bool] = False

    def owner(self) -> str | None:
        """The player who may see this event's private part (None: the referee only)."""
        name = type(self).PRIVATE_OWNER
        owner: str | None = getattr(self, name) if name else None
        return owner

    def discloses(self, earlier: Event) -> tuple[Leaf, ...]:
        """The parts of `earlier`'s private part this event publishes (none by default)."""
        return ()

    def rule_section(self) -> str | None:
        """The rule this fact applies, as the rulebook names it (None: not stated)."""
        return None

    def upcast(self) -> Event:
        """This fact as the rules record it now: an event of a shape no longer decided
        (its class kept, under its topic, so that old logs still read and verify) gives
        the event that replaced it; the audit compares that with what the rules decide."""
        return self


def private(default: Any = dataclasses.MISSING, added: bool = False) -> Any:
    """Declare an event field as hidden information; `added`: appended to a class whose
    values were already written (as `codec.added`), left out of the private part (so of
    its commitment) while it holds its default."""
    return dataclasses.field(default=default, metadata={"private": True, "added": added})


def private_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("private"))


@record("warscribe.DiceSpec")
class DiceSpec:
    """How a game's dice are made: `host`, `table` or `seeded`; the commitment is
    SHA-256 of the dice secret; the seed is public (seeded mode only)."""

    mode: str
    commitment: bytes
    seed: str | None = None
    public: bytes | None = added(None)
    """The host's ECVRF public key (record scheme 2): every derived roll carries a proof
    anyone can check against it (`vrf`). None in games of scheme 1."""


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
    host_key: bytes | None = added(None)
    """The host's Ed25519 public key: every copy of the log the host sends carries its
    signature over the copy's last entry (a checkpoint, see `anchor`). None: a seeded game,
    or one made before checkpoints."""
    record_version: int = added(1)
    """The rules of the record this game was made under. 1 (games made before issue 30):
    a roll is an HMAC of the dice secret over the head it was decided at and the game's
    roll number. 2: a roll is an ECVRF output of the host's dice key over the decision's
    fixed input (a signed batch's signature and the roll's place in it), with its proof in
    the log; a keyed player's command is one of their signed orders, a standing answer of
    theirs, or marked as the host's act (`HostActed`)."""


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
    proof: bytes | None = added(None)
    """The ECVRF proof of a derived roll of record version 2 (`dice`): anyone checks it
    against the host's public dice key. None: entered by hand, or record version 1."""

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


@record("warscribe.SecretDraw")
class SecretDraw(Event):
    """Roll number `index`, derived like any roll, whose numbers are hidden information
    (they would give a face-down deck's order away): only the referee's copy holds them;
    anyone can re-derive and check them once the dice secret is revealed."""

    index: int
    purpose: str
    sides: tuple[int, ...]
    values: tuple[int, ...] | None = private(None)
    proof: bytes | None = private(None, added=True)
    """The roll's ECVRF proof (record version 2), hidden with its numbers."""


@record("warscribe.Opening")
class Opening:
    """One published part of an earlier private part: the leaf at `index` of that entry's
    commitment, its field (and item of a tuple field), its value and its salt."""

    index: int
    field: str
    item: int | None
    value: Any
    salt: bytes


@record("warscribe.Disclosed")
class Disclosed(Event):
    """Hidden information made public: parts of the private part of entry `seq`, with the
    salts and every leaf digest of that entry, so anyone can check them against the
    commitment the chain recorded when the information was hidden."""

    seq: int
    openings: tuple[Opening, ...]
    leaves: tuple[bytes, ...]


@record("warscribe.KeysRecorded")
class KeysRecorded(Event):
    """Each player's Ed25519 public key (32 bytes): orders are accepted only when signed
    with the key recorded here for the player who gives them."""

    keys: tuple[tuple[str, bytes], ...]

    def key_of(self, player: str) -> bytes | None:
        return dict(self.keys).get(player)


@record("warscribe.OrdersReceived")
class OrdersReceived(Event):
    """A player's signed orders, as written: the commands after this entry are theirs.
    `orders` are the signed bytes, so anyone can check the signature later. `accepted`
    commands of them follow (the rest were refused and returned to the player); None, in
    logs made before partial recording, means all of them, each rolling from its own
    CommandIssued; with `accepted` set, their rolls are bound to the head the orders were
    written against (see `record.opener`)."""

    player: str
    orders: bytes
    signature: bytes
    accepted: int | None = added(None)


@record("warscribe.AnswerApplied")
class AnswerApplied(Event):
    """The next command is `player`'s decision, given for them by the standing answer on
    line `line` (counted from 0) of their signed orders recorded at entry `orders`: the
    decision the rules asked of them was answered from what they signed, and `audit`
    (so `import`) re-derives the command from that answer and the state before it."""

    player: str
    orders: int
    line: int


@record("warscribe.HostActed")
class HostActed(Event):
    """The next command is `player`'s, entered by the host, not signed by them (a timeout,
    a correction, a decision the player did not mail), for `reason`: it is shown as the
    host's act, and `verify` counts it apart from the player's signed play. In a game of
    record version 2 a keyed player's command must be one of their signed orders, a
    standing answer of theirs, or marked so."""

    player: str
    reason: str


@record("warscribe.GameForked")
class GameForked(Event):
    """A new line of play: the entries before this one are game `parent`'s log up to
    entry `at_seq` (position `at_position`), copied unchanged; from here on the game is
    `game_id`. The parent game goes on untouched."""

    game_id: UUID
    name: str
    parent: UUID
    at_seq: int
    at_position: str | None


@record("warscribe.Note")
class Note(Event):
    """A comment on entries `first`..`last` (the position `position`). A ruling is the
    referee's decision overriding the rules there; the events after it in the same
    decision are the ones it imposes, and the audit reports them as the ruling's."""

    author: str
    text: str
    first: int
    last: int
    position: str | None
    ruling: bool = False
