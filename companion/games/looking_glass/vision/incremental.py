"""Incremental reading for live play: the full read only where the table changed.

Between two picks the table is still: a full read of every frame (`read.Reader.read`) costs
most of a live frame and finds what the frame before found. The table changes in one place
per pick, so a frame is compared with the frame of the last full read on the shared grey
thumbnail (`vision.stillness.thumbnail`; sensor noise and JPEG average out there), and:

- nothing changed: the last full read's cards stand as they were;
- the changed cards of that read are left out of it, and `Reader.verify`, which the live
  loop runs on every reading, looks for each where it lay by its template and its own look
  (still there, gone, or something over part of it), as it does for any remembered card a
  full read did not find. While the picture moves (a hand passing), a change off the cards
  is the hand: no card is put down in the middle of a movement;
- with a reader that does not look again (`StagedReader.verifies`), the changed cards are
  `Reading.hidden` while the picture moves, and read in full once it is still;
- a full read, which becomes the new reference, once the picture is still with a change off
  the cards (a card put down, the players' piles grown, an arm come to rest), when most of
  the cards changed at once (a blur, a bump of the table, the light), when the registration
  moved, and every `FULL_READ_EVERY` frames.

A cache, not a memory: what it returns is what a full read followed by `verify` returns on
the same frame (`tests/games/looking_glass_table/test_incremental.py` holds it to that on
films with hands, picks and a camera nudge). What the table looked like before is the
tracker's to remember.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.looking_glass.vision.read import Reader, Reading, SeenCard
from companion.games.looking_glass.vision.reader import StagedReader
from companion.vision.homography import apply_homography
from companion.vision.markers import Marker
from companion.vision.stillness import THUMB_SIZE, changed

FULL_READ_EVERY = 20
"""Frames at most between two full reads (2 s at the camera's 10 frames a second): a change
below the thumbnail's level (a card nudged a millimetre, light drifting) is read within that."""
MOVED_PX = 2.0
"""Image px the registration may move the table by before a full read: a camera nudge moves
every card, and the change map alone may miss a shift of a pixel or two."""
LARGE_SHARE = 0.5
"""More than this share of the cards changed at once: the whole glass may read otherwise (a
blurred frame is read with its places named afresh), so it is read in full."""
CARD_MARGIN = 1
"""Thumbnail px round a card that still count as the card: its shadow and its blurred edge."""


@dataclass(frozen=True)
class Step:
    """How one frame was read: `full`, `same` (nothing changed) or `cards` (only the cards
    in `changed` changed), and why a full read was made."""

    how: str
    changed: int = 0
    why: str = ""


class IncrementalReader:
    """A `Reader` (or `StagedReader`: both read and verify alike) that reads a frame in full
    only where the table changed (module docstring)."""

    def __init__(self, reader: Reader | StagedReader) -> None:
        self.reader = reader
        self._ref: tuple[np.ndarray, np.ndarray | None, Reading] | None = None
        """(thumbnail, registration, full reading) of the last full read."""
        self._since = 0
        self.last = Step("full", why="first frame")

    @property
    def lib(self) -> object:
        return self.reader.lib

    def read(
        self,
        image: np.ndarray,
        H_mm_from_image: np.ndarray | None,
        thumb: np.ndarray,
        still: bool,
        markers: dict[int, Marker] | None = None,
    ) -> Reading:
        """The reading of `image` before `verify` (`thumb`: its `stillness.thumbnail`; `still`:
        the picture did not move since the frame before, `stillness.StillnessMeter`;
        `markers`: as `Reader.read` takes them)."""
        why, kept, gone = self._reuse(image, H_mm_from_image, thumb, still)
        if why:
            reading = self.reader.read(image, H_mm_from_image, markers)
            self._ref, self._since = (thumb, H_mm_from_image, reading), 0
            self.last = Step("full", why=why)
            return _copy(reading, list(reading.cards))
        assert self._ref is not None
        self._since += 1
        self.last = Step("cards" if gone else "same", changed=len(gone))
        reading = _copy(self._ref[2], kept)
        if not self.reader.verifies:
            # No verify will look for them: while the picture moves, something (a hand) lies
            # over the changed cards; once it is still they are read in full (`_reuse`).
            reading.hidden = list(gone)
        return reading

    def _reuse(
        self, image: np.ndarray, H: np.ndarray | None, thumb: np.ndarray, still: bool
    ) -> tuple[str, list[SeenCard], list[SeenCard]]:
        """Why a full read is needed ("" if none), else the reference's cards that did not
        change and those that did."""
        if self._ref is None:
            return "no reference", [], []
        ref_thumb, ref_H, ref = self._ref
        if self._since + 1 >= FULL_READ_EVERY:
            return "periodic", [], []
        if (H is None) != (ref_H is None) or (
            H is not None and ref_H is not None and _moved_px(image, H, ref_H) > MOVED_PX
        ):
            return "registration moved", [], []
        diff = changed(thumb, ref_thumb)
        if not cv2.countNonZero(diff):
            return "", list(ref.cards), []
        scale = np.array([THUMB_SIZE[0] / image.shape[1], THUMB_SIZE[1] / image.shape[0]])
        union = np.zeros_like(diff)
        kept: list[SeenCard] = []
        gone: list[SeenCard] = []
        for card in ref.cards:
            mask = np.zeros_like(diff)
            cv2.fillConvexPoly(mask, np.round(card.quad * scale).astype(np.int32), 255)
            mask = cv2.dilate(mask, _KERNEL)
            union |= mask
            (gone if cv2.countNonZero(diff & mask) else kept).append(card)
        if len(gone) > LARGE_SHARE * len(ref.cards):
            return "most cards changed", [], []
        if still and cv2.countNonZero(diff & ~union):
            return "changed off the cards", [], []
        if still and gone and not self.reader.verifies:
            return "cards changed", [], []
        return "", kept, gone


_KERNEL = np.ones((2 * CARD_MARGIN + 1, 2 * CARD_MARGIN + 1), np.uint8)


def _moved_px(image: np.ndarray, H: np.ndarray, ref_H: np.ndarray) -> float:
    """How far (image px) the table moved between two registrations, at the frame's corners."""
    h, w = image.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    back = apply_homography(np.linalg.inv(H) @ ref_H, corners)
    return float(np.max(np.linalg.norm(back - corners, axis=1)))


def _copy(reading: Reading, cards: list[SeenCard]) -> Reading:
    """A fresh `Reading` of `cards` (`verify` appends to its lists; the reference stays)."""
    return Reading(
        cards,
        reading.layout,
        list(reading.warnings),
        reading.H_mm_from_image,
        reading.axis,
        reading.centre_t,
        reading.via_markers,
    )
