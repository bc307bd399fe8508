"""A standing neighbour's side, seen in an empty square under a tilt, is not a screen there.

Under a tilt everything below the tops' plane is pulled toward the point under the camera,
so the side of a screen farther from the camera shows in the square in front of it. The
reader judges a square only where no other square's screen could reach (`screen_reach`).
"""

from __future__ import annotations

import numpy as np
import pytest

import companion.games.reflecto.vision.read as read
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.games.reflecto.vision.render import (
    Conditions,
    board_picture,
    random_colours,
    shoot,
    start_position,
)
from companion.sim.camera import VirtualCamera

GEOM = load_geometry()
W, H = GEOM.size_mm
SPREAD = BoardReading(
    tuple(
        ScreenSeen((r, c), (r + c // 2) % 2)
        for r in range(GEOM.rows)
        for c in range(0, 7, 2)
        if r % 2 == 0 or c % 4 == 0
    )
)
"""Screens in every other column, with empty squares between them along the rows."""


def _table(yaw: float) -> tuple[np.ndarray, read.ScreenColours]:
    """SPREAD and the start position on one table, from a low camera tilted 25°."""
    cam = VirtualCamera.looking_at((W / 2, H / 2), 430, tilt_deg=25, yaw_deg=yaw, hfov_deg=72)
    rng = np.random.default_rng(3)
    colours = random_colours(rng)
    base = board_picture(GEOM, cam, rng)
    still = Conditions(glare=False)
    setup = shoot(
        base,
        GEOM,
        start_position(GEOM),
        colours,
        cam,
        np.random.default_rng([3, 0]),
        hands=0,
        conditions=still,
    )
    image = shoot(
        base, GEOM, SPREAD, colours, cam, np.random.default_rng([3, 1]), hands=0, conditions=still
    )
    rect = read.rectify(setup, GEOM)
    assert rect is not None
    return image, read.learn_at_setup(rect, GEOM)


@pytest.mark.parametrize("yaw", [45.0, 90.0])
def test_empty_squares_beside_standing_screens_read_clear(
    yaw: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    image, colours = _table(yaw)
    got, _ = read.read_board(image, GEOM, colours)
    assert got.layout_key() == SPREAD.layout_key()
    assert got.unclear == ()
    # The same picture judged on whole strips (no square's reach left out) holds squares
    # in doubt: the neighbours' sides are what the reach leaves out.
    monkeypatch.setattr(read, "MIN_SEEN", 2.0)
    whole, _ = read.read_board(image, GEOM, colours)
    assert whole.unclear != ()


@pytest.mark.parametrize(("tilt", "yaw"), [(0.0, 0.0), (25.0, 90.0), (25.0, 270.0)])
def test_reach_stretches_toward_the_camera_by_the_feet_pulled_onto_the_tops_plane(
    tilt: float, yaw: float
) -> None:
    """Along the line to the point under the camera, the reach ends at the screen's top on
    the far side and at its foot's nearer end pulled onto the tops' plane on the near side:
    by (distance - half a screen) * height / camera height."""
    cam = VirtualCamera.looking_at((W / 2, H / 2), 500, tilt_deg=tilt, yaw_deg=yaw)
    rect = read.rectify(board_picture(GEOM, cam, np.random.default_rng(1)), GEOM)
    assert rect is not None
    cell = (3, 0)  # the middle of the left edge: along x from the camera in these poses
    poly = read.screen_reach(rect, GEOM)[GEOM.cells.index(cell)]
    x, y = GEOM.cell_mm(cell)
    reach_mm = (poly - np.array(rect.px((x, y)))) / read.PX_PER_MM
    camera = rect.pose.camera_centre
    foot = camera[:2] - np.array([x, y])
    d = float(np.linalg.norm(foot))
    toward = float((reach_mm @ (foot / d)).max())
    away = float((reach_mm @ (-foot / d)).max())
    half = GEOM.screen_width_mm / 2 + read.SEARCH_MM
    assert away == pytest.approx(half, abs=0.5)
    lean = (d - half) * GEOM.screen_height_mm / -camera[2]
    assert toward - away == pytest.approx(lean, abs=0.5)
