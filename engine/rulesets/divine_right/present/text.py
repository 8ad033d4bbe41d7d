"""Divine Right's queries as text a player reads: each takes the query's data with every
string in it already escaped (`store.views.printable`)."""

from __future__ import annotations

from typing import Any

from warscribe.engine.presenter import columns


def banishments_text(data: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for player, rows in data.items():
        lines.append(f"{player}: " + ("none" if not rows else ""))
        for b in rows:
            length = (
                "until its monarch dies"
                if b["until_turn"] is None
                else f"until turn {b['until_turn']}"
            )
            lines.append(f"  {b['kingdom']}: {length} ({b['why']})")
    return "\n".join(lines)


_KINGDOM_COLUMNS = ("kingdom", "status", "player/ally", "monarch", "notes")


def kingdom_cells(k: dict[str, Any]) -> list[str]:
    """A kingdom in words, as `_KINGDOM_COLUMNS`: status, its player or ally, where its
    monarch is, then Confusion or Forced Peace and its personality card when face up."""
    notes = []
    if k["confusion_until"]:
        notes.append(f"Confusion until turn {k['confusion_until']}")
    elif k["forced_peace_until"]:
        notes.append(f"Forced Peace until turn {k['forced_peace_until']}")
    if k["personality_name"]:
        notes.append(f"personality {k['personality']} {k['personality_name']}")
    whose = k["player"] or k["ally"] or "-"
    return [k["kingdom"], k["status"], whose, k["monarch"], ", ".join(notes)]


def kingdom_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The viewer's kingdom table: the words of `kingdoms`, and the units each has."""
    table = []
    for k in rows:
        *words, notes = kingdom_cells(k)
        named = dict(zip(_KINGDOM_COLUMNS[:-1], words, strict=True))
        table.append({**named, "units": k["units"], "notes": notes})
    return table


def kingdoms_text(rows: list[dict[str, Any]]) -> str:
    """A row per kingdom under a header (`kingdom_cells`)."""
    table = [list(_KINGDOM_COLUMNS), *(kingdom_cells(k) for k in rows)]
    return "\n".join(columns(table, right_from=len(_KINGDOM_COLUMNS)))


def sieges_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no castle is under siege"
    lines = []
    for s in rows:
        state = "valid" if s["valid"] else "INVALID"
        end = ", displaced at the end of the turn" if s["displaced_at_end_of_turn"] else ""
        lines.append(
            f"{s['castle']:<16} besieged by {s['besieger']}: {s['besieging']} against defence "
            f"{s['defence']} + {s['inside']} inside ({state}{end}), since turn {s['since_turn']}"
        )
    return "\n".join(lines)


def board_text(view: dict[str, Any]) -> str:
    """The text map, its legend, and one line per stack."""
    key = ", ".join(f"{k} {v}" for k, v in view["legend"].items())
    terrain = (
        "C castle, P castle-port, p port, M mountain, = pass, h hills, f forest, "
        "s swamp, r river, ~ sea, i Isle of Fright"
    )
    rows = [*view["rows"], "", f"players: {key}", f"terrain: {terrain}", ""]
    return "\n".join(rows) + "\n" + stacks_text(view["stacks"])


def stacks_text(rows: list[dict[str, Any]]) -> str:
    """One line per stack: the space and its units."""
    lines = []
    for row in rows:
        units = ", ".join(_unit_text(u) for u in row["units"])
        lines.append(f"{row['place']:<18} {units}")
    return "\n".join(lines)


def _unit_text(unit: dict[str, Any]) -> str:
    notes = []
    if unit["inside"]:
        notes.append("inside")
    if unit["aboard"]:
        notes.append(f"aboard {unit['aboard']}")
    extra = f" [{'; '.join(notes)}]" if notes else ""
    return f"{unit['unit']} ({unit['player'] or '-'}){extra}"


def vp_text(data: dict[str, Any]) -> str:
    lines = [f"{player}: {points}" for player, points in data["totals"].items()]
    lines += [
        f"  turn {d['turn']:>2}  {d['player']}: {d['deed']} ({d['points']:+d})"
        for d in data["ledger"]
    ]
    return "\n".join(lines)


def hand_text(data: dict[str, Any]) -> str:
    return f"{data['player']}: " + (", ".join(data["cards"]) or "no cards")


def reach_text(rows: list[dict[str, Any]], units: tuple[str, ...]) -> str:
    """A line per space reached (its cost and the command), or why there is none."""
    lines = [f"{r['space'][0]},{r['space'][1]}  cost {r['cost']}  {r['command']}" for r in rows]
    none = f"{' '.join(units)} can reach no space this phase: every step is refused"
    return "\n".join(lines or [none])
