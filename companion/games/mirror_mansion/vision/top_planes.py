"""The rectify stage: the photograph resampled on the planes where the pieces' tops are.

Standing pieces are read at their tops, so each height gets its own top-down image (a
homography of that plane from the camera pose, `pose.py`): on it every top edge and dot sits
at its board position whatever the tilt. The images are white-balanced on the white quiet
zone round the corner markers, the one thing every box's print is known to have, so a
sticker keeps its hue under a warm lamp or a cool window.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from companion.games.mirror_mansion.rules.board import Board
from companion.vision.board_pose import BoardPose

PX_PER_MM = 2.0
"""Scale of the top-plane resamplings: about what a 1280-pixel camera sees of the board."""
QUIET_ZONE_MM = (1.0, 3.0)
"""How far outside a marker's edge its white margin is sampled (a detectable marker needs
a light margin; 3 mm stays inside the narrowest we print)."""


@dataclass(frozen=True)
class TopPlane:
    """The photograph resampled on the plane `height_mm` above the board, from `origin_mm`."""

    bgr: np.ndarray
    origin_mm: tuple[float, float]
    height_mm: float

    @cached_property
    def hsv(self) -> np.ndarray:
        return cv2.cvtColor(self.bgr, cv2.COLOR_BGR2HSV)

    @cached_property
    def sat(self) -> np.ndarray:
        """The saturation plane of `hsv`, contiguous (what OpenCV copies a view into)."""
        return np.ascontiguousarray(self.hsv[..., 1])

    @cached_property
    def gray(self) -> np.ndarray:
        return cv2.cvtColor(self.bgr, cv2.COLOR_BGR2GRAY)

    @cached_property
    def lab(self) -> np.ndarray:
        """CIE Lab (float32): colour differences of either sign and any hue, in one unit."""
        return cv2.cvtColor(self.bgr, cv2.COLOR_BGR2LAB).astype(np.float32)

    def px(self, xy_mm: np.ndarray) -> np.ndarray:
        return (np.asarray(xy_mm, np.float64) - self.origin_mm) * PX_PER_MM

    def mm(self, xy_px: np.ndarray) -> np.ndarray:
        return np.asarray(xy_px, np.float64) / PX_PER_MM + self.origin_mm


def median(a: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """`np.median(a, axis)` of an array with no NaN, value for value, for a fraction of its
    cost: a frame takes some forty medians of small arrays, where numpy's general one is
    mostly Python (the same partition, then the mean of the middle two as numpy takes it)."""
    n = a.shape[axis]
    half = n // 2
    if n % 2:
        part = np.partition(a, half, axis=axis)
        return np.take(part, [half] if keepdims else half, axis=axis)
    part = np.partition(a, (half - 1, half), axis=axis)
    lo = np.take(part, [half - 1] if keepdims else half - 1, axis=axis)
    hi = np.take(part, [half] if keepdims else half, axis=axis)
    return np.true_divide(lo + hi, 2, dtype=np.result_type(lo + hi, 1.0))


def norm(a: np.ndarray) -> np.ndarray:
    """`np.linalg.norm(a, axis=-1)` of a real array, value for value (numpy's own sum of
    squares, then the root), without its Python checks."""
    return np.sqrt(np.add.reduce(a * a, axis=-1))


def unit_gains(gains: np.ndarray) -> bool:
    """Whether white-balance gains are all 1 within 0.01 (`np.allclose(gains, 1.0,
    atol=0.01)`, without its Python overhead: a frame asks nine times)."""
    return bool(np.all(np.abs(np.asarray(gains, np.float64) - 1.0) <= 0.01 + 1e-5))


def white_balance(image: np.ndarray, pose: BoardPose, board: Board) -> np.ndarray:
    """Per-channel gains (B, G, R) that make the markers' white margins grey."""
    s = board.marker_side_mm / 2
    # Round each marker, lines at a few distances out from its edge, a dozen points each.
    d = np.linspace(*QUIET_ZONE_MM, 3)[:, None]
    t = np.linspace(-s - d, s + d, 12, axis=1)[..., 0]
    out = np.broadcast_to(s + d, t.shape)
    ring = np.concatenate(
        [np.stack(xy, axis=-1).reshape(-1, 2) for xy in ((t, -out), (t, out), (-out, t), (out, t))]
    )
    centres = np.array(
        [next(m for m in board.markers if m.id == i).center_mm for i in pose.markers], np.float64
    )
    flat = (centres[:, None, :] + ring[None]).reshape(-1, 2)
    pts = np.column_stack([flat, np.zeros(len(flat))])
    px = np.rint(pose.project(np.array(pts))).astype(np.intp)
    h, w = image.shape[:2]
    inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    if inside.sum() < 20:
        return np.ones(3, np.float32)
    values = image[px[inside, 1], px[inside, 0]].astype(np.float32)
    # The brighter half: a finger or a shadow on one margin must not tint the rest.
    bright = values[values.sum(axis=1) >= median(values.sum(axis=1), axis=0)]
    white = np.maximum(median(bright, axis=0), 20.0)
    gains = white.mean() / white
    return np.clip(gains, 0.6, 1.6).astype(np.float32)


def top_plane(
    image: np.ndarray,
    pose: BoardPose,
    height_mm: float,
    lo_mm: tuple[float, float],
    hi_mm: tuple[float, float],
    gains: np.ndarray | None = None,
) -> TopPlane:
    to_mm = np.array([[1 / PX_PER_MM, 0, lo_mm[0]], [0, 1 / PX_PER_MM, lo_mm[1]], [0, 0, 1]])
    H = pose.plane_homography(height_mm) @ to_mm
    size = (round((hi_mm[0] - lo_mm[0]) * PX_PER_MM), round((hi_mm[1] - lo_mm[1]) * PX_PER_MM))
    warped = cv2.warpPerspective(
        image,
        H,
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    )
    if gains is not None and not unit_gains(gains):
        warped = cv2.transform(warped, np.diag(gains).astype(np.float32))
    return TopPlane(warped, lo_mm, height_mm)


@dataclass(frozen=True)
class PlaneSampler:
    """A plane's colours at chosen board points, read straight from the photograph.

    What a `TopPlane` would show there (bilinear, white-balanced), without resampling the
    whole plane: the top-edge score needs a few thousand points, not a plane of 140,000
    pixels, and a Lab conversion of only those."""

    image: np.ndarray
    H: np.ndarray
    """The plane's board mm to image pixels."""
    gains: np.ndarray | None = None

    def lab(self, pts_mm: np.ndarray) -> np.ndarray:
        """CIE Lab (float32, OpenCV's 8-bit scaling) at points of shape (..., 2)."""
        pts = np.asarray(pts_mm, np.float64)
        shape = pts.shape[:-1]
        flat = pts.reshape(-1, 2)
        q = flat @ self.H[:, :2].T + self.H[:, 2]
        xy = (q[:, :2] / q[:, 2:3]).astype(np.float32)
        # As one wide image: remap's maps stay under 32767 a side, and OpenCV's colour
        # conversions pay per row (a tall thin image converts a hundred times slower).
        n = len(xy)
        cols = max(1, min(n, 4096))
        rows = -(-n // cols)
        xy = np.concatenate([xy, np.zeros((rows * cols - n, 2), np.float32)])
        mx, my = (np.ascontiguousarray(xy[:, k].reshape(rows, cols)) for k in (0, 1))
        bgr = cv2.remap(
            self.image,
            mx,
            my,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0),
        )
        if self.gains is not None:
            bgr = cv2.transform(bgr, np.diag(self.gains).astype(np.float32))
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
        return lab.reshape(-1, 3)[:n].reshape(*shape, 3)


def plane_sampler(
    image: np.ndarray, pose: BoardPose, height_mm: float, gains: np.ndarray | None = None
) -> PlaneSampler:
    if gains is not None and unit_gains(gains):
        gains = None
    return PlaneSampler(image, pose.plane_homography(height_mm), gains)
