"""Two realms through three rounds, every figure worked out by hand in the comments.

France (alice) is the papal controller; Austria (bob) is the Emperor. Figures are written
adm/dip/mil for monarch power. The comments give each change and the running totals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tests.engine.eu_pop.table import Table, treasury_row
from warscribe.engine import codec
from warscribe.engine.record import fold, verify
from warscribe.engine.rulesets.eu_pop.events import LoanTaken
from warscribe.engine.rulesets.eu_pop.state import Power

START: dict[str, Any] = {
    "round": 1,
    "phase": "draw",
    "turn_order": ["France", "Austria"],
    "papacy": {"controller": "France", "catholic_prs": 3},
    "empire": {"emperor": "Austria", "imperial_authority": 2},
    "realms": {
        "France": {
            "ducats": 12,
            "monarch_power": {"adm": 3, "dip": 2, "mil": 3},
            "manpower": {"available": 6, "exhausted": 3},
            "stability": 1,
            "prestige": 0,
            "ruler": {"name": "Charles VII", "adm": 2, "dip": 1, "mil": 2},
            "advisors": [{"name": "Jacques Coeur", "slot": "adm", "skill": 1, "upkeep": 2}],
            "leaders": [{"name": "Jean de Dunois", "kind": "general", "mat": "Army I"}],
            "armies": ["Army I", "Army II"],
            "fleets": ["Fleet I"],
            "units": {"regulars": 4, "mercenaries": 1, "ships_at_sea": 1, "ships_in_port": 1},
            "tax": {"base": 9, "vassal": 1},
            "allies": [
                {"name": "Savoy", "kind": "npr", "tax_value": 5, "influence": 2, "adjacent": True}
            ],
            "influence": 3,
        },
        "Austria": {
            "ducats": 10,
            "monarch_power": {"adm": 2, "dip": 3, "mil": 2},
            "manpower": {"available": 5, "exhausted": 2},
            "stability": 0,
            "prestige": 1,
            "ruler": {"name": "Frederick III", "adm": 1, "dip": 2, "mil": 1},
            "advisors": [{"name": "Ulrich von Cilli", "slot": "dip", "skill": 1, "upkeep": 1}],
            "armies": ["Army I", "Army II"],
            "units": {"regulars": 3},
            "tax": {"base": 7, "vassal": 2, "plague": 2},
            "allies": [
                {"name": "Bohemia", "kind": "npr", "tax_value": 6, "influence": 1, "adjacent": True}
            ],
            "influence": 2,
        },
    },
}


def round_1(table: Table) -> None:
    table.do("alice", "end-phase")  # 1.draw -> 1.action, France to act
    # France hires a military advisor: 12 - 3 = 9 ducats.
    table.do(
        "alice", "appoint-advisor", slot="mil", name="Gaston de Foix", skill=2, cost=3, upkeep=2
    )
    # Its Turn Action, recruiting, is entered:
    #   9 - 2 = 7 ducats, 4 + 2 = 6 regulars, 6 - 2 = 4 manpower available.
    table.do(
        "alice",
        "adjust",
        reason="Turn Action: recruit 2 regulars",
        ducats=-2,
        regulars=2,
        manpower=-2,
    )
    table.do("alice", "end-turn", action="Recruit")
    # Austria borrows: 10 + 5 = 15 ducats, 1 interest token.
    table.do("bob", "take-loan")
    table.do("bob", "end-turn", action="Diplomacy")
    # France passes, gaining 1 ducat as entered: 8.
    table.do("alice", "pass", ducats=1)
    # Austria refreshes 2 exhausted units for 1 mil: mil 2 - 1 = 1;
    #   manpower 5 + 2 = 7 available, 0 exhausted.
    table.do("bob", "replenish-manpower", units=2)
    table.do("bob", "pass")
    table.end_phase("income-upkeep")
    table.step("income-cut-costs")
    # B, France: 9 base + 1 vassal - 2 upkeep (2-1 + 2-1, papal controller) - 6 regulars
    #   - 2 (1 mercenary) - ½ (1 ship at sea) + 2 stability = 1½; 8 -> 9½.
    # B, Austria: 7 + 2 - 1 upkeep - 3 regulars - 1 interest - 1 plague (½ of 2)
    #   + 2 imperial authority = 5; 15 -> 20.
    table.step("income-corruption")  # 9½ and 20: below 50, nothing owed
    # D, France: ruler 2/1/2 + advisors 1/0/2 + papal 0/1/0 = 3/2/4; 3/2/3 -> 6/4/7.
    table.do("alice", "income-monarch-power")
    # D, Austria: ruler 1/2/1 + advisor 0/1/0 + emperor 0/1/0 as entered = 1/4/1; 2/3/1 -> 3/7/2.
    table.do("bob", "income-monarch-power", emperor="dip=1")
    # E, France: uncontested papal controller, 3 Catholic PRs: 3 - 1 = 2 prestige. Austria: 0.
    table.step("income-prestige")
    table.do("alice", "end-phase")  # -> 2.draw


def round_2(table: Table) -> None:
    # Austria takes an idea at the table.
    table.do("bob", "adjust", reason="Idea taken at the table", gain_idea="Absolute Monarchy")
    table.do("alice", "end-phase", order="Austria,France")  # -> 2.action, Austria first
    # Austria's Turn Action raises stability: adm 3 - 2 = 1, stability 0 -> 3.
    table.do("bob", "adjust", reason="Turn Action: raise stability", adm=-2, stability=3)
    table.do("bob", "end-turn", action="Raise stability")
    # France declares war and calls Savoy: 2 influence discarded (2 -> 0); ½ of tax 5 = 2 units
    # (manpower 4 -> 6); Savoy borders the new enemy: mil 7 + 1 = 8.
    table.do("alice", "call-to-arms", mode="offensive", allies="Savoy", near_enemy="Savoy")
    table.do("alice", "end-turn", action="Declare war on Milan")
    # Austria repays its loan: 20 - 6 = 14 ducats, no interest token.
    table.do("bob", "repay-loan")
    table.do("bob", "pass")
    # France employs an admiral: mil 8 - 2 = 6; passes, gaining 1 ducat: 9½ + 1 = 10½.
    table.do(
        "alice", "appoint-leader", kind="admiral", name="Prégent de Bidoux", mat="Fleet I", cost=2
    )
    table.do("alice", "pass", ducats=1)
    table.end_phase("peace")
    # The war costs France 2 regulars (6 -> 4; exhausted 3 -> 5) and ends: Savoy at peace.
    table.do("alice", "adjust", reason="War with Milan: 2 regulars lost", regulars=-2, exhausted=2)
    table.do(
        "alice",
        "adjust",
        reason="Peace with Milan",
        ally="Savoy",
        ally_at_peace=True,
        ally_active=False,
    )
    table.end_phase("income-upkeep")
    # A: France disbands its mercenary; Austria cuts nothing.
    table.do("alice", "income-cut-costs", disband_mercenaries=1)
    table.do("bob", "income-cut-costs")
    # B, France: 9 + 1 - 2 - 4 regulars - ½ ship + 2 = 5½; 10½ -> 16.
    # B, Austria: 7 + 2 - 1 - 3 - 0 interest - 1 plague + 2 stability + 2 = 8; 14 -> 22.
    table.step("income-corruption")
    # D, France: 3/2/4 again; 6/4/6 -> 9/6/10.
    table.do("alice", "income-monarch-power")
    # D, Austria at +3 stability gains 1 adm and 1 mil: 1/2/1 + 0/1/0 + 1/0/1 + emperor 0/1/0
    #   = 2/4/2; 1/7/2 -> 3/11/4.
    table.do("bob", "income-monarch-power", gain="adm,mil", emperor="dip=1")
    # E, France: 2 more prestige (4). Austria: Absolute Monarchy at +3 stability 1, and a
    #   power struggle scored 1 as entered: 2 more (3).
    table.do("alice", "income-prestige")
    table.do("bob", "income-prestige", power_struggle=1)
    table.do("alice", "end-phase")  # -> 3.draw


def round_3(table: Table) -> None:
    # Frederick III dies with no heir in hand: Austria is in interregnum.
    table.do("bob", "adjust", reason="Event: Frederick III dies", discard="Frederick III")
    table.do("alice", "end-phase", order="France,Austria")  # -> 3.action, France first
    # France plays a treasure fleet: 16 + 40 = 56 ducats.
    table.do("alice", "adjust", reason="Action card: treasure fleet", ducats=40)
    # On France's turn Austria answers with a card costing 27 ducats that brings 6
    # mercenaries; it holds 22, so it borrows as a Reaction: 22 + 5 - 27 = 0, 1 token.
    events = table.do(
        "bob",
        "adjust",
        reason="Reaction card: mercenary company",
        ducats=-27,
        mercenaries=6,
        borrow=1,
    )
    assert events[0] == LoanTaken(
        "Austria", 5, 1, True, "adjustment: Reaction card: mercenary company"
    )
    table.do("alice", "end-turn", action="Action card")
    table.do("bob", "pass")
    table.do("alice", "pass")
    table.end_phase("peace")
    # An imperial reform: imperial authority 2 + 4 = 6.
    table.do("bob", "adjust", reason="Imperial reform", imperial_authority=4)
    table.end_phase("income-upkeep")
    # A, Austria: 7 + 2 - 1 - 3 regulars - 12 (6 mercenaries) - 1 interest - 1 plague + 2
    #   + 6 = -1, and it holds 0: bankrupt unless it cuts. Disbanding one mercenary: +1.
    assert "1 ducats short" in table.refuse("bob", "income-cut-costs").message
    table.do("bob", "income-cut-costs", disband_mercenaries=1)
    table.do("alice", "income-cut-costs")
    # B, France: 9 + 1 - 2 - 4 - ½ + 2 = 5½; 56 -> 61½. Austria: 0 -> 1.
    # C, France keeps 61½: the 60-69 band owes 2 adm; it pays 1 (adm 9 -> 8) and takes
    #   1 interest token for the other.
    table.do("alice", "income-corruption", pay=1)
    table.do("bob", "income-corruption")
    # D, France: 3/2/4; 8/6/10 -> 11/8/14.
    table.do("alice", "income-monarch-power")
    # D, Austria in interregnum: 1/1/1 + advisor 0/1/0 + stability +3 (mil, mil) 0/0/2
    #   + emperor 1/0/0 = 2/2/3; 3/11/4 -> 5/13/7.
    table.do("bob", "income-monarch-power", gain="mil,mil", emperor="adm=1")
    # E, France: 2 more (6). Austria: Emperor at imperial authority 6, 1; Absolute
    #   Monarchy, 1: 2 more (5).
    table.step("income-prestige")
    table.do("alice", "end-phase")  # -> 4.draw


def test_two_realms_through_three_rounds() -> None:
    table = Table(START)
    round_1(table)
    round_2(table)
    round_3(table)
    assert table.state.label == "4.draw"
    assert table.project("treasury")["realms"] == {
        "France": treasury_row("alice", 61.5, 1, (11, 8, 14), (6, 5), 1, 6),
        "Austria": treasury_row("bob", 1, 1, (5, 13, 7), (7, 0), 3, 5),
    }
    statements = table.project("income-statement")
    assert [(s["France"]["total"], s["Austria"]["total"]) for s in statements.values()] == [
        (1.5, 5),
        (5.5, 8),
        (5.5, 1),
    ]
    assert statements["3"]["France"]["closing"] == 61.5
    prestige = table.project("prestige")
    assert [r["total"] for r in prestige["Austria"]["rounds"].values()] == [0, 2, 2]
    assert table.project("monarch-power")["3"]["Austria"]["total"] == {"adm": 2, "dip": 2, "mil": 3}


def test_the_scenario_log_verifies_and_replays_exactly() -> None:
    table = Table(START)
    round_1(table)
    round_2(table)
    round_3(table)
    copied = [codec.decode(codec.encode(entry)) for entry in table.entries]
    assert verify(copied).entries == len(table.entries)
    assert fold(copied).state == table.state
    marks = table.head.marks
    assert [label for label in marks if label.startswith("2.")] == [
        "2.draw",
        "2.action",
        "2.peace",
        "2.income-upkeep",
    ]
    assert table.state.realm("France").ducats == Fraction(123, 2)
    assert table.state.realm("Austria").power == Power(5, 13, 7)
