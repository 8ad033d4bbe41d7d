"""The Divine Right board (`warscribe.engine.presenter.Board`): the SVG picture (`svg.py`,
imported when first drawn), the text map (`terminal.py`) and the spaces a stack can reach
lit up on the picture."""

from __future__ import annotations

from typing import Any

from warscribe.engine.presenter import VALUE, Asked, Param

from ..state import State


class DivineRightBoard:
    """The map of who is where, as SVG and as text."""

    title = "Divine Right"
    help = (
        "The map of who is where: as text with row and column numbers, or with --svg FILE as "
        "a picture (terrain, rivers, coasts, castles named with their defence, kingdoms, "
        "stacks as counters in their player's colour saying what they hold, sieges, a legend "
        "of players, and what moved or fought since the previous phase, in words; "
        "with --reach STACK, the spaces that stack can reach, each titled with its cost and "
        "the command to type)."
    )
    example: tuple[str, ...] = (
        "map --at 3.2.combat",
        "map --svg board.svg --at 3.2.combat --for alice",
        "map --svg moves.svg --reach Muetar-A1,Muetar-A2",
        "map --png board.png",
    )
    params: tuple[Param, ...] = (
        Param(
            "reach",
            VALUE,
            "With --svg or --png: light up the spaces STACK (its units, comma-separated, or "
            "its space) can reach this phase, as `reach` lists them.",
            metavar="STACK",
        ),
    )

    def svg(self, state: State, before: State | None, title: str, asked: Asked) -> str:
        from . import svg

        stack = asked.values.get("reach")
        reached = _reached(state, stack, asked) if stack is not None else ()
        return svg.render(state, before, title, reached)

    def base(self, state: State) -> str:
        from ..data import load_custom
        from . import svg

        return svg.base(load_custom(state.custom_data))

    def overlay(self, state: State, before: State | None) -> str:
        from . import svg

        return svg.overlay(state, before)

    def data(self, state: State) -> dict[str, Any]:
        from ..mapview import board

        return board(state)

    def text(self, data: dict[str, Any], colour: bool) -> str:
        from .terminal import text_map

        return text_map(data, colour)


def _reached(state: State, stack: str, asked: Asked) -> tuple[tuple[Any, int, str], ...]:
    """The spaces `stack` can reach at `state`, as `reach` finds them (refused as it is)."""
    from ..movement.reach import reach
    from ..specs import data_of

    return tuple(
        (found.space, found.route.cost, asked.words(found.command))
        for found in reach(state, data_of(state), stack)
    )


BOARD = DivineRightBoard()
