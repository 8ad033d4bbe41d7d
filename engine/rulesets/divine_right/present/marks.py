"""A position drawn on the Divine Right map (`svg.overlay`): castles plundered, sieges,
what happened since the previous position in words (battles, new sieges, moves with who
and how many), the stacks as counters that say what they hold, and the legend of players.

Counters go in the lower half of their hex (`geometry.counter_boxes`): they never hide a
castle's square, a kingdom's name or a siege's mark, which keep the upper half."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from warscribe.engine.codec import frozen

from ..data import DRData
from ..state import MERCENARY, Hex, State, Unit
from ..units import is_fleet, is_hero
from .geometry import (
    LINE,
    SIZE,
    WIDTH,
    arrow,
    castle_box,
    centre,
    counter_boxes,
    line,
    player_colour,
    points,
    text,
)


@frozen
class Changes:
    """What happened between two positions: units that moved (from, to) and the spaces
    where units were lost."""

    moves: tuple[tuple[Hex, Hex], ...]
    moved_to: frozenset[Hex]
    fought: frozenset[Hex]


def changes(before: State | None, after: State) -> Changes:
    """The moves and the losses between `before` and `after` (nothing without `before`)."""
    if before is None:
        return Changes((), frozenset(), frozenset())
    moves = {
        (old.hex, after.units[uid].hex)
        for uid, old in before.units.items()
        if uid in after.units and after.units[uid].hex != old.hex
    }
    lost = {old.hex for uid, old in before.units.items() if uid not in after.units}
    return Changes(tuple(sorted(moves)), frozenset(to for _, to in moves), frozenset(lost))


def overlay(data: DRData, state: State, before: State | None, bottom: float) -> str:
    found = changes(before, state)
    return "\n".join(
        [
            *_highlights(found),
            *_plundered(data, state),
            *_sieges(data, state),
            *(line(arrow(a, b), "move") for a, b in found.moves),
            *_counters(state),
            *(_news(before, state, data) if before is not None else ()),
            *_legend(state, bottom),
        ]
    )


def _highlights(found: Changes) -> Iterator[str]:
    for cls, coords in (("fought", found.fought), ("moved", found.moved_to)):
        for col, row in sorted(coords):
            yield f'<polygon class="{cls}" data-hex="{col},{row}" points="{points((col, row))}"/>'


def _plundered(data: DRData, state: State) -> Iterator[str]:
    """A cross over each castle plundered (Victory: it ceases to exist)."""
    for name in sorted(state.plundered):
        x, y, edge, _ = castle_box(data.castles[name].hex)
        yield (
            f'<path class="plundered" d="M{x - 1:.1f},{y - 1:.1f}l{edge + 2:.1f},{edge + 2:.1f}'
            f'm0,{-edge - 2:.1f}l{-edge - 2:.1f},{edge + 2:.1f}"><title>{text(name)} plundered'
            "</title></path>"
        )


def _sieges(data: DRData, state: State) -> Iterator[str]:
    """A red ring round the besieged castle's square; the besiegers' counters stay beside
    it, in the lower half of the hex."""
    for siege in state.sieges:
        x, y, edge, _ = castle_box(siege.hex)
        yield (
            f'<circle class="siege" data-hex="{siege.hex[0]},{siege.hex[1]}" '
            f'cx="{x + edge / 2:.2f}" cy="{y + edge / 2:.2f}" r="{edge * 0.78:.1f}">'
            f"<title>siege of {text(siege.castle)} by {text(siege.besieger)}</title></circle>"
        )


def _news(before: State, state: State, data: DRData) -> Iterator[str]:
    """What happened since `before`, in words: battles, new sieges, moves."""
    for coord, words in _battles(before, state, data):
        yield _event(coord, "battle", words)
    old = {s.castle for s in before.sieges}
    for siege in state.sieges:
        if siege.castle not in old:
            yield _event(
                siege.hex, "siege-news", f"siege: {siege.besieger} besieges {siege.castle}"
            )
    for (a, b), words in _moves(before, state):
        (xa, ya), (xb, yb) = centre(a), centre(b)
        yield (
            f'<text class="event move-news" x="{(xa + xb) / 2:.1f}" y="{(ya + yb) / 2 - 3:.1f}">'
            f"{text(words)}</text>"
        )


def _event(coord: Hex, cls: str, words: str | tuple[str, ...]) -> str:
    """Words over a space, ending just above it; several lines stacked upwards, each a
    `tspan`, so that a long one does not run over the spaces beside it."""
    x, y = centre(coord)
    lines = (words,) if isinstance(words, str) else words
    top = y - 1.02 * SIZE - LINE * (len(lines) - 1)
    spans = "".join(
        f'<tspan x="{x:.1f}" y="{top + LINE * n:.1f}">{text(said)}</tspan>'
        for n, said in enumerate(lines)
    )
    return (
        f'<text class="event {cls}" data-hex="{coord[0]},{coord[1]}" x="{x:.1f}" '
        f'y="{top:.1f}">{spans}</text>'
    )


def _moves(before: State, state: State) -> list[tuple[tuple[Hex, Hex], str]]:
    """Each move since `before` with who made it and how many units of which kingdom."""
    moved: Counter[tuple[Hex, Hex, str, str]] = Counter()
    for uid, old in before.units.items():
        new = state.units.get(uid)
        if new is not None and new.hex != old.hex:
            moved[(old.hex, new.hex, state.controller(new) or "-", _name(new.kingdom))] += 1
    words: dict[tuple[Hex, Hex], list[str]] = {}
    for (a, b, who, kingdom), count in sorted(moved.items()):
        words.setdefault((a, b), []).append(f"{who}: {count} {kingdom}")
    return [(pair, ", ".join(said)) for pair, said in sorted(words.items())]


def _battles(
    before: State, state: State, data: DRData
) -> Iterator[tuple[Hex, str | tuple[str, str]]]:
    """Each space where units were lost, told as the battle it was: the units of each
    side there and around it before, and what each side lost."""
    lost = [u for uid, u in sorted(before.units.items()) if uid not in state.units]
    told: set[Hex] = set()
    for unit in lost:
        if unit.hex in told:
            continue
        site = {unit.hex, *data.map.neighbours(*unit.hex)}
        told |= site
        defender = before.controller(unit) or "-"
        sides = Counter(
            before.controller(u) or "-"
            for u in before.units.values()
            if u.hex in site and not is_hero(u)
        )
        losses = Counter(before.controller(u) or "-" for u in lost if u.hex in site)
        yield unit.hex, _battle_words(defender, sides, losses)


def _battle_words(
    defender: str, sides: Counter[str], losses: Counter[str]
) -> str | tuple[str, str]:
    """Who fought with how many, then what each lost: two short lines."""
    others = [who for who, _ in sides.most_common() if who != defender]
    if not others:
        return f"lost: {defender} {losses[defender]}"
    attacker = others[0]
    return (
        f"battle: {attacker} {sides[attacker]} against {defender} {sides[defender]}",
        f"lost: {attacker} {losses[attacker]}, {defender} {losses[defender]}",
    )


def _name(kingdom: str) -> str:
    return "mercenaries" if kingdom == MERCENARY else kingdom


def _where(unit: Unit) -> str:
    return "inside" if unit.inside else "aboard" if unit.aboard else "field"


def _groups(units: Iterable[Unit]) -> list[tuple[tuple[str, str], list[Unit]]]:
    """The units of a space by kingdom and by where they are (in the field, inside the
    walls, aboard a fleet)."""
    out: dict[tuple[str, str], list[Unit]] = {}
    for unit in sorted(units, key=lambda u: u.id):
        out.setdefault((unit.kingdom, _where(unit)), []).append(unit)
    return sorted(out.items())


def _counters(state: State) -> Iterator[str]:
    by_hex: dict[Hex, list[Unit]] = {}
    for unit in state.units.values():
        by_hex.setdefault(unit.hex, []).append(unit)
    for coord, units in sorted(by_hex.items()):
        groups = _groups(units)
        for box, ((kingdom, where), group) in zip(
            counter_boxes(coord, len(groups)), groups, strict=True
        ):
            yield _counter(state, coord, box, (kingdom, where), group)


def holding(units: list[Unit]) -> str:
    """What a counter holds, as printed on it: armies (A), fleets (F), ♚ a monarch, ★ a
    hero."""
    fleets = sum(1 for u in units if is_fleet(u))
    armies = sum(1 for u in units if not is_fleet(u) and not is_hero(u))
    marks = "".join(
        "\u265a" if u.id.endswith("-monarch") else "\u2605" for u in units if is_hero(u)
    )
    return f"{f'{armies}A' if armies else ''}{f'{fleets}F' if fleets else ''}{marks}"


def _counter(
    state: State,
    coord: Hex,
    box: tuple[float, float, float, float],
    group: tuple[str, str],
    units: list[Unit],
) -> str:
    (x, y, width, height), (kingdom, where) = box, group
    combat = sum(1 for u in units if not is_hero(u))
    label = holding(units)
    fit = f' textLength="{width - 3:.1f}" lengthAdjust="spacingAndGlyphs"' if len(label) > 4 else ""
    who = ", ".join(f"{u.id} ({state.controller(u) or '-'})" for u in units)
    return (
        f'<g class="counter {where}" data-hex="{coord[0]},{coord[1]}" '
        f'data-kingdom="{text(_name(kingdom))}" data-count="{combat}" '
        f'data-units="{text(" ".join(u.id for u in units))}">'
        f"<title>{text(_name(kingdom))} {where}, {text(label)}: {text(who)}</title>"
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" rx="1.5" '
        f'fill="{_colour(state, units[0])}"/>'
        f'<text x="{x + width / 2:.1f}" y="{y + height * 0.72:.1f}"{fit}>{text(label)}</text></g>'
    )


def _colour(state: State, unit: Unit) -> str:
    return player_colour(tuple(p.name for p in state.players), state.controller(unit))


def _legend(state: State, bottom: float) -> Iterator[str]:
    """Below the map: each player's colour, name and the kingdoms whose counters are
    theirs (units of no player's alliance in grey)."""
    names = tuple(p.name for p in state.players)
    x, y = SIZE, bottom + 0.8 * SIZE
    yield '<g class="legend">'
    for player in (*names, None):
        kingdoms = ", ".join(state.alliance(player)) if player else "no player's kingdoms"
        words = f"{player}: {kingdoms}" if player else kingdoms
        width = 7 * len(words) + 40
        if x + width > 34 * WIDTH:
            x, y = SIZE, y + 0.8 * SIZE
        yield (
            f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="12" height="12" '
            f'fill="{player_colour(names, player)}"/>'
            f'<text x="{x + 16:.1f}" y="{y:.1f}"><tspan class="player">{text(player or "")}'
            f"</tspan>{text(words[len(player or '') :])}</text>"
        )
        x += width
    yield "</g>"
