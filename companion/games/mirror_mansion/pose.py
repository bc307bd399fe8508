"""Where the camera is, from the four corner markers of the board.

Standing pieces are read at their tops, 2–2.5 cm above the board, so a homography of the
board plane is not enough under tilt: we need the camera's pose. It comes from
`cv2.solvePnP` on the corners of the markers seen (at least three markers, 12 points).
The intrinsics come from a calibration when there is one; otherwise square pixels and a
principal point at the image centre are assumed and the focal length is estimated from the
board homography with Zhang's two constraints on the image of the absolute conic. Looking
almost straight down those constraints say nothing about the focal length (and it then
hardly matters, because the heights are small beside the distance), so below a few degrees
of tilt, or when the estimate is absurd, a typical webcam's field of view is used instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.mirror_mansion.board import Board
from companion.vision.markers import Marker

PRIOR_HFOV_DEG = 66.0
"""Raspberry Pi Camera Module 3 (and many webcams): the fallback when f cannot be measured."""
MIN_TILT_FOR_FOCAL_DEG = 8.0
MIN_MARKERS = 3


@dataclass(frozen=True)
class Calibration:
    K: np.ndarray
    dist: np.ndarray


@dataclass(frozen=True)
class BoardPose:
    K: np.ndarray
    dist: np.ndarray
    rvec: np.ndarray
    tvec: np.ndarray
    markers: tuple[int, ...]
    reprojection_px: float
    focal_estimated: bool

    @property
    def R(self) -> np.ndarray:
        return cv2.Rodrigues(self.rvec)[0]

    @property
    def camera_centre(self) -> np.ndarray:
        """The camera in board millimetres (z < 0: above the board)."""
        return (-self.R.T @ self.tvec.reshape(3)).astype(np.float64)

    @property
    def tilt_deg(self) -> float:
        axis = self.R.T @ np.array([0.0, 0.0, 1.0])
        return math.degrees(math.acos(min(1.0, abs(float(axis[2])))))

    def project(self, points: np.ndarray) -> np.ndarray:
        """N×3 board points (z = -height) to N×2 image pixels."""
        pts = np.asarray(points, np.float64).reshape(-1, 3)
        out, _ = cv2.projectPoints(pts, self.rvec, self.tvec, self.K, self.dist)
        return out.reshape(-1, 2)

    def plane_homography(self, height_mm: float) -> np.ndarray:
        """Board (x, y) on the plane `height_mm` above the board to (undistorted) pixels."""
        R = self.R
        H = self.K @ np.column_stack([R[:, 0], R[:, 1], -height_mm * R[:, 2] + self.tvec.ravel()])
        return H / H[2, 2]


def marker_object_points(board: Board, marker_id: int) -> np.ndarray:
    """A marker's corners in board mm, in ArUco's order (clockwise from its top-left)."""
    for m in board.markers:
        if m.id == marker_id:
            cx, cy = m.center_mm
            s = board.marker_side_mm / 2
            return np.array(
                [
                    [cx - s, cy - s, 0],
                    [cx + s, cy - s, 0],
                    [cx + s, cy + s, 0],
                    [cx - s, cy + s, 0],
                ],
                np.float64,
            )
    raise KeyError(marker_id)


def _prior_focal(width: int) -> float:
    return (width / 2) / math.tan(math.radians(PRIOR_HFOV_DEG) / 2)


def focal_from_homography(H: np.ndarray, size: tuple[int, int]) -> float | None:
    """Zhang's constraints with square pixels and a centred principal point; None if unusable.

    `H` maps board points scaled to about unit size to pixels.
    """
    w, h = size
    T = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], np.float64)
    G = T @ H
    G = G / np.linalg.norm(G[:, 0])
    h1, h2 = G[:, 0], G[:, 1]
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([-h1[2] * h2[2], -(h1[2] ** 2 - h2[2] ** 2)])
    denom = float(a @ a)
    if denom < 1e-12:
        return None
    inv_f2 = float(a @ b) / denom
    if inv_f2 <= 0:
        return None
    f = 1.0 / math.sqrt(inv_f2)
    return f if 0.35 * w < f < 3.0 * w else None


def estimate_pose(
    markers: dict[int, Marker],
    board: Board,
    size: tuple[int, int],
    calibration: Calibration | None = None,
) -> BoardPose | None:
    """The camera pose from the board's corner markers; None with fewer than three seen."""
    ids = tuple(m.id for m in board.markers if m.id in markers)
    if len(ids) < MIN_MARKERS:
        return None
    obj = np.vstack([marker_object_points(board, i) for i in ids])
    img = np.vstack([markers[i].corners.reshape(4, 2) for i in ids]).astype(np.float64)
    w, h = size
    if calibration is not None:
        K, dist = calibration.K.astype(np.float64), calibration.dist.astype(np.float64)
        estimated = False
    else:
        dist = np.zeros(5)
        f = _prior_focal(w)
        estimated = True
        scale = max(board.markers[2].center_mm) or 1.0
        H, _ = cv2.findHomography(obj[:, :2] / scale, img, 0)
        if H is not None:
            K0 = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
            ok, rvec, _ = cv2.solvePnP(obj, img, K0, dist, flags=cv2.SOLVEPNP_IPPE)
            tilt = 0.0
            if ok:
                axis = cv2.Rodrigues(rvec)[0].T @ np.array([0.0, 0.0, 1.0])
                tilt = math.degrees(math.acos(min(1.0, abs(float(axis[2])))))
            zhang = focal_from_homography(H, size)
            if zhang is not None and tilt >= MIN_TILT_FOR_FOCAL_DEG:
                f = zhang
        K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    ok, rvec, tvec = cv2.solvePnP(obj, img, K, dist, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return None
    rvec, tvec = cv2.solvePnPRefineLM(obj, img, K, dist, rvec, tvec)
    proj, _ = cv2.projectPoints(obj, rvec, tvec, K, dist)
    err = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - img) ** 2, axis=1))))
    return BoardPose(K, dist, rvec, tvec, ids, err, estimated)
