"""Layout geometry: coverage computed from the files, malformed files rejected, table mm."""

from __future__ import annotations

import pytest

from companion.games.looking_glass.rules.layout import (
    CARDS_PER_HALF,
    LayoutError,
    TableGeometry,
    load_layout,
    load_layouts,
    parse_layout,
    placement,
    placements,
)

LAYOUTS = load_layouts()


def names(layout, cells, half=0):
    return sorted(layout.name_of(half, c) for c in cells)


def taken_mask(layout, *cell_names):
    return sum(1 << layout.locate(n)[1] for n in cell_names)


def test_five_layouts_of_fourteen_cards_per_half() -> None:
    assert len(LAYOUTS) == 5
    for lay in LAYOUTS.values():
        assert len(lay.cells) == CARDS_PER_HALF
        assert len(lay.position_names) == 28
        assert len(set(lay.position_names)) == 28


def test_pyramid_coverage_worked_by_hand() -> None:
    lay = LAYOUTS["pyramid"]  # rows [0,2,4,6,8] [1,3,5,7] [2,4,6] [3,5]
    cover = {lay.name_of(0, i): names(lay, under) for i, under in enumerate(lay.covered_by)}
    assert cover == {
        "A-r0-c0": ["A-r1-c1"],
        "A-r0-c2": ["A-r1-c1", "A-r1-c3"],
        "A-r0-c4": ["A-r1-c3", "A-r1-c5"],
        "A-r0-c6": ["A-r1-c5", "A-r1-c7"],
        "A-r0-c8": ["A-r1-c7"],
        "A-r1-c1": ["A-r2-c2"],
        "A-r1-c3": ["A-r2-c2", "A-r2-c4"],
        "A-r1-c5": ["A-r2-c4", "A-r2-c6"],
        "A-r1-c7": ["A-r2-c6"],
        "A-r2-c2": ["A-r3-c3"],
        "A-r2-c4": ["A-r3-c3", "A-r3-c5"],
        "A-r2-c6": ["A-r3-c5"],
        "A-r3-c3": [],
        "A-r3-c5": [],
    }
    assert names(lay, lay.free_cells(0)) == ["A-r3-c3", "A-r3-c5"]
    assert names(lay, lay.free_cells(taken_mask(lay, "A-r3-c3"))) == ["A-r2-c2", "A-r3-c5"]
    both = taken_mask(lay, "A-r3-c3", "A-r3-c5")
    assert names(lay, lay.free_cells(both)) == ["A-r2-c2", "A-r2-c4", "A-r2-c6"]
    assert names(lay, lay.top_row) == ["A-r3-c3", "A-r3-c5"]


def test_wall_cards_cover_only_the_card_squarely_below() -> None:
    lay = LAYOUTS["wall"]  # rows [0,2,4,6,8] twice, then [1,3,5,7]
    i = lay.locate("A-r0-c4")[1]
    assert names(lay, lay.covered_by[i]) == ["A-r1-c4"]
    assert names(lay, lay.free_cells(0)) == ["A-r2-c1", "A-r2-c3", "A-r2-c5", "A-r2-c7"]


def test_terrace_leaves_the_ends_of_row_one_free_from_the_start() -> None:
    lay = LAYOUTS["terrace"]
    assert names(lay, lay.free_cells(0)) == ["A-r1-c1", "A-r1-c9", "A-r2-c3", "A-r2-c5", "A-r2-c7"]


@pytest.mark.parametrize("layout_id", sorted(LAYOUTS))
def test_every_card_is_freed_once_all_cards_over_it_are_taken(layout_id: str) -> None:
    lay = LAYOUTS[layout_id]
    taken = 0
    order = []
    while taken != lay.full_mask:
        free = lay.free_cells(taken)
        assert free, "a layout must never block"
        for i in free:
            assert all((taken >> j) & 1 for j in lay.covered_by[i])
        taken |= 1 << free[0]
        order.append(free[0])
    assert sorted(order) == list(range(CARDS_PER_HALF))
    assert set(lay.top_row) <= set(lay.free_cells(0))


def test_reflection_is_the_same_spot_in_the_other_half() -> None:
    lay = LAYOUTS["diamond"]
    assert lay.reflection("A-r2-c1") == "B-r2-c1"
    assert lay.reflection("B-r4-c5") == "A-r4-c5"
    with pytest.raises(ValueError, match="no position"):
        lay.locate("A-r9-c0")


def test_table_millimetres_mirror_the_halves() -> None:
    g = TableGeometry(card_w=63, card_h=88, gap=10)
    lay = LAYOUTS["pyramid"]
    a, b = placement(lay, "A-r0-c0", g), placement(lay, "B-r0-c0", g)
    assert (a.x, a.y, a.rotation_deg) == (b.x, -b.y, 0.0)
    assert b.rotation_deg == 180.0
    assert a.y == pytest.approx(5 + 44)  # half the gap + half a card: top edge at the gap
    up = placement(lay, "A-r1-c1", g)
    assert up.y - 44 == pytest.approx(a.y)  # row 1's top edge lies on row 0's middle
    assert up.x - a.x == pytest.approx(31.5)  # half a card to the right
    assert placement(lay, "A-r0-c2", g).x - a.x == pytest.approx(63)
    xs = [p.x for p in placements(lay, g).values()]
    assert min(xs) == pytest.approx(-max(xs))  # centred on the table origin
    # the corners of half A's card: its top edge (first two corners) faces the centre line
    top = a.corners()[:2]
    assert all(y == pytest.approx(5) for _, y in top)
    assert all(y == pytest.approx(-5) for _, y in b.corners()[:2])


GOOD_ROWS = "[[0, 2, 4, 6, 8], [1, 3, 5, 7], [2, 4, 6], [3, 5]]"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f'name = "x"\nrows = {GOOD_ROWS}\nextra = 1', "unknown key"),
        (f"rows = {GOOD_ROWS}", "`name`"),
        ('name = "x"\nrows = [[0, 1, 4, 6, 8], [1, 3, 5, 7], [2, 4, 6], [3, 5]]', "overlap"),
        ('name = "x"\nrows = [[0, 2, 4, 6, 8], [1, 3, 5, 7], [2, 4, 6], [3]]', "13 cards"),
        ('name = "x"\nrows = [[0, 2, 4, 6, 8, 10, 12], [1, 3, 5, 7, 9, 11, 13]]', "at least 3"),
        ('name = "x"\nrows = [[0, 2, 4, 6, 8], [1, 3, 5, 7], [2, 4, 6], [3, 9]]', "covers no"),
        ('name = "x"\nrows = [[0, 2, 4, 6, 8], [1, 3, 5, 7], [2, 4, 6], [3, -5]]', ">= 0"),
        ('name = "x"\nrows = [[0, 2, 4, 6, 8], [1, 3, 5, 7], [2, 4, 6], [3, 5.5]]', ">= 0"),
        ('name = "x"\nrows = [[0, 2, 4, 6, 8], [], [2, 4, 6], [3, 5]]', "empty"),
        ('name = "x"\nrows = 3', "list of rows"),
        ('name = "x"\nrows = [[0, 2', "not valid TOML"),
    ],
)
def test_malformed_layouts_are_rejected_with_one_line(text: str, message: str) -> None:
    with pytest.raises(LayoutError, match=message) as info:
        parse_layout("bad", text, "bad.toml")
    assert "\n" not in str(info.value)
    assert str(info.value).startswith("bad.toml: ")
    assert isinstance(info.value, ValueError)


def test_a_layout_file_is_loaded_by_its_file_name(tmp_path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(f'name = "Mine"\nrows = {GOOD_ROWS}\n')
    lay = load_layout(path)
    assert (lay.id, lay.name) == ("mine", "Mine")
    with pytest.raises(LayoutError, match="cannot read"):
        load_layout(tmp_path / "missing.toml")
