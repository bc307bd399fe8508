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
- the staged reader (whose full read costs a second and more) reads in full only when it
  has no lattice or most of the glass changed: each card the picture changed over is
  compared with its own look at the reference, and kept when it looks the same; the others
  are `Reading.hidden` while the picture moves and gone once it is still, when the lattice's
  free slots where the picture changed are named by their upper half
  (`IncrementalReader._read_staged`);
- (the light-border reader) a full read, which becomes the new reference, once the picture
  is still with a change off the cards (a card put down, the players' piles grown, an arm
  come to rest), when most of the cards changed at once (a blur, a bump of the table, the
  light), when the registration moved, and every `FULL_READ_EVERY` frames.

A cache, not a memory: with the light-border reader, what it returns is what a full read
followed by `verify` returns on the same frame (`tests/games/looking_glass_table/
test_incremental.py` holds it to that on films with hands, picks and a camera nudge). With
the staged reader it is the last full read's cards that still look as they did, and the
slots its lattice names where the picture changed; a card only SIFT would find is found at
the next full read. What the table looked like before is the tracker's to remember.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import pairwise

import cv2
import numpy as np

from companion.games.looking_glass.vision.read import Reader, Reading, SeenCard
from companion.games.looking_glass.vision.reader import StagedReader
from companion.games.looking_glass.vision.slots import (
    Lattice,
    fit_lattice,
    name_slots,
    probe_slots,
    without_shown_lower_halves,
)
from companion.games.looking_glass.vision.stages import Glass, Hypothesis, Identified, Placed
from companion.vision.cards.identify import Identity
from companion.vision.cards.library import CARD_W_MM
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
LOOK_PX_PER_MM = 1.0
"""Resolution (px per card mm) at which a card's look is compared with its look at the last
reference (`_look`): a millimetre, so sensor noise averages out and a card nudged by one
still looks itself."""
SAME_LOOK = 0.8
"""A card whose visible part correlates at least this much with its look at the reference
lies there as it did (the staged reader's busy frames: `IncrementalReader._read_staged`).
Too low keeps a card that was taken (a card read where none lies); too high drops one that
lies there, which costs only a look at its slot. From the curve of
`benchmarks/looking_glass_same_look.py` (three development films, every second frame against
the first; cards lying as they lay / taken / a hand over part / bumped, kept of 7,548 /
6,266 / 404 / 258): 0.5: 7,548 / 12 / 267 / 222; 0.6: 7,548 / 0 / 216 / 153; 0.7: 7,547 / 0
/ 175 / 106; 0.8: 7,539 / 0 / 139 / 19; 0.9: 7,233 / 0 / 80 / 10. The highest taken card
scored 0.57: 0.8 keeps a wide margin from it and looks again at most bumped cards."""


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
        self._staged_ref: _StagedRef | None = None
        """The staged reader's reference (`_read_staged`)."""

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
        if isinstance(self.reader, StagedReader):
            return self._read_staged(self.reader, image, H_mm_from_image, thumb, still)
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

    # -- the staged reader ----------------------------------------------------------------
    def _read_staged(
        self,
        reader: StagedReader,
        image: np.ndarray,
        H: np.ndarray | None,
        thumb: np.ndarray,
        still: bool,
    ) -> Reading:
        """A staged read costs a second and more (SIFT over the frame), so it is made only
        when no lattice is known or most of the glass changed. Otherwise each card the
        picture changed over is compared with its own look at the reference (`_look`, a
        millimetre a pixel): the same look, the card lies there; while the picture moves,
        the others are hidden (a hand); once it is still they are gone, the lattice's free
        slots where the picture changed are named by their upper half as a full read names
        them (`slots.probe_slots`), coverage follows from the lattice as a full read's does,
        and the result is the new reference. Every `FULL_READ_EVERY` frames every card's look
        is compared, not only the changed ones', or, when the cards read fit no one layout,
        the still frame is read in full."""
        ref = self._staged_ref
        if ref is None:
            return self._full_staged(reader, image, H, thumb, "no reference")
        if (H is None) != (ref.H is None) or (
            H is not None and ref.H is not None and _moved_px(image, H, ref.H) > MOVED_PX
        ):
            return self._full_staged(reader, image, H, thumb, "registration moved")
        cards = ref.reading.cards
        diff = changed(thumb, ref.thumb)
        periodic = self._since + 1 >= FULL_READ_EVERY
        if not cv2.countNonZero(diff) and not periodic:
            self._since += 1
            self.last = Step("same")
            return _copy(ref.reading, list(cards))
        if ref.lattice is None and (still or periodic):
            return self._full_staged(reader, image, H, thumb, "no lattice")
        if periodic and still and ref.reading.layout is None:
            # The cards read fit no one layout: a card missed or misplaced, which only a
            # read afresh (SIFT over the frame, the camera's noise drawn anew) may mend.
            return self._full_staged(reader, image, H, thumb, "periodic, no layout")
        looked = cards if periodic else _split(cards, diff, image.shape)[1]
        gone = [
            c
            for c, look in zip(cards, ref.looks, strict=True)
            if any(c is k for k in looked)
            and _ncc(_look(image, c, ref.height_mm), look) < SAME_LOOK
        ]
        kept = [c for c in cards if all(c is not g for g in gone)]
        if not still:
            # While the picture moves: a card part of which still looks as it did has
            # something over the rest (a hand), one no part of which does was taken, as the
            # still frames after will say (the tracker counts those frames as one view).
            self._since += 1
            self.last = Step("cards", changed=len(gone))
            out = _copy(ref.reading, kept)
            out.hidden = [
                c
                for c, look in zip(cards, ref.looks, strict=True)
                if any(c is g for g in gone) and _part_same(_look(image, c, ref.height_mm), look)
            ]
            return out
        if len(gone) > LARGE_SHARE * len(cards):
            return self._full_staged(reader, image, H, thumb, "most cards changed")
        assert ref.lattice is not None
        area = cv2.dilate(diff, _KERNEL)
        for c in gone:
            _fill(area, c.quad, image.shape)
        reading = self._update_staged(reader, image, ref, kept, area)
        self._set_staged_ref(image, H, thumb, reading, ref.lattice, ref.height_mm)
        self.last = Step("local", changed=len(gone), why="periodic" if periodic else "")
        return _copy(reading, list(reading.cards))

    def _full_staged(
        self,
        reader: StagedReader,
        image: np.ndarray,
        H: np.ndarray | None,
        thumb: np.ndarray,
        why: str,
    ) -> Reading:
        """A full read, its lattice kept in full-resolution px for the frames after."""
        st = reader.stages(image, H)
        reading = reader.reading(st, H)
        fitted = fit_lattice(st.glass, reader.lib.shape.height_mm)
        lattice = None if fitted is None else fitted[0].scaled(1 / st.scale)
        self._set_staged_ref(image, H, thumb, reading, lattice, reader.lib.shape.height_mm)
        self.last = Step("full", why=why)
        return _copy(reading, list(reading.cards))

    def _set_staged_ref(
        self,
        image: np.ndarray,
        H: np.ndarray | None,
        thumb: np.ndarray,
        reading: Reading,
        lattice: Lattice | None,
        height_mm: float,
    ) -> None:
        looks = [_look(image, c, height_mm) for c in reading.cards]
        self._staged_ref = _StagedRef(thumb, H, reading, looks, lattice, height_mm)
        self._since = 0

    def _update_staged(
        self,
        reader: StagedReader,
        image: np.ndarray,
        ref: _StagedRef,
        kept: list[SeenCard],
        area: np.ndarray,
    ) -> Reading:
        """The reference's cards that `kept` their look, every free slot overlapping `area`
        (a thumbnail mask) named by its upper half as a full read names slots (`name_slots`,
        less those over a card whose own lower half still shows), and coverage from the
        lattice."""
        lattice = ref.lattice
        assert lattice is not None
        to_reading = _numbering(ref.reading.cards, lattice)
        placed = [
            Placed(
                Identified(
                    Hypothesis(c.quad, c.covered),
                    Identity(c.card, c.confidence, 1.0, False, dict(c.scores)),
                ),
                *lattice.slot_at(c.center),
            )
            for c in kept
        ]
        probes = probe_slots(image, Glass(placed), lattice, reader.lib, where=area)
        # The slots named as a full read names them (`slots.name_slots`), less those over a
        # card whose own lower half still shows (`slots.without_shown_lower_halves`).
        kept_ids = set(map(id, placed))
        named_now = without_shown_lower_halves(
            image, name_slots(placed, probes, reader.every_card_taught), kept_ids, reader.lib
        )
        cards = [replace(c) for c in kept]
        for p in named_now:
            if id(p) in kept_ids:
                continue
            half, row, col = to_reading(p.half, p.row, p.col)
            outline = p.card.hypothesis.outline
            ident = p.card.identity
            centre = outline.mean(axis=0)
            cards.append(
                SeenCard(
                    ident.card,
                    ident.confidence,
                    centre,
                    outline,
                    False,
                    half,
                    row,
                    col,
                    centre,
                    dict(ident.scores),
                )
            )
        for c in cards:
            c.covered = any(
                o.half == c.half and o.row == c.row + 1 and abs(o.col - c.col) < 2 for o in cards
            )
        layout = reader.layout(cards) if cards else None
        r = ref.reading
        return Reading(cards, layout, [], r.H_mm_from_image, r.axis, r.centre_t, r.via_markers)


@dataclass(frozen=True)
class _StagedRef:
    """The staged reader's reference: the frame's thumbnail and registration, its reading,
    each card's look (`_look`, in the reading's order) and the lattice (full-res px)."""

    thumb: np.ndarray
    H: np.ndarray | None
    reading: Reading
    looks: list[np.ndarray]
    lattice: Lattice | None
    height_mm: float


def _numbering(
    cards: list[SeenCard], lattice: Lattice
) -> Callable[[int, int, int], tuple[int, int, int]]:
    """The map from the lattice's (half, row, column) to the reading's: the reading may
    name the halves the other way round and number the columns from the layout's first,
    either way along the line (`StagedReader.layout`); what most cards agree on."""
    halves: Counter[bool] = Counter()
    cols: Counter[tuple[int, int]] = Counter()
    for c in cards:
        h, _, k = lattice.slot_at(c.center)
        halves[h != c.half] += 1
        for sign in (1, -1):
            cols[(sign, c.col - sign * k)] += 1
    flip = bool(halves.most_common(1)[0][0]) if halves else False
    sign, shift = cols.most_common(1)[0][0] if cols else (1, 0)
    return lambda h, r, k: (int(h != flip), r, sign * k + shift)


def _split(
    cards: list[SeenCard], diff: np.ndarray, shape: tuple[int, ...]
) -> tuple[list[SeenCard], list[SeenCard]]:
    """The cards the changed thumbnail pixels `diff` miss, and those they touch."""
    kept: list[SeenCard] = []
    touched: list[SeenCard] = []
    for c in cards:
        mask = np.zeros_like(diff)
        _fill(mask, c.quad, shape)
        (touched if cv2.countNonZero(diff & cv2.dilate(mask, _KERNEL)) else kept).append(c)
    return kept, touched


def _fill(mask: np.ndarray, quad: np.ndarray, shape: tuple[int, ...]) -> None:
    scale = np.array([mask.shape[1] / shape[1], mask.shape[0] / shape[0]])
    cv2.fillConvexPoly(mask, np.round(quad * scale).astype(np.int32), 255)


def _look(image: np.ndarray, card: SeenCard, height_mm: float) -> np.ndarray:
    """The card's grey look at `LOOK_PX_PER_MM` (its upper half only if covered): sampled
    at twice that and averaged down, so noise and aliasing average out."""
    w, h = round(CARD_W_MM * LOOK_PX_PER_MM), round(height_mm * LOOK_PX_PER_MM)
    src = np.array([[0, 0], [2 * w, 0], [2 * w, 2 * h], [0, 2 * h]], np.float32)
    M = cv2.getPerspectiveTransform(src, card.quad.astype(np.float32))
    big = cv2.warpPerspective(
        image, M, (2 * w, 2 * h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    )
    grey = cv2.cvtColor(cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    return grey[: h // 2 if card.covered else h].astype(np.float32)


def _part_same(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether some part of a card's look (a cell of a grid two cells across, two or three
    down) still correlates with its reference look at least `SAME_LOOK`."""
    if a.shape != b.shape:
        return False
    rows = 3 if a.shape[0] > a.shape[1] else 2
    ys = np.linspace(0, a.shape[0], rows + 1).astype(int)
    xs = np.linspace(0, a.shape[1], 3).astype(int)
    return any(
        _ncc(a[y0:y1, x0:x1], b[y0:y1, x0:x1]) >= SAME_LOOK
        for y0, y1 in pairwise(ys)
        for x0, x1 in pairwise(xs)
    )


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    """Zero-mean normalised correlation of two looks (-1 when either is flat)."""
    if a.shape != b.shape:
        return -1.0
    a, b = a - a.mean(), b - b.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / den) if den > 1e-6 else -1.0


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
