"""How eu-pop presents itself (`warscribe.engine.presenter`): its queries as text a player
reads (docs/eu-pop.md, "Command line"), the realms' treasury and prestige position by
position in the viewer, and its events in the story's words (`story.py`). It has no board."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from warscribe.engine.errors import InvalidCommand
from warscribe.engine.presenter import COUNT, Frame, Param, Presenter, Query, columns, plain

from . import story
from .projections import PROJECTIONS
from .state import POWER_TYPES, EuState, ducats_text

JSON = dict[str, Any]


def signed(amount: float) -> str:
    """Ducats with their sign, as a statement line reads: `+9`, `-½`, `0`."""
    text = ducats_text(Fraction(amount))
    return f"+{text}" if amount > 0 else text


_TREASURY_COLUMNS = (
    "realm", "player", "ducats", "interest", *POWER_TYPES,
    "manpower", "exhausted", "stability", "prestige",
)  # fmt: skip


def _resources_row(realm: str, r: JSON) -> list[str]:
    stability = r["stability"]
    return [
        realm,
        r["player"],
        ducats_text(Fraction(r["ducats"])),
        str(r["interest_tokens"]),
        *_power_cells(r["monarch_power"]),
        str(r["manpower"]["available"]),
        str(r["manpower"]["exhausted"]),
        f"{stability:+d}" if stability else "0",
        str(r["prestige"]),
    ]


def treasury_text(data: JSON) -> str:
    rows = [list(_TREASURY_COLUMNS)]
    rows += [_resources_row(realm, r) for realm, r in data["realms"].items()]
    return "\n".join([f"treasury at {data['position']}", *columns(rows, right_from=2)])


def _power_cells(amounts: Mapping[str, int]) -> list[str]:
    return [str(amounts[kind]) for kind in POWER_TYPES]


def _statement_text(realm: str, s: JSON) -> list[str]:
    rows = [["opening balance", ducats_text(Fraction(s["opening"]))]]
    rows += [[f"  {label}", signed(amount)] for label, amount in s["lines"]]
    rows += [
        ["total", signed(s["total"])],
        ["closing balance", ducats_text(Fraction(s["closing"]))],
    ]
    if s["shortfall"]:
        rows.append(["shortfall (bankrupt)", ducats_text(Fraction(s["shortfall"]))])
    return [realm, *(f"  {line}" for line in columns(rows))]


def income_statement_text(data: Mapping[str, JSON]) -> str:
    lines: list[str] = []
    for n, realms in data.items():
        lines += [f"Round {n}: income statement (Phase 4, step B)", ""]
        for realm, s in realms.items():
            lines += [*_statement_text(realm, s), ""]
    return "\n".join(lines).rstrip() or "no income statement recorded yet"


def monarch_power_text(data: Mapping[str, JSON]) -> str:
    lines: list[str] = []
    for n, realms in data.items():
        lines += [f"Round {n}: monarch power collected (Phase 4, step D)", ""]
        for realm, c in realms.items():
            rows = [[realm, *POWER_TYPES]]
            rows += [[f"  {label}", *_power_cells(power)] for label, power in c["lines"]]
            rows.append(["  total", *_power_cells(c["total"])])
            lines += [*columns(rows), ""]
    return "\n".join(lines).rstrip() or "no monarch power collected yet"


def prestige_text(data: Mapping[str, JSON]) -> str:
    lines: list[str] = []
    for realm, p in data.items():
        lines.append(f"{realm}: prestige {p['prestige']}")
        for n, scored in p["rounds"].items():
            parts = [f"{label} {points:+d}" for label, points in scored["lines"] if points]
            lines.append(
                f"  round {n}: {', '.join(parts) or 'nothing'} (total {scored['total']:+d})"
            )
    return "\n".join(lines)


def pick_round(name: str, data: Mapping[str, JSON], round_: int | None) -> Mapping[str, JSON]:
    """`data` keyed by round, narrowed to `round_` when one is asked for."""
    if round_ is None:
        return data
    if str(round_) not in data:
        recorded = ", ".join(data) or "none yet"
        raise InvalidCommand(
            f"{name} has no round {round_} (rounds recorded: {recorded})", "--round"
        )
    return {str(round_): data[str(round_)]}


ROUND = Param(
    "round_", COUNT, "Only this round (the JSON keeps its shape: {ROUND: ...}).", "--round"
)


def _by_round(name: str) -> Any:
    """The data of the projection `name`, keyed by round, narrowed to `--round`."""
    return lambda state, asked: pick_round(name, PROJECTIONS[name](state), asked.values["round_"])


QUERIES: Mapping[str, Query] = {
    "treasury": Query(
        "Each realm's ducats, interest tokens, monarch power, manpower, stability and prestige.",
        ("treasury --at 1.income-upkeep --json",),
        plain(treasury_text),
    ),
    "income-statement": Query(
        "Phase 4 step B of each round, line by line for each realm, like a bank statement.",
        ("income-statement --round 1",),
        plain(income_statement_text),
        _by_round("income-statement"),
        (ROUND,),
    ),
    "monarch-power": Query(
        "Phase 4 step D of each round: the monarch power each realm collected, and why.",
        ("monarch-power --round 1 --json",),
        plain(monarch_power_text),
        _by_round("monarch-power"),
        (ROUND,),
    ),
    "prestige": Query(
        "Each realm's prestige and what step E scored in each round.",
        ("prestige --json",),
        plain(prestige_text),
    ),
}


def frame(state: EuState) -> Frame:
    """The realms' treasury as a table in words and numbers, as `treasury` prints it;
    their ducats and prestige charted by round."""
    realms = PROJECTIONS["treasury"](state)["realms"]
    rows = [_resources_row(name, row) for name, row in realms.items()]
    return Frame(
        tables={"Realms": [dict(zip(_TREASURY_COLUMNS, row, strict=True)) for row in rows]},
        series={
            "Treasury (ducats)": {name: row["ducats"] for name, row in realms.items()},
            "Prestige": {name: row["prestige"] for name, row in realms.items()},
        },
        axis=f"round {state.round}" if state.round else "",
    )


PRESENTER = Presenter(
    QUERIES,
    "ROUND.PHASE (e.g. 2.action, 1.income-upkeep) or #SEQ; default: now.",
    frame=frame,
    sentences=story.SENTENCES,
)
