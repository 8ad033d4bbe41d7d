"""The eventsourcing Transcoder that stores events and snapshots in the engine's codec."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Transcoder

from warscribe.engine import codec


class MsgpackTranscoder(Transcoder):
    """Exact round trip of tuples, enums, frozen dataclasses, UUIDs, datetimes, int keys."""

    def encode(self, obj: Any) -> bytes:
        return codec.encode(obj)

    def decode(self, data: bytes) -> Any:
        return codec.decode(data)
