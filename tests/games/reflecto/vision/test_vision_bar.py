"""A top is a bar: its colour ends on both sides across the row, a few millimetres from its
square's centre line, which the print going on under a strip does not (`read.bar_edges`)."""

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


def test_a_top_stands_out_as_a_bar_and_the_print_does_not() -> None:
    rect, bar, patch, plain = _scene()
    assert read.bar_edges(rect, GEOM, bar) >= read.BAR_EDGE
    assert read.bar_edges(rect, GEOM, patch) < read.BAR_EDGE
    assert read.bar_edges(rect, GEOM, plain) < read.BAR_EDGE


def test_a_top_on_print_of_its_hue_is_its_seats_screen_and_the_print_is_not() -> None:
    """The top's colours are partly found on the board beside it (the print test would ask
    about it); a bar stands out round it, so it is seat 0's screen. The same colours
    printed deeper than a top are no screen."""
    rect, bar, patch, plain = _scene()
    seat0 = tuple(float(v) for v in chromaticity(np.array([[TOP]], np.uint8))[0, 0])
    colours = ScreenColours(seat0, (0.2, 0.5, 0.3), learned_from="set-up")  # type: ignore[arg-type]
    calls = {c.cell: c for c in read.classify(rect, GEOM, colours)}
    assert (calls[bar].owner, calls[bar].why) == (0, "colour, a bar")
    assert calls[patch].owner is None
    assert calls[plain].owner is None
    assert [c.cell for c in calls.values() if c.owner is not None] == [bar]


def test_a_top_whose_upright_face_the_tilt_pulls_out_still_stands_out_as_a_bar() -> None:
    """Seen from a camera off to one side, a screen shows its upright face beyond its top,
    toward the point under the camera, often in the top's own colour and shade: there its
    colour ends only where the pose puts the bottom of that face (`read.outline_mm`), well
    past where a top's edge would be. A patch of print deeper than that still shows no bar."""
    rng = np.random.default_rng(5)
    bar, patch = (3, 3), (1, 1)
    x, y = GEOM.cell_mm(bar)
    rect, top = _board(rng, (x, y + 150.0))  # the camera beyond the square, along +y
    near, far = read.outline_mm(rect, GEOM, bar)
    assert near == GEOM.screen_thickness_mm / 2
    face = far - GEOM.screen_thickness_mm / 2
    assert 7.0 < face < 10.0  # (30 - 3) mm of face seen 150 mm off, 470 mm below the camera
    _paint(top, rect, bar, (-4.0, far), TOP)
    _paint(top, rect, patch, (-15.0, 15.0), TOP)
    top += rng.normal(0, 3, top.shape)
    picture = read.Rectified(rect.pose, np.clip(top, 0, 255).astype(np.uint8), rect.origin_mm, ())
    assert read.bar_edges(picture, GEOM, bar) >= read.BAR_EDGE
    assert read.bar_edges(picture, GEOM, patch) < read.BAR_EDGE


def test_a_bar_whose_colours_are_found_on_the_board_over_a_quarter_of_it_is_asked() -> None:
    """A bar of a seat's hue standing out round a strip is no proof of a top when over a
    quarter of the strip's colours are found on the board alone beside it: a board's row
    printed in a seat's colour, its printed outlines pulled by the tilt within millimetres
    of the strip, stands out so too (the development curve of `read.BAR_BOARD`: such empty
    squares found 0.26-0.28). It is asked about, not read as a screen."""
    rng = np.random.default_rng(7)
    rect, top = _board(rng)
    cell = (3, 3)
    _paint(top, rect, cell, (-4.0, 4.0), TOP, matching=0.28)
    top += rng.normal(0, 3, top.shape)
    picture = read.Rectified(rect.pose, np.clip(top, 0, 255).astype(np.uint8), rect.origin_mm, ())
    seat0 = tuple(float(v) for v in chromaticity(np.array([[TOP]], np.uint8))[0, 0])
    colours = ScreenColours(seat0, (0.2, 0.5, 0.3), learned_from="set-up")  # type: ignore[arg-type]
    assert read.bar_edges(picture, GEOM, cell) >= read.BAR_EDGE
    call = next(c for c in read.classify(picture, GEOM, colours) if c.cell == cell)
    assert (call.owner, call.why) == (None, "maybe the print")
