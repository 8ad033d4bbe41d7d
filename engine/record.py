"""The record: entries chained by SHA-256, the fold that rebuilds a game, and verification.

An entry's canonical bytes are the codec encoding of ``(seq, topic, public fields,
digest)``; its chain is ``SHA-256(previous chain || canonical bytes)``, starting from 32
zero bytes. Private event fields are left out of the canonical bytes; a salted commitment
to them stands in (see `hidden`: leaf commitments, so parts can be published later).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol
from uuid import UUID

from warscribe.engine.codec import frozen

from . import codec, commands, names, rulesets
from .authority import check_authority
from .codec import record
from .common import RECORD
from .dice import (
    Chance,
    Dice,
    Script,
    batch_opener,
    commitment,
    derive,
    output_values,
    parse_mode,
    proved,
    roll_input,
    seeded_key,
)
from .errors import DiceError, IllegalCommand, InvalidCommand, LogError, WarscribeError
from .events import (
    AnswerApplied,
    Command,
    CommandIssued,
    DiceRolled,
    DiceSpec,
    Disclosed,
    Event,
    GameCreated,
    GameForked,
    HostActed,
    KeysRecorded,
    OrdersReceived,
    SecretDraw,
    SecretRevealed,
)
from .hidden import LEAVES, WHOLE, check_disclosure, commit, disclosures, private_names, split
from .ruleset import GameSpec, RuleSet

if TYPE_CHECKING:  # the signed-orders code is imported where orders are read
    from .orders import Answers, Orders

GENESIS = bytes(32)
RECORD_VERSION = 2
"""The record version of the games made now with a dice secret (`GameCreated.record_version`).
A game of a public seed stays at 1: anyone can derive its every roll, so there is no secret
to prove rolls against, and its dice stay what they were (tests and simulations pin them)."""
HEAD_FORMAT = 3
"""The shape of `Head`: a stored snapshot of another shape is never served (rebuilt)."""


@record("warscribe.Entry")
class Entry:
    """One event of a game log at its sequence number, with its chain hash."""

    seq: int
    event: Event
    chain: bytes
    digest: bytes | None = None
    salt: bytes | None = None
    scheme: int = WHOLE


@record("warscribe.Head")
class Head:
    """Where a game's log stands: the fold of its entries.

    `opener` is the chain a roll of the current decision is bound to (see `dice`); while
    `batch` > 0 the next CommandIssued entries are commands of the signed orders just
    received, whose rolls stay bound to the head the orders were received at. `standing`
    holds each player's standing answers, from their last signed orders: (player, entry
    of the orders, answers); `answering` names the player between an AnswerApplied and
    the command it gives for them."""

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
    sealed: tuple[Entry, ...] = ()
    keys: tuple[tuple[str, bytes], ...] = ()
    players: tuple[str, ...] = ()
    batch: int = 0
    host_key: bytes | None = None
    format: int = 0
    standing: tuple[tuple[str, int, Answers], ...] = ()
    answering: str | None = None
    record_version: int = 1
    opened_at: int = 0


class EntryView(Protocol):
    """An entry as `fold` reads it: an `Entry`, or a stored entry the codec peeked at
    (`codec.peek_entry`, a `Peeked`) whose event a fold needs no more of may be left unread
    (an `UnreadCommand` or an `UnreadRoll`, only ever with no hidden part)."""

    @property
    def seq(self) -> int: ...
    @property
    def event(self) -> Event | UnreadCommand | UnreadRoll: ...
    @property
    def chain(self) -> bytes: ...
    @property
    def digest(self) -> bytes | None: ...
    @property
    def salt(self) -> bytes | None: ...
    @property
    def scheme(self) -> int: ...


class UnreadCommand(NamedTuple):
    """A CommandIssued left unread: the record's own events change no rule set's state
    (`rulebook.Evolvers`), and a plain command moves only the head's opener and marks, so
    a replay needs none of it (a third of a log)."""


UNREAD_COMMAND = UnreadCommand()


class UnreadRoll(NamedTuple):
    """A DiceRolled left unread but for its roll number (its `index`): a roll moves only
    the next roll's number in a head (`_step`)."""

    roll: int


class Peeked(NamedTuple):
    """An entry's fields in their order, as the codec peeks them from an entry's bytes: no
    Entry is made unless the fold needs one (a hidden part, or an event of the record's
    own that moves more than the state)."""

    seq: int
    event: Event | UnreadCommand | UnreadRoll
    chain: bytes
    digest: bytes | None
    salt: bytes | None
    scheme: int


def canonical_bytes(entry: Entry) -> bytes:
    """What the chain hashes of an entry: its seq, its event's topic, the event's public
    fields (`hidden.split`'s, in canonical form) and its commitment's digest."""
    event, seq, digest = entry.event, entry.seq, entry.digest
    cls = type(event)
    if type(seq) is not int or not (digest is None or type(digest) is bytes):  # a forgery's
        return codec.encode((seq, codec.topic_of(cls), split(event)[0], digest))
    public = codec.canonical_fields(event, private_names(cls), 1)
    return codec.encode_canonical([seq, codec.topic_of(cls), public, digest])


def next_chain(previous: bytes, entry: Entry) -> bytes:
    import hashlib

    return hashlib.sha256(previous + canonical_bytes(entry)).digest()


def _salt(key: bytes | None, game_id: UUID, seq: int) -> bytes:
    import hashlib
    import hmac

    if key is None:
        return os.urandom(16)
    return hmac.new(key, b"salt" + game_id.bytes + seq.to_bytes(8, "big"), hashlib.sha256).digest()[
        :16
    ]


def make_entry(seq: int, event: Event, previous: bytes, key: bytes | None, game_id: UUID) -> Entry:
    digest = salt = None
    if private_names(type(event)):
        salt = _salt(key, game_id, seq)
        digest = commit(salt, split(event)[1], LEAVES)
    entry = Entry(seq=seq, event=event, chain=b"", digest=digest, salt=salt, scheme=LEAVES)
    return codec.replace(entry, chain=next_chain(previous, entry))


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
    if head is None:
        return _created(entry)
    values = dict(head.__dict__)
    _step(values, entry, rulesets.get(head.ruleset), own_marks=False)
    return _head(values)


def fold(entries: Iterable[EntryView], head: Head | None = None) -> Head:
    """The head after `entries` (from `head`, else from the log's start): `advance` for
    each, with one working copy of the head's fields for the whole run instead of a new
    Head per entry (replay folds thousands)."""
    run = iter(entries)
    if head is None:
        first = next(run, None)
        if first is None:
            raise LogError("the log is empty")
        head = _created(_whole(first))
    values = dict(head.__dict__)
    values["marks"] = dict(head.marks)
    _fold_run(values, run, rulesets.get(head.ruleset))
    return _head(values)


def _fold_run(values: dict[str, Any], run: Iterator[EntryView], ruleset: RuleSet) -> None:
    """Fold `run` into a head's fields (`values`, whose marks are its own). Most entries
    move only the state, the sequence and the chain (kept in locals until a step needs
    them in `values`); a plain command moves the opener and marks the position; a plain
    roll the next roll's number; the rest (a hidden part, another event of the record's
    own) take the whole step of `advance`."""
    evolve, position, marks = ruleset.evolve, ruleset.position, values["marks"]
    seq, chain, state = values["seq"], values["chain"], values["state"]
    for entry in run:
        event = entry.event
        cls = type(event)
        if entry.salt is not None:
            state = _stepped(values, entry, ruleset, (seq, chain, state))
        elif cls not in _NOT_EVOLVED:
            state = evolve(state, event)  # type: ignore[arg-type]
        elif cls is UnreadCommand or cls is CommandIssued:
            _issued(values, entry.chain)
            label = position(state)
            if label is not None and label not in marks:
                marks[label] = seq
        elif cls is UnreadRoll:
            values["dice_next"] = event.roll + 1  # type: ignore[union-attr]
        else:
            state = _stepped(values, entry, ruleset, (seq, chain, state))
        seq, chain = entry.seq, entry.chain
    values["seq"], values["chain"], values["state"] = seq, chain, state


def _stepped(
    values: dict[str, Any], entry: EntryView, ruleset: RuleSet, at: tuple[int, bytes, Any]
) -> Any:
    """`advance`'s whole step of `entry` in a fold's `values`, which first take the fold's
    sequence, chain and state (`at`); the state after it."""
    values["seq"], values["chain"], values["state"] = at
    _step(values, _whole(entry), ruleset, own_marks=True)
    return values["state"]


def _whole(entry: EntryView) -> Entry:
    """The Entry of a view whose event was read (a log must begin with GameCreated)."""
    if type(entry) is Entry:
        return entry
    if type(entry.event) in (UnreadCommand, UnreadRoll):
        raise LogError("a game log must begin with GameCreated", entry.seq)
    return Entry(*entry)  # type: ignore[misc]


def _created(entry: Entry) -> Head:
    event = entry.event
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
        players=event.players,
        host_key=event.host_key,
        format=HEAD_FORMAT,
        record_version=event.record_version,
    )


def _step(values: dict[str, Any], entry: Entry, ruleset: RuleSet, own_marks: bool) -> None:
    """Fold `entry` into `values` (a head's fields), in place; `own_marks`: the marks map
    in `values` is this fold's own, to add to (else it is copied first). Only an entry of
    the classes in `_RECORD_STEPS`, or with a hidden part, changes more than the state, the
    sequence and the chain (`fold` relies on it)."""
    event = entry.event
    cls = type(event)
    if cls is DiceRolled:
        values["dice_next"] = event.index + 1  # type: ignore[attr-defined]
    elif cls is CommandIssued or cls is OrdersReceived or cls is HostActed:
        if cls is CommandIssued:
            _issued(values, entry.chain)
        elif cls is OrdersReceived:
            values["standing"] = _standing(values["standing"], entry.seq, event)
            if event.accepted is not None:  # type: ignore[attr-defined]
                values["batch"] = event.accepted  # type: ignore[attr-defined]
                values["opened_at"] = values["dice_next"]
                values["opener"] = (
                    batch_opener(event.signature)  # type: ignore[attr-defined]
                    if values["record_version"] >= 2
                    else values["chain"]
                )
        label = ruleset.position(values["state"])
        marks = values["marks"]
        if label is not None and label not in marks:
            if not own_marks:
                marks = values["marks"] = dict(marks)
            marks[label] = values["seq"]
    fold_record = _RECORD_FOLDS.get(cls)
    if fold_record is not None:
        values.update(fold_record(values, event))
    if entry.salt is not None and entry.scheme == LEAVES:
        values["sealed"] = (*values["sealed"], entry)
    values["seq"] = entry.seq
    values["chain"] = entry.chain
    values["state"] = ruleset.evolve(values["state"], event)


def _head(values: dict[str, Any]) -> Head:
    """The Head of these fields. Head is frozen: it is made from its fields without
    re-running __init__, which a replay would do once per entry."""
    head: Head = object.__new__(Head)
    object.__setattr__(head, "__dict__", values)
    return head


def opener(head: Head, issued_chain: bytes) -> tuple[bytes, int, int]:
    """(opener, batch, opened_at) once a CommandIssued with chain `issued_chain` follows
    `head`: the value its rolls are bound to, and the roll number it was fixed at (a
    roll's place counts from it, record version 2). A command of signed orders (recorded
    with `accepted`) rolls from its batch's opener, fixed at their OrdersReceived: in
    record version 2 the orders' signature (`dice.batch_opener`), so nothing the host
    records before receiving them changes a roll; in version 1 the head they were received
    at. Either way nothing in the batch's bytes, which the player may vary between tries,
    can be tried against the same dice twice: a variant rolls the same places, and the
    batch is recorded up to its first refusal. A command given by a standing answer
    (after AnswerApplied) rolls from the same opener as the batch it was given in, and
    counts for no command of the batch. Any other command rolls from its own
    CommandIssued (typed at the host's store, one at a time: recorded, or refused with its
    reason withheld once it drew a roll)."""
    return _opener(head.__dict__, issued_chain)


def _issued(head: dict[str, Any], chain: bytes) -> None:
    """A CommandIssued entry (chain hash `chain`) in a head's fields: the opener and batch
    its rolls are bound to (`opener`); no standing answer is being applied any more."""
    head["opener"], head["batch"], head["opened_at"] = _opener(head, chain)
    head["answering"] = None


def _opener(head: dict[str, Any], issued_chain: bytes) -> tuple[bytes, int, int]:
    if head["answering"] is not None:
        return head["opener"], head["batch"], head["opened_at"]
    if head["batch"]:
        return head["opener"], head["batch"] - 1, head["opened_at"]
    return issued_chain, 0, head["dice_next"]


def _standing(
    standing: tuple[tuple[str, int, Answers], ...], seq: int, event: Any
) -> tuple[tuple[str, int, Answers], ...]:
    """The standing answers once `event` (OrdersReceived at `seq`) is folded: the sender's
    are those of these orders, whatever they held before."""
    answers = _answers(event.orders)
    kept = tuple(s for s in standing if s[0] != event.player)
    return (*kept, (event.player, seq, answers)) if answers else kept


@functools.lru_cache(maxsize=16)
def _answers(signed: bytes) -> Answers:
    """The standing answers of the orders of these signed bytes (none if they do not
    decode). Kept for the last few orders: a dry run folds the same orders once a branch."""
    from .orders import Orders, OrdersError  # here: a fold that meets no orders skips it

    try:
        return Orders.decode(signed).answers()
    except OrdersError:  # verify refuses such an entry; the fold never validates
        return ()


def standing_of(head: Head, player: str) -> tuple[int, Answers] | None:
    """(entry of the orders, answers): the standing answers of `player` at `head`."""
    return next(((seq, a) for name, seq, a in head.standing if name == player), None)


def _unsealed(head: dict[str, Any], event: Any) -> dict[str, Any]:
    """A Disclosed entry that opens every leaf of an entry: nothing of it is left to publish."""
    done = event.seq if len(event.openings) == len(event.leaves) else None
    return {"sealed": tuple(e for e in head["sealed"] if e.seq != done)}


_RECORD_FOLDS: dict[type, Callable[[dict[str, Any], Any], dict[str, Any]]] = {
    SecretDraw: lambda head, event: {"dice_next": event.index + 1},
    AnswerApplied: lambda head, event: {"answering": event.player},
    SecretRevealed: lambda head, event: {"secret": event.secret},
    KeysRecorded: lambda head, event: {"keys": event.keys},
    GameForked: lambda head, event: {"game_id": event.game_id},
    Disclosed: _unsealed,
}
"""What the record's own events change in a head's fields (given as a map)."""

_RECORD_STEPS = frozenset((DiceRolled, CommandIssued, OrdersReceived, HostActed, *_RECORD_FOLDS))
_NOT_EVOLVED = frozenset((*_RECORD_STEPS, UnreadCommand, UnreadRoll))
"""What `fold` does not hand straight to the rule set's evolver."""
"""The classes of the entries `_step` does more with than fold their event into the state
(a HostActed, like OrdersReceived, begins a decision: a position is marked before it)."""


def open_game(
    ruleset: RuleSet,
    spec: GameSpec,
    game_id: UUID,
    dice_mode: str,
    key: bytes,
    player_keys: Sequence[tuple[str, bytes]] = (),
    host_key: bytes | None = None,
    record_version: int | None = None,
) -> list[Entry]:
    """The entries that create a game: GameCreated (with the host's public key, when the
    host signs its copies), the players' public keys (when given), then the rule set's
    set-up. `record_version`: `RECORD_VERSION`, or 1 for a game of a public seed."""
    from . import vrf

    mode, seed = parse_mode(dice_mode)
    if record_version is None:
        record_version = 1 if seed else RECORD_VERSION
    public = vrf.public_key(key) if record_version >= 2 else None
    data = ruleset.validate_spec(spec)
    players = tuple(p.name for p in spec.players)
    strangers = [name for name, _ in player_keys if name not in players]
    if strangers:
        raise InvalidCommand(f"a key for {', '.join(strangers)}, who is not a player", "new")
    created = GameCreated(
        game_id=game_id,
        name=spec.name,
        ruleset=ruleset.name,
        players=players,
        dice=DiceSpec(mode=mode, commitment=commitment(key), seed=seed, public=public),
        data=data,
        options=spec.options,
        host_key=host_key,
        record_version=record_version,
    )
    first = make_entry(1, created, GENESIS, key, game_id)
    head = advance(None, first)
    dice = Dice(key=key, game_id=game_id, chain=first.chain, next_index=0, version=record_version)
    keyed: list[Event] = [KeysRecorded(keys=tuple(player_keys))] if player_keys else []
    events = [*keyed, *seal(ruleset.setup(head.state, spec, dice))]
    return [first, *chain_events(1, first.chain, events, key, game_id)]


def seal(events: Sequence[Event]) -> list[Event]:
    """The events with each roll an event declares it conceals made a SecretDraw."""
    out = list(events)
    for i in range(1, len(out)):
        before = out[i - 1]
        if type(out[i]).CONCEALS_ROLL and type(before) is DiceRolled:
            assert isinstance(before, DiceRolled)
            out[i - 1] = SecretDraw(
                index=before.index,
                purpose=before.purpose,
                sides=before.sides,
                values=before.values,
                proof=before.proof,
            )
    return out


def decide(head: Head, command: Command, dice: Dice) -> list[Event]:
    """The events a command decides at `head` (rules, or the record's own commands), with
    concealed rolls sealed and what they make known of earlier hidden parts disclosed.
    Who may give it is checked first, here, for every path a command takes."""
    check_authority(rulesets.get(head.ruleset), head.players, command)
    spec = RECORD.get(command.name)
    if spec is not None:
        events = commands.decision(spec, head.state, command, dice, _applying(head)).events
    else:
        events = rulesets.get(head.ruleset).decide(head.state, command, dice)
    dice.finish()
    events = seal(events)
    sealed = [(e.seq, e.event, e.salt) for e in head.sealed if e.salt is not None]
    for offset, (after, disclosed) in enumerate(disclosures(sealed, events)):
        events.insert(after + 1 + offset, disclosed)
    return events


def _applying(head: Head) -> Callable[[Any, Event], Any]:
    """How a record command's events evolve the state: each must fold into it (a ruling
    imposing events naming no such player fails here)."""
    ruleset = rulesets.get(head.ruleset)

    def apply(state: Any, event: Event) -> Any:
        try:
            return ruleset.evolve(state, event)
        except Exception as exc:
            raise InvalidCommand(
                f"{type(event).__name__} cannot apply to this game: {exc!r}", command_rule(event)
            ) from None

    return apply


def command_rule(event: Event) -> str:
    return event.rule_section() or "warscribe notes and rulings"


def record_command(
    head: Head,
    command: Command,
    key: bytes | None,
    entered: Sequence[int] = (),
    script: Script | None = None,
) -> list[Entry]:
    """Decide `command` at `head`: its CommandIssued entry, then the entries it decides.

    A command the rules refuse after it drew derived dice is refused without its reason:
    the reason could show a roll that is not recorded (rolls at a head are fixed, so the
    player would learn a coming roll and choose what to spend it on). With a `script` (a
    dry run's branch, `dryrun`), the dice are the script's: nothing is derived."""
    issued = make_entry(head.seq + 1, command.issued, head.chain, key, head.game_id)
    by_hand = head.dice.mode == "table"
    if entered and not by_hand:
        raise DiceError(
            f"dice may be entered by hand only in table mode (this game: {head.dice.mode})"
        )
    bound, _, opened_at = opener(head, issued.chain)
    dice = (
        Chance(script, head.game_id, head.dice_next)
        if script is not None
        else Dice(
            key=key if key is not None else head.secret,
            game_id=head.game_id,
            chain=bound,
            next_index=head.dice_next,
            entered=list(entered),
            entered_by=command.actor if by_hand else None,
            version=head.record_version,
            opened_at=opened_at,
        )
    )
    try:
        events = decide(head, command, dice)
    except WarscribeError as exc:
        if not dice.derived:
            raise
        raise IllegalCommand(
            f"`{command.name}` is refused by the rules after drawing {dice.derived} derived "
            "roll(s); the reason is withheld, since it could show a roll nobody has recorded",
            exc.rule,
        ) from None
    return [issued, *chain_events(issued.seq, issued.chain, events, key, head.game_id)]


def keyed(head: Head, player: str) -> bool:
    """Whether `player`'s public key is recorded (`KeysRecorded`): their decisions are their
    signed orders, and a command the host enters in their name is the host's act."""
    return any(name == player for name, _ in head.keys)


def record_typed(
    head: Head,
    command: Command,
    key: bytes | None,
    entered: Sequence[int] = (),
    host_act: str | None = None,
) -> list[Entry]:
    """A command typed at a store, not one of signed orders (see `record_command`). A keyed
    player's is the host's act: `HostActed(player, host_act)` is recorded just before it,
    and without a reason it is refused; `host_act` for anyone else is refused too."""
    actor = command.actor
    if host_act is None and keyed(head, actor):
        raise IllegalCommand(
            f"{actor} has a recorded key: {actor} decides by signed orders (`import-orders`); "
            f"to enter `{command.name}` for {actor} as the host's act, say so and why: "
            f"`--as {actor} --host-act REASON`",
            names.HOST_ACTS,
        )
    if host_act is None:
        return record_command(head, command, key, entered)
    if not keyed(head, actor):
        raise IllegalCommand(
            f"--host-act marks a command entered in a keyed player's name, and {actor} has no "
            "recorded key: give the command without it",
            names.HOST_ACTS,
        )
    act = HostActed(player=actor, reason=names.host_reason(host_act))
    marked = make_entry(head.seq + 1, act, head.chain, key, head.game_id)
    return [marked, *record_command(advance(head, marked), command, key, entered)]


@frozen
class Refused:
    """The commands of a batch of orders that were not recorded, and why: the first of
    them was refused (or must wait for another player's decision)."""

    index: int
    commands: tuple[Command, ...]
    reason: Exception


MOST_ANSWERS = 100
"""The most standing answers one batch of orders gives (a bound: each must move the game)."""


def record_orders(
    head: Head, orders: Orders, signed: bytes, signature: bytes, key: bytes | None
) -> tuple[list[Entry], Refused | None]:
    """A player's signed orders: OrdersReceived, then each of its commands, decided in turn.

    Before each command, and after the last, a decision the rules ask of a player who has
    a standing answer for it (the sender's are the ones of these orders; another player's,
    those of their last orders) is answered from it: AnswerApplied, then the command the
    answer gives (`standing_answer`), unless the sender's next command answers it. The
    batch is recorded up to the first command the rules refuse (or that must wait for a
    decision nobody answered) and the rest is returned with the reason, so every roll a
    player was shown is in the log; the rolls do not depend on the batch's bytes, so a
    variant of a refused batch rolls the same dice (see `opener`)."""
    steps = len(orders.as_commands())
    entries, refused = _batch(head, orders, signed, signature, key, steps)
    if refused is None:
        return entries, None
    if refused.index == 0 and not any(isinstance(e.event, AnswerApplied) for e in entries):
        raise _refusal(refused)
    entries, again = _batch(head, orders, signed, signature, key, refused.index)
    assert again is None
    return entries, refused


def _batch(
    head: Head,
    orders: Orders,
    signed: bytes,
    signature: bytes,
    key: bytes | None,
    accepted: int,
    tolerated: type[Exception] = WarscribeError,
    script: Script | None = None,
) -> tuple[list[Entry], Refused | None]:
    """OrdersReceived with `accepted` commands, then the first `accepted` commands decided
    in turn, up to the first refused one (a `tolerated` error), with the standing answers
    due before each; a `script` gives the dice (a dry run's branch)."""
    commands = orders.as_commands()
    received = OrdersReceived(
        player=orders.player, orders=signed, signature=signature, accepted=accepted
    )
    entries = chain_events(head.seq, head.chain, [received], key, head.game_id)
    head = advance(head, entries[0])
    for index in range(accepted + 1):
        command = commands[index] if index < accepted else None
        head, answered = _answered(head, command, key, script)
        entries += answered
        if command is None:
            break
        try:
            decided = record_command(head, command, key, script=script)
        except tolerated as exc:
            return entries, Refused(index, tuple(commands[index:]), exc)
        head = fold(decided, head)
        entries += decided
    return entries, None


def _answered(
    head: Head, following: Command | None, key: bytes | None, script: Script | None
) -> tuple[Head, list[Entry]]:
    """The standing answers given at `head`, one decision after another, before the
    sender's command `following` (None: after their last): the head after them and
    their entries. An answer the rules refuse leaves the decision asked."""
    entries: list[Entry] = []
    for _ in range(MOST_ANSWERS):
        found = standing_answer(head, following)
        if found is None:
            break
        applied, command = found
        marked = chain_events(head.seq, head.chain, [applied], key, head.game_id)
        try:
            decided = record_command(advance(head, marked[0]), command, key, script=script)
        except WarscribeError:
            break
        head = fold([*marked, *decided], head)
        entries += [*marked, *decided]
    return head, entries


def standing_answer(
    head: Head, following: Command | None = None
) -> tuple[AnswerApplied, Command] | None:
    """The standing answer due at `head`: the player the rules ask a decision of has a
    standing answer for it (and `following`, the sender's next command, does not answer
    it): the AnswerApplied entry and the command it gives. None when no answer is due, or
    the rule set has no standing answers."""
    ruleset = rulesets.get(head.ruleset)
    answer = getattr(ruleset, "standing_answer", None)
    player = ruleset.whose_turn(head.state)
    held = standing_of(head, player) if player is not None else None
    if answer is None or held is None:
        return None
    assert player is not None
    seq, answers = held
    given = answer(head.state, player, answers, following)
    if given is None:
        return None
    line, command = given
    return AnswerApplied(player=player, orders=seq, line=line), command


STATE_NEUTRAL = ("note", "roll")
"""Commands that change nothing orders depend on: a comment, a free roll."""


def stale_reason(start: Head, entries: Iterable[Entry], player: str) -> str | None:
    """Why orders `player` wrote against `start` are stale once `entries` follow it, or
    None while they still hold. They hold when, since `start`, the game is at the same
    position (turn, player turn and phase), nothing was recorded of `player` (no orders
    of theirs, no command they gave or the host entered for them, no standing answer
    given for them), and every other command was a note or a free roll, or was given by
    the player the rules asked to act at that point: another player answering a decision
    asked of them (or the host for that player)."""
    ruleset = rulesets.get(start.ruleset)
    position = ruleset.position(start.state)
    head = start
    by = ""  # "the host for " while a HostActed marks the next command
    for entry in entries:
        event = entry.event
        whose = ruleset.whose_turn(head.state)
        if isinstance(event, OrdersReceived | AnswerApplied) and event.player == player:
            return f"{player}'s own orders or answers were recorded since (#{entry.seq})"
        if isinstance(event, HostActed) and event.player == player:
            return f"the host entered a command for {player} since (#{entry.seq}: {event.reason})"
        if isinstance(event, CommandIssued) and event.name not in STATE_NEUTRAL:
            if event.actor == player:
                return f"{player} gave a command since (#{entry.seq})"
            if event.actor != whose:
                return f"{by}{event.actor} gave `{event.name}` at #{entry.seq}, unasked"
        by = "the host for " if isinstance(event, HostActed) else ""
        head = advance(head, entry)
    if ruleset.position(head.state) != position:
        return f"the game has moved on to {ruleset.position(head.state)}"
    return None


def _refusal(refused: Refused) -> WarscribeError:
    """The first command of a batch refused: its reason, naming the command."""
    command = refused.commands[0]
    reason = refused.reason
    assert isinstance(reason, WarscribeError)
    if isinstance(reason, LogError):
        return reason
    return type(reason)(
        f"command {refused.index + 1} (`{command.name}`) of the orders: {reason.message}",
        reason.rule,
    )


def fork(head: Head, game_id: UUID, name: str, parent: UUID, position: str | None) -> Entry:
    """The entry that turns a copy of `head`'s log into a new game `game_id`."""
    forked = GameForked(
        game_id=game_id, name=name, parent=parent, at_seq=head.seq, at_position=position
    )
    return make_entry(head.seq + 1, forked, head.chain, None, game_id)


def reveal(head: Head, key: bytes) -> list[Entry]:
    """Publish the dice secret so anyone can check every roll."""
    if commitment(key) != head.dice.commitment:
        raise DiceError("this secret does not match the game's dice commitment")
    return chain_events(head.seq, head.chain, [SecretRevealed(secret=key)], key, head.game_id)


class Verification:
    """What `verify` found: entries checked, rolls re-derived, and whether dice are
    checkable (its counters in this order are `verify --json`'s); `host_entered`: by
    player, the commands entered in a keyed player's name by the host (marked `HostActed`,
    or, in a log of record version 1, none of their signed orders nor standing answers).
    A plain class: every call imports this module, few verify (issue 14)."""

    def __init__(self) -> None:
        self.entries = 0
        self.rolls = 0
        self.rolls_checked = 0
        self.rolls_entered = 0
        self.private_checked = 0
        self.dice_mode = ""
        self.secret_known = False
        self.disclosures_checked = 0
        self.orders_checked = 0
        self.host_entered: dict[str, int] = {}


Lookup = Callable[[int], "Entry | None"]


def verify(
    entries: Iterable[Entry],
    *,
    base: Head | None = None,
    created: GameCreated | None = None,
    key: bytes | None = None,
    earlier: Lookup | None = None,
) -> Verification:
    """Check a run of entries; raise LogError naming the first bad sequence number.

    Checks contiguous numbering, every chain hash, every private part present against its
    commitment, every disclosure against the commitment it opens, every signed order
    against the player's recorded key (and the commands after it against the order), roll
    numbering, and every derived roll once the dice secret is known (seeded games, a
    SecretRevealed entry, or `key`). A run that continues a log starts from `base`, the
    head before it; `earlier` looks up entries before the run (for disclosures).

    Without `key`, the run is read twice (a secret revealed at its end checks the rolls
    before it): a one-pass iterator is held whole for that, a log that can be read again
    (a list, a store's `StoredLog`) is not. The checks keep the newest `WINDOW` entries'
    chain hashes and commitments, and look older ones up (`earlier`, or the run itself
    when it is a list), so a long run is checked in bounded memory.
    """
    if iter(entries) is entries:
        entries = list(entries)
    lookup = _run_lookup(entries, earlier) if isinstance(entries, Sequence) else earlier
    checker = _Checker(base, created, key or _revealed_key(entries, created), lookup)
    for entry in entries:
        checker.check(entry)
    if checker.acting is not None:
        raise LogError(
            f"the host's act for {checker.acting} has no command after it", checker.expected - 1
        )
    checker.report.secret_known = checker.key is not None
    return checker.report


WINDOW = 4096
"""Entries whose chain hash and commitment `verify` keeps at hand (older: looked up)."""


def _run_lookup(run: Sequence[Entry], earlier: Lookup | None) -> Lookup:
    """Look an entry up in `run` (a contiguous run), else with `earlier`."""
    first = run[0].seq if run else 1

    def lookup(seq: int) -> Entry | None:
        if 0 <= seq - first < len(run) and run[seq - first].seq == seq:
            return run[seq - first]
        return earlier(seq) if earlier is not None else None

    return lookup


class _Checker:
    """The running checks of `verify`, entry by entry."""

    def __init__(
        self,
        base: Head | None,
        created: GameCreated | None,
        key: bytes | None,
        earlier: Lookup | None,
    ) -> None:
        self.report = Verification()
        self.key = key
        self.earlier = earlier
        self.expected = base.seq + 1 if base else 1
        self.chain = base.chain if base else GENESIS
        self.dice_next = base.dice_next if base else 0
        self.opener: bytes | None = base.opener if base else None
        self.opened_at = base.opened_at if base else 0
        self.version = base.record_version if base else 1
        self.batch = base.batch if base else 0
        self.anchored = bool(self.batch)
        self.game_id: UUID | None = base.game_id if base else None
        self.keys: dict[str, bytes] = dict(base.keys) if base else {}
        self.digests: dict[int, bytes] = {}
        self.pending: list[Command] = []
        if base is not None and self.batch and earlier is not None:
            self.pending = _still_to_come(base, earlier)
        self.standing = {
            p: (seq, {line for line, _ in a}) for p, seq, a in (base.standing if base else ())
        }
        self.answering: str | None = base.answering if base else None
        self.acting: str | None = None  # the player a HostActed just marked the command of
        self.version = base.record_version if base else 1
        self.chains: dict[int, bytes] = {base.seq: base.chain} if base else {}
        self.last_of: dict[str, int] = {}
        self.created: GameCreated | None = None
        if created is not None:
            self._created(created, 1)
            self.game_id = base.game_id if base else created.game_id

    def _created(self, created: GameCreated, seq: int) -> None:
        self.created = created
        self.game_id = created.game_id
        self.key = self.key or _known_key(created)
        self.version = created.record_version
        self.report.dice_mode = created.dice.mode
        if created.host_key is not None and (
            type(created.host_key) is not bytes or len(created.host_key) != 32
        ):
            raise LogError("the host's key is not a 32-byte Ed25519 public key", seq)
        if self.key is not None and commitment(self.key) != created.dice.commitment:
            raise LogError("the dice secret does not match the game's dice commitment", seq)
        _check_dice_key(created, self.key, seq)

    def check(self, entry: Entry) -> None:
        seq = entry.seq
        if seq != self.expected:
            raise LogError(f"expected entry #{self.expected} here, found #{seq}", self.expected)
        if next_chain(self.chain, entry) != entry.chain:
            raise LogError(
                "chain hash does not match the entry (edited, inserted or reordered)", seq
            )
        self._private(entry)
        event = entry.event
        if isinstance(event, GameCreated):
            if seq != 1:
                raise LogError("GameCreated may only open a log", seq)
            self._created(event, seq)
            self.opener = entry.chain
            self.opened_at = 0
        elif self.created is None:
            raise LogError("the log does not start with its GameCreated entry", seq)
        elif self.acting is not None and type(event) is not CommandIssued:
            raise LogError(
                f"the host's act for {self.acting} is not followed by the command it marks", seq
            )
        else:
            handler = _CHECKS.get(type(event))
            if handler is not None:
                handler(self, entry)
        self.chain = entry.chain
        self.chains[seq] = entry.chain
        self.chains.pop(seq - WINDOW, None)
        self.digests.pop(seq - WINDOW, None)
        self.expected += 1
        self.report.entries += 1

    def _private(self, entry: Entry) -> None:
        """A hidden part is taken only with its opening (the salt): a value without one
        could be anything, so it is refused, never stored as fact."""
        if not private_names(type(entry.event)):
            if entry.digest is not None or entry.salt is not None:
                raise LogError("an entry that hides nothing carries a commitment", entry.seq)
            return
        if entry.digest is None:
            raise LogError("an entry with a hidden part lacks its commitment", entry.seq)
        self.digests[entry.seq] = entry.digest
        private = split(entry.event)[1]
        if entry.salt is None:
            given = [name for name, value in private.items() if value is not None]
            if given:
                raise LogError(
                    f"hidden {', '.join(given)} given without its opening (no salt): it "
                    "cannot be checked against its commitment",
                    entry.seq,
                )
            return
        if commit(entry.salt, private, entry.scheme) != entry.digest:
            raise LogError("hidden part does not match its commitment", entry.seq)
        self.report.private_checked += 1

    def command(self, entry: Entry) -> None:
        actor = entry.event.actor  # type: ignore[attr-defined]
        self.last_of[actor] = entry.seq
        if self.answering is not None:
            if actor != self.answering:
                raise LogError(
                    f"a standing answer of {self.answering} is given as {actor}'s command",
                    entry.seq,
                )
            self.answering = None
            return
        if not (self.batch and self.anchored):
            self.opener = entry.chain
            self.opened_at = self.dice_next
        if self.acting is not None:
            if actor != self.acting:
                raise LogError(
                    f"the host's act for {self.acting} marks a command of {actor}'s", entry.seq
                )
            self.acting = None
            self._entered_by_host(actor)
            return
        if not self.batch:
            if actor in self.keys:
                self._unsigned(entry, actor)
            return
        self.batch -= 1
        if not self.pending:  # inside a batch whose orders this run cannot look up
            return
        ordered = self.pending.pop(0)
        if ordered.issued != entry.event:
            raise LogError(
                f"this command is not the one {ordered.actor}'s signed orders give", entry.seq
            )

    def _unsigned(self, entry: Entry, actor: str) -> None:
        """A keyed player's command none of their signed orders nor standing answers give,
        and no HostActed marks: refused in a game of record version 2, counted as the
        host's in an older log (before host acts were marked, the host entered them so)."""
        if self.version < 2:
            self._entered_by_host(actor)
            return
        name = entry.event.name  # type: ignore[attr-defined]
        raise LogError(
            f"`{name}` is recorded as {actor}'s command, but {actor} has a recorded key and "
            f"it is none of {actor}'s signed orders, no standing answer of theirs, and not "
            "marked as the host's act: a decision put in a player's mouth",
            entry.seq,
        )

    def _entered_by_host(self, player: str) -> None:
        counts = self.report.host_entered
        counts[player] = counts.get(player, 0) + 1

    def host_acted(self, entry: Entry) -> None:
        """A host's act marks the next command, a player's, outside signed orders, with a
        reason a host could have typed."""
        event = entry.event
        assert isinstance(event, HostActed) and self.created is not None
        if self.batch or self.answering is not None:
            raise LogError("a host's act inside signed orders or a standing answer", entry.seq)
        if event.player not in self.created.players:
            raise LogError(f"a host's act for {event.player}, who is no player here", entry.seq)
        try:
            kept = names.host_reason(event.reason)
        except WarscribeError as exc:
            raise LogError(exc.message, entry.seq) from None
        if kept != event.reason:
            raise LogError("the reason of the host's act is not as the host types it", entry.seq)
        self.acting = event.player

    def revealed(self, entry: Entry) -> None:
        event = entry.event
        assert isinstance(event, SecretRevealed) and self.created is not None
        if commitment(event.secret) != self.created.dice.commitment:
            raise LogError("the revealed secret does not match the dice commitment", entry.seq)
        self.key = event.secret

    def roll(self, entry: Entry) -> None:
        event = entry.event
        assert isinstance(event, DiceRolled)
        expected: tuple[int, ...] | None
        if self.version >= 2 and event.entered_by is None:
            expected = self.proved(event, event.proof, entry.seq)
        else:
            if event.proof is not None:
                raise LogError("a roll carries a proof its game does not use", entry.seq)
            expected = self.derived(event.index, event.sides)
        _check_roll(event, entry.seq, self.dice_next, expected, self.report, self.version)
        self.dice_next += 1

    def derived(self, index: int, sides: tuple[int, ...]) -> tuple[int, ...] | None:
        """The values of roll `index` as the dice secret gives them (None: secret unknown;
        record version 1)."""
        if self.key is None or self.game_id is None or self.opener is None:
            return None
        return derive(self.key, self.game_id, index, self.opener, sides)

    def _input(self, index: int) -> bytes:
        """The ECVRF input of roll `index` (record version 2)."""
        assert self.game_id is not None and self.opener is not None
        return roll_input(self.game_id, self.opener, index - self.opened_at)

    def proved(self, event: DiceRolled | SecretDraw, proof: Any, seq: int) -> tuple[int, ...]:
        """The values the proof of roll `event` gives, once it checks against the host's
        public dice key (record version 2); LogError otherwise."""
        from . import vrf

        assert self.created is not None and self.created.dice.public is not None
        if proof is None:
            raise LogError(f"roll {event.index} ({event.purpose}) lacks its proof", seq)
        try:
            beta = vrf.verify(self.created.dice.public, self._input(event.index), proof)
        except vrf.VrfError:
            raise LogError(
                f"roll {event.index} ({event.purpose}): its proof does not check against "
                "the host's dice key (a roll nobody can have made from this input)",
                seq,
            ) from None
        return output_values(beta, event.sides)

    def secret_draw(self, entry: Entry) -> None:
        event = entry.event
        assert isinstance(event, SecretDraw)
        self.report.rolls += 1
        if event.index != self.dice_next:
            raise LogError(
                f"roll number {event.index} out of order (expected {self.dice_next})", entry.seq
            )
        self.dice_next += 1
        if event.values is not None and self.version >= 2:
            matches = self.proved(event, event.proof, entry.seq) == event.values
        elif event.values is not None:
            values = self.derived(event.index, event.sides)
            if values is None:
                return
            matches = values == event.values
        elif self.key is None or self.game_id is None:
            return
        else:
            matches = (
                commit(
                    _salt(self.key, self.game_id, entry.seq),
                    self._hidden_draw(event),
                    entry.scheme,
                )
                == entry.digest
            )
        if not matches:
            raise LogError(
                f"roll {event.index} ({event.purpose}) does not match the dice secret", entry.seq
            )
        self.report.rolls_checked += 1

    def _hidden_draw(self, event: SecretDraw) -> dict[str, Any]:
        """The private part of a roll whose numbers this copy lacks, made again with the
        dice secret: its numbers (and, in record version 2, its proof)."""
        assert self.key is not None
        if self.version < 2:
            return {"values": self.derived(event.index, event.sides)}
        values, proof = proved(self.key, self._input(event.index), event.sides)
        return {"values": values, "proof": proof}

    def disclosed(self, entry: Entry) -> None:
        event = entry.event
        assert isinstance(event, Disclosed)
        digest = self.digests.get(event.seq)
        if digest is None and self.earlier is not None and event.seq < entry.seq:
            found = self.earlier(event.seq)
            digest = found.digest if found else None
        check_disclosure(event, digest, entry.seq)
        self.report.disclosures_checked += 1

    def keyed(self, entry: Entry) -> None:
        event = entry.event
        assert isinstance(event, KeysRecorded)
        self.keys.update(event.keys)

    def orders(self, entry: Entry) -> None:
        event = entry.event
        from .orders import Orders, signature_ok

        assert isinstance(event, OrdersReceived)
        key = self.keys.get(event.player)
        if key is None or not signature_ok(key, event.orders, event.signature):
            raise LogError(
                f"the orders are not signed with {event.player}'s recorded key", entry.seq
            )
        orders = Orders.decode(event.orders)
        if orders.player != event.player or orders.game_id != self.game_id:
            raise LogError("the signed orders are another player's or another game's", entry.seq)
        if self.batch:
            raise LogError("the commands of the orders before these are missing", entry.seq)
        commands = orders.as_commands()
        answers = orders.answers()
        accepted = event.accepted
        self.anchored = accepted is not None
        if accepted is not None:
            least = 0 if answers else 1
            if type(accepted) is not int or not least <= accepted <= len(commands):
                raise LogError(
                    "the orders entry does not say how many of their commands follow", entry.seq
                )
            self._written_against(orders, entry.seq)
            commands = commands[:accepted]
            self.opener = batch_opener(event.signature) if self.version >= 2 else self.chain
            self.opened_at = self.dice_next
        self.standing[event.player] = (entry.seq, {line for line, _ in answers})
        self.last_of[event.player] = entry.seq
        self.pending = commands
        self.batch = len(commands)
        self.report.orders_checked += 1

    def _written_against(self, orders: Orders, seq: int) -> None:
        """Orders are written against an entry of this log before them, and after the
        sender's own last entry (the stale-orders rule; `store.orders` checks the rest)."""
        named = self.chains.get(orders.seq)
        if named is None and self.earlier is not None and 0 < orders.seq < seq:
            found = self.earlier(orders.seq)
            named = found.chain if found else None
        if not 0 < orders.seq < seq or named not in (None, orders.chain):
            raise LogError("the orders were not written against an entry before them", seq)
        if self.last_of.get(orders.player, 0) > orders.seq:
            raise LogError(
                f"stale orders: {orders.player} gave a command or orders after the entry "
                f"#{orders.seq} they were written against",
                seq,
            )

    def answer(self, entry: Entry) -> None:
        """A standing answer names a standing-answer line of the player's last orders."""
        event = entry.event
        assert isinstance(event, AnswerApplied)
        held = self.standing.get(event.player)
        if held is None or held[0] != event.orders or event.line not in held[1]:
            raise LogError(
                f"no standing answer of {event.player} on line {event.line + 1} of their "
                f"last orders (#{event.orders}): an answer nobody signed",
                entry.seq,
            )
        self.answering = event.player
        self.last_of[event.player] = entry.seq

    def forked(self, entry: Entry) -> None:
        event = entry.event
        assert isinstance(event, GameForked)
        self.game_id = event.game_id
        self.pending = []
        self.batch = 0


_CHECKS: dict[type, Callable[[_Checker, Entry], None]] = {
    CommandIssued: _Checker.command,
    SecretRevealed: _Checker.revealed,
    DiceRolled: _Checker.roll,
    SecretDraw: _Checker.secret_draw,
    Disclosed: _Checker.disclosed,
    KeysRecorded: _Checker.keyed,
    OrdersReceived: _Checker.orders,
    AnswerApplied: _Checker.answer,
    GameForked: _Checker.forked,
    HostActed: _Checker.host_acted,
}


def _still_to_come(base: Head, earlier: Lookup) -> list[Command]:
    """The signed commands of the batch `base` stands inside that are still to come:
    found by walking back from `base` to the batch's OrdersReceived."""
    issued = 0
    seq = base.seq
    while seq > 0:
        entry = earlier(seq)
        if entry is None:
            return []
        event = entry.event
        if isinstance(event, OrdersReceived):
            from .orders import Orders

            orders = Orders.decode(event.orders).as_commands()
            return orders[issued : event.accepted or len(orders)]
        issued += isinstance(event, CommandIssued)
        issued -= isinstance(event, AnswerApplied)  # the command after it is not the batch's
        seq -= 1
    return []


def _revealed_key(entries: Iterable[Entry], created: GameCreated | None) -> bytes | None:
    """A revealed secret that matches the commitment: it checks rolls made before it too."""
    for entry in entries:
        event = entry.event
        if created is None:
            if not isinstance(event, GameCreated):
                return None
            created = event
        if (
            isinstance(event, SecretRevealed)
            and commitment(event.secret) == created.dice.commitment
        ):
            return event.secret
    return None


def _check_dice_key(created: GameCreated, key: bytes | None, seq: int) -> None:
    """The host's public dice key of a game of record version 2 is fit to prove rolls
    against (a point of the prime-order subgroup: then each roll has one output, whoever
    made the key) and, when the secret is known, is the secret's."""
    from . import vrf

    version = created.record_version
    if type(version) is not int or version not in (1, RECORD_VERSION):
        raise LogError(f"record version {version!r} is not one this warscribe knows", seq)
    public = created.dice.public
    if version < 2:
        if public is not None:
            raise LogError("a public dice key in a game whose rolls carry no proofs", seq)
        return
    problem = vrf.key_problem(public) if public is not None else "there is none"
    if problem is not None:
        raise LogError(f"the host's public dice key is unfit: {problem}", seq)
    if key is not None and vrf.public_key(key) != public:
        raise LogError("the public dice key is not the dice secret's", seq)


def _known_key(created: GameCreated) -> bytes | None:
    if created.dice.seed:
        return seeded_key(created.dice.seed)
    return None


def _check_roll(
    event: DiceRolled,
    seq: int,
    expected_index: int,
    derived: tuple[int, ...] | None,
    report: Verification,
    version: int,
) -> None:
    report.rolls += 1
    if event.index != expected_index:
        raise LogError(f"roll number {event.index} out of order (expected {expected_index})", seq)
    if len(event.values) != len(event.sides) or any(
        not 1 <= v <= s for v, s in zip(event.values, event.sides, strict=False)
    ):
        raise LogError("a die shows a value outside its faces", seq)
    if event.entered_by is not None:
        if report.dice_mode != "table":
            raise LogError("dice entered by hand in a game that does not use table dice", seq)
        report.rolls_entered += 1
        return
    if derived is None:
        return
    if derived != event.values:
        source = "its proof" if version >= 2 else "the dice secret"
        raise LogError(f"roll {event.index} ({event.purpose}) does not match {source}", seq)
    report.rolls_checked += 1
