"""A pinhole camera over the table, for rendering scenes with exact ground truth.

World frame, millimetres: x to the right of the table, y down the table (toward the bottom
of a top-down picture), z into the table, so a point h mm above the table has z = -h.
Looking straight down with no yaw, the camera's axes coincide with the world's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


def _rot_x(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=np.float64)


def _rot_z(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=np.float64)


@dataclass(frozen=True)
class VirtualCamera:
    K: np.ndarray
    """3×3 intrinsic matrix."""
    R: np.ndarray
    """3×3 rotation, world to camera."""
    C: np.ndarray
    """Camera centre in world millimetres."""
    width: int
    height: int

    @classmethod
    def looking_at(
        cls,
        target_mm: tuple[float, float],
        distance_mm: float,
        *,
        tilt_deg: float = 0.0,
        yaw_deg: float = 0.0,
        width: int = 1280,
        height: int = 960,
        hfov_deg: float = 66.0,
    ) -> VirtualCamera:
        """A camera `distance_mm` from a table point, on its optical axis.

        `tilt_deg` leans the camera away from straight down (0 = overhead); `yaw_deg`
        turns it about the vertical, which is how the table appears rotated in the image.
        """
        f = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
        K = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]], dtype=np.float64)
        cam_to_world = _rot_z(yaw_deg) @ _rot_x(tilt_deg)
        forward = cam_to_world @ np.array([0.0, 0.0, 1.0])
        target = np.array([target_mm[0], target_mm[1], 0.0])
        centre = target - distance_mm * forward
        return cls(K=K, R=cam_to_world.T, C=centre, width=width, height=height)

    @property
    def t(self) -> np.ndarray:
        return -self.R @ self.C

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """N×3 world points (or N×2 on the table) to N×2 image pixels."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, points_mm.shape[-1])
        if pts.shape[1] == 2:
            pts = np.hstack([pts, np.zeros((len(pts), 1))])
        cam = (self.R @ pts.T).T + self.t
        pix = (self.K @ cam.T).T
        return pix[:, :2] / pix[:, 2:3]

    def plane_homography(self, z_mm: float = 0.0) -> np.ndarray:
        """3×3 map from (x, y, 1) on the plane z = z_mm to image pixels."""
        r1, r2, r3 = self.R[:, 0], self.R[:, 1], self.R[:, 2]
        H = self.K @ np.column_stack([r1, r2, r3 * z_mm + self.t])
        return H / H[2, 2]

    def render_plane(
        self,
        canvas: np.ndarray,
        px_per_mm: float,
        origin_mm: tuple[float, float] = (0.0, 0.0),
        *,
        background: np.ndarray | None = None,
        z_mm: float = 0.0,
    ) -> np.ndarray:
        """Photograph a top-down canvas whose pixel (0, 0) lies at `origin_mm`.

        Outside the canvas the picture shows `background` (an image of the camera's size),
        or the canvas's edge colour repeated.
        """
        canvas_to_mm = np.array(
            [[1 / px_per_mm, 0, origin_mm[0]], [0, 1 / px_per_mm, origin_mm[1]], [0, 0, 1]]
        )
        H = self.plane_homography(z_mm) @ canvas_to_mm
        size = (self.width, self.height)
        if background is None:
            return cv2.warpPerspective(
                canvas, H, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
            )
        out = background.copy()
        cv2.warpPerspective(
            canvas,
            H,
            size,
            dst=out,
            flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_TRANSPARENT,
        )
        return out

    def px_per_mm_at(self, point_mm: tuple[float, float]) -> float:
        """Image scale at a table point: how many pixels one millimetre spans there."""
        p = np.array(
            [
                [point_mm[0], point_mm[1]],
                [point_mm[0] + 1, point_mm[1]],
                [point_mm[0], point_mm[1] + 1],
            ]
        )
        q = self.project(p)
        return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0])) / 2)


def rim_corners_mm(size_mm: tuple[float, float], rim_mm: float) -> np.ndarray:
    """The 4x2 corners (mm, clockwise from the origin's) of a `size_mm` board grown by a rim
    all round: the outline a camera must keep in view (`framing_camera`)."""
    w, h = size_mm
    return np.array(
        [
            [-rim_mm, -rim_mm],
            [w + rim_mm, -rim_mm],
            [w + rim_mm, h + rim_mm],
            [-rim_mm, h + rim_mm],
        ],
        np.float64,
    )


def framing_camera(
    corners_mm: np.ndarray,
    top_mm: float,
    rng: np.random.Generator,
    size: tuple[int, int],
    max_tilt_deg: float,
    distance_mm: tuple[float, float],
    *,
    grow: float = 1.07,
    tries: int = 25,
) -> VirtualCamera:
    """A camera at any turn, tilted up to the limit, aimed near the middle of a board whose
    corners (N×2, mm) must all be in view `top_mm` above the table: moved back until they
    are, so a random pose never crops the thing being photographed. The draws come in a
    fixed order (tilt, turn, field of view, distance, aim), so a seed fixes the camera."""
    centre = corners_mm.mean(axis=0)
    w, h = size
    tilt, yaw = float(rng.uniform(0, max_tilt_deg)), float(rng.uniform(0, 360))
    hfov = float(rng.uniform(58, 72))
    distance = float(rng.uniform(*distance_mm))
    target = (centre[0] + rng.uniform(-20, 20), centre[1] + rng.uniform(-20, 20))
    raised = np.hstack([corners_mm, np.full((len(corners_mm), 1), -top_mm)])
    cam = None
    for _ in range(tries):
        cam = VirtualCamera.looking_at(
            target, distance, tilt_deg=tilt, yaw_deg=yaw, width=w, height=h, hfov_deg=hfov
        )
        pix = cam.project(raised)
        inside = (pix[:, 0] > 0.03 * w) & (pix[:, 0] < 0.97 * w)
        inside &= (pix[:, 1] > 0.03 * h) & (pix[:, 1] < 0.97 * h)
        if inside.all():
            break
        distance *= grow
    assert cam is not None
    return cam


def arm_reach(
    cam: VirtualCamera, over_mm: tuple[float, float] | None, height_mm: float = 45.0
) -> tuple[float, float] | None:
    """Where in the image a hand held `height_mm` above the table point `over_mm` is (None
    when no hand is over the table): a film's arm reaches there (`effects.film_frame`)."""
    if over_mm is None:
        return None
    p = cam.project(np.array([[over_mm[0], over_mm[1], -height_mm]]))[0]
    return (float(p[0]), float(p[1]))
