"""`reach` from the command line (Movement Phase): a line per space a stack can reach,
its cost and the command to type, which `move` accepts when typed as printed (on a copy
of the store); `--json`; `status` says how to ask; earlier in the turn, the coming
phase's; refused after it."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Any

from .club import Club, new_three
from .test_divine_right_movement_cli import FIRST_MOVES, to_movement


def moving(tmp_path: Path) -> tuple[Club, dict[str, Any], str]:
    """A game of three at its first Movement Phase: the club, its status, and the
    kingdom of the player who moves."""
    club = Club(tmp_path)
    new_three(club, "seeded:1")
    status = to_movement(club)
    return (
        club,
        status,
        next(p["kingdom"] for p in status["players"] if p["player"] == status["player"]),
    )


def test_reach_lists_each_space_with_its_cost_and_the_move_to_type(tmp_path: Path) -> None:
    """Movement Phase › Movement and Terrain: each line is `SPACE  cost N  COMMAND`, and
    the commands printed are accepted by `move` as typed."""
    club, status, kingdom = moving(tmp_path)
    assert "where can a stack go: warscribe reach STACK" in club.ok("status")
    move = next(h for h in status["may_type"] if h["command"].startswith("move STACK"))
    assert move["ask"] == "where can a stack go: warscribe reach STACK"
    space, _, unit = FIRST_MOVES[kingdom]
    lines = club.ok("reach", space).splitlines()
    assert lines and all("  cost " in line for line in lines)
    rows = club.json("reach", unit)
    assert [f"{r['space'][0]},{r['space'][1]}  cost {r['cost']}  {r['command']}" for r in rows] == (
        lines
    )
    assert rows[0]["cost"] <= rows[-1]["cost"] and rows[0]["command"].startswith(f"move {unit}")
    for row in (rows[0], rows[-1]):
        copy = tmp_path / f"copy-{row['cost']}"
        copy.mkdir()
        shutil.copy(club.store, copy / "club.db")
        played = Club(copy)
        played.ok(*shlex.split(row["command"]))
        moved = [s for s in played.json("stacks") if unit in [u["unit"] for u in s["units"]]]
        assert moved[0]["hex"] == row["space"]
    assert "Example:" in club.ok("reach", "--help")


def test_reach_answers_for_the_coming_movement_phase_and_is_refused_after_it(
    tmp_path: Path,
) -> None:
    """Movement Phase: stacks move only in their player's Movement Phase; `reach --at` an
    earlier phase of that player's turn answers for the coming one (a whole turn in one
    mail); in the Combat Phase it is refused, saying so (exit 1, the rule)."""
    club, _, kingdom = moving(tmp_path)
    _, _, unit = FIRST_MOVES[kingdom]
    assert club.json("reach", unit, "--at", "1.1.diplomacy") == club.json("reach", unit)
    other = next(u for k, (_, _, u) in FIRST_MOVES.items() if k != kingdom)
    refused = club.run("reach", other)
    assert refused.exit_code == 1 and "is not one of" in refused.output
    club.ok("end-phase")
    refused = club.run("reach", unit)
    assert refused.exit_code == 1
    assert "Combat Phase" in refused.output and "(Movement Phase)" in refused.output


def test_map_svg_lights_up_the_spaces_a_stack_can_reach(tmp_path: Path) -> None:
    """Issue 32: reach drawn on the map: `map --svg FILE --reach STACK` marks each space
    `reach` lists, titled with its cost and the command to type; without a picture it is
    a usage error."""
    import re

    club, _, kingdom = moving(tmp_path)
    _, _, unit = FIRST_MOVES[kingdom]
    rows = club.json("reach", unit)
    club.ok("map", "--svg", str(tmp_path / "reach.svg"), "--reach", unit)
    picture = (tmp_path / "reach.svg").read_text(encoding="utf-8")
    lit = re.findall(r'<polygon class="reach" data-hex="(\d+),(\d+)"', picture)
    assert sorted((int(c), int(r)) for c, r in lit) == sorted(tuple(r["space"]) for r in rows)
    assert f"cost {rows[0]['cost']}: {rows[0]['command']}" in picture
    assert 'class="reach"' not in club.ok("map", "--svg", str(tmp_path / "b.svg"), "--force")
    assert club.run("map", "--reach", unit).exit_code == 2
