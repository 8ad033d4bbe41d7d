"""The board picture's marks for what a position holds (issue 15, item 1): units inside
the walls and aboard fleets, sieges (Siege Phase), and what fought since the previous
phase; drawn straight from a state arranged as earlier play would have left it."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from tests.engine.divine_right.board import DATA, besiege, clear_hex, eliminate, hex_of, put
from tests.engine.divine_right.play import Table
from warscribe.engine.rulesets.divine_right.data import Terrain
from warscribe.engine.rulesets.divine_right.present import svg as svgmap
from warscribe.engine.rulesets.divine_right.present.geometry import SIZE, WIDTH, centre, corners
from warscribe.engine.rulesets.divine_right.state import Hex

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


Box = tuple[float, float, float, float]


def box_of(rect: ET.Element) -> Box:
    return tuple(float(rect.get(k, "0")) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


def label_box(label: ET.Element) -> Box:
    """A kingdom name's box: 12px bold, ~0.65 em a letter, centred on x, baseline y."""
    width = 0.65 * 12 * len(label.text or "")
    x, y = float(label.get("x", "0")), float(label.get("y", "0"))
    return (x - width / 2, y - 10, width, 12)


def counter_boxes(root: ET.Element, where: str = "") -> list[tuple[str, Box]]:
    """The counters' boxes (those in the space `where` only, when given)."""
    return [
        (g.get("data-units", ""), box_of(g.find(SVG + "rect")))  # type: ignore[arg-type]
        for g in root.iter(SVG + "g")
        if "counter" in g.get("class", "") and where in ("", g.get("data-hex"))
    ]


def crowded() -> Table:
    """A golden siege: carol's four Muetar armies besiege Tadafat, alice's two Hothior
    armies inside; a hex of four stacks next to it."""
    table = Table()
    col, row = hex_of("Tadafat")
    for unit in ("Hothior-A5", "Hothior-A6"):
        put(table, unit, "Tadafat", inside=True)
    for unit in ("Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4"):
        put(table, unit, "Tadafat")
    besiege(table, "Tadafat", "carol")
    for unit in ("Hothior-A1", "Muetar-A5", "Mivior-A1", "Hothior-F1"):
        put(table, unit, (col + 1, row))
    put(table, "Hothior-A2", (col + 1, row), aboard="Hothior-F1")
    return table


def test_counters_never_hide_a_castle_a_kingdom_name_or_a_siege() -> None:
    """Counters keep the lower half of their hex: no counter's box overlaps a castle's
    defence square, a kingdom's name or a siege's ring, even four stacks to a hex; the
    besiegers stand beside the castle they besiege."""
    root = drawn(crowded())
    castles = [
        box_of(g.find(SVG + "rect")) for g in root.iter(SVG + "g") if g.get("class") == "castle"
    ]  # type: ignore[arg-type]
    names = [label_box(t) for t in root.iter(SVG + "text") if t.get("class") == "kingdom-name"]
    rings = [
        (
            float(c.get("cx", 0)) - float(c.get("r", 0)),
            float(c.get("cy", 0)) - float(c.get("r", 0)),
            2 * float(c.get("r", 0)),
            2 * float(c.get("r", 0)),
        )
        for c in root.iter(SVG + "circle")
        if c.get("class") == "siege"
    ]
    assert len(rings) == 1 and len(names) > 10
    boxes = counter_boxes(root)
    (besiegers,) = counters(root, "Muetar-A1")
    (inside,) = counters(root, "Hothior-A5")
    assert besiegers.get("data-hex") == inside.get("data-hex") == "{},{}".format(*hex_of("Tadafat"))
    for units, box in boxes:
        for other in (*castles, *names, *rings):
            assert not overlaps(box, other), (units, box, other)
    for (one, a), (two, b) in itertools.combinations(boxes, 2):
        assert not overlaps(a, b), (one, two)


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_castles_are_named_beside_their_defence() -> None:
    root = drawn(Table())
    for g in (g for g in root.iter(SVG + "g") if g.get("class") == "castle"):
        defence, name = g.findall(SVG + "text")
        title = g.findtext(SVG + "title") or ""
        assert defence.text == g.get("data-defence") and title.startswith(f"{name.text} (")
    assert "Tadafat" in {t.text for t in root.iter(SVG + "text") if t.get("class") == "castle-name"}


def test_a_counter_says_what_it_holds_and_its_title_lists_the_units() -> None:
    root = drawn(crowded())
    (besiegers,) = counters(root, "Muetar-A1")
    assert besiegers.findtext(SVG + "text") == "4A"
    title = besiegers.findtext(SVG + "title") or ""
    assert all(f"Muetar-A{n} (carol)" in title for n in range(1, 5))


def test_a_battle_since_the_previous_position_is_told_in_words() -> None:
    """Combat Phase: carol's four armies attacked alice's two beside them; alice lost
    one. The picture of the next position says so over the space, in two short lines
    stacked upwards (issue 33: one long line ran over the spaces beside it): each no
    wider than four spaces."""
    before = Table()
    here, there = (20, 26), (21, 26)
    clear_hex(before, here)
    clear_hex(before, there)
    put(before, "Hothior-A1", here)
    put(before, "Hothior-A2", here)
    for n in range(1, 5):
        put(before, f"Muetar-A{n}", there)
    after = Table()
    after.set_state(before.state)
    eliminate(after, "Hothior-A1")
    root = drawn(after, before)
    (told,) = [t for t in root.iter(SVG + "text") if "battle" in t.get("class", "").split()]
    lines = [span.text for span in told.iter(SVG + "tspan")]
    assert lines == ["battle: carol 4 against alice 2", "lost: carol 0, alice 1"]
    spans = list(told.iter(SVG + "tspan"))
    assert float(spans[0].get("y", 0)) < float(spans[1].get("y", 0)) < centre(here)[1] - SIZE
    assert all(len(line or "") * 0.55 * 9 < 4 * WIDTH for line in lines)  # 9px bold letters
    assert not [t for t in drawn(after).iter(SVG + "text") if "event" in t.get("class", "")]


def test_a_new_siege_and_moves_are_told_in_words() -> None:
    """A siege declared since the previous position, and a move with who and how many."""
    before = Table()
    after = Table()
    after.set_state(before.state)
    col, row = hex_of("Tadafat")
    put(after, "Muetar-A1", (col + 1, row))
    put(after, "Muetar-A2", (col + 1, row))
    besiege(after, "Tadafat", "carol")
    words = [
        "".join(t.itertext())
        for t in drawn(after, before).iter(SVG + "text")
        if "event" in t.get("class", "")
    ]
    assert "siege: carol besieges Tadafat" in words
    assert "carol: 2 Muetar" in words


def test_the_legend_names_each_player_their_colour_and_kingdoms() -> None:
    table = Table()
    root = drawn(table)
    (legend,) = [g for g in root.iter(SVG + "g") if g.get("class") == "legend"]
    lines = ["".join(t.itertext()) for t in legend.iter(SVG + "text")]
    assert "alice: Hothior" in lines and "carol: Muetar" in lines
    colours = [r.get("fill") for r in legend.iter(SVG + "rect")]
    assert len(set(colours)) == len(colours) == len(table.state.players) + 1
    (monarch,) = counters(root, "Hothior-monarch")
    assert monarch.find(SVG + "rect").get("fill") == colours[0]  # type: ignore[union-attr]


Ends = tuple[tuple[float, float], ...]


def lines_of(root: ET.Element, cls: str) -> list[Ends]:
    return [
        tuple((float(line.get(f"x{i}", 0)), float(line.get(f"y{i}", 0))) for i in (1, 2))
        for line in root.iter(SVG + "line")
        if line.get("class") == cls
    ]


def test_minor_rivers_run_through_their_hexes_without_meshes() -> None:
    """Movement Phase › Rivers: a minor river runs through hexes, flagged per hex; it is
    drawn as a tree through their centres (no cycle, so no mesh of triangles), each line
    joining two neighbouring river hexes."""
    river = {h.coord for h in DATA.map.hexes if Terrain.RIVER in h.terrain}
    at = {centre(c): c for c in river}
    parts = {c: c for c in river}

    def root_of(c: Hex) -> Hex:
        while parts[c] != c:
            c = parts[c]
        return c

    drawn_lines = lines_of(drawn(Table()), "river")
    assert drawn_lines
    for ends in drawn_lines:
        a, b = (at[min(at, key=lambda p: abs(p[0] - e[0]) + abs(p[1] - e[1]))] for e in ends)
        assert b in DATA.map.neighbours(*a)
        assert root_of(a) != root_of(b), f"a cycle through {a} and {b}"
        parts[root_of(a)] = root_of(b)


def test_the_navigable_river_runs_along_hexsides() -> None:
    """Movement Phase › Navigable Rivers: each of its lines is a side two hexes share."""
    corners_ = {p for h in DATA.map.hexes for p in corners(h.coord)}
    drawn_lines = lines_of(drawn(Table()), "navigable")
    assert len(drawn_lines) == len(DATA.map.river_sides)
    for ends in drawn_lines:
        assert all(min(abs(e[0] - p[0]) + abs(e[1] - p[1]) for p in corners_) < 0.05 for e in ends)


def test_a_tint_on_a_castle_space_leaves_its_square_bare() -> None:
    """Issue 33: the "moved here" tint (and the "fought here" one) covered a castle's
    defence square. Each tint is masked by `bare-castles`, which cuts out every castle's
    square: carol's armies moved into Tadafat, its square shows as printed."""
    before = Table()
    after = Table()
    after.set_state(before.state)
    put(after, "Muetar-A1", "Tadafat")
    root = drawn(after, before)
    tadafat = "{},{}".format(*hex_of("Tadafat"))
    assert [p.get("data-hex") for p in root.iter(SVG + "polygon") if p.get("class") == "moved"] == [
        tadafat
    ]
    style = root.findtext(SVG + "style") or ""
    for tint in ("moved", "fought"):
        rule = style.split(f".{tint}{{", 1)[1].split("}", 1)[0]
        assert "mask:url(#bare-castles)" in rule, rule
    (mask,) = [m for m in root.iter(SVG + "mask") if m.get("id") == "bare-castles"]
    everything, *holes = mask.findall(SVG + "rect")
    assert everything.get("fill") == "#fff" and everything.get("width") == root.get("width")
    (square,) = [
        box_of(g.find(SVG + "rect"))  # type: ignore[arg-type]
        for g in root.iter(SVG + "g")
        if g.get("class") == "castle" and g.get("data-hex") == tadafat
    ]
    assert square in [box_of(hole) for hole in holes]
    assert all(hole.get("fill") is None for hole in holes)  # black: masked out


def name_box(name: ET.Element) -> Box:
    """A castle name's box: 7.5px, ~0.55 em a letter, starting at x, baseline y."""
    x, y = float(name.get("x", "0")), float(name.get("y", "0"))
    return (x, y - 6, 0.55 * 7.5 * len(name.text or ""), 8)


def inside(point: tuple[float, float], box: Box) -> bool:
    return box[0] <= point[0] <= box[0] + box[2] and box[1] <= point[1] <= box[1] + box[3]


def span(ends: Ends) -> float:
    (x1, y1), (x2, y2) = ends
    return float(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)


def along(ends: Ends, start: float, stop: float) -> list[tuple[float, float]]:
    """Points of a line from `start` to `stop` of its length past its first end."""
    (x1, y1), (x2, y2) = ends
    length = span(ends)
    steps = [start + (stop - start) * n / 50 for n in range(51)]
    return [(x1 + (x2 - x1) * d / length, y1 + (y2 - y1) * d / length) for d in steps]


def moved_into_lapspell(start: Hex) -> tuple[ET.Element, Ends, ET.Element]:
    """carol's army moved from `start` into Castle Lapspell: the picture, the move's
    arrow and the castle's drawing (its square and name)."""
    before = Table()
    put(before, "Muetar-A1", start)
    after = Table()
    after.set_state(before.state)
    put(after, "Muetar-A1", "Castle Lapspell")
    root = drawn(after, before)
    ((ends),) = lines_of(root, "move")
    (castle,) = [
        g
        for g in root.iter(SVG + "g")
        if g.get("class") == "castle" and g.get("data-hex") == "13,18"
    ]
    return root, ends, castle


@pytest.mark.parametrize(
    "start", [*DATA.map.neighbours(*hex_of("Castle Lapspell")), (15, 16), (15, 17), (10, 16)]
)
def test_a_moves_arrow_ends_at_the_edge_of_its_space_on_no_counter_or_castle(start: Hex) -> None:
    """Issue 33: the besiegers' arrow into Castle Lapspell ended on its name (at the
    centre of the space, where the counters are too). Its head now stops at the middle of
    the side facing where the move began, clear of the space's counters, the castle's
    square and name, from whichever side the move comes."""
    root, ends, castle = moved_into_lapspell(start)
    square, name = box_of(castle.find(SVG + "rect")), castle.findall(SVG + "text")[1]  # type: ignore[arg-type]
    head = along(ends, span(ends) - 10, span(ends))  # the marker: 5 strokes of 2 long
    there = [box for _, box in counter_boxes(root, "13,18")]
    assert len(there) == 2  # the garrison and the army come in
    covered = [square, name_box(name), *there]
    assert not [(p, box) for p in head for box in covered if inside(p, box)]
    x, y = centre((13, 18))
    assert (ends[1][0] - x) ** 2 + (ends[1][1] - y) ** 2 <= SIZE**2  # it ends in the space


def test_a_move_across_a_castles_name_is_masked_off_it() -> None:
    """Issue 33: an arrow (and the move's words) crossing a castle's name or square is
    masked by `bare-castles`, which holds each name's letters thickened (a halo): the
    name reads as if drawn above the arrow."""
    root, ends, castle = moved_into_lapspell((15, 17))
    name = castle.findall(SVG + "text")[1]
    assert any(inside(p, name_box(name)) for p in along(ends, 0, span(ends)))  # it crosses the name
    (mask,) = [m for m in root.iter(SVG + "mask") if m.get("id") == "bare-castles"]
    holes = [(t.get("x"), t.get("y"), t.text) for t in mask.iter(SVG + "text")]
    assert (name.get("x"), name.get("y"), "Castle Lapspell") in holes
    style = root.findtext(SVG + "style") or ""
    for marks in (".move{", ".event.move-news{"):
        assert "mask:url(#bare-castles)" in style.split(marks, 1)[1].split("}", 1)[0], marks
    assert "stroke:#000" in style.split("#bare-castles text{", 1)[1].split("}", 1)[0]
