"""The typed errors of the engine. Every one carries the rule (or data field) it concerns."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class WarscribeError(Exception):
    """Base of every error warscribe reports to a user (the CLI prints it, exit 1)."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.message = message
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class RuleError(WarscribeError):
    """A command the rules do not allow; `rule` names the rulebook section."""


class IllegalCommand(RuleError):
    """Well-formed, but the position forbids it (wrong phase, not your turn, rule says no)."""


class InvalidCommand(RuleError):
    """Malformed: unknown command, missing or bad argument, unknown kingdom or unit."""


class NotYourTurn(IllegalCommand):
    """Issued by a player other than the one whose turn or decision it is."""


class DataError(WarscribeError):
    """A game data file (kingdoms, castles, cards, map, starting position) is invalid."""


class LogError(WarscribeError):
    """A log (stored or imported) fails a check; `seq` is the first bad sequence number."""

    def __init__(self, message: str, seq: int | None = None) -> None:
        self.seq = seq
        super().__init__(f"#{seq}: {message}" if seq is not None else message)


class DiceError(WarscribeError):
    """Dice cannot be produced or checked (missing table entries, secret unknown...)."""


class HiddenInformation(WarscribeError):
    """A decision needs information this copy of the log lacks (a player's redacted copy:
    a face-down personality card, say); the referee's full copy decides it."""


_STRICT: ContextVar[bool] = ContextVar("warscribe_hidden_strictly", default=False)


@contextmanager
def hidden_strictly() -> Iterator[None]:
    """While the audit re-decides a copy's commands: a rule reading a value the copy lacks
    raises HiddenInformation. Elsewhere (planning, `legal`, status on a player's copy) it
    reads as unknown, as a player reads the board."""
    token = _STRICT.set(True)
    try:
        yield
    finally:
        _STRICT.reset(token)


def hidden_matters() -> bool:
    """Whether a rule reading a value this copy lacks must raise HiddenInformation."""
    return _STRICT.get()
