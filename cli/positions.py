"""Resolving a POSITION (`TURN.PLAYER-TURN.PHASE`, or `#SEQ`) to a log version."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from uuid import UUID

from warscribe.engine import rulesets
from warscribe.engine.errors import InvalidCommand

if TYPE_CHECKING:
    from warscribe.store.app import Warscribe

_SEQ = re.compile(r"#([0-9]{1,12})")


def resolve_position(app: Warscribe, game_id: UUID, position: str | None) -> int | None:
    """The version to rebuild: None for now; a phase means the state as that phase began."""
    if position is None:
        return None
    head = app.head(game_id)
    text = position.strip()
    if text.startswith("#"):
        seq = _SEQ.fullmatch(text)
        if seq is None or not 1 <= int(seq.group(1)) <= head.seq:
            raise InvalidCommand(
                f"bad position {position!r}: the log has entries #1..#{head.seq}", "--at"
            )
        return int(seq.group(1))
    label = text.lower()
    if label in head.marks:
        return head.marks[label]
    current = rulesets.get(head.ruleset).position(head.state)
    if current is not None and label == current.lower():
        return head.seq
    reached = ", ".join(list(head.marks)[-5:])
    raise InvalidCommand(
        f"the game has not reached position {position!r} "
        f"(now at {current}; recent: {reached or 'none'})",
        "--at",
    )


def resolve_span(app: Warscribe, game_id: UUID, position: str) -> tuple[int, int]:
    """The entries a position names: `#SEQ` that entry; a phase, the entries recorded in
    it (from its start to the start of the next phase, or the last entry)."""
    version = resolve_position(app, game_id, position)
    assert version is not None
    if position.strip().startswith("#"):
        return version, version
    head = app.head(game_id)
    later = [seq for seq in head.marks.values() if seq > version]
    last = min(later) if later else head.seq
    return min(version + 1, last), last
