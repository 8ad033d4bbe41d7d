"""The decisions a game waits for, first in, first out: one asked, the others queued
behind it in the order they were asked (The Game Turn: a pending decision).

A rule set keeps the two in its state (the decision asked, or None, and the queue) and
moves them through these functions as its decision-asked, answered and withdrawn events
are evolved, so every game's queue behaves alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

P = TypeVar("P")


def asked(now: P | None, queue: tuple[P, ...], new: P) -> tuple[P | None, tuple[P, ...]]:
    """`new` asked at once when nothing is asked, else queued behind the rest."""
    return (new, queue) if now is None else (now, (*queue, new))


def following(now: P | None, queue: tuple[P, ...]) -> tuple[P | None, tuple[P, ...]]:
    """Once the decision asked is settled, the first queued behind it is asked."""
    if now is not None or not queue:
        return now, queue
    return queue[0], queue[1:]


def withdrawn(
    now: P | None, queue: tuple[P, ...], this: Callable[[P], bool]
) -> tuple[P | None, tuple[P, ...]]:
    """The decision `this` picks out no longer asked: the one asked, else the first such
    queued (the others keep their order)."""
    if now is not None and this(now):
        return None, queue
    first = next(i for i, waiting in enumerate(queue) if this(waiting))
    return now, queue[:first] + queue[first + 1 :]
