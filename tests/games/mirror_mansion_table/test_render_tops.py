"""The random style's mirror tops: thick or thin, centred in the slot or standing behind its
line, with the dot stuck on the reflective half of the top as it stands (issue 37)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.games.mirror_mansion.rules.board import Board, load_board
from companion.games.mirror_mansion.vision.render import (
    BoxLook,
    mirror_dot_xy,
    piece_solids,
    random_look,
)
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS

BOARD = load_board()
BOX = BoxState((MirrorSeen((1, 1), "/", "SE", 1.0),))


def _look(line_mm: float) -> BoxLook:
    look = random_look(BOARD, BOX, DEFAULT_STICKERS, np.random.default_rng(5))
    assert look.paints is not None
    return replace(look, paints=replace(look.paints, mirror_top_line_mm=line_mm))


def _toward_face(board: Board) -> np.ndarray:
    return np.asarray(board.facing_normal("SE"), float)


def test_a_mirror_dot_moves_with_its_top_line() -> None:
    centred, behind = _look(0.0), _look(-4.0)
    m = BOX.mirrors[0]
    moved = np.subtract(mirror_dot_xy(BOARD, m, behind), mirror_dot_xy(BOARD, m, centred))
    # The top 4 mm behind the slot's line (away from the reflective face): so is its dot.
    assert np.allclose(moved, -4.0 * _toward_face(BOARD), atol=1e-9)


def test_a_mirror_top_stands_where_its_line_says() -> None:
    for line in (0.0, -3.5, 1.0):
        (solid,) = piece_solids(
            BOARD, BOX, np.random.default_rng(1), DEFAULT_STICKERS, look=_look(line)
        )
        # The top is the face looking up (the board's z points down, heights are negative).
        (top,) = [f for f in solid.faces if float(f.normal[2]) < -0.5]
        middle = top.quad[:, :2].mean(axis=0) - np.asarray(BOARD.crossing_mm((1, 1)))
        assert np.isclose(float(middle @ _toward_face(BOARD)), line, atol=1e-9)


def test_random_boxes_draw_thick_tops_and_tops_behind_the_line() -> None:
    paints = [
        random_look(BOARD, BOX, DEFAULT_STICKERS, np.random.default_rng(i)).paints
        for i in range(200)
    ]
    thick = [p.mirror_thickness_mm for p in paints if p is not None]
    lines = [p.mirror_top_line_mm for p in paints if p is not None]
    assert min(thick) >= 2.0 and max(thick) <= 9.0 and max(thick) > 7.0
    assert min(lines) < -3.0 and max(lines) > 0.5
