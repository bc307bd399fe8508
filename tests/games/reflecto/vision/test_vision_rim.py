"""The hand test on a board whose rim is printed: the print is learned over the frames, an
arm is still an arm."""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.perceive import RIM_PRINT_FRAMES, RimMemory, arm_over_rim
from companion.games.reflecto.vision.read import rectify
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.sim.camera import VirtualCamera
from companion.vision.board_pose import BoardPose
from tests.games.reflecto.vision.photos import table_shot

GEOM = load_geometry()
W, H = GEOM.size_mm
CAM = VirtualCamera.looking_at((W / 2, H / 2), 540, tilt_deg=12, yaw_deg=15)
POSITION = BoardReading((ScreenSeen((0, 1), 0), ScreenSeen((6, 5), 1), ScreenSeen((3, 3), 0)))


def _printed(image: np.ndarray, pose: BoardPose) -> np.ndarray:
    """The rim above and below the grid printed with two dark red blocks, 40 mm long,
    across the whole rim (as a board's frame or a hatch running off the squares is)."""
    out = image.copy()
    homography = pose.plane_homography(0.0)
    (x0, y0), (_, y1) = GEOM.grid_box_mm
    for ya, yb in ((y0 - 26, y0 - 8), (y1 + 8, y1 + 26)):
        for xa in (x0 + 30, x0 + 150):
            quad = np.array([[xa, ya], [xa + 40, ya], [xa + 40, yb], [xa, yb]], np.float64)
            px = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), homography)
            cv2.fillConvexPoly(out, np.round(px).astype(np.int32).reshape(-1, 2), (30, 30, 150))
    return out


def test_a_printed_rim_is_learned_and_an_arm_is_still_seen() -> None:
    quiet = table_shot(GEOM, CAM, POSITION, 0, 3, 2)
    rect = rectify(quiet, GEOM)
    assert rect is not None
    pose = rect.pose
    assert not arm_over_rim(quiet, pose, GEOM)
    printed = _printed(quiet, pose)
    # Frame by frame alone, the print is an arm on every frame: the game would stall.
    assert arm_over_rim(printed, pose, GEOM)
    rim = RimMemory()
    calls = [
        arm_over_rim(_printed(table_shot(GEOM, CAM, POSITION, 0, 3, 10 + k), pose), pose, GEOM, rim)
        for k in range(9)
    ]
    assert calls[:RIM_PRINT_FRAMES] == [True] * RIM_PRINT_FRAMES  # until it is learned
    assert calls[RIM_PRINT_FRAMES:] == [False] * (9 - RIM_PRINT_FRAMES)
    arm = table_shot(GEOM, CAM, POSITION, 2, 3, 1)
    assert arm_over_rim(arm, pose, GEOM)
    assert arm_over_rim(_printed(arm, pose), pose, GEOM, rim)
