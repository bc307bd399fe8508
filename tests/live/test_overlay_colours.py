"""The platform's marks on the live image keep to a colour no game's legend uses (issue 30)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.live.overlay import draw_markers
from companion.vision.markers import Marker


def _hues(image: np.ndarray) -> np.ndarray:
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    ink = (hsv[..., 1] > 100) & (hsv[..., 2] > 100)
    return hsv[..., 0][ink]


def test_markers_are_drawn_in_the_legends_blue_not_a_games_green_or_orange() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    square = np.array([[0, 0], [40, 0], [40, 40], [0, 40]], np.float32)
    markers = {0: Marker(0, square + 20), 7: Marker(7, square + 120)}
    draw_markers(image, markers, corner_ids=(0,))
    hues = _hues(image)
    assert hues.size > 100
    # OpenCV hue (0-180): the legend's blue #4c8dff is ~109; green ~60, orange ~19, yellow ~25
    assert ((hues >= 100) & (hues <= 118)).all()
