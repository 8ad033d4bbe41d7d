"""Who may give a command: one table, checked in one place (`record.decide`), so the same
rule holds for a command typed at the host's store, for signed orders, and when `import`
and `audit` re-decide a log.

Every command has one of these authorities (its `CommandSpec.authority`):

* `TURN`: a player, when the rules say it is theirs to give: the player on turn, the
  player a pending decision asks, or (eu-pop) a realm reacting. The record checks that
  the actor is a player of the game; the rule set's `decide` checks the when, since only
  it knows its turns, questions and reactions (`NotYourTurn`).
* `ANYONE`: any player, or the referee (a note, a free roll).
* `REFEREE`: the referee (host) only: a ruling that imposes events. Its actor is the
  reserved name `referee`, which no player may take; signed orders always carry their
  player's name, so a player can never give it, in orders or in a log.
"""

from __future__ import annotations

from collections.abc import Sequence

from .commands import ANYONE, REFEREE, TURN
from .common import RECORD
from .errors import IllegalCommand
from .events import Command
from .ruleset import RuleSet

__all__ = ["ANYONE", "REFEREE", "REFEREE_NAME", "TURN", "authority", "check_authority"]

REFEREE_NAME = "referee"
"""The actor of the referee's own commands (rulings, notes); reserved: no player's name."""

RULE = "warscribe authority (docs/pbem.md)"


def authority(ruleset: RuleSet, name: str) -> str:
    """Who may give command `name`: its spec says (a record command, or one of the rule
    set's); a command of a rule set that declares none is the player's on turn."""
    if name in RECORD:
        return RECORD[name].authority
    declared = getattr(ruleset, "authority", None)
    given: str | None = declared(name) if declared is not None else None
    return given or TURN


def check_authority(ruleset: RuleSet, players: Sequence[str], command: Command) -> None:
    """Refuse `command` unless its actor may give it (IllegalCommand citing the table)."""
    who = authority(ruleset, command.name)
    actor = command.actor
    if who == REFEREE:
        allowed = actor == REFEREE_NAME
    elif who == ANYONE:
        allowed = actor == REFEREE_NAME or actor in players
    else:
        allowed = actor in players
    if allowed:
        return
    if who != REFEREE and actor not in players:
        raise IllegalCommand(
            f"{actor!r} is not a player of this game (players: {', '.join(players)}): "
            f"`{command.name}` may be given by {who}",
            RULE,
        )
    raise IllegalCommand(f"`{command.name}` may be given by {who}, not by {actor!r}", RULE)
