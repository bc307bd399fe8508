"""A strip in a seat's colour whose colours are found on the board beside it is a question
for the players, whatever stands out round it: a top is a raised bar whose colour ends on
both sides across the row, but so does a stripe printed along the row in a seat's colour
(`read.classify`, "maybe the print")."""

from __future__ import annotations

import numpy as np

import companion.games.reflecto.vision.read as read
from companion.games.reflecto.vision.colours import ScreenColours, chromaticity
from companion.games.reflecto.vision.geometry import Cell, load_geometry
from companion.vision.board_pose import BoardPose

GEOM = load_geometry()
S = read.PX_PER_MM
PRINT = np.array([150.0, 50.0, 130.0])
"""BGR of a board printed in seat 0's hue."""
TOP = 1.3 * PRINT
"""A top of that hue, lighter than the print under it."""


def _board(
    rng: np.random.Generator, camera_mm: tuple[float, float] = (0.0, 0.0)
) -> tuple[read.Rectified, np.ndarray]:
    """A tops' plane showing nothing but the print, and its pixels to paint on; the camera
    500 mm above the board point `camera_mm`, looking straight down."""
    (x0, y0), (x1, y1) = GEOM.grid_box_mm
    size = (
        round((y1 - y0 + 2 * read.MARGIN_MM) * S),
        round((x1 - x0 + 2 * read.MARGIN_MM) * S),
    )
    overhead = BoardPose(
        np.eye(3),
        np.zeros(5),
        np.zeros(3),
        np.array([-camera_mm[0], -camera_mm[1], 500.0]),
        (),
        0,
        False,
    )
    top = PRINT + rng.normal(0, 3, (*size, 3))
    origin = (x0 - read.MARGIN_MM, y0 - read.MARGIN_MM)
    return read.Rectified(overhead, top.astype(np.uint8), origin, ()), top


def _paint(
    top: np.ndarray,
    rect: read.Rectified,
    cell: Cell,
    across: tuple[float, float],
    colour: np.ndarray,
    matching: float = 0.23,
) -> None:
    """`colour` over the square's width, from `across[0]` to `across[1]` mm across the row
    from its centre line, and the same shade as the print over the first `matching` of the
    strip's length (a top is lit unevenly: part of it matches the print beside it)."""
    cx, cy = rect.px(GEOM.cell_mm(cell))
    half = GEOM.screen_width_mm / 2 * S
    rows = slice(round(cy + across[0] * S), round(cy + across[1] * S))
    top[rows, round(cx - half) : round(cx + half)] = colour
    strip = read.STRIP_LENGTH * GEOM.screen_width_mm / 2 * S
    top[rows, round(cx - strip) : round(cx - strip + 2 * strip * matching)] = PRINT


def _scene() -> tuple[read.Rectified, Cell, Cell, Cell]:
    """A top standing on one square (its upright face, darker, beyond it), the same colours
    printed on another square deeper than any top, and one square printed plain."""
    rng = np.random.default_rng(3)
    rect, top = _board(rng)
    bar, patch, plain = (3, 3), (1, 1), (5, 5)
    _paint(top, rect, bar, (-4.0, 4.0), TOP)
    _paint(top, rect, bar, (4.0, 8.0), 0.6 * PRINT)
    _paint(top, rect, patch, (-15.0, 15.0), TOP)
    top += rng.normal(0, 3, top.shape)
    picture = read.Rectified(rect.pose, np.clip(top, 0, 255).astype(np.uint8), rect.origin_mm, ())
    return picture, bar, patch, plain


def test_a_strip_whose_colours_are_found_beside_it_is_asked_even_with_a_bar_round_it() -> None:
    """A top on print of its own hue: part of its colours are found on the board beside it,
    and a bar of its colour stands out round it. A stripe printed there would look the same,
    so it is asked about, not read as seat 0's screen; the same colours printed deeper than
    any top are no screen, and nothing is read anywhere."""
    rect, bar, patch, plain = _scene()
    seat0 = tuple(float(v) for v in chromaticity(np.array([[TOP]], np.uint8))[0, 0])
    colours = ScreenColours(seat0, (0.2, 0.5, 0.3), learned_from="set-up")  # type: ignore[arg-type]
    calls = {c.cell: c for c in read.classify(rect, GEOM, colours)}
    assert (calls[bar].owner, calls[bar].unclear, calls[bar].why) == (None, True, "maybe the print")
    assert calls[bar].shares[0] >= read.SURE
    assert calls[patch].owner is None
    assert calls[plain].owner is None
    assert not calls[plain].unclear
    assert [c.cell for c in calls.values() if c.owner is not None] == []
