"""The record: entries chained by SHA-256, the fold that rebuilds a game, and verification.

An entry's canonical bytes are the codec encoding of ``(seq, topic, public fields,
digest)``; its chain is ``SHA-256(previous chain || canonical bytes)``, starting from 32
zero bytes. Private event fields are left out of the canonical bytes; the digest
``SHA-256(salt || encoded private fields)`` stands in for them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import os
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from . import codec, rulesets
from .codec import record
from .dice import Dice, commitment, derive, parse_mode, seeded_key
from .errors import DiceError, InvalidCommand, LogError
from .events import (
    Command,
    CommandIssued,
    DiceRolled,
    DiceSpec,
    Event,
    GameCreated,
    SecretRevealed,
    private_fields,
)
from .ruleset import GameSpec, RuleSet

GENESIS = bytes(32)

_PRIVATE: dict[type, tuple[str, ...]] = {}


@record("warscribe.Entry")
class Entry:
    """One event of a game log at its sequence number, with its chain hash."""

    seq: int
    event: Event
    chain: bytes
    digest: bytes | None = None
    salt: bytes | None = None


@record("warscribe.Head")
class Head:
    """Where a game's log stands: the fold of its entries."""

    game_id: UUID
    ruleset: str
    seq: int
    chain: bytes
    opener: bytes
    dice_next: int
    dice: Any
    state: Any
    marks: dict[str, int]
    secret: bytes | None = None


def _private_names(cls: type) -> tuple[str, ...]:
    names = _PRIVATE.get(cls)
    if names is None:
        names = _PRIVATE[cls] = private_fields(cls)
    return names


def split(event: Event) -> tuple[dict[str, Any], dict[str, Any]]:
    """(public fields, private fields) of an event."""
    hidden = _private_names(type(event))
    values = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}  # type: ignore[arg-type]
    public = {k: v for k, v in values.items() if k not in hidden}
    return public, {k: values[k] for k in hidden}


def private_digest(salt: bytes, private: dict[str, Any]) -> bytes:
    return hashlib.sha256(salt + codec.encode(private)).digest()


def canonical_bytes(entry: Entry) -> bytes:
    public, _ = split(entry.event)
    return codec.encode((entry.seq, codec.topic_of(type(entry.event)), public, entry.digest))


def next_chain(previous: bytes, entry: Entry) -> bytes:
    return hashlib.sha256(previous + canonical_bytes(entry)).digest()


def _salt(key: bytes | None, game_id: UUID, seq: int) -> bytes:
    if key is None:
        return os.urandom(16)
    return hmac.new(key, b"salt" + game_id.bytes + seq.to_bytes(8, "big"), hashlib.sha256).digest()[
        :16
    ]


def make_entry(seq: int, event: Event, previous: bytes, key: bytes | None, game_id: UUID) -> Entry:
    digest = salt = None
    if _private_names(type(event)):
        salt = _salt(key, game_id, seq)
        digest = private_digest(salt, split(event)[1])
    entry = Entry(seq=seq, event=event, chain=b"", digest=digest, salt=salt)
    return dataclasses.replace(entry, chain=next_chain(previous, entry))


def chain_events(
    head_seq: int, head_chain: bytes, events: Iterable[Event], key: bytes | None, game_id: UUID
) -> list[Entry]:
    entries: list[Entry] = []
    seq, chain = head_seq, head_chain
    for event in events:
        seq += 1
        entry = make_entry(seq, event, chain, key, game_id)
        entries.append(entry)
        chain = entry.chain
    return entries


def advance(head: Head | None, entry: Entry) -> Head:
    """Fold one entry into the head. Never validates, rolls or reads a clock."""
    event = entry.event
    if head is None:
        if not isinstance(event, GameCreated):
            raise LogError("a game log must begin with GameCreated", entry.seq)
        ruleset = rulesets.get(event.ruleset)
        return Head(
            game_id=event.game_id,
            ruleset=event.ruleset,
            seq=entry.seq,
            chain=entry.chain,
            opener=entry.chain,
            dice_next=0,
            dice=event.dice,
            state=ruleset.evolve(None, event),
            marks={},
        )
    ruleset = rulesets.get(head.ruleset)
    values = dict(head.__dict__)
    cls = type(event)
    if cls is DiceRolled:
        values["dice_next"] = event.index + 1  # type: ignore[attr-defined]
    elif cls is CommandIssued:
        values["opener"] = entry.chain
        label = ruleset.position(head.state)
        if label is not None and label not in head.marks:
            values["marks"] = {**head.marks, label: head.seq}
    elif cls is SecretRevealed:
        values["secret"] = event.secret  # type: ignore[attr-defined]
    values["seq"] = entry.seq
    values["chain"] = entry.chain
    values["state"] = ruleset.evolve(head.state, event)
    # Head is frozen: build the successor from its fields without re-running __init__,
    # which replay does once per entry.
    successor: Head = object.__new__(Head)
    object.__setattr__(successor, "__dict__", values)
    return successor


def fold(entries: Iterable[Entry], head: Head | None = None) -> Head:
    for entry in entries:
        head = advance(head, entry)
    if head is None:
        raise LogError("the log is empty")
    return head


def open_game(
    ruleset: RuleSet, spec: GameSpec, game_id: UUID, dice_mode: str, key: bytes
) -> list[Entry]:
    """The entries that create a game: GameCreated, then the rule set's set-up."""
    mode, seed = parse_mode(dice_mode)
    data = ruleset.validate_spec(spec)
    created = GameCreated(
        game_id=game_id,
        name=spec.name,
        ruleset=ruleset.name,
        players=tuple(p.name for p in spec.players),
        dice=DiceSpec(mode=mode, commitment=commitment(key), seed=seed),
        data=data,
        options=spec.options,
    )
    first = make_entry(1, created, GENESIS, key, game_id)
    head = advance(None, first)
    dice = Dice(key=key, game_id=game_id, chain=first.chain, next_index=0)
    events = ruleset.setup(head.state, spec, dice)
    return [first, *chain_events(1, first.chain, events, key, game_id)]


COMMON_COMMANDS = ("roll",)


def _free_roll(command: Command, dice: Dice) -> list[Event]:
    """`roll NdS`: a roll outside the rules (house rule, referee's ruling), recorded."""
    text = str(command.arg("dice", "1d6"))
    count, _, sides = text.lower().partition("d")
    if not (
        count.isdigit() and sides.isdigit() and 0 < int(count) <= 100 and 1 < int(sides) <= 1000
    ):
        raise InvalidCommand(f"bad dice {text!r}: write NdS, e.g. 2d6", "roll")
    return [dice.roll(str(command.arg("purpose", "free roll")), int(count), int(sides))]


def record_command(
    head: Head, command: Command, key: bytes | None, entered: Sequence[int] = ()
) -> list[Entry]:
    """Decide `command` at `head`: its CommandIssued entry, then the entries it decides."""
    ruleset = rulesets.get(head.ruleset)
    issued = make_entry(head.seq + 1, command.issued, head.chain, key, head.game_id)
    by_hand = head.dice.mode == "table"
    if entered and not by_hand:
        raise DiceError(
            f"dice may be entered by hand only in table mode (this game: {head.dice.mode})"
        )
    dice = Dice(
        key=key if key is not None else head.secret,
        game_id=head.game_id,
        chain=issued.chain,
        next_index=head.dice_next,
        entered=list(entered),
        entered_by=command.actor if by_hand else None,
    )
    if command.name in COMMON_COMMANDS:
        events = _free_roll(command, dice)
    else:
        events = ruleset.decide(head.state, command, dice)
    dice.finish()
    return [issued, *chain_events(issued.seq, issued.chain, events, key, head.game_id)]


def reveal(head: Head, key: bytes) -> list[Entry]:
    """Publish the dice secret so anyone can check every roll."""
    if commitment(key) != head.dice.commitment:
        raise DiceError("this secret does not match the game's dice commitment")
    return chain_events(head.seq, head.chain, [SecretRevealed(secret=key)], key, head.game_id)


@dataclasses.dataclass
class Verification:
    """What `verify` found: entries checked, rolls re-derived, and whether dice are checkable."""

    entries: int = 0
    rolls: int = 0
    rolls_checked: int = 0
    rolls_entered: int = 0
    private_checked: int = 0
    dice_mode: str = ""
    secret_known: bool = False


def verify(
    entries: Iterable[Entry],
    *,
    start_seq: int = 1,
    start_chain: bytes = GENESIS,
    start_dice: int = 0,
    opener: bytes | None = None,
    created: GameCreated | None = None,
    key: bytes | None = None,
) -> Verification:
    """Check a run of entries; raise LogError naming the first bad sequence number.

    Checks contiguous numbering, every chain hash, every private digest whose salt is
    present, roll numbering, and every derived roll once the dice secret is known (seeded
    games, a SecretRevealed entry, or `key`).
    """
    report = Verification()
    entries = list(entries)
    key = key or _revealed_key(entries, created)
    expected, chain, dice_next = start_seq, start_chain, start_dice
    if created is not None:
        key = key or _known_key(created)
        report.dice_mode = created.dice.mode
        if key is not None and commitment(key) != created.dice.commitment:
            raise LogError("the dice secret does not match the game's dice commitment", 1)
    for entry in entries:
        seq = entry.seq
        if seq != expected:
            raise LogError(f"expected entry #{expected} here, found #{seq}", expected)
        if next_chain(chain, entry) != entry.chain:
            raise LogError(
                "chain hash does not match the entry (edited, inserted or reordered)", seq
            )
        if entry.salt is not None:
            if (
                entry.digest is None
                or private_digest(entry.salt, split(entry.event)[1]) != entry.digest
            ):
                raise LogError("hidden part does not match its commitment", seq)
            report.private_checked += 1
        event = entry.event
        if isinstance(event, GameCreated):
            if seq != 1:
                raise LogError("GameCreated may only open a log", seq)
            created = event
            key = key or _known_key(created)
            report.dice_mode = created.dice.mode
            opener = entry.chain
            if key is not None and commitment(key) != created.dice.commitment:
                raise LogError("the dice secret does not match the game's dice commitment", seq)
        elif created is None:
            raise LogError("the log does not start with its GameCreated entry", seq)
        elif isinstance(event, CommandIssued):
            opener = entry.chain
        elif isinstance(event, SecretRevealed):
            if commitment(event.secret) != created.dice.commitment:
                raise LogError("the revealed secret does not match the dice commitment", seq)
            key = event.secret
        elif isinstance(event, DiceRolled):
            _check_roll(event, seq, dice_next, key, created, opener, report)
            dice_next += 1
        chain = entry.chain
        expected += 1
        report.entries += 1
    report.secret_known = key is not None
    return report


def _revealed_key(entries: Sequence[Entry], created: GameCreated | None) -> bytes | None:
    """A revealed secret that matches the commitment: it checks rolls made before it too."""
    if created is None and entries and isinstance(entries[0].event, GameCreated):
        created = entries[0].event
    for entry in entries:
        event = entry.event
        if (
            isinstance(event, SecretRevealed)
            and created is not None
            and commitment(event.secret) == created.dice.commitment
        ):
            return event.secret
    return None


def _known_key(created: GameCreated) -> bytes | None:
    if created.dice.mode == "seeded" and created.dice.seed:
        return seeded_key(created.dice.seed)
    return None


def _check_roll(
    event: DiceRolled,
    seq: int,
    expected_index: int,
    key: bytes | None,
    created: GameCreated | None,
    opener: bytes | None,
    report: Verification,
) -> None:
    report.rolls += 1
    if event.index != expected_index:
        raise LogError(f"roll number {event.index} out of order (expected {expected_index})", seq)
    if len(event.values) != len(event.sides) or any(
        not 1 <= v <= s for v, s in zip(event.values, event.sides, strict=False)
    ):
        raise LogError("a die shows a value outside its faces", seq)
    if event.entered_by is not None:
        if created is not None and created.dice.mode != "table":
            raise LogError("dice entered by hand in a game that does not use table dice", seq)
        report.rolls_entered += 1
        return
    if key is None or created is None or opener is None:
        return
    if derive(key, created.game_id, event.index, opener, event.sides) != event.values:
        raise LogError(f"roll {event.index} ({event.purpose}) does not match the dice secret", seq)
    report.rolls_checked += 1
