"""The board picture's marks for what a position holds (issue 15, item 1): units inside
the walls and aboard fleets, sieges (Siege Phase), and what fought since the previous
phase; drawn straight from a state arranged as earlier play would have left it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.engine.divine_right.board import besiege, eliminate, hex_of, put
from tests.engine.divine_right.play import Table
from warscribe.engine.rulesets.divine_right.present import svg as svgmap

SVG = "{http://www.w3.org/2000/svg}"


def drawn(table: Table, before: Table | None = None) -> ET.Element:
    return ET.fromstring(svgmap.render(table.state, before.state if before else None))


def counters(root: ET.Element, unit: str) -> list[ET.Element]:
    return [
        g
        for g in root.iter(SVG + "g")
        if "counter" in g.get("class", "") and unit in g.get("data-units", "").split()
    ]


def test_a_garrison_a_siege_and_an_army_aboard_are_marked() -> None:
    """Siege Phase: carol's armies outside Tadafat besiege alice's two armies within its
    walls; a Hothior army is aboard a fleet."""
    table = Table()
    tadafat = "{},{}".format(*hex_of("Tadafat"))
    for unit in ("Hothior-A5", "Hothior-A6"):
        put(table, unit, "Tadafat", inside=True)
    put(table, "Muetar-A1", "Tadafat")
    besiege(table, "Tadafat", "carol")
    fleet = table.state.units["Hothior-F1"]
    put(table, "Hothior-A1", fleet.hex, aboard="Hothior-F1")
    root = drawn(table)
    (inside,) = counters(root, "Hothior-A5")
    assert inside.get("class") == "counter inside" and inside.get("data-hex") == tadafat
    assert inside.get("data-count") == "2"
    (outside,) = counters(root, "Muetar-A1")
    assert outside.get("class") == "counter field" and outside.get("data-hex") == tadafat
    sieges = [c for c in root.iter(SVG + "circle") if c.get("class") == "siege"]
    assert [c.get("data-hex") for c in sieges] == [tadafat]
    (aboard,) = counters(root, "Hothior-A1")
    assert aboard.get("class") == "counter aboard"
    assert not [p for p in root.iter(SVG + "path") if p.get("class") == "plundered"]


def test_a_plundered_castle_is_crossed_out() -> None:
    """Victory: a plundered castle ceases to exist; the picture crosses it out."""
    table = Table()
    table.set_state(table.state.replace(plundered=frozenset({"Tadafat"})))
    crosses = [p for p in drawn(table).iter(SVG + "path") if p.get("class") == "plundered"]
    assert [c.findtext(SVG + "title") for c in crosses] == ["Tadafat plundered"]


def test_units_lost_since_the_previous_phase_mark_their_space() -> None:
    table = Table()
    before = Table()
    eliminate(table, "Hothior-A5")
    space = "{},{}".format(*before.state.units["Hothior-A5"].hex)
    root = drawn(table, before)
    fought = [p.get("data-hex") for p in root.iter(SVG + "polygon") if p.get("class") == "fought"]
    assert fought == [space]
    assert not drawn(table).findall(f".//{SVG}polygon[@class='fought']")
