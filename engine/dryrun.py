"""The dry run of signed orders: what the batch would do at the player's copy, decided as
the referee would decide it (`record._batch`, standing answers included), recording nothing.

A copy that cannot roll the game's dice (a player's copy of a game of host dice) cannot
know a roll: the dry run makes each roll a chance node and decides the rest of the batch
under each outcome. A branch is one outcome of every draw (every value of every die, the
last die turning fastest); the branches are run depth first, each from the batch's start,
each draw taking its values from the branch's `dice.Script`. When a batch has more than
`MOST_BRANCHES` branches (rolls that multiply, a shuffle), `MOST_BRANCHES` of them are
drawn at random instead, from a seed the orders give (the same orders, the same sample),
and the run says so. The engine stays pure: `dice.Chance` only hands out the script's
values where the referee's dice would derive them.

What a branch ends in (`Stop.kind`):

* `REFUSED`: the rules refuse the line (no decision is asked);
* `DECISION`: the line is refused while the rules ask the sender a decision nothing in
  the orders answers (a random event's choice, the sender's losses): it stops for it;
* `WAITING`: the rules ask another player to act (a decision of theirs their standing
  answers do not cover, or their turn): the referee records the batch up to there;
* `UNKNOWN`: the copy cannot tell (hidden information it lacks: another player's cards).

A line no branch that reaches it runs (every one refuses it or stops there for the
sender's decision) is refused at signing (`refusal`); otherwise what stops it under some
outcomes is a warning, for the player to weigh.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, NamedTuple

from . import rulesets
from .codec import frozen
from .dice import Script
from .errors import NotYourTurn, RuleError
from .events import AnswerApplied, Command, CommandIssued, DiceRolled, Event
from .record import Head, _batch, fold

if TYPE_CHECKING:
    from .orders import Orders

MOST_BRANCHES = 64
"""The most branches a dry run decides: more, and it decides a sample of this many."""

REFUSED, DECISION, WAITING, UNKNOWN = "refused", "decision", "waiting", "unknown"


class Stop(NamedTuple):
    """Where a branch stops: at `line` of the orders (counted from 0), of what `kind`, why
    (`reason`), and `who` must act there (DECISION, WAITING)."""

    line: int
    kind: str
    reason: Exception
    who: str | None


@frozen
class Branch:
    """The batch under one outcome of the dice: each roll the copy could not make, with
    what it decided (the first event after it that is no roll, or None); the commands that
    ran (`line` of the orders; None for a standing answer, given for `answered`); where it
    stops, if it does; `chance`: how likely the outcome is (1 where nothing was rolled)."""

    rolls: tuple[tuple[DiceRolled, Event | None], ...]
    ran: tuple[tuple[int | None, Command, str | None], ...]
    stop: Stop | None
    chance: float

    def reaches(self, line: int) -> bool:
        stop = self.stop
        return stop is None or stop.line >= line


@frozen
class DryRun:
    """The branches of a dry run. `sampled`: None when they are every outcome of the dice
    this copy cannot roll; else the seed of the `MOST_BRANCHES` drawn at random."""

    lines: tuple[int, ...]
    branches: tuple[Branch, ...]
    sampled: int | None

    @property
    def rolled(self) -> bool:
        """Whether the run went past dice this copy cannot roll."""
        return any(branch.rolls for branch in self.branches)

    def refusal(self) -> Stop | None:
        """The first line that no branch reaching it runs: each refuses it or stops at it
        for the sender's own decision (the first refusal's reason, else the first stop's)."""
        for line in self.lines:
            stops = [b.stop for b in self.branches if b.reaches(line)]
            if stops and all(s is not None and s.line == line for s in stops):
                kinds = [s for s in stops if s is not None and s.kind in (REFUSED, DECISION)]
                if len(kinds) == len(stops):
                    return next((s for s in kinds if s.kind == REFUSED), kinds[0])
        return None

    def stops_at(self, line: int) -> list[tuple[Stop, list[Branch]]]:
        """The ways the branches stop at `line`, each with the branches that stop so (alike
        when of the same kind, for the same player and reason), in the order first met."""
        found: dict[tuple[str, str | None, str], tuple[Stop, list[Branch]]] = {}
        for branch in self.branches:
            stop = branch.stop
            if stop is not None and stop.line == line:
                key = (stop.kind, stop.who, str(stop.reason))
                found.setdefault(key, (stop, []))[1].append(branch)
        return list(found.values())


def dry_run(head: Head, orders: Orders, key: bytes | None) -> DryRun:
    """Decide the orders at `head` as the referee would (standing answers included),
    recording nothing. Dice the copy can roll (`key`, or a revealed secret) are rolled;
    otherwise each outcome is a branch (see the module)."""
    batch = _Batch(head, orders, orders.steps(), orders.encode())
    lines = tuple(line for line, _ in batch.steps)
    if key is not None or head.secret is not None:
        return DryRun(lines, (_branch(batch, key, None),), None)
    branches: list[Branch] = []
    script: Script | None = Script()
    while script is not None and len(branches) < MOST_BRANCHES:
        branches.append(_branch(batch, None, script))
        script = script.following()
    if script is None:
        return DryRun(lines, tuple(branches), None)
    seed = int.from_bytes(hashlib.sha256(batch.signed).digest()[:4], "big")
    rng = random.Random(seed)
    sample = (_branch(batch, None, Script(rng=rng)) for _ in range(MOST_BRANCHES))
    return DryRun(lines, tuple(sample), seed)


def outcome(head: Head, orders: Orders, key: bytes | None) -> Head:
    """The head after `orders` as far as they run, recording nothing: under the copy's own
    dice where it can roll them (`key`, or a revealed secret), else under the first
    outcome of every die (the position a page offers the next line from)."""
    batch = _Batch(head, orders, orders.steps(), orders.encode())
    script = None if key is not None or head.secret is not None else Script()
    entries, _ = _batch(
        head, orders, batch.signed, b"", key, len(batch.steps), tolerated=Exception, script=script
    )
    return fold(entries, head)


class _Batch(NamedTuple):
    """What every branch of a dry run decides: the head, the orders, their steps and
    bytes (worked out once a run, not once a branch)."""

    head: Head
    orders: Orders
    steps: list[tuple[int, Command]]
    signed: bytes


def _branch(batch: _Batch, key: bytes | None, script: Script | None) -> Branch:
    """The batch decided under `script`'s dice (the copy's own, when None)."""
    head, orders, steps = batch.head, batch.orders, batch.steps
    entries, refused = _batch(
        head, orders, batch.signed, b"", key, len(steps), tolerated=Exception, script=script
    )
    ran: list[tuple[int | None, Command, str | None]] = []
    rolls: list[tuple[DiceRolled, Event | None]] = []
    answering: str | None = None
    step = 0
    for at, entry in enumerate(entries):
        event = entry.event
        if isinstance(event, AnswerApplied):
            answering = event.player
        elif isinstance(event, CommandIssued):
            line = None if answering else steps[step][0]
            step += answering is None
            ran.append((line, Command(event.actor, event.name, event.args), answering))
            answering = None
        elif isinstance(event, DiceRolled) and script is not None:
            after = (e.event for e in entries[at + 1 :] if not isinstance(e.event, DiceRolled))
            rolls.append((event, next(after, None)))
    stop = None
    if refused is not None:
        state = fold(entries, head).state
        ruleset = rulesets.get(head.ruleset)
        line = steps[refused.index][0]
        whose = ruleset.whose_turn(state)
        stop = _stop(line, refused.reason, orders.player, ruleset.summary(state), whose)
    chance = 1.0
    for sides in script.drawn if script is not None else ():
        for side in sides:
            chance /= side
    return Branch(tuple(rolls), tuple(ran), stop, chance)


def _stop(
    line: int, reason: Exception, sender: str, summary: dict[str, object], whose: str | None
) -> Stop:
    """What a refusal at `line` is, from the position it was met in."""
    if not isinstance(reason, RuleError):
        return Stop(line, UNKNOWN, reason, None)
    if isinstance(reason, NotYourTurn):
        return Stop(line, WAITING, reason, whose)
    pending = summary.get("pending")
    asked = pending.get("player") if isinstance(pending, dict) else None
    if not isinstance(asked, str):
        return Stop(line, REFUSED, reason, None)
    return Stop(line, DECISION if asked == sender else WAITING, reason, asked)
