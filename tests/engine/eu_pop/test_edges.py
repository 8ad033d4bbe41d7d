"""Phase 4 at the edges (issue #18): whatever a realm's figures (stability ±3, a ruler
0/0/0, Interregnum, advisors of skill 0, 4-6 interest tokens, an empty or overflowing
treasury, the papal controller, the Emperor, plague), the round can always be recorded to
its end by choices the rules allow, and no figure falls below 0."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.engine.eu_pop.table import Table, position
from warscribe.engine.errors import IllegalCommand
from warscribe.engine.rulesets.eu_pop.income import corruption_cost
from warscribe.engine.rulesets.eu_pop.state import POWER_TYPES, Realm

SKILL = st.integers(0, 2)
RULER = st.one_of(
    st.none(),
    st.just({"name": "Interregnum", "adm": 0, "dip": 0, "mil": 0}),
    st.fixed_dictionaries({"name": st.just("Ruler"), "adm": SKILL, "dip": SKILL, "mil": SKILL}),
)
ADVISORS = st.lists(st.sampled_from(POWER_TYPES), unique=True).flatmap(
    lambda slots: st.tuples(*(
        st.fixed_dictionaries({
            "name": st.just(f"{slot} advisor"), "slot": st.just(slot), "skill": SKILL,
            "upkeep": st.integers(1, 4),
        })
        for slot in slots
    ))
)  # fmt: skip


@st.composite
def france(draw: st.DrawFn) -> dict[str, Any]:
    base, vassal = draw(st.integers(0, 10)), draw(st.integers(0, 3))
    return {
        "ducats": draw(st.integers(0, 240)) / 2,
        "monarch_power": {kind: draw(st.integers(0, 3)) for kind in POWER_TYPES},
        "stability": draw(st.integers(-3, 3)),
        "loans": draw(st.integers(0, 6)),
        "ruler": draw(RULER),
        "advisors": list(draw(ADVISORS)),
        "units": {
            "regulars": draw(st.integers(0, 3)),
            "mercenaries": draw(st.integers(0, 2)),
            "ships_at_sea": draw(st.integers(0, 2)),
        },
        "tax": {"base": base, "vassal": vassal, "plague": draw(st.integers(0, base + vassal))},
    }


WORLD = st.fixed_dictionaries({
    "papacy": st.fixed_dictionaries({
        "controller": st.sampled_from([None, "France"]), "catholic_prs": st.integers(0, 5),
    }),
    "empire": st.fixed_dictionaries({
        "emperor": st.sampled_from([None, "France"]), "imperial_authority": st.integers(0, 6),
    }),
})  # fmt: skip


def cut_costs(table: Table, realm: Realm) -> None:
    """Cut nothing; refused as bankrupt, cut everything that can be cut."""
    try:
        table.do(realm.player, "income-cut-costs")
    except IllegalCommand:
        table.do(
            realm.player,
            "income-cut-costs",
            fire=",".join(a.slot for a in realm.advisors),
            disband_regulars=realm.regulars,
            disband_mercenaries=realm.mercenaries,
            disband_ships=realm.ships_at_sea,
        )


def collect(table: Table, realm: Realm) -> None:
    """+3 stability: two more administrative; -3: one fewer, of the first type accepted."""
    if realm.stability != -3:
        table.do(
            realm.player, "income-monarch-power", gain="adm,adm" if realm.stability == 3 else ""
        )
        return
    for kind in POWER_TYPES:
        try:
            table.do(realm.player, "income-monarch-power", lose=kind)
            return
        except IllegalCommand:
            continue
    raise AssertionError(f"{realm.name} cannot record step D at stability -3")


ISSUE_18 = {  # a ruler 0/0/0, no advisor, not the papal controller, stability -3
    "ducats": 10,
    "monarch_power": {"adm": 0, "dip": 0, "mil": 0},
    "stability": -3,
    "ruler": {"name": "Idle", "adm": 0, "dip": 0, "mil": 0},
    "tax": {"base": 8},
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(france(), WORLD)
@example(ISSUE_18, {})
def test_4_4_a_round_at_the_edges_is_always_recorded(figures: dict[str, Any], world: Any) -> None:
    table = Table(position(figures, **world))
    table.to_income()
    names = table.state.order
    for name in names:
        cut_costs(table, table.realm(name))
    for name in names:
        realm = table.realm(name)
        pay = min(corruption_cost(realm.ducats), realm.power.adm)
        table.do(realm.player, "income-corruption", pay=pay)
    for name in names:
        collect(table, table.realm(name))
    table.step("income-prestige")
    assert table.state.step == "done"
    for realm in table.state.realms:
        assert realm.ducats >= 0 and realm.loans >= 0
        assert min(realm.power.as_dict().values()) >= 0
