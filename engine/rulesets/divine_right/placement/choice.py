"""Placements the rulebook leaves to a player: where (or which of) his units go, asked as
a decision and answered with `place UNIT... --at SPACE`.

A rule asks with `ask_place(out, data, kind, player, choices, why)`: each choice is the
units and the space they may go to (None: any land space). A lone choice is taken at once;
otherwise the player's answer is recorded as `PlacementChosen`, then the rule's `Placement`
(its module's `PLACEMENTS`, in the rulebook under `kind`) records the placement itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from warscribe.engine.errors import IllegalCommand, InvalidCommand

from ..arguments import hex_arg, label, names
from ..data import DRData
from ..events import DecisionAsked, PlacementChosen, UnitsRelocated
from ..evolving import Decision
from ..movement.terrain import all_sea
from ..state import Hex, Pending, State
from ..tables import Evolvers, Placement, rulebook
from ..turn import asked_now

Choice = tuple[tuple[str, ...], Hex | None]
ANYWHERE = "any land space"
_AT = " at "


def option_units(option: str) -> tuple[str, ...]:
    """The units an option of a placement places."""
    return tuple(option.partition(_AT)[0].split(","))


def _units_to_relocate(state: State, pending: Pending) -> bool:
    """A relocation is asked while the units of one of its options are all on the map, the
    player's."""
    return any(
        all(u in state.units and state.controller(state.units[u]) == pending.player for u in ids)
        for ids in map(option_units, pending.options)
    )


def relocation(rule: str, what: str) -> Placement:
    """A placement carried out as `UnitsRelocated` (`what` says why)."""

    def finish(d: Decision, player: str, units: tuple[str, ...], hex_: Hex) -> None:
        if any(d.state.units[u].hex != hex_ for u in units):
            why = f"{what}: {player} chose {label(d.data, hex_)}"
            d.emit(UnitsRelocated(units=units, hex=hex_, why=why))

    return Placement(finish, rule, _units_to_relocate)


def ask_place(d: Decision, kind: str, player: str, choices: Sequence[Choice], why: str) -> None:
    """Ask `player` to choose among `choices`; a lone choice of one space is taken at once."""
    if not choices:
        return
    units, hex_ = choices[0]
    if len(choices) == 1 and hex_ is not None:
        rulebook().placements[kind].finish(d, player, units, hex_)
        return
    d.emit(placement_asked(d.data, kind, player, choices, why))


def placement_asked(
    data: DRData, kind: str, player: str, choices: Sequence[Choice], why: str
) -> DecisionAsked:
    """The question itself (for a check made before a phase ends, which only asks)."""
    options = tuple(_option(data, units, hex_) for units, hex_ in choices)
    return DecisionAsked(player=player, kind=kind, options=options, count=1, why=why)


def _option(data: DRData, units: tuple[str, ...], hex_: Hex | None) -> str:
    return ",".join(units) + _AT + (ANYWHERE if hex_ is None else label(data, hex_))


def place(d: Decision) -> None:
    """The player's answer: the units (left out when the choice is only of the space) and
    the space, among the options asked."""
    placements = rulebook().placements
    pending = asked_now(d.state)
    placement = placements[pending.kind]
    rule = placement.rule
    given = d.call.get("units")
    units = set(names(given, rule)) if given else None
    at = d.call.get("at")
    where = hex_arg(d.data, str(at), rule) if at is not None else None
    found: list[tuple[tuple[str, ...], Hex | None, str]] = []
    for option in pending.options:
        ids, space = option_units(option), option.partition(_AT)[2]
        if units is not None and units != set(ids):
            continue
        target = where if space == ANYWHERE else hex_arg(d.data, space, rule)
        if where is None or target == where:
            found.append((ids, target, space))
    if len(found) != 1 or found[0][1] is None:
        choices = "; ".join(pending.options)
        refusal = placement.refusal
        why = ""
        asked = tuple(pending.options[0].partition(_AT)[0].split(","))
        if refusal and where and not found and units in (None, set(asked)):
            why = f"not {label(d.data, where)}: {refusal(d.state, d.data, asked, where)}; "
        raise IllegalCommand(f"{why}choose one of: {choices} (place UNIT... --at SPACE)", rule)
    chosen, hex_, space = found[0]
    assert hex_ is not None
    land = d.data.map.get(*hex_)
    if space == ANYWHERE and (land is None or all_sea(land)):
        raise InvalidCommand(f"{label(d.data, hex_)} is not a land space", rule)
    d.emit(PlacementChosen(player=pending.player, kind=pending.kind, units=chosen, hex=hex_))
    placement.finish(d, pending.player, chosen, hex_)


def _chosen(state: State, event: PlacementChosen) -> State:
    return state.with_progress(pending=None)


EVOLVERS: Evolvers = {
    PlacementChosen: _chosen,
}
