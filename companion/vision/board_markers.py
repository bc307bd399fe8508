"""A board's corner markers found in a photograph that came without the registration's.

Every game reader that stands on a board's four corner markers finds them the same way, here:
at half size first (`markers_at_half_size`, a quarter of a full search's pixels), then, where the
corners must be the full-size search's or a marker is missing, a full-size search only in
windows round the markers' places as the ones found put them (the board being a plane). A
full search of the whole picture costs a detection again on top of the half-size one; the
windows cost a fraction of it and find what it finds there.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.board_pose import MIN_MARKERS, MarkerGeometry, marker_object_points
from companion.vision.markers import (
    Marker,
    detect_markers,
    detector,
    markers_at_half_size,
    to_gray,
)

WINDOW_MARGIN = (0.5, 16.0)
"""A window round a marker: its box where the markers found put it, widened by this share of
its side and these pixels on every side (the adaptive threshold's widest window is 23 px; the
markers found place another within a few pixels)."""
PLACED_BY = 2
"""Fewer markers than `MIN_MARKERS` found at half size, but this many, still place the
others' windows (eight corners fix a homography): the whole picture is searched only when the
windows do not find `MIN_MARKERS`."""


def board_markers(
    image: np.ndarray, board: MarkerGeometry, *, full_size_corners: bool
) -> dict[int, Marker]:
    """The board's corner markers in a photograph.

    With `full_size_corners`, every marker found at half size is looked for again at full
    size in its window, so its corners are the whole picture's search's (to float32
    rounding, some 1e-4 px): a reader whose thresholds were chosen on full-size corners reads
    the same. Without, the half-size corners (refined on the full image) are kept when all
    four are found, and the windows are searched only when one is missing: a corner hidden
    by a hand, or out of the picture, is the usual reason."""
    wanted = [m.id for m in board.markers]
    gray = to_gray(image)
    found = markers_at_half_size(gray, wanted)
    have = [] if found is None else [i for i in wanted if i in found]
    if found is not None and len(have) == PLACED_BY:
        # Two markers' eight corners place the others' windows: search them at full size,
        # and the whole picture only when they do not find enough.
        out = _in_windows(gray, board, wanted, found, have)
        got = [i for i in wanted if i in out]
        if len(got) >= MIN_MARKERS:
            missing = [i for i in wanted if i not in out]
            if missing:  # looked for again where the markers found at full size put it
                out.update(_in_windows(gray, board, missing, out, got))
            return out
    if found is None or len(have) < MIN_MARKERS:
        found = detect_markers(gray)  # the whole picture at full size
        have = [i for i in wanted if i in found]
        if len(have) < MIN_MARKERS:
            return found
    if len(have) == len(wanted) and not full_size_corners:
        return found
    return _in_windows(gray, board, wanted, found, have)


def _in_windows(
    gray: np.ndarray,
    board: MarkerGeometry,
    wanted: list[int],
    found: dict[int, Marker],
    have: list[int],
) -> dict[int, Marker]:
    obj = np.vstack([marker_object_points(board, i)[:, :2] for i in have]).astype(np.float32)
    img = np.vstack([found[i].corners.reshape(4, 2) for i in have]).astype(np.float32)
    H, _ = cv2.findHomography(obj, img)
    if H is None:
        return found
    base = detector()
    params = base.getDetectorParameters()
    h, w = gray.shape[:2]
    least, most = params.minMarkerPerimeterRate, params.maxMarkerPerimeterRate
    out: dict[int, Marker] = {}
    for i in wanted:
        mm = marker_object_points(board, i)[:, :2].reshape(-1, 1, 2).astype(np.float32)
        quad = cv2.perspectiveTransform(mm, H).reshape(4, 2)
        pad = WINDOW_MARGIN[0] * float(np.sqrt(abs(cv2.contourArea(quad)))) + WINDOW_MARGIN[1]
        x0 = max(int(np.floor(quad[:, 0].min() - pad)), 0)
        y0 = max(int(np.floor(quad[:, 1].min() - pad)), 0)
        x1 = min(int(np.ceil(quad[:, 0].max() + pad)) + 1, w)
        y1 = min(int(np.ceil(quad[:, 1].max() + pad)) + 1, h)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue  # out of the picture
        # The whole picture's search bounds a marker's outline by rates of the picture's
        # larger side; the window's own would let every speck of texture be a candidate.
        scale = max(h, w) / max(y1 - y0, x1 - x0)
        params.minMarkerPerimeterRate = least * scale
        params.maxMarkerPerimeterRate = most * scale
        det = cv2.aruco.ArucoDetector(base.getDictionary(), params)
        corners, ids, _ = det.detectMarkers(np.ascontiguousarray(gray[y0:y1, x0:x1]))
        if ids is None:
            continue
        for quad_px, marker_id in zip(corners, ids.ravel(), strict=True):
            if int(marker_id) == i:
                out[i] = Marker(i, quad_px.reshape(4, 2) + np.array([x0, y0], np.float32))
                break
    return out
