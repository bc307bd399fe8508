"""Mapping points through a 3x3 homography: one function for every plane-to-plane map
(image <-> table, glass <-> image, a card's face <-> the photo), so there is one place that
knows the shape OpenCV wants."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np


def apply_homography(H: np.ndarray, points: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """N x 2 points mapped through `H`, as an N x 2 float64 array (N may be 0)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    if len(pts) == 0:
        return np.zeros((0, 2))
    return cv2.perspectiveTransform(pts, np.asarray(H, dtype=np.float64)).reshape(-1, 2)
