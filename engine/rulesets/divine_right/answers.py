"""Standing answers: what a player's orders answer, in advance, to the decisions the rules
may ask of them (The Game Turn: a pending decision), so that a batch of orders goes on
without a mail for each question.

An answer line of orders is `answer KIND=POLICY [KIND=POLICY ...] [attack=N]`: KIND is a
decision as the rules ask it (`status` shows it: losses, retreat, pursue, advance, sortie,
storm, mutiny, castaway-shore, captive, a placement...), POLICY one of `POLICIES` the kind
allows, `attack=N` keeps the line to the decisions of attack N (a line that names an
attack is preferred to one that does not; among equals the first). The answer is a pure
function of the position and the signed line, so anyone re-derives it (`audit`):

* `first`: the first answer the rules allow, in the order `legal` offers them (the
  commands' order in the table, `specs.COMMANDS`: a plain refusal first where there is one);
* `cheapest` (losses, random-events losses): the `count` units offered, armies first,
  then fleets, then heroes, each group in the order offered;
* `stand` (retreat), `none` (pursue, advance, sortie), `all` (pursue, sortie: every unit
  offered), `stay`/`eliminate` (castaway-shore), `free`/`execute` (captive), `decline`
  (random-events gains), `keep`/`lift` (siege-veto): the answer of that name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from warscribe.engine.commands import answering
from warscribe.engine.dice import Dice
from warscribe.engine.errors import InvalidCommand
from warscribe.engine.events import Command, Event
from warscribe.engine.offers import candidates, on_trial

from .combat.fight import the_fight
from .data import DRData
from .domains import SPECS, TRIED
from .random_events import LOSSES as EVENT_LOSSES
from .specs import COMMANDS
from .state import Pending, State
from .turn import pending_kinds
from .units import is_fleet, is_hero

if TYPE_CHECKING:  # signed orders: imported where they are read, not with the rules
    from warscribe.engine.orders import Answers

RULE = "The Game Turn › standing answers"
ATTACK = "attack"

Decide = Callable[[State, Command, Dice], list[Event]]
Policy = Callable[[State, Pending, "Offered"], "Command | None"]


class Offered:
    """The answers the rules allow to a decision, found when a policy first asks."""

    def __init__(self, state: State, data: DRData, pending: Pending, decide: Decide) -> None:
        self.state, self.data, self.pending, self.decide = state, data, pending, decide
        self._found: list[Command] | None = None

    @property
    def all(self) -> Sequence[Command]:
        if self._found is None:
            self._found = self._answers()
        return self._found

    def accepts(self, command: Command) -> bool:
        return on_trial(self.decide, self.state)(command)

    def _answers(self) -> list[Command]:
        """The answers the decision allows, in the order `legal` offers them."""
        names = answering(SPECS, self.pending.kind)
        offered = ((self.pending.player, SPECS[name]) for name in names)
        accepts = on_trial(self.decide, self.state, TRIED)
        found = candidates(self.state, offered, self.data)
        return [c for c in found if isinstance(c, Command) and accepts(c)]


def _named(policy: str) -> Policy:
    """The answer offered by the command the policy names."""
    names = ANSWERED_BY[policy]

    def named(state: State, pending: Pending, offered: Offered) -> Command | None:
        return next((c for c in offered.all if c.name in names), None)

    return named


def _first(state: State, pending: Pending, offered: Offered) -> Command | None:
    return offered.all[0] if offered.all else None


def _all(state: State, pending: Pending, offered: Offered) -> Command | None:
    every = Command(pending.player, _name(pending, "all"), (("units", pending.options),))
    return every if offered.accepts(every) else None


def _name(pending: Pending, policy: str) -> str:
    """The command of `policy` that answers `pending` (`CommandSpec.answers`)."""
    return next(n for n in ANSWERED_BY[policy] if pending.kind in COMMANDS[n].answers)


def _rank(state: State, unit: str) -> int:
    found = state.units.get(unit)
    if found is None or is_hero(found):
        return 2
    return 1 if is_fleet(found) else 0


def _cheapest(state: State, pending: Pending, offered: Offered) -> Command | None:
    chosen = tuple(sorted(pending.options, key=lambda u: _rank(state, u))[: pending.count])
    wanted = Command(pending.player, _name(pending, "cheapest"), (("units", chosen),))
    return wanted if offered.accepts(wanted) else None


ANSWERED_BY: dict[str, tuple[str, ...]] = {
    "cheapest": ("losses", "events-lose"),
    "all": ("pursue", "sortie"),
    "stand": ("retreat-stand",),
    "none": ("pursue-none", "advance-none", "sortie-none"),
    "stay": ("castaway-stay",),
    "eliminate": ("castaway-eliminate",),
    "free": ("prisoner-free",),
    "execute": ("prisoner-execute",),
    "decline": ("events-decline",),
    "keep": ("siege-keep",),
    "lift": ("siege-lift",),
}
"""The commands each policy but `first` answers with, by name: a policy answers the
decisions its commands answer (`CommandSpec.answers`)."""

_NAMED = ("stand", "none", "stay", "eliminate", "free", "execute", "decline", "keep", "lift")
POLICIES: dict[str, Policy] = {
    "first": _first,
    "cheapest": _cheapest,
    "all": _all,
    **{policy: _named(policy) for policy in _NAMED},
}


def allows(kind: str, policy: str) -> bool:
    """Whether a decision of `kind` may be answered by `policy`."""
    if policy == "first":
        return True
    if policy == "cheapest" and kind not in (*EVENT_LOSSES, "losses"):
        return False
    return any(kind in COMMANDS[name].answers for name in ANSWERED_BY.get(policy, ()))


def check(args: tuple[tuple[str, Any], ...]) -> None:
    """An answer line's arguments, or InvalidCommand naming what is wrong."""
    kinds = [(k, v) for k, v in args if k != ATTACK]
    if not kinds:
        raise InvalidCommand("an answer names a decision: answer KIND=POLICY", RULE)
    attack = dict(args).get(ATTACK)
    if attack is not None and not str(attack).isdigit():
        raise InvalidCommand(f"attack={attack}: give the attack's number", RULE)
    known = pending_kinds()
    for kind, policy in kinds:
        if kind not in known:
            raise InvalidCommand(
                f"no decision {kind!r} in divine-right; decisions: {', '.join(known)}", RULE
            )
        if policy not in POLICIES or not allows(kind, str(policy)):
            fits = [p for p in POLICIES if allows(kind, p)]
            raise InvalidCommand(
                f"{kind}={policy}: answer {kind} with one of {', '.join(fits)}", RULE
            )


def standing_answer(
    state: State,
    data: DRData,
    decide: Decide,
    player: str,
    answers: Answers,
    following: Command | None,
) -> tuple[int, Command] | None:
    """(line, command): the answer `player`'s standing answers give to the decision asked
    of them now, or None (none asked of them, none of their lines covers it, its policy
    gives nothing the rules allow, or `following` answers it itself)."""
    turn = state.turn
    pending = turn.progress.pending if turn and state.outcome is None else None
    if pending is None or pending.player != player:
        return None
    if _answers_itself(following, pending):
        return None
    line = _line(state, pending, answers)
    if line is None:
        return None
    number, policy = line
    command = POLICIES[policy](state, pending, Offered(state, data, pending, decide))
    return None if command is None else (number, command)


def _answers_itself(following: Command | None, pending: Pending) -> bool:
    """Whether the sender's next command answers the decision (then it is theirs to give)."""
    spec = COMMANDS.get(following.name) if following is not None else None
    return (
        following is not None
        and spec is not None
        and following.actor == pending.player
        and pending.kind in spec.answers
    )


def _line(state: State, pending: Pending, answers: Answers) -> tuple[int, str] | None:
    """(line, policy) of the answer that covers the decision: one naming its attack
    before one naming none, the first of equals."""
    fight = the_fight(state)
    found: list[tuple[int, int, str]] = []
    for number, args in answers:
        given = dict(args)
        policy = given.get(pending.kind)
        if not isinstance(policy, str) or policy not in POLICIES:
            continue
        attack = given.get(ATTACK)
        if attack is None:
            found.append((1, number, policy))
        elif fight is not None and str(attack) == str(fight.number):
            found.append((0, number, policy))
    if not found:
        return None
    _, number, policy = min(found)
    return number, policy
