"""The audit: every recorded command re-decided by the rules, compared with the record.

`verify` proves a log is the one that was sent; the audit proves its outcomes are the
rules' outcomes. For each CommandIssued in the range, the state is rebuilt from the
recorded entries before it, the command is decided again with a dice source that returns
the rolls the record holds (in order), and the events the rules give are compared with
the events recorded after it. A hand-edited outcome with a rebuilt chain verifies, but
the audit finds it here.

Each finding is one of:

* `difference`: the rules give another outcome, or refuse the command (with their rule);
* `ruling`: a referee's ruling, or a difference in entries a ruling is about;
* `hidden`: the decision depends on hidden information this copy of the log lacks (a
  player's redacted copy); the referee's full copy settles it. Only a decision that
  touches hidden information can be `hidden`: one whose recorded entries carry a hidden
  part or publish one, whose rolls this copy cannot see, or whose rules read a value this
  copy lacks (they raise HiddenInformation: a face-down personality card). Any other difference in a
  redacted copy contradicts public information and is a `difference` like any other.

Disclosures are proofs the record adds (`verify` checks them); they are not compared. A
command the host entered in a player's name (after a `HostActed`) is re-decided like any
other and listed apart (`AuditReport.host_acts`), its findings naming the host's act.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from warscribe.engine.codec import frozen

from . import rulesets
from .dice import Dice
from .errors import DiceError, HiddenInformation, WarscribeError, hidden_strictly
from .events import (
    AnswerApplied,
    Command,
    CommandIssued,
    DiceRolled,
    Disclosed,
    Event,
    GameForked,
    HostActed,
    KeysRecorded,
    Note,
    OrdersReceived,
    SecretDraw,
    SecretRevealed,
)
from .hidden import split
from .record import Entry, Head, advance, decide, standing_answer

DIFFERENCE, RULING, HIDDEN = "difference", "ruling", "hidden"
_BOUNDARIES = (
    CommandIssued,
    OrdersReceived,
    AnswerApplied,
    SecretRevealed,
    GameForked,
    KeysRecorded,
    HostActed,
)
STANDING = "Play by email › standing answers"


@frozen
class Finding:
    """What the audit found at entry `seq` of the command issued at `command_seq`."""

    kind: str
    seq: int
    command_seq: int
    command: Command
    rule: str
    recorded: Event | None = None
    expected: Event | None = None
    refusal: str | None = None
    ruling: Note | None = None
    ruling_seq: int | None = None
    acted: HostActed | None = None
    """The host's act marking the command: the host entered it for the player."""

    def fields(self) -> list[tuple[str, Any, Any]]:
        """(field, recorded, rules give) of each field that differs, when the record and
        the rules give an event of the same kind."""
        recorded, expected = self.recorded, self.expected
        if recorded is None or expected is None or type(recorded) is not type(expected):
            return []
        mine, rules = vars(recorded), vars(expected)
        return [(name, mine[name], rules[name]) for name in mine if mine[name] != rules[name]]


@dataclass
class AuditReport:
    """Decisions re-decided, and what was found; `host_acts`: the commands re-decided that
    the host entered in a player's name, each (its entry, the command, the host's act)."""

    decisions: int = 0
    complete: bool = True
    findings: list[Finding] = field(default_factory=list)
    host_acts: list[tuple[int, CommandIssued, HostActed]] = field(default_factory=list)

    @property
    def differences(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == DIFFERENCE]


class _Unknowable(DiceError):
    """A recorded roll whose numbers this copy does not hold."""


class _OffRecord(DiceError):
    """The rules ask for a roll the record does not have (or of other dice)."""


class RecordedDice(Dice):
    """A dice source that returns the rolls a decision recorded, in order."""

    def __init__(self, rolls: Sequence[Event], head: Head, chain: bytes) -> None:
        super().__init__(key=None, game_id=head.game_id, chain=chain, next_index=head.dice_next)
        self.rolls = list(rolls)

    def _draw(self, purpose: str, sides: tuple[int, ...], by_hand: bool) -> DiceRolled:
        if not self.rolls:
            raise _OffRecord(f"the rules roll {len(sides)} more dice ({purpose}) than recorded")
        recorded = self.rolls.pop(0)
        assert isinstance(recorded, DiceRolled | SecretDraw)
        if recorded.values is None:
            raise _Unknowable(f"{recorded.purpose}: the numbers are hidden in this copy")
        if len(recorded.values) != len(sides) or any(
            not 1 <= v <= s for v, s in zip(recorded.values, sides, strict=True)
        ):
            raise _OffRecord(
                f"the rules roll {len(sides)} dice for {purpose}; the record has "
                f"{len(recorded.values)} for {recorded.purpose}"
            )
        entered_by = recorded.entered_by if isinstance(recorded, DiceRolled) else None
        index = self.next_index
        self.next_index += 1
        return DiceRolled(index, purpose, sides, recorded.values, entered_by, recorded.proof)

    def finish(self) -> None:
        """Unused recorded rolls show up in the comparison, not here."""


def audit(
    entries: Iterable[Entry],
    *,
    first: int = 1,
    last: int | None = None,
    turn: int | None = None,
    base: Head | None = None,
) -> AuditReport:
    """Re-decide every command issued in `first`..`last` (and game turn `turn`, if given).

    `entries` is the log from #1, or, with `base` (the head of the entries before them), a
    run continuing it: the run is then audited from that head instead of from a fold of
    the whole log, and only the rulings and hidden parts of the run are seen (so a run
    finds at least every difference the whole log would; see `store.app._redecide`).

    The log is read twice: once for its rulings (a later ruling excuses an earlier
    decision) and whether it holds every hidden part, then to re-decide one decision at a
    time. A one-pass iterator is held whole for that; a log that can be read again (a
    list, a store's `StoredLog`) is not, so a long log is audited in bounded memory."""
    if iter(entries) is entries:
        entries = list(entries)
    auditor = _Auditor(_Range(first, last, turn), base)
    for e in entries:
        auditor.survey(e)
    for entry in entries:
        auditor.feed(entry)
    return auditor.finish()


@frozen
class _Range:
    """The entries audited: `first`..`last`, and of game turn `turn` when given."""

    first: int
    last: int | None
    turn: int | None

    def holds(self, head: Head, seq: int) -> bool:
        if seq < self.first or (self.last is not None and seq > self.last):
            return False
        if self.turn is None:
            return True
        label = rulesets.get(head.ruleset).position(head.state) or ""
        return label.partition(".")[0] == str(self.turn)


class _Auditor:
    """One walk of the log: each decision gathered (its CommandIssued and the entries it
    recorded), then re-decided from the head before it."""

    def __init__(self, span: _Range, base: Head | None) -> None:
        self.span = span
        self.report = AuditReport()
        self.rulings: list[tuple[int, Note]] = []
        self.head: Head | None = base
        self.answered: tuple[Head, Entry] | None = None  # the head before an AnswerApplied
        self.acted: HostActed | None = None  # the HostActed just before, marking the next
        self.decision: list[Entry] = []  # a CommandIssued and the entries it recorded so far
        self.returned: Entry | None = None  # the OrdersReceived of a batch recorded in part

    def survey(self, entry: Entry) -> None:
        """The first reading: whether this copy holds every hidden part, and the rulings."""
        if entry.digest is not None and entry.salt is None:
            self.report.complete = False
        if isinstance(entry.event, Note) and entry.event.ruling:
            self.rulings.append((entry.seq, entry.event))

    def feed(self, entry: Entry) -> None:
        if self.decision:
            if not isinstance(entry.event, _BOUNDARIES):
                self.decision.append(entry)
                return
            self._redecide()
        if self.returned is not None:
            self._check_returned(answer=isinstance(entry.event, AnswerApplied))
        if isinstance(entry.event, OrdersReceived):
            self.returned = entry if _returns_some(self.head, entry.event) else None
        if self.head is None or not isinstance(entry.event, CommandIssued):
            if self.head is not None and isinstance(entry.event, AnswerApplied):
                self.answered = (self.head, entry)
            self.acted = entry.event if isinstance(entry.event, HostActed) else None
            self.head = advance(self.head, entry)
            return
        if self.answered is not None and self.answered[1].seq == entry.seq - 1:
            self.report.findings += _audit_answer(*self.answered, entry)
        self.answered = None
        self.decision = [entry]

    def finish(self) -> AuditReport:
        if self.decision:
            self._redecide()
        if self.returned is not None:
            self._check_returned()
        return self.report

    def _check_returned(self, answer: bool = False) -> None:
        """A batch recorded in part, once its last entry is past (`_audit_returned`); not
        when a standing answer follows it (the batch ended on an answer, not a refusal)."""
        head, returned = self.head, self.returned
        if head is not None and returned is not None and not head.batch:
            if not answer and self.span.holds(head, returned.seq):
                self.report.findings += _audit_returned(head, returned)
            self.returned = None

    def _redecide(self) -> None:
        """Re-decide the decision gathered (`acted`: the host's act marking it) when it is
        in range, adding to the report; the head moves past it."""
        head, decision, acted, report = self.head, self.decision, self.acted, self.report
        assert head is not None
        issued = decision[0]
        if self.span.holds(head, issued.seq):
            report.decisions += 1
            found = _audit_decision(head, issued, decision[1:], report, self.rulings)
            report.findings += [_with(f, acted=acted) for f in found] if acted else found
            if acted is not None:
                assert isinstance(issued.event, CommandIssued)
                report.host_acts.append((issued.seq, issued.event, acted))
        for decided in decision:
            head = advance(head, decided)
        self.head, self.decision, self.acted = head, [], None


def _returns_some(head: Head | None, received: OrdersReceived) -> bool:
    """Whether a batch of signed orders was recorded in part, in a game of record version
    2 (earlier referees' reasons to return a command are not re-checked)."""
    from .orders import Orders, OrdersError

    if head is None or head.record_version < 2 or received.accepted is None:
        return False
    try:
        return received.accepted < len(Orders.decode(received.orders).as_commands())
    except OrdersError:
        return False  # verify refuses such an entry


def _audit_returned(head: Head, received: Entry) -> list[Finding]:
    """The first command the referee returned of a batch recorded in part must be one the
    rules refuse where the batch stopped (`record.record_orders`: recorded up to the first
    command refused): a referee who returns a command the rules take makes the player sign
    it again, and so roll it anew. Decided with no dice: a command that rolls before it is
    refused cannot be told apart here, nor one that reads what this copy does not hold,
    and neither is reported; the batch ended on no standing answer (an answer due at the
    end may differ from the one due before the returned command)."""
    from .orders import Orders

    event = received.event
    assert isinstance(event, OrdersReceived) and event.accepted is not None
    command = Orders.decode(event.orders).as_commands()[event.accepted]
    dice = Dice(key=None, game_id=head.game_id, chain=bytes(32), next_index=head.dice_next)
    try:
        with hidden_strictly():
            decide(head, command, dice)
    except WarscribeError:
        return []
    return [
        Finding(
            DIFFERENCE,
            received.seq,
            received.seq,
            command,
            _command_rule(head, command),
            refusal=(
                f"the referee returned command {event.accepted + 1} (`{command.name}`) of "
                f"{event.player}'s orders (#{received.seq}), which the rules accept where "
                "the batch stopped: a batch is recorded up to the first command the rules "
                "refuse"
            ),
        )
    ]


def _audit_answer(head: Head, applied: Entry, issued: Entry) -> list[Finding]:
    """A command given by a standing answer must be the one the signed answer gives at
    the position it was given in (`record.standing_answer`): a referee cannot make up an
    answer, nor give one where the player's answers give none."""
    event = issued.event
    assert isinstance(event, CommandIssued)
    command = Command(event.actor, event.name, event.args)
    due = standing_answer(head)
    if due is not None and due[0] == applied.event and due[1].issued == event:
        return []
    return [
        Finding(
            DIFFERENCE,
            issued.seq,
            issued.seq,
            command,
            STANDING,
            recorded=event,
            expected=due[1].issued if due is not None else None,
            refusal=None if due is not None else "the standing answers give no answer here",
        )
    ]


def _audit_decision(
    head: Head,
    issued: Entry,
    recorded: Sequence[Entry],
    report: AuditReport,
    rulings: Sequence[tuple[int, Note]],
) -> list[Finding]:
    event = issued.event
    assert isinstance(event, CommandIssued)
    command = Command(event.actor, event.name, event.args)
    base = Finding(DIFFERENCE, issued.seq, issued.seq, command, _command_rule(head, command))
    found = _compare(head, issued, recorded, base, report.complete)
    last = recorded[-1].seq if recorded else issued.seq
    ruling = next(
        (
            (s, n)
            for s, n in rulings
            if n.first <= last and issued.seq <= n.last and s != issued.seq
        ),
        None,
    )
    if command.name == "ruling" and not any(f.refusal for f in found):
        note = recorded[0].event if recorded else None
        ruled = note if isinstance(note, Note) else None
        found = [
            _with(base, kind=RULING, rule="referee's ruling", ruling=ruled, ruling_seq=issued.seq)
        ]
    elif found and ruling is not None:
        found = [_with(f, kind=RULING, ruling=ruling[1], ruling_seq=ruling[0]) for f in found]
    elif found and not report.complete and _touches_hidden(recorded):
        found = [_with(f, kind=HIDDEN) for f in found]
    return found


def _touches_hidden(recorded: Sequence[Entry]) -> bool:
    """Whether a decision's recorded entries hide a part or publish one."""
    return any(e.digest is not None or isinstance(e.event, Disclosed) for e in recorded)


def _with(finding: Finding, **changes: Any) -> Finding:
    return replace(finding, **changes)


def _compare(
    head: Head, issued: Entry, recorded: Sequence[Entry], base: Finding, complete: bool
) -> list[Finding]:
    rolls = [e.event for e in recorded if isinstance(e.event, DiceRolled | SecretDraw)]
    dice = RecordedDice(rolls, head, issued.chain)
    try:
        with hidden_strictly():
            decided = decide(head, base.command, dice)
    except _Unknowable as exc:
        return [_with(base, kind=HIDDEN, refusal=exc.message)]
    except HiddenInformation as exc:
        kind = DIFFERENCE if complete else HIDDEN
        return [_with(base, kind=kind, refusal=exc.message)]
    except WarscribeError as exc:
        return [_with(base, rule=exc.rule or base.rule, refusal=exc.message)]
    kept = [e for e in recorded if not isinstance(e.event, Disclosed)]
    expected = [e for e in decided if not isinstance(e, Disclosed)]
    findings = []
    for k in range(max(len(kept), len(expected))):
        mine = kept[k].event if k < len(kept) else None
        rules = expected[k] if k < len(expected) else None
        if not _same(mine, rules, complete):
            seq = kept[k].seq if k < len(kept) else (recorded[-1].seq if recorded else issued.seq)
            rule = _event_rule(mine, rules) or base.rule
            findings.append(_with(base, seq=seq, rule=rule, recorded=mine, expected=rules))
    return findings


def _same(recorded: Event | None, expected: Event | None, complete: bool) -> bool:
    recorded = recorded.upcast() if recorded is not None else None
    if recorded is None or expected is None or type(recorded) is not type(expected):
        return False
    if complete:
        return recorded == expected
    return split(recorded)[0] == split(expected)[0]


def _event_rule(*events: Event | None) -> str | None:
    for event in events:
        if event is not None and event.rule_section():
            return event.rule_section()
    return None


def _command_rule(head: Head, command: Command) -> str:
    """The rule a command is decided by: the rule set's `rule_of`, when it has one."""
    ruleset = rulesets.get(head.ruleset)
    rule_of = getattr(ruleset, "rule_of", None)
    named = rule_of(command.name) if rule_of is not None else None
    return str(named) if named else f"{ruleset.name}: `{command.name}`"
