"""Build warscribe's Divine Right map file from the public hex transcription.

    python tools/build_dr_map.py SOURCE.json engine/rulesets/divine_right/datafiles/map.json

SOURCE is the 25th-anniversary map as a list of hexes ({col, row, terrain, name?,
kingdom?, defense?}). The output keeps every hex as one compact row, adds the basic game's
exclusions, and derives the navigable-river hexsides from the NAVIGABLE flags (the source
marks hexes beside the river, not the sides it runs along). Two of the rulebook's facts
correct the source's flags: the castles absent from the basic game are written as clear
terrain, and the four Troll spaces as scenic spaces (see TERRAIN_RULES). Castle defence
values stay out: castles.json holds them, with the rulebook's errata.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from pathlib import Path
from typing import Any

from warscribe.engine.rulesets.divine_right.data import Coord, Side, hex_adjacent

Vertex = frozenset[Coord]
Graph = dict[Vertex, list[tuple[Vertex, Side]]]

WATER = frozenset({"SEA", "SEASHORE", "LAKE", "LAKESHORE"})

NAVIGABLE_RIVERS = "Movement Phase › Navigable Rivers"
HOTHIOR = "Special Rules for Select Kingdoms › Hothior"

# Rulebook facts and how each offset convention fares: (odd-r, odd-q, even-q, even-r).
FACTS = [
    (NAVIGABLE_RIVERS, "the hex southeast of Addat is coastal", "pass pass fail pass"),
    (HOTHIOR, "The Boom is the coastal space next to Port Lork", "pass pass pass pass"),
    (
        HOTHIOR,
        "enemy fleets stop in the Boom before entering Port Lork, so the Boom is Port "
        "Lork's only coastal neighbour",
        "pass fail pass fail",
    ),
    (
        NAVIGABLE_RIVERS,
        "Lake Carth, to the west of Pennol, is a small sea: the hexes west of Pennol are SEASHORE",
        "pass pass pass pass",
    ),
    (NAVIGABLE_RIVERS, "the hex northeast of Adeese is coastal", "pass pass pass fail"),
    (
        NAVIGABLE_RIVERS,
        "the hex southeast of Castle Lapspell is coastal and the Deep begins east of it",
        "pass fail fail fail",
    ),
    (
        NAVIGABLE_RIVERS,
        "the Deep's furthest inland hexes lie southwest of Pennol: the hex two steps "
        "southwest of Pennol is NAVIGABLE",
        "pass fail fail pass",
    ),
    (NAVIGABLE_RIVERS, "Parros is surrounded by coastal hexes", "pass fail fail fail"),
    (
        NAVIGABLE_RIVERS,
        "the river follows hexsides, so the sides between NAVIGABLE hexes join into one chain",
        "pass fail fail fail",
    ),
]
CONVENTIONS = ("odd-r", "odd-q", "even-q", "even-r")
CALIBRATION = [
    "The source does not say how its grid is laid out; each rulebook fact was tested "
    "against the four offset conventions.",
    *(
        f"{rule}: {fact}. "
        + ", ".join(f"{c} {r}" for c, r in zip(CONVENTIONS, results.split(), strict=True))
        for rule, fact, results in FACTS
    ),
    "Column 34 holds only even rows: the half hexes of the shifted odd rows fall off the "
    "map's right edge, as in an odd-r grid.",
    "Only odd-r passes every check: pointy-topped hexes in rows, odd rows shifted half a hex "
    "right. The data notes' first guess (flat-topped columns, odd-q) fails "
    f"{sum(results.split()[1] == 'fail' for _, _, results in FACTS)} of {len(FACTS)}.",
]

METHOD = (
    "A river along hexsides has hexes on both banks, and the source flags every such hex "
    "NAVIGABLE. Candidate sides are the sides between two NAVIGABLE hexes; a vertex where "
    "candidate sides meet is a river end when it also touches a sea, seashore, lake or "
    "lakeshore hex that is not NAVIGABLE. The River Deep is the shortest chain of candidate "
    "sides between the two ends (its mouth east of the hex southeast of Castle Lapspell, its "
    "head on Lake Carth southwest of Pennol); the build fails unless there are exactly two "
    "ends and one shortest chain. The first hex of the River Waning is the one minor-river "
    "hex next to the Deep; a river runs through it rather than along its sides."
)

DOUBTS = [
    "Transcription of the 25th-anniversary map from a public hobby repository; author "
    "unknown, not checked against the printed map.",
    "Minor rivers are marked per hex; whether a move runs 'along the valley' cannot be told "
    "from the flags.",
    "MAP ERRATA, Dark River: the rulebook says the river leaves Muetar in the more southerly "
    "of two hexes. Rivers are not named in the source, so the place was not found; the "
    "river hexes are as transcribed.",
    "MAP ERRATA, castle values (Aws Alzak 4, Parros 3, The Keep 2, Zefnar 3) are applied in "
    "castles.json; the source already agrees with them.",
    "The source tags only one hex each for the Eaters of Wisdom and the Black Hand (their "
    "castles): their territory may be larger on the printed map. Unclaimed in the basic "
    "game either way.",
    "The four Troll spaces are the only hexes tagged Trolls; the source gives them no SCENIC "
    "flag, the rulebook calls them 'the four scenic spaces of the Troll kingdom': the flag is "
    "added (terrain_rules).",
    "The Keep, the Invisible School and the Tower of Zards are printed as castles (CASTLE, "
    "and ROYAL for the two seats of the Eaters of Wisdom and the Black Hand); in the basic "
    "game the castles do not exist, and the source flags no other terrain under them, so "
    "each hex is written as clear terrain (terrain_rules). The Tower of Zards stands among "
    "mountains and the Invisible School beside a lake: the printed map may show a mountain "
    "or a lake shore there, to be checked.",
]

RULES = {
    "unclaimed_kingdoms": "Kingdoms: the Eaters of Wisdom and the Black Hand are not used in "
    "the basic game; their hexes are unclaimed territory.",
    "unclaimed_hexes": "Special Rules for Select Kingdoms › Shucassam: the Obelisk is a "
    "wasteland space, not part of Shucassam, in the basic game.",
    "absent_castles": "Victory: the Invisible School, the Tower of Zards and the Keep do not "
    "exist in the basic game.",
}


ABSENT_CASTLES = ["Invisible School", "Tower of Zards", "The Keep"]
CASTLE_FLAGS = frozenset({"CASTLE", "ROYAL", "PORT"})
SCENIC_KINGDOMS = frozenset({"Trolls"})
TERRAIN_RULES = {
    "absent_castles": "Victory: 'In the Basic Game, the following castles do not exist and "
    "cannot be plundered: the Invisible School, the Tower of Zards, and the Keep.' Their "
    "CASTLE, ROYAL and PORT flags are dropped, leaving clear terrain: the source flags "
    "nothing else there, and a castle that ceases to exist (plundered) 'is considered "
    "simply a clear space for movement purposes' (Movement Phase › Castles).",
    "scenic_kingdoms": "Special Rules for Select Kingdoms › The Trolls: 'The Trollish "
    "monarch may enter play in any of the four scenic spaces of the Troll kingdom': the "
    "hexes tagged Trolls get the SCENIC flag the source leaves out (scenic spaces are clear "
    "terrain in the basic game: Movement Phase › Scenic Spaces).",
}


def read_source(path: Path) -> dict[Coord, dict[str, Any]]:
    hexes: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return {(h["col"], h["row"]): h for h in hexes}


def flagged(hexes: dict[Coord, dict[str, Any]], flag: str) -> set[Coord]:
    return {coord for coord, h in hexes.items() if flag in h["terrain"]}


def side_ends(a: Coord, b: Coord) -> tuple[Vertex, Vertex]:
    """The two corners of the side between adjacent hexes a and b (each named by the
    three hexes that meet there)."""
    first, second = sorted(set(hex_adjacent(*a)) & set(hex_adjacent(*b)))
    return frozenset({a, b, first}), frozenset({a, b, second})


def candidate_graph(navigable: set[Coord]) -> Graph:
    graph: Graph = {}
    for a in sorted(navigable):
        for b in hex_adjacent(*a):
            if b in navigable and a < b:
                start, end = side_ends(a, b)
                graph.setdefault(start, []).append((end, (a, b)))
                graph.setdefault(end, []).append((start, (a, b)))
    return graph


def river_ends(
    graph: Graph, hexes: dict[Coord, dict[str, Any]], navigable: set[Coord]
) -> list[Vertex]:
    """Corners of candidate sides that touch open water (sea, lake or their shores)."""
    water = {c for c, h in hexes.items() if WATER & set(h["terrain"])} - navigable
    return sorted((v for v in graph if v & water), key=sorted)


def shortest_chain(graph: Graph, start: Vertex, end: Vertex) -> list[Side]:
    """The one shortest chain of sides from start to end (SystemExit if none or several)."""
    depth, paths, came_from = {start: 0}, {start: 1}, {}
    queue = deque([start])
    while queue:
        vertex = queue.popleft()
        for nxt, side in graph[vertex]:
            if nxt not in depth:
                depth[nxt], paths[nxt], came_from[nxt] = depth[vertex] + 1, 0, (vertex, side)
                queue.append(nxt)
            if depth[nxt] == depth[vertex] + 1:
                paths[nxt] += paths[vertex]
    if paths.get(end) != 1:
        raise SystemExit(f"the river is ambiguous: {paths.get(end, 0)} shortest chains")
    chain = []
    while end != start:
        end, side = came_from[end]
        chain.append(side)
    return chain[::-1]


def derive_river(hexes: dict[Coord, dict[str, Any]]) -> tuple[list[Side], list[Coord], list[str]]:
    """The river's sides, the hexes a navigable river runs through, and what is left over."""
    navigable = flagged(hexes, "NAVIGABLE")
    graph = candidate_graph(navigable)
    ends = river_ends(graph, hexes, navigable)
    if len(ends) != 2:
        raise SystemExit(f"expected the river's two ends, found {len(ends)}")
    sides = shortest_chain(graph, ends[0], ends[1])
    banks = {coord for side in sides for coord in side}
    minor = flagged(hexes, "RIVER") - navigable
    waning = sorted(c for c in minor if navigable & set(hex_adjacent(*c)))
    if len(waning) != 1:
        raise SystemExit(f"expected one minor-river hex next to the Deep, found {waning}")
    doubts = [
        f"Hex {list(c)} is flagged NAVIGABLE but no chain of river sides from the sea to "
        "Lake Carth passes it; it gets no river side (a spur of the river, or a "
        "transcription slip)."
        for c in sorted(navigable - banks)
    ]
    doubts.append(
        f"The first hex of the River Waning is taken to be {list(waning[0])}, the only "
        "minor-river hex next to the Deep; the source does not name rivers."
    )
    return sides, waning, doubts


def basic_terrain(h: dict[str, Any]) -> list[str]:
    """The hex's flags in the basic game (TERRAIN_RULES): an absent castle's hex without
    its castle flags, a Troll space with the SCENIC flag."""
    flags = set(h["terrain"])
    if h.get("name") in ABSENT_CASTLES:
        flags -= CASTLE_FLAGS
    if h.get("kingdom") in SCENIC_KINGDOMS:
        flags.add("SCENIC")
    return sorted(flags)


def hex_row(h: dict[str, Any]) -> list[Any]:
    return [h["col"], h["row"], basic_terrain(h), h.get("name"), h.get("kingdom")]


def build(hexes: dict[Coord, dict[str, Any]]) -> dict[str, Any]:
    sides, waning, river_doubts = derive_river(hexes)
    named = {h["name"]: coord for coord, h in hexes.items() if "name" in h}
    return {
        "format": "warscribe-dr-map",
        "version": 1,
        "title": "Divine Right map of Minaria (25th-anniversary edition), basic game",
        "sources": "Built by tools/build_dr_map.py from dr25-map-hexes.json (public "
        "transcription); the rulebook's map errata and basic-game rules applied.",
        "doubts": DOUBTS,
        "grid": {
            "layout": "pointy-topped hexes in rows",
            "offset": "odd-r",
            "columns": 1 + max(c for c, _ in hexes),
            "rows": 1 + max(r for _, r in hexes),
            "calibration": CALIBRATION,
        },
        "exclusions": {
            "unclaimed_kingdoms": ["Eaters of Wisdom", "Black Hand"],
            "unclaimed_hexes": [list(named["The Obelisk"])],
            "absent_castles": ABSENT_CASTLES,
            "rules": RULES,
        },
        "terrain_rules": TERRAIN_RULES,
        "navigable_river": {
            "method": METHOD,
            "doubts": river_doubts,
            "hexsides": [[list(a), list(b)] for a, b in sides],
            "hexes": [list(c) for c in waning],
        },
        "hexes": [hex_row(hexes[c]) for c in sorted(hexes, key=lambda c: (c[1], c[0]))],
    }


def dump(doc: dict[str, Any]) -> str:
    """JSON with one line per hex and per river side, so the file reads and diffs well."""
    compact = {"hexes": doc["hexes"], "hexsides": doc["navigable_river"]["hexsides"]}
    marked = {**doc, "hexes": "@hexes", "navigable_river": {**doc["navigable_river"]}}
    marked["navigable_river"]["hexsides"] = "@hexsides"
    text = json.dumps(marked, indent=2, ensure_ascii=False)
    for key, rows in compact.items():
        indent = " " * (6 if key == "hexsides" else 4)
        lines = ",\n".join(indent + json.dumps(row, ensure_ascii=False) for row in rows)
        text = text.replace(f'"@{key}"', f"[\n{lines}\n{indent[:-2]}]")
    return text + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="dr25-map-hexes.json")
    parser.add_argument("out", type=Path, help="where to write map.json")
    args = parser.parse_args(argv)
    args.out.write_text(dump(build(read_source(args.source))), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
