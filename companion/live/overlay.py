"""The platform's part of the annotated view: markers, the table outline, a status line.

Drawn once per frame by the perception thread; the game draws its own overlay after this.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

GREEN = (60, 200, 60)
RED = (40, 40, 230)
WHITE = (255, 255, 255)
BLUE = (255, 141, 76)
"""The dashboard legend's blue (#4c8dff): the platform's marks, apart from the colours the
games draw in (green, orange, red, yellow, magenta, white, black)."""


def draw_markers(image: np.ndarray, markers: dict[int, Any], corner_ids: tuple[int, ...]) -> None:
    """Outline every marker in the platform's blue, with its id (thinner: not a corner)."""
    for mid, marker in markers.items():
        pts = np.asarray(marker.corners, dtype=np.float32).reshape(-1, 1, 2)
        color, width = BLUE, 2 if mid in corner_ids else 1
        cv2.polylines(image, [pts.astype(np.int32)], True, color, width, cv2.LINE_AA)
        x, y = np.asarray(marker.corners, dtype=np.float32).mean(axis=0)
        cv2.putText(
            image, str(mid), (int(x) - 8, int(y) + 6), cv2.FONT_HERSHEY_SIMPLEX, 0.6, color, 2
        )


def draw_table(image: np.ndarray, registration: Any) -> None:
    """The play area's outline where the registration puts it (thinner while held)."""
    if not getattr(registration, "ok", False):
        return
    w, h = registration.size_mm
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    px = np.asarray(registration.table_to_image(corners), dtype=np.float32)
    if not np.all(np.isfinite(px)):
        return
    width = 1 if registration.held else 2
    cv2.polylines(image, [px.reshape(-1, 1, 2).astype(np.int32)], True, BLUE, width, cv2.LINE_AA)


def status_line(title: str, markers: str, confidence: float) -> str:
    """The camera view's top line in the players' words: the game's title, not its id, and
    how sure the reading is, not "conf 1.00"."""
    return f"{title} - markers {markers} - {confidence:.0%} sure"


def draw_status(image: np.ndarray, text: str, ok: bool) -> None:
    """One line in the top-left corner, on a dark band so it reads on any table."""
    scale = max(0.5, image.shape[1] / 1600)
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    cv2.rectangle(image, (0, 0), (tw + 16, th + base + 12), (0, 0, 0), -1)
    cv2.putText(
        image,
        text,
        (8, th + 6),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        GREEN if ok else RED,
        1,
        cv2.LINE_AA,
    )


def encode_jpeg(image: np.ndarray, quality: int = 80) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes()
