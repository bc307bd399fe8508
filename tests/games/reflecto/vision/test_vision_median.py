"""A strip read as a seat's screen by its colour must have its median pixel in that colour
too (`read.along_hue`, `read.MEDIAN_ALONG`): a top is one plastic, while noise on a pale
print pushes single pixels into a dull seat's hue and leaves the median grey. Such a strip
is asked about, never read as a screen."""

from __future__ import annotations

import numpy as np
import pytest

import companion.games.reflecto.vision.read as read
from companion.games.reflecto.vision.colours import GREY, ScreenColours, chromaticity
from companion.games.reflecto.vision.geometry import load_geometry
from companion.vision.board_pose import BoardPose

GEOM = load_geometry()
S = read.PX_PER_MM
PLASTIC = np.array([150.0, 80.0, 125.0])
"""BGR of seat 0's screens: a dull purple."""
PRINT = np.array([95.0, 105.0, 90.0])
"""A pale print of no seat's hue."""


def _chroma(bgr: np.ndarray) -> np.ndarray:
    out: np.ndarray = chromaticity(np.array([[bgr]], np.uint8))[0, 0].astype(np.float64)
    return out


COLOURS = ScreenColours(
    tuple(float(v) for v in _chroma(PLASTIC)),  # type: ignore[arg-type]
    (0.2, 0.5, 0.3),
    learned_from="set-up",
)


def test_along_hue_is_one_on_the_seats_colour_and_nothing_on_grey() -> None:
    assert read.along_hue(COLOURS, _chroma(PLASTIC), 0) == pytest.approx(1.0, abs=0.01)
    assert read.along_hue(COLOURS, GREY, 0) == pytest.approx(0.0, abs=1e-9)
    halfway = GREY + 0.5 * (_chroma(PLASTIC) - GREY)
    assert read.along_hue(COLOURS, halfway, 0) == pytest.approx(0.5, abs=0.01)
    # Seat 1's hue lies far round from seat 0's: seat 0's plastic is little of it.
    assert read.along_hue(COLOURS, _chroma(PLASTIC), 1) < 0.5


def _board_with_a_top() -> tuple[read.Rectified, tuple[int, int]]:
    """A tops' plane over a pale print, camera straight above, seat 0's top on one square."""
    (x0, y0), (x1, y1) = GEOM.grid_box_mm
    size = (round((y1 - y0 + 2 * read.MARGIN_MM) * S), round((x1 - x0 + 2 * read.MARGIN_MM) * S))
    pose = BoardPose(np.eye(3), np.zeros(5), np.zeros(3), np.array([0.0, 0.0, 500.0]), (), 0, False)
    origin = (x0 - read.MARGIN_MM, y0 - read.MARGIN_MM)
    rng = np.random.default_rng(11)
    top = PRINT + rng.normal(0, 3, (*size, 3))
    cell = (3, 3)
    cx, cy = read.Rectified(pose, top.astype(np.uint8), origin, ()).px(GEOM.cell_mm(cell))
    half = GEOM.screen_width_mm / 2 * S
    top[round(cy - 4 * S) : round(cy + 4 * S), round(cx - half) : round(cx + half)] = PLASTIC
    return read.Rectified(pose, np.clip(top, 0, 255).astype(np.uint8), origin, ()), cell


def test_a_top_whose_median_is_its_colour_is_read_and_one_held_to_a_stricter_median_is_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The top's median pixel is its seat's colour (`along_hue` about 1): read as seat 0's
    screen. Were the median held to more than the seat's own colour, the same strip would be
    asked about ("median near grey"), not read and not called empty."""
    rect, cell = _board_with_a_top()
    calls = {c.cell: c for c in read.classify(rect, GEOM, COLOURS)}
    assert (calls[cell].owner, calls[cell].why) == (0, "colour")
    assert [c.cell for c in calls.values() if c.owner is not None] == [cell]
    monkeypatch.setattr(read, "MEDIAN_ALONG", 1.5)
    calls = {c.cell: c for c in read.classify(rect, GEOM, COLOURS)}
    assert (calls[cell].owner, calls[cell].unclear, calls[cell].why) == (
        None,
        True,
        "median near grey",
    )
