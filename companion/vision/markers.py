"""ArUco marker detection, shared by table registration and every game that uses markers.

OpenCV 4.7+ API only (`cv2.aruco.ArucoDetector`); the free `detectMarkers` is gone in 5.0.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

DICTIONARY = "DICT_4X4_50"


@dataclass(frozen=True)
class Marker:
    id: int
    corners: np.ndarray
    """4×2 float32 image points, clockwise from the marker's own top-left corner."""

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)


@lru_cache(maxsize=4)
def detector(dictionary: str = DICTIONARY) -> cv2.aruco.ArucoDetector:
    """One detector per dictionary: building one costs more than a detection."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    aruco_dict = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.ArucoDetector(aruco_dict, params)


def to_gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def detect_markers(image: np.ndarray, dictionary: str = DICTIONARY) -> dict[int, Marker]:
    """Markers seen in a BGR or gray image, by id (the first of any duplicate id wins)."""
    corners, ids, _ = detector(dictionary).detectMarkers(to_gray(image))
    found: dict[int, Marker] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        found.setdefault(int(marker_id), Marker(int(marker_id), quad.reshape(4, 2)))
    return found


def marker_image(marker_id: int, side_px: int, dictionary: str = DICTIONARY) -> np.ndarray:
    """The black-and-white marker drawing, `side_px` square, for printing and rendering."""
    aruco_dict = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.generateImageMarker(aruco_dict, marker_id, side_px)
