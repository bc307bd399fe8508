"""Where the camera is, from a board's corner markers.

Standing pieces are read at their tops, centimetres above the board, so a homography of the
board plane is not enough under tilt: we need the camera's pose. It comes from
`cv2.solvePnP` on the corners of the markers seen (at least three markers, 12 points).
The intrinsics come from a calibration when there is one; otherwise square pixels and a
principal point at the image centre are assumed and the focal length is the one whose best
pose reprojects the marker corners best (the geometric form of Zhang's constraints, which
with three markers and noisy corners proved far steadier than the algebraic one). Looking
almost straight down the corners say nothing about the focal length (and it then hardly
matters, because the heights are small beside the distance), so a typical camera's field of
view is kept unless another focal length clearly fits better.

Any game's board works: it need only say where its square corner markers sit
(`MarkerGeometry`), so no game's board type is named here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import cv2
import numpy as np

from companion.vision.markers import Marker, detect_markers

PRIOR_HFOV_DEG = 66.0
"""Raspberry Pi Camera Module 3 (and many webcams): the fallback when f cannot be measured."""
FOCAL_GAIN_PX = 0.02
FOCAL_GAIN_RATIO = 0.75
"""Keep the prior focal length unless another explains the corners clearly better: by this
many pixels RMS and by this ratio (a corner misplaced by a finger over a marker leaves a
residual no focal length explains, and a search would then chase noise)."""
MIN_MARKERS = 3


class PlacedMarker(Protocol):
    """One corner marker printed on a board: its ArUco id and its centre in board mm."""

    @property
    def id(self) -> int: ...

    @property
    def center_mm(self) -> tuple[float, float]: ...


class MarkerGeometry(Protocol):
    """What the pose needs of a board: its corner markers and their (common) side in mm."""

    @property
    def markers(self) -> Sequence[PlacedMarker]: ...

    @property
    def marker_side_mm(self) -> float: ...


@dataclass(frozen=True)
class Calibration:
    K: np.ndarray
    dist: np.ndarray

    @classmethod
    def of(cls, registration: object) -> Calibration | None:
        """The lens intrinsics the live registration carries (`camera_matrix`, `dist_coeffs`),
        None when it has none: a game's perceiver then estimates the focal length."""
        K = getattr(registration, "camera_matrix", None)
        if K is None:
            return None
        dist = getattr(registration, "dist_coeffs", None)
        return cls(np.asarray(K, float), np.zeros(5) if dist is None else np.asarray(dist, float))


@dataclass(frozen=True)
class BoardPose:
    K: np.ndarray
    dist: np.ndarray
    rvec: np.ndarray
    tvec: np.ndarray
    markers: tuple[int, ...]
    reprojection_px: float
    focal_estimated: bool

    @cached_property
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


def marker_object_points(board: MarkerGeometry, marker_id: int) -> np.ndarray:
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


def _k(f: float, size: tuple[int, int]) -> np.ndarray:
    return np.array([[f, 0, size[0] / 2], [0, f, size[1] / 2], [0, 0, 1]], np.float64)


@dataclass(frozen=True)
class PoseFit:
    """The best pose at one focal length and how well it reprojects the marker corners."""

    rms: float
    rvec: np.ndarray
    tvec: np.ndarray


def fit_at_focal(
    obj: np.ndarray, img: np.ndarray, f: float, size: tuple[int, int], refine: bool = False
) -> PoseFit:
    """The best pose at focal length f (IPPE alone is enough to search with; the final
    comparison refines, as the pose that is used will be). The corners are projected here
    rather than by `cv2.projectPoints`: without distortion it is two lines, and the call and
    numpy's reductions cost more than the IPPE solve itself."""
    K = _k(f, size)
    ok, rvec, tvec = cv2.solvePnP(obj, img, K, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return PoseFit(float("inf"), np.zeros((3, 1)), np.zeros((3, 1)))
    if refine:
        rvec, tvec = cv2.solvePnPRefineLM(obj, img, K, None, rvec, tvec)
    cam = obj @ cv2.Rodrigues(rvec)[0].T + tvec.reshape(1, 3)
    off = (f * cam[:, :2] / cam[:, 2:3] + (size[0] / 2, size[1] / 2) - img).ravel()
    return PoseFit(math.sqrt(float(off @ off) / len(img)), rvec, tvec)


def _focal_search(obj: np.ndarray, img: np.ndarray, size: tuple[int, int]) -> tuple[float, PoseFit]:
    """The focal length kept (see `focal_by_reprojection`) and its refined pose.

    The search is skipped when it cannot win: every pose at every focal length maps the board
    plane by a homography, so the best homography's reprojection error bounds from below
    what any focal length can reach; when even that bound does not beat the prior's fit
    clearly, the prior is kept without searching (most views that are nearly straight down).
    """
    prior = _prior_focal(size[0])
    at_prior = fit_at_focal(obj, img, prior, size, refine=True)
    floor = homography_rms(obj, img)
    if not _clearly_better(floor, at_prior.rms):
        return prior, at_prior
    grid = np.exp(np.linspace(math.log(0.45 * size[0]), math.log(2.6 * size[0]), 12))
    coarse = [fit_at_focal(obj, img, float(f), size).rms for f in grid]
    i = int(np.argmin(coarse))
    lo, hi = max(0, i - 1), min(len(grid) - 1, i + 1)
    logs = np.linspace(math.log(grid[lo]), math.log(grid[hi]), 7)
    known = {0: coarse[lo], 6: coarse[hi]}  # the fine grid's ends (and middle) are coarse points
    if hi - lo == 2:
        known[3] = coarse[i]
    errs = [
        known[k] if k in known else fit_at_focal(obj, img, math.exp(v), size).rms
        for k, v in enumerate(logs)
    ]
    j = min(max(int(np.argmin(errs)), 1), len(logs) - 2)
    a, b, c = errs[j - 1], errs[j], errs[j + 1]
    bend = a - 2 * b + c  # a parabola through the three points around the minimum
    step = 0.5 * (a - c) / bend if bend > 1e-12 else 0.0
    best = math.exp(logs[j] + max(-1.0, min(1.0, step)) * (logs[1] - logs[0]))
    at_best = fit_at_focal(obj, img, best, size, refine=True)
    return (best, at_best) if _clearly_better(at_best.rms, at_prior.rms) else (prior, at_prior)


def _clearly_better(rms: float, prior_rms: float) -> bool:
    """Whether a focal length's fit beats the prior's by the gain (`FOCAL_GAIN_PX`)."""
    return prior_rms - rms > FOCAL_GAIN_PX and rms < FOCAL_GAIN_RATIO * prior_rms


def homography_rms(obj: np.ndarray, img: np.ndarray) -> float:
    """Corner reprojection RMS of the best homography from the board plane (least squares,
    refined on the reprojection error by OpenCV): a lower bound for any pose's."""
    H, _ = cv2.findHomography(obj[:, :2], img, 0)
    if H is None:
        return 0.0  # no bound: search
    pts = np.column_stack([obj[:, :2], np.ones(len(obj))]) @ H.T
    off = (pts[:, :2] / pts[:, 2:3] - img).ravel()
    return math.sqrt(float(off @ off) / len(img))


def focal_by_reprojection(obj: np.ndarray, img: np.ndarray, size: tuple[int, int]) -> float:
    """The focal length whose best pose reprojects the marker corners best.

    A coarse search over a wide range of fields of view, refined around the best; when the
    error hardly depends on f (looking nearly straight down) the prior is kept, since then
    f barely changes where a 2 cm tall top lands either.
    """
    return _focal_search(obj, img, size)[0]


def estimate_pose(
    markers: dict[int, Marker],
    board: MarkerGeometry,
    size: tuple[int, int],
    calibration: Calibration | None = None,
) -> BoardPose | None:
    """The camera pose from the board's corner markers; None with fewer than three seen."""
    ids = tuple(m.id for m in board.markers if m.id in markers)
    if len(ids) < MIN_MARKERS:
        return None
    obj = np.vstack([marker_object_points(board, i) for i in ids])
    img = np.vstack([markers[i].corners.reshape(4, 2) for i in ids]).astype(np.float64)
    if calibration is None:
        f, fit = _focal_search(obj, img, size)
        if not math.isfinite(fit.rms):
            return None
        K = _k(f, size)
        return BoardPose(K, np.zeros(5), fit.rvec, fit.tvec, ids, fit.rms, True)
    K, dist = calibration.K.astype(np.float64), calibration.dist.astype(np.float64)
    ok, rvec, tvec = cv2.solvePnP(obj, img, K, dist, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return None
    rvec, tvec = cv2.solvePnPRefineLM(obj, img, K, dist, rvec, tvec)
    proj, _ = cv2.projectPoints(obj, rvec, tvec, K, dist)
    err = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - img) ** 2, axis=1))))
    return BoardPose(K, dist, rvec, tvec, ids, err, False)


def pose_in_image(
    image: np.ndarray,
    board: MarkerGeometry,
    markers: dict[int, Marker] | None = None,
    calibration: Calibration | None = None,
) -> BoardPose | None:
    """`estimate_pose` for one photograph: its markers found unless given (live play passes
    the registration's, so they are not looked for twice), and its size the image's."""
    if markers is None:
        markers = detect_markers(image)
    h, w = image.shape[:2]
    return estimate_pose(markers, board, (w, h), calibration)
