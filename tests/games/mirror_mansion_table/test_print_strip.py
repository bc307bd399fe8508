"""A mirror's top taken from the slot's own print (issue 37): the print along a slot, seen on
the mirrors' plane pulled toward the camera past a top's edge, is a narrow strip at the line
that stands out from both its sides as a top does. A dot stuck on the top beside it, within
`perceive.ACROSS_MM`'s first of the line, then lies on the strip's other half than on the
top's: where the strip looks like the board's own empty slot line (`perceive.EmptySlot`,
`MirrorTop.print_gap`), its facing is asked."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.games.mirror_mansion.rules.board import SLOTS, load_board
from companion.games.mirror_mansion.vision import perceive
from companion.games.mirror_mansion.vision.dots import Dot
from companion.games.mirror_mansion.vision.scene import BoxState
from companion.games.mirror_mansion.vision.top_planes import PlaneSampler

BOARD = load_board()
CELL = (1, 1)
PX = 4.0
WOOD = (170, 190, 205)
INSERT = (30, 175, 205)
TOP = (150, 172, 190)
"""A top painted near the board's colour: the print beside it stands out more."""


@pytest.fixture(autouse=True)
def _tops_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(perceive, "TOP_NEAR_MM", 3.0)


def _plane(top: tuple[float, float], shown: tuple[float, float], dot_across: float) -> PlaneSampler:
    """Round the crossing from straight above (4 px a mm): light wood, the `/` mirror's top
    from `top[0]` to `top[1]` mm across the slot's line (toward SE), the yellow insert showing
    from `shown[0]` to `shown[1]`, and an 8 mm green dot `dot_across` off the line, 6 mm along."""
    c = np.asarray(BOARD.crossing_mm(CELL))
    u, n = perceive.slot_axes("/", BOARD)
    size = 480
    yy, xx = np.mgrid[0:size, 0:size]
    rel = np.stack([xx, yy], axis=-1) / PX - size / PX / 2
    along, across = rel @ u, rel @ n
    img = np.full((size, size, 3), WOOD, np.uint8)
    inside = np.abs(along) <= BOARD.mirror_length_mm / 2
    img[inside & (across >= shown[0]) & (across <= shown[1])] = INSERT
    img[inside & (across >= top[0]) & (across <= top[1])] = TOP
    img[np.hypot(along - 6.0, across - dot_across) <= 4.0] = (60, 200, 60)
    half = size / 2
    return PlaneSampler(
        img, np.array([[PX, 0, half - PX * c[0]], [0, PX, half - PX * c[1]], [0, 0, 1]])
    )


def _lab(bgr: tuple[int, int, int]) -> np.ndarray:
    return cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)


EMPTY = perceive.EmptySlot(_lab(INSERT), float(np.linalg.norm(_lab(INSERT) - _lab(WOOD))))


def _dot(dot_across: float) -> Dot:
    c = np.asarray(BOARD.crossing_mm(CELL))
    u, n = perceive.slot_axes("/", BOARD)
    x, y = c + 6.0 * u + dot_across * n
    return Dot((float(x), float(y)), float(np.pi * 16.0), 1.0, 1.0)


def _read(dot_across: float, empty: perceive.EmptySlot | None) -> BoxState:
    # An 8 mm top behind the line on the SE side, its face on the line; the insert shows
    # from 1.2 mm before the line to the top's edge.
    dot = _dot(dot_across)
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    plane = _plane((0.4, 8.4), (-1.2, 0.4), dot_across)
    cands = perceive.Candidates(
        (dot,),
        (),
        {side: () for side in "NESW"},
        bars,
        dict(bars),
        tops=perceive.mirror_tops(plane, BOARD, (dot,), None, empty),
    )
    return perceive.fit(perceive.identify(cands, BOARD), cands, BOARD)


def test_the_strip_found_is_the_print_and_looks_like_the_empty_slot() -> None:
    top = perceive.mirror_top(_plane((0.4, 8.4), (-1.2, 0.4), 0.6), BOARD, CELL, "/", _dot(0.6))
    assert top is not None and top.middle_mm < 0.4 and top.width_mm <= perceive.PRINT_WIDTH_MAX_MM
    found = perceive.mirror_tops(
        _plane((0.4, 8.4), (-1.2, 0.4), 0.6), BOARD, (_dot(0.6),), None, EMPTY
    )[(_dot(0.6).centre_mm, "/")]
    assert found.print_gap < 0.1 < perceive.PRINT_GAP_MAX
    assert perceive.print_strip(found)


def test_a_dot_by_the_line_on_a_strip_like_the_print_is_asked() -> None:
    # Read from the print (the board's empty slot not known), the dot 0.6 mm off the line on
    # the top's edge lies on the strip's SE half: a wrong facing (it is on the NW half of its
    # top). Known as the print, the facing is asked.
    (m,) = _read(0.6, None).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", "SE")
    (m,) = _read(0.6, EMPTY).mirrors
    assert (m.cell, m.slot, m.facing) == (CELL, "/", None)


def test_a_strip_unlike_the_print_still_names_the_facing() -> None:
    # The same scene with an empty slot line of another colour (the top's own strip is not the
    # print): the reading is the strip's, as without it.
    other = perceive.EmptySlot(_lab((200, 60, 60)), EMPTY.contrast)
    assert _read(0.6, other).mirrors[0].facing == _read(0.6, None).mirrors[0].facing is not None


def test_a_print_strip_past_the_face_names_the_facing_on_its_side_of_the_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The camera over NW: a dot 0.4 mm SE of the line beside a 1.5 mm strip like the print
    # whose middle lies 1.0 mm NW of it. The dot lies on the strip's SE half, a facing the
    # print cannot name: asked. The print shows beside a reflective face standing on the
    # line, in front of it past the face's span (0.5 mm shown): at least `PRINT_PAST_MM`
    # (measured 0.0) past it, the facing on the strip's side (NW) is named, as sure as a dot
    # `ACROSS_MM[0]` off. A strip within the face's span, on the line, or the rule off: asked.
    bars = {(c, s): 0.0 for c in BOARD.cells for s in SLOTS}
    bars[(CELL, "/")] = 2.0
    d = _dot(0.4)

    def read(middle: float, face: float) -> perceive.PieceSeen:
        top = perceive.MirrorTop(
            middle, 1.5, 1.5, near_side=-1.0, face_mm=face, print_gap=0.2, rival=0.5
        )
        assert perceive.print_strip(top)
        piece = perceive.mirror_from_dot(BOARD, d, bars, tops={(d.centre_mm, "/"): top})
        assert piece is not None and piece.slot == "/"
        return piece

    assert perceive.PRINT_PAST_MM == 0.0
    named = read(-1.0, 0.5)
    assert (named.side_from, named.facing) == ("print", "NW")
    assert named.confidence == pytest.approx(0.5)
    # The same strip behind the line (SE, away from the camera) names SE.
    behind = read(1.0, 0.5)
    assert (behind.side_from, behind.facing) == ("print", "SE")
    assert read(-1.0, 1.5).side_from == "top_asked"
    assert read(0.0, 0.0).side_from == "top_asked"
    monkeypatch.setattr(perceive, "PRINT_PAST_MM", math.inf)
    assert read(-1.0, 0.5).side_from == "top_asked"
