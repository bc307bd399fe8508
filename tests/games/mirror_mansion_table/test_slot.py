"""The slot of a mirror whose dot sits near its crossing's middle: the identify and fit stages
on candidates given by hand (a dot and the top-edge scores), so the rule is seen alone."""

from __future__ import annotations

import numpy as np

from companion.games.mirror_mansion.rules.board import SLOTS, load_board
from companion.games.mirror_mansion.vision import perceive
from companion.games.mirror_mansion.vision.dots import Dot

BOARD = load_board()
CELL = (1, 1)


def _candidates(bar_slash: float, bar_back: float) -> perceive.Candidates:
    x, y = BOARD.crossing_mm(CELL)
    # 5 mm east of the middle: 3.5 mm off both slots' middle lines, so it fits either.
    dot = Dot((x + 5.0, y), 50.0, 1.0, 1.0)
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")], bars[(CELL, "\\")] = bar_slash, bar_back
    return perceive.Candidates((dot,), (), {side: () for side in "NESW"}, bars, dict(bars))


def _read(bar_slash: float, bar_back: float):
    cands = _candidates(bar_slash, bar_back)
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)


def test_top_edges_that_differ_enough_name_the_slot_and_the_dot_the_facing() -> None:
    (slash,) = _read(2.0, 2.0 - 1.5 * perceive.SLOT_MARGIN).mirrors
    assert (slash.cell, slash.slot, slash.facing, slash.slot_sure) == (CELL, "/", "SE", True)
    (back,) = _read(0.5, 0.5 + 1.5 * perceive.SLOT_MARGIN).mirrors
    assert (back.cell, back.slot, back.facing, back.slot_sure) == (CELL, "\\", "NE", True)


def test_top_edges_too_alike_leave_the_slot_unsure_and_ask() -> None:
    got = _read(1.0, 1.0 - 0.5 * perceive.SLOT_MARGIN)
    (m,) = got.mirrors
    assert m.cell == CELL and m.facing is None and not m.slot_sure
    assert any("slot is unclear" in w for w in got.warnings)
    # Unsure is part of what the reading says: it differs from a reading with that slot sure.
    sure = _read(1.0, 1.0 - 1.5 * perceive.SLOT_MARGIN)
    assert got.layout_key() != sure.layout_key()
    assert got.to_json()["mirrors"][0]["slot_sure"] is False


def _two_dots(isolation_b: float) -> perceive.Candidates:
    """Two dots along the "/" slot of the crossing, 4 mm off its line on either side: one
    says the mirror faces SE, the other NW."""
    c = np.array(BOARD.crossing_mm(CELL))
    u, n = perceive.slot_axes("/", BOARD)  # n points to SE, the slot's second facing
    a = c + 10.0 * u + 4.0 * n
    b = c - 10.0 * u - 4.0 * n
    dots = (
        Dot((float(a[0]), float(a[1])), 50.0, 1.0, 1.0),
        Dot((float(b[0]), float(b[1])), 50.0, 1.0, isolation_b),
    )
    bars = {(cell, s): 0.0 for cell in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    return perceive.Candidates(dots, (), {side: () for side in "NESW"}, bars, dict(bars))


def test_two_dots_of_a_crossing_that_disagree_as_strongly_are_a_question() -> None:
    cands = _two_dots(1.0)
    got = perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)
    (m,) = got.mirrors
    assert (m.cell, m.slot, m.facing, m.slot_sure) == (CELL, "/", None, True)
    # One dot much likelier than the other (the other crowded by its colour): it names the facing.
    cands = _two_dots(1.0 - 3 * perceive.MIRROR_TIE)
    (m,) = perceive.fit(perceive.identify(cands, BOARD), cands, BOARD).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")


def _dot_at(along: float, across: float, bar_slash: float, bar_back: float):
    """A dot `along` mm along the "/" slot from the crossing's middle and `across` mm off its
    line (toward SE), read with the given top-edge scores."""
    c = np.array(BOARD.crossing_mm(CELL))
    u, n = perceive.slot_axes("/", BOARD)
    p = c + along * u + across * n
    bars = {(cell, s): 0.0 for cell in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")], bars[(CELL, "\\")] = bar_slash, bar_back
    dot = Dot((float(p[0]), float(p[1])), 50.0, 1.0, 1.0)
    cands = perceive.Candidates((dot,), (), {side: () for side in "NESW"}, bars, dict(bars))
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)


def test_a_dot_too_far_across_for_one_slot_names_the_other() -> None:
    # 7.5 mm along "/" and 3 mm off it: for "\\" the same dot lies 7.5 mm off its line, past
    # where a sticker is stuck (offset + free), so with alike top edges "/" is the slot.
    excess = 7.5 - BOARD.dot_offset_mm - perceive.SLOT_ACROSS_FREE_MM
    assert excess * perceive.SLOT_ACROSS_WEIGHT >= perceive.SLOT_MARGIN
    (m,) = _dot_at(7.5, 3.0, 1.0, 1.0).mirrors
    assert (m.cell, m.slot, m.facing, m.slot_sure) == (CELL, "/", "SE", True)
    # A top edge clearly likelier in the other slot still outweighs the place.
    far = excess * perceive.SLOT_ACROSS_WEIGHT + 1.5 * perceive.SLOT_MARGIN
    (m,) = _dot_at(7.5, 3.0, 1.0, 1.0 + far).mirrors
    assert (m.slot, m.slot_sure) == ("\\", True)
    # Where both places are ones a sticker is stuck at, the top edges alone decide (unsure).
    (m,) = _dot_at(4.5, 3.5, 1.0, 1.0).mirrors
    assert not m.slot_sure


def _with_middle(dot_area_mm2: float, middle_like: str | None):
    """A dot 5 mm east of the crossing's middle (it fits both slots at alike places), alike top
    edges, and the crossing's middle on the mirrors' plane: its colour that of `middle_like`'s
    line (a light top) while the other slot's line is dark (an insert), or None for no middle."""
    c = np.array(BOARD.crossing_mm(CELL))
    bars = {(cell, s): 0.0 for cell in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = bars[(CELL, "\\")] = 1.0
    dot = Dot((float(c[0]) + 5.0, float(c[1])), dot_area_mm2, 1.0, 1.0)
    middles = {}
    if middle_like is not None:
        g = np.mgrid[-1.5:1.51:0.5, -1.5:1.51:0.5].reshape(2, -1).T
        top, insert = np.array([200.0, 128.0, 128.0]), np.array([40.0, 140.0, 170.0])
        lines = {s: top if s == middle_like else insert for s in SLOTS}
        middles[CELL] = perceive.CrossingMiddle(c + g, np.tile(top, (len(g), 1)), lines)
    cands = perceive.Candidates(
        (dot,), (), {side: () for side in "NESW"}, bars, dict(bars), middles
    )
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)


def test_the_slot_whose_line_runs_through_the_crossings_middle_holds_the_mirror() -> None:
    # Without the middle the top edges and places are alike: the slot is asked.
    (m,) = _with_middle(50.0, None).mirrors
    assert not m.slot_sure
    # The middle shows the top that runs along one slot; the other's line (an insert) is broken
    # there: that slot is the mirror's, either way round.
    (m,) = _with_middle(50.0, "\\").mirrors
    assert (m.slot, m.facing, m.slot_sure) == ("\\", "NE", True)
    (m,) = _with_middle(50.0, "/").mirrors
    assert (m.slot, m.facing, m.slot_sure) == ("/", "SE", True)


def test_a_dot_that_hides_the_crossings_middle_leaves_the_slot_to_the_top_edges() -> None:
    # A dot 12 mm across, 5 mm from the middle, covers it: its colour is not the top's.
    (m,) = _with_middle(113.0, "\\").mirrors
    assert not m.slot_sure


def _core_and_disc(disc_across: float, disc_along: float = 10.0):
    """One sticker on the "/" slot found at two levels: its core (level 2, 6 mm across, 0.4 mm
    off the line toward SE: too near to tell the side alone) and its whole disc (level 0, 9 mm
    across, `disc_across` mm off), the core the likelier (found at the higher level)."""
    c = np.array(BOARD.crossing_mm(CELL))
    u, n = perceive.slot_axes("/", BOARD)
    core = c + 10.0 * u + 0.4 * n
    disc = c + disc_along * u + disc_across * n
    dots = (
        Dot((float(disc[0]), float(disc[1])), 64.0, 1.0, 1.0, level=0),
        Dot((float(core[0]), float(core[1])), 28.0, 1.0, 1.0, level=2),
    )
    bars = {(cell, s): 0.0 for cell in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    cands = perceive.Candidates(dots, (), {side: () for side in "NESW"}, bars, dict(bars))
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)


def test_a_stickers_side_is_told_from_its_whole_disc_when_its_core_lies_near_the_line() -> None:
    # The whole disc lies clearly on the SE side: the facing is named.
    (m,) = _core_and_disc(1.2).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")
    # The disc as near the line as the core: asked.
    got = _core_and_disc(0.4)
    (m,) = got.mirrors
    assert (m.slot, m.facing) == ("/", None)
    assert any("facing unsure" in w for w in got.warnings)
    # A sure dot of the same side elsewhere on the slot is another dot, not this sticker: asked.
    (m,) = _core_and_disc(1.2, disc_along=-10.0).mirrors
    assert m.facing is None
