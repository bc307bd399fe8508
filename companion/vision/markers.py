"""ArUco marker detection, shared by table registration and every game that uses markers.

OpenCV 4.7+ API only (`cv2.aruco.ArucoDetector`); the free `detectMarkers` is gone in 5.0.
"""

from __future__ import annotations

from collections.abc import Iterable
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


SMALL_STEP = 2
"""A photograph alone has its markers looked for at 1/SMALL_STEP of its size first (a
quarter of the pixels at 2: a 24-30 mm marker still spans 40 px or more from 1280 px wide),
the corners then refined on the full image (`find_markers`)."""
FULL_BELOW_PX = 1200
"""Narrower photographs are searched at full size only."""


def markers_at_half_size(
    image: np.ndarray, wanted: Iterable[int], dictionary: str = DICTIONARY
) -> dict[int, Marker] | None:
    """The `wanted` markers found on a copy 1/`SMALL_STEP` the size, in a quarter of a
    full-size search's time, their corners refined on the full image; None for a photograph
    narrower than `FULL_BELOW_PX` (searched at full size only)."""
    gray = to_gray(image)
    if image.shape[1] < FULL_BELOW_PX:
        return None
    k = SMALL_STEP
    h, w = gray.shape[0] // k * k, gray.shape[1] // k * k
    small = cv2.resize(gray[:h, :w], (w // k, h // k), interpolation=cv2.INTER_AREA)
    found = detect_markers(small, dictionary)
    ids = sorted(set(wanted) & set(found))
    if not ids:
        return {}
    # A small pixel's centre lies at k (x + 1/2) - 1/2 on the full image.
    corners = np.concatenate([found[i].corners for i in ids]) * k + (k - 1) / 2
    corners = cv2.cornerSubPix(
        gray,
        corners.reshape(-1, 1, 2).astype(np.float32),
        (k + 1, k + 1),
        (-1, -1),
        (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.01),
    ).reshape(-1, 4, 2)
    return {i: Marker(i, c) for i, c in zip(ids, corners, strict=True)}


def find_markers(
    image: np.ndarray, wanted: Iterable[int], least: int, dictionary: str = DICTIONARY
) -> dict[int, Marker]:
    """The `wanted` markers of a photograph that came without the platform's registration
    (which has found them already): looked for at half size (`markers_at_half_size`), and
    at full size after all when fewer than `least` of them are found that way."""
    gray = to_gray(image)
    found = markers_at_half_size(gray, wanted, dictionary)
    if found is not None and len(found) >= least:
        return found
    return detect_markers(gray, dictionary)


def marker_image(marker_id: int, side_px: int, dictionary: str = DICTIONARY) -> np.ndarray:
    """The black-and-white marker drawing, `side_px` square, for printing and rendering."""
    aruco_dict = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.generateImageMarker(aruco_dict, marker_id, side_px)
