"""Light paths worked out by hand on paper, and the reversibility of every path."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS, load_board
from companion.games.mirror_mansion.rules.optics import BoardState, Door, Mirror, trace, trace_from

BOARD = load_board()
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def one(cell: tuple[int, int], slot: str, facing: str, window: str, two_sided: bool = False):
    return trace(BoardState((Mirror(cell, slot, facing),), window, two_sided=two_sided))


# (window, mirror in the first crossing, what the eye sees): a view travelling east from W1
# meets the "/" mirror's north-west face and turns north, and so on round the compass.
ONE_SIDED = [
    ("W1", (1, 0), "/", "NW", "N0"),
    ("W1", (1, 0), "\\", "SW", "S0"),
    ("E1", (1, 2), "/", "SE", "S2"),
    ("E1", (1, 2), "\\", "NE", "N2"),
    ("N1", (0, 1), "/", "NW", "W0"),
    ("N1", (0, 1), "\\", "NE", "E0"),
    ("S1", (2, 1), "/", "SE", "E2"),
    ("S1", (2, 1), "\\", "SW", "W2"),
]


@pytest.mark.parametrize(("window", "cell", "slot", "facing", "seen"), ONE_SIDED)
def test_reflective_face_turns_the_view(window, cell, slot, facing, seen) -> None:
    t = one(cell, slot, facing, window)
    assert t.seen == seen
    assert t.blocked_by is None
    assert t.steps[0].cell == cell and t.steps[0].event == "bounce"
    assert t.bounces == 1 and all(s.event == "pass" for s in t.steps[1:])


@pytest.mark.parametrize(("window", "cell", "slot", "facing", "seen"), ONE_SIDED)
def test_the_back_stops_the_view_and_two_sided_mirrors_reflect_it(
    window, cell, slot, facing, seen
) -> None:
    back = next(f for f in FACINGS[slot] if f != facing)
    stopped = one(cell, slot, back, window)
    assert stopped.seen is None and stopped.blocked_by == "mirror-back"
    assert stopped.steps[-1].cell == cell and stopped.steps[-1].event == "mirror-back"
    # The same mirror turned round, in the two-sided variant, reflects like its front.
    assert one(cell, slot, back, window, two_sided=True).seen == seen


def test_empty_board_sees_straight_across() -> None:
    t = trace(BoardState((), "W1", cards={"E1": "garlic"}))
    assert (t.seen, t.motif) == ("E1", "garlic")
    assert [s.cell for s in t.steps] == [(1, 0), (1, 1), (1, 2)]
    assert all(s.event == "pass" for s in t.steps)


def test_door_stops_the_view_after_the_crossings_before_it() -> None:
    t = trace(BoardState((), "W1", door=Door((1, 1), "\\")))
    assert t.blocked_by == "door" and t.seen is None
    assert [(s.cell, s.event) for s in t.steps] == [((1, 0), "pass"), ((1, 1), "door")]


def test_three_bounces_round_the_castle() -> None:
    # From the window at W0 east; (0,2) "\" SW turns it south; (2,2) "/" NW turns it west;
    # (2,0) "\" NE turns it north; (1,0) is empty; it leaves at N0 where the key is.
    mirrors = (
        Mirror((0, 2), "\\", "SW"),
        Mirror((2, 2), "/", "NW"),
        Mirror((2, 0), "\\", "NE"),
    )
    t = trace(BoardState(mirrors, "W0", cards={"N0": "key"}))
    assert (t.seen, t.motif, t.bounces) == ("N0", "key", 3)
    assert [s.cell for s in t.steps] == [
        (0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0)
    ]  # fmt: skip
    assert t.steps[0].heading_in == "E" and t.steps[-1].heading_out == "N"


def test_unknown_motif_is_none_but_the_position_is_known() -> None:
    t = one((1, 0), "/", "NW", "W1")
    assert (t.seen, t.motif) == ("N0", None)


def test_in_line_is_derived_from_the_entry() -> None:
    assert BOARD.in_line("E1") == ((1, 2), (1, 1), (1, 0))
    assert BOARD.in_line("N0") == ((0, 0), (1, 0), (2, 0))
    assert BOARD.opposite("W2") == "E2" and BOARD.opposite("S1") == "N1"


def test_box_turn_maps_board_sides_to_table_sides() -> None:
    # A quarter turn clockwise brings the north edge to the east, west end first.
    assert BOARD.position_on_table("N0", 1) == "E0"
    assert BOARD.position_on_table("S0", 1) == "W0"
    for p in BOARD.positions:
        assert BOARD.position_on_table(p, 0) == p
        twice = BOARD.position_on_table(BOARD.position_on_table(p, 1), 1)
        assert twice == BOARD.position_on_table(p, 2)
        assert BOARD.position_on_table(twice, 2) == p


def test_geometry_in_millimetres_for_the_camera() -> None:
    assert BOARD.crossing_mm((0, 0)) == (90.0, 90.0)
    assert BOARD.card_mm("N2") == (210.0, 30.0)
    assert BOARD.card_mm("W1") == (30.0, 150.0)
    (x0, y0), (x1, y1) = BOARD.slot_segment_mm((1, 1), "/")
    assert x0 < x1 and y0 > y1  # south-west end to north-east end (y grows southward)
    assert abs(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 - BOARD.mirror_length_mm) < 1e-9
    assert [m.id for m in BOARD.markers] == [10, 11, 12, 13]
    dx, dy = BOARD.dot_mm((1, 1), "NW")
    assert dx < 150 and dy < 150


@st.composite
def arrangements(draw):
    cells = draw(st.lists(st.sampled_from(BOARD.cells), min_size=0, max_size=6, unique=True))
    with_door = draw(st.booleans()) and len(cells) > 0
    mirrors = []
    for cell in cells[1:] if with_door else cells:
        slot = draw(st.sampled_from(SLOTS))
        mirrors.append(Mirror(cell, slot, draw(st.sampled_from(FACINGS[slot]))))
    door = Door(cells[0], draw(st.sampled_from(SLOTS))) if with_door else None
    window = draw(st.sampled_from(BOARD.positions))
    return BoardState(tuple(mirrors), window, door, two_sided=draw(st.booleans()))


def _reversed(steps):
    return [
        (s.cell, OPPOSITE[s.heading_out], OPPOSITE[s.heading_in], s.event) for s in reversed(steps)
    ]


@settings(max_examples=300, deadline=None)
@given(arrangements())
def test_every_path_reversed_is_the_path_back(state: BoardState) -> None:
    for start in BOARD.positions:
        t = trace_from(state, start)
        assert t.blocked_by != "loop"  # reversible tables: a view from the edge never loops
        if t.position is None:
            continue
        back = trace_from(state, t.position)
        assert back.position == start
        assert [(s.cell, s.heading_in, s.heading_out, s.event) for s in back.steps] == _reversed(
            t.steps
        )


@settings(max_examples=200, deadline=None)
@given(arrangements())
def test_the_window_never_sees_itself(state: BoardState) -> None:
    # A view could only come back out of its own window by turning 180 degrees somewhere.
    assert trace(state).blocked_by != "window"
