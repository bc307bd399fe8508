"""The door among orange dots: a dot in the kit's full orange names the door over a faint top
edge (a door top painted near the board's colour, or worn), a paler one needs the edge. The
stages run on candidates given by hand, so the rule is seen alone."""

from __future__ import annotations

from companion.games.mirror_mansion.rules.board import SLOTS, load_board
from companion.games.mirror_mansion.vision import perceive
from companion.games.mirror_mansion.vision.dots import LEVELS, Dot

BOARD = load_board()
CELL = BOARD.cells[4]


def _door(level: int, edge: float, contrast: float = 60.0) -> tuple[int, int] | None:
    x, y = BOARD.crossing_mm(CELL)
    dot = Dot((x + 3.0, y - 3.0), 50.0, 1.1, 1.0, level, contrast)
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    door_bars = dict(bars)
    door_bars[(CELL, "/")] = edge
    cands = perceive.Candidates((), (dot,), {side: () for side in "NESW"}, bars, door_bars)
    got = perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)
    return None if got.door is None else got.door.cell


def test_a_full_coloured_dot_names_the_door_over_a_faint_top_edge() -> None:
    faint = perceive.DOOR_EDGE_MIN - perceive.DOOR_LEVEL_CREDIT * (len(LEVELS) - 1) + 0.05
    assert faint < perceive.DOOR_EDGE_MIN
    assert _door(len(LEVELS) - 1, faint) == CELL
    # Found at the lowest level only (print, skin), the same dot needs the edge.
    assert _door(0, faint) is None
    assert _door(0, perceive.DOOR_EDGE_MIN + 0.05) == CELL


def test_an_orange_blob_like_its_ring_names_no_door() -> None:
    # Over a strong top edge, a lone round orange blob whose ring is near its own colour (a
    # patch of art that is part of a larger region, a door face beside its top) is no door.
    strong = perceive.DOOR_EDGE_MIN + 1.0
    assert _door(len(LEVELS) - 1, strong, perceive.CONTRAST_MIN + 5.0) == CELL
    assert _door(len(LEVELS) - 1, strong, perceive.CONTRAST_MIN - 5.0) is None
