"""Whether the camera's picture is still: nothing moved since the frame before.

A reading that stays the same for a few frames is not enough to call a view steady: a hand
that lifts a card, holds it up out of view and puts it back shows the card missing in every
one of those frames (under the hand, then gone, then under the hand again). What tells that
apart from a card really taken is that the picture keeps changing. Compared on a small grey
thumbnail, so sensor noise and JPEG artefacts average out and a hand, which covers hundreds of
its pixels, does not.
"""

from __future__ import annotations

import cv2
import numpy as np

THUMB_SIZE = (160, 120)
CHANGE_LEVEL = 20
"""Grey levels (of 255) a thumbnail pixel must change by to count as changed."""
MOVED_FRACTION = 0.005
"""Share of the thumbnail's pixels that must change for the picture to have moved: a hand
at the table's edge is a few percent of it; a card nudged by a millimetre, its border only."""


def thumbnail(image: np.ndarray) -> np.ndarray:
    """The small grey picture frames are compared on (`THUMB_SIZE`): made once per frame, it
    serves both the stillness test and a game's change map (`changed`)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, THUMB_SIZE, interpolation=cv2.INTER_AREA)


def changed(thumb: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Where two thumbnails differ by more than `CHANGE_LEVEL`: 255 there, 0 elsewhere."""
    return cv2.threshold(cv2.absdiff(thumb, before), CHANGE_LEVEL, 255, cv2.THRESH_BINARY)[1]


class StillnessMeter:
    """Compares each frame with the one before it."""

    def __init__(self) -> None:
        self._last: np.ndarray | None = None

    def still(self, image: np.ndarray, thumb: np.ndarray | None = None) -> bool:
        """Whether `image` shows what the previous frame showed (False for the first frame:
        nothing to compare with). `thumb`: its `thumbnail`, if the caller made it already."""
        thumb = thumbnail(image) if thumb is None else thumb
        last, self._last = self._last, thumb
        if last is None:
            return False
        return cv2.countNonZero(changed(thumb, last)) <= MOVED_FRACTION * thumb.size
