"""Resolving a POSITION (`TURN.PLAYER-TURN.PHASE`, or `#SEQ`) to a log version: queries
of the store (`Reading.version_at`, `Reading.span`), named here for the commands
that take a position."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

if TYPE_CHECKING:
    from warscribe.store.reading import Reading


def resolve_position(app: Reading, game_id: UUID, position: str | None) -> int | None:
    """The version to rebuild: None for now; a phase means the state as that phase began."""
    return app.version_at(game_id, position)


def resolve_span(app: Reading, game_id: UUID, position: str) -> tuple[int, int]:
    """The entries a position names (see `Reading.span`)."""
    return app.span(game_id, position)
