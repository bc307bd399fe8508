"""Sticker evidence: dots of one colour on a top plane, wherever they were stuck.

A dot is told from everything else of its colour by standing out and by shape, not by
place. Standing out: its colour, weighted by saturation, exceeds the mean of its
neighbourhood (a window a few dots across), so a green dot on green board art still shows
while the art does not. Shape: a compact blob of a sticker's size (the kit's diameter, give
or take what a user's own kit varies by), round enough, and alone, with little that stands
out in its colour round it. An arm in a skin tone near an orange sticker's hue, a stripe of
board art, a thought bubble's small icon: each fails one of these, wherever it lies.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import cv2
import numpy as np

from companion.games.mirror_mansion.vision.stickers import HueRange
from companion.games.mirror_mansion.vision.top_planes import PX_PER_MM, TopPlane

SIZE_RANGE = (0.75, 1.5)
"""Dots from 0.75 to 1.5 times the model's diameter are accepted (6-12 mm for 8 mm): what
hand-cut and bought kits measure."""
MIN_SHOWN = 0.45
"""The least share of the smallest dot's area that must show (glare and blur eat its rim)."""
MAX_SHOWN = 1.7
"""The most, as a share of the largest dot's area (blur spreads it)."""
MAX_ELONGATION = 2.0
"""Major over minor axis: a dot seen on its plane is round, a stripe is not."""
LEVELS = (40, 80, 120)
"""How far (in saturation units, 0..255) a dot's pixels exceed their neighbourhood's mean of
the same colour-weighted saturation: the least, then the levels a dot is looked for again."""
RESCUE_OPENING = 0.6
"""The opening disc of a rescue (`perceive.rescued`), as a share of the smallest dot's
across: a pale sticker (a green dot over a mint board, on a pale mirror top, under blur)
shows the kit's colour in its middle only, a blob narrower than `OPENING`'s disc, and is
never found; a rescue looks again, for the colour loosely (`loosened`) and with this
smaller disc, where a sticker is known to be missing. Curve on the development boards whose
dots named fewer crossings than the box has mirrors (11 of 522: `wide9` 182, `wide10` 300,
`house` 40; only those can change), boards exact and mirrors (missed, phantom, facing asked):
no rescue 0 (6, 4, 4); 0.85 (the search's own disc, the colour loosened) 0 (6, 4, 4); 0.75,
0.7, 0.6 and 0.5 3 (3, 1, 4). 0.6 is the middle of the plateau. The phantom left is a
sticker paler still (saturation 42, blurred), its place taken by a top edge alone."""
OPENING = 0.85
"""The opening disc's diameter, as a share of the smallest dot's."""
NEIGHBOURHOOD_DOTS = 3.0
"""The neighbourhood's side, in largest dots."""
SPLIT_OPENING = 0.8
"""A blob too drawn out or too big for a dot is opened again with a disc this share of the
model's dot diameter, and its round pieces are dots: a sticker stuck on a stripe of its
colour wider than the first opening (a slot's insert of the sticker's hue seen through an
empty slot, as saturated as the sticker and smeared by JPEG's halved colour) stood out as
one drawn-out blob at every level and was never found, and a print blob beside it named the
mirror's facing wrongly. A piece cut loose keeps the stripe in its ring, so it stands less
alone than a free dot. Curve on 244 development boards (`wide6` 85, `wide7` 159; a whole
reading per value), boards exact and mirrors (facing asked, facing wrong): no second opening
223 (6, 1), 0.8 223 (7, 0), 1.0 222 (7, 1), 0.8 then 1.0 223 (7, 0): at 0.8 the wrong facing
becomes right, and another board's facing is asked (a piece cut from print ties with its
sticker); the wider disc alone loses the sticker it was meant to find. Windows and doors
read the same at every value."""

DISC_RIM_SHARE = 0.5
"""A disc cut from a blob by its distance to the rim (`_discs`) is a dot only when at most
this share of a thin ring just outside it lies in the blob: a lobe, free on most of its rim
(a sticker touching a printed disc shares a short arc); a disc on a stripe of its colour
shares two arcs as wide as the stripe, about two thirds of its rim."""

CONTRAST_MIDDLE = 0.6
"""The share of a dot's radius whose pixels give its colour (its rim is blurred into the
ring)."""
CONTRAST_SHARE = 0.1
"""The share of the ring, nearest the dot's colour, that `ring_contrast` looks past: a glint
or a thin line of the dot's colour crossing the ring does not make it part of a region."""


@dataclass(frozen=True)
class Dot:
    """One dot found: where (board mm on its plane), how big, how round and how alone."""

    centre_mm: tuple[float, float]
    area_mm2: float
    elongation: float
    isolation: float
    """The share of a ring round the dot that does not show its colour, even loosely."""
    level: int = 0
    """The highest of `LEVELS` (its index) at which the dot was found: how far it stands out."""
    contrast: float = math.inf
    """How far its colour lies from the ring round it (`ring_contrast`), in 8-bit Lab units."""
    on_top: float = 0.0
    """For a window dot, the share of its card's top under its middle that shows its colour
    (`perceive.top_cover`); 0 where not measured."""


def colour_mask(hsv: np.ndarray, r: HueRange) -> np.ndarray:
    """Mask (0/255) of the pixels in a hue range (wrapping through red if hue_max < hue_min)."""
    lo, hi = (r.hue_min, r.sat_min, r.val_min), (r.hue_max, 255, 255)
    if r.hue_min <= r.hue_max:
        return cv2.inRange(hsv, lo, hi)
    return cv2.inRange(hsv, lo, (179, 255, 255)) | cv2.inRange(hsv, (0, *lo[1:]), hi)


def stand_out(
    hsv: np.ndarray, colour: HueRange, window_px: int, sat: np.ndarray | None = None
) -> np.ndarray:
    """Per pixel, how far its saturation in `colour` (0 outside the colour) exceeds the
    mean of the same over a `window_px` square round it (int16). `sat` is the saturation
    plane of `hsv` when the caller has it contiguous already (`TopPlane.sat`: a plane's
    colours are looked for twice, strictly and loosely, and each call copied it out)."""
    s = hsv[..., 1] if sat is None else sat
    weighted = cv2.bitwise_and(s, colour_mask(hsv, colour))
    local = cv2.blur(weighted, (window_px, window_px), borderType=cv2.BORDER_REPLICATE)
    return cv2.subtract(weighted, local, dtype=cv2.CV_16S)


def neighbourhood_px(diameter_mm: float) -> int:
    """The side (odd, px) of the window `stand_out` compares a dot's pixels with."""
    return round(NEIGHBOURHOOD_DOTS * SIZE_RANGE[1] * diameter_mm * PX_PER_MM) | 1


def loose_mask(plane: TopPlane, colour: HueRange, diameter_mm: float) -> np.ndarray:
    """Mask (0/1) of what stands out in `colour` even loosely: the crowd round a dot."""
    out = stand_out(plane.hsv, loosened(colour), neighbourhood_px(diameter_mm), plane.sat)
    return (out >= LEVELS[0] // 2).astype(np.uint8)


def loosened(r: HueRange) -> HueRange:
    """The same colour, loosely: what still counts as 'of its colour' round a dot."""
    return r.model_copy(
        update={
            "hue_min": (r.hue_min - 5) % 180,
            "hue_max": (r.hue_max + 5) % 180,
            "sat_min": round(r.sat_min * 0.8),
            "val_min": round(r.val_min * 0.8),
        }
    )


@lru_cache(maxsize=8)
def _kernel(k: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


@lru_cache(maxsize=64)
def _ring(inner_px: int, outer_px: int, half_px: int | None = None) -> np.ndarray:
    """The pixels from `inner_px` to `outer_px` off the middle of a square `half_px` (by
    default `outer_px`) either side of it."""
    half = outer_px if half_px is None else half_px
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1]
    d2 = xx * xx + yy * yy
    return (d2 >= inner_px * inner_px) & (d2 <= outer_px * outer_px)


@lru_cache(maxsize=64)
def _disc(radius_px: int, half_px: int) -> np.ndarray:
    """A disc's mask (0/1) in the middle of a square `half_px` either side of it."""
    return _ring(0, radius_px, half_px).astype(np.uint8)


def _isolation(loose: np.ndarray, cx: float, cy: float, radius_px: float) -> float:
    inner, outer = round(radius_px + 2), round(radius_px + 2 + 3 * PX_PER_MM)
    ring = _ring(inner, outer)
    h, w = loose.shape
    ix, iy = round(cx), round(cy)
    x0, x1 = max(0, ix - outer), min(w, ix + outer + 1)
    y0, y1 = max(0, iy - outer), min(h, iy + outer + 1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    r = ring[y0 - iy + outer : y1 - iy + outer, x0 - ix + outer : x1 - ix + outer]
    n = int(r.sum())
    if n == 0:
        return 0.0
    inside = loose[y0:y1, x0:x1][r]
    # Beyond the plane's edge counts as unknown, i.e. not alone.
    return float(np.count_nonzero(inside == 0)) / ring.sum()


def ring_contrast(bgr: np.ndarray, cx: float, cy: float, radius_px: float) -> float:
    """How far a dot's colour lies from its surroundings: the Lab distance from the mean of
    its middle (within `CONTRAST_MIDDLE` of its radius) to the ring round it (the ring of
    `isolation`), at the ring's nearest `CONTRAST_SHARE`.

    A sticker is one colour laid on something else, so nearly all of its ring differs from
    it, whatever the colours: a green dot on a green face of another shade, a dark dot on a
    dark frame. A blob of board art of the sticker's hue that is part of a larger region, or
    a door's face of its colour seen beside its top, has a good part of its ring in its own
    colour. Unlike `isolation`, which asks whether the ring shows the kit's hue at all, this
    is measured against the dot's own colour, so a white balance or a sticker of another
    shade moves both alike. Beyond the plane's edge nothing is counted."""
    return ring_contrasts(bgr, [(cx, cy, radius_px)])[0]


def ring_contrasts(bgr: np.ndarray, spots: Sequence[tuple[float, float, float]]) -> list[float]:
    """`ring_contrast` of each (cx, cy, radius_px) on one plane, the squares round them
    converted to Lab in one call: a plane's dots are a dozen small squares, and a Lab
    conversion's tables, cold again by each call's turn under a busy core, cost more than
    its pixels (the same values: the conversion is pixel by pixel)."""
    h, w = bgr.shape[:2]
    squares = []
    for cx, cy, radius_px in spots:
        inner, outer = round(radius_px + 2), round(radius_px + 2 + 3 * PX_PER_MM)
        ix, iy = round(cx), round(cy)
        x0, x1 = max(0, ix - outer), min(w, ix + outer + 1)
        y0, y1 = max(0, iy - outer), min(h, iy + outer + 1)
        squares.append((inner, outer, ix, iy, x0, x1, y0, y1, round(CONTRAST_MIDDLE * radius_px)))
    # One image of all squares, one above the other (a conversion pays per call and per row).
    shown = [(x0, x1, y0, y1) for *_, x0, x1, y0, y1, _ in squares if x1 > x0 and y1 > y0]
    if not shown:
        return [0.0] * len(spots)
    canvas = np.zeros(
        (sum(y1 - y0 for _, _, y0, y1 in shown), max(x1 - x0 for x0, x1, _, _ in shown), 3),
        np.uint8,
    )
    rows = []
    top = 0
    for x0, x1, y0, y1 in shown:
        canvas[top : top + y1 - y0, : x1 - x0] = bgr[y0:y1, x0:x1]
        rows.append(top)
        top += y1 - y0
    lab_all = cv2.cvtColor(canvas, cv2.COLOR_BGR2LAB)
    out = []
    k = 0
    for inner, outer, ix, iy, x0, x1, y0, y1, middle_r in squares:
        if x1 <= x0 or y1 <= y0:
            out.append(0.0)
            continue
        lab = lab_all[rows[k] : rows[k] + y1 - y0, : x1 - x0]
        k += 1
        out.append(_contrast(lab, inner, outer, ix - x0, iy - y0, middle_r))
    return out


def _contrast(lab: np.ndarray, inner: int, outer: int, ox: int, oy: int, middle_r: int) -> float:
    """`ring_contrast` on the Lab square round a dot whose middle lies at (ox, oy) in it."""
    h, w = lab.shape[:2]
    if h == w == 2 * outer + 1:
        # The whole square on the plane (nearly every dot): its ring and middle made once.
        ring_at, middle, any_middle = _ring_parts(inner, outer, middle_r)
        if not any_middle or len(ring_at) == 0:
            return 0.0
        colour = cv2.mean(lab, mask=middle)[:3]
        d = lab.reshape(-1, 3)[ring_at].astype(np.float32) - np.array(colour, np.float32)
    else:
        cut = (slice(outer - oy, outer - oy + h), slice(outer - ox, outer - ox + w))
        ring = _ring(inner, outer)[cut]
        middle = _disc(middle_r, outer)[cut]
        if not middle.any() or not ring.any():
            return 0.0
        colour = cv2.mean(lab, mask=np.ascontiguousarray(middle))[:3]
        d = lab[ring].astype(np.float32) - np.array(colour, np.float32)
    far2 = np.einsum("ij,ij->i", d, d)
    k = int(CONTRAST_SHARE * (len(far2) - 1))
    return math.sqrt(float(np.partition(far2, k)[k]))


@lru_cache(maxsize=64)
def _ring_parts(
    inner_px: int, outer_px: int, middle_px: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """For `ring_contrast` on a whole square: the ring's flat indices (in the order a mask
    picks them), the middle's mask (contiguous, as `cv2.mean` takes it) and whether it has
    any pixel; a frame has some sixty dots, mostly of a few sizes."""
    middle = np.ascontiguousarray(_disc(middle_px, outer_px))
    return np.flatnonzero(_ring(inner_px, outer_px)), middle, bool(middle.any())


def _merged(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) that overlap merged into the box round them, until none do."""
    out: list[tuple[int, int, int, int]] = []
    for box in boxes:
        while True:
            hit = next(
                (
                    o
                    for o in out
                    if o[0] < box[2] and box[0] < o[2] and o[1] < box[3] and box[1] < o[3]
                ),
                None,
            )
            if hit is None:
                break
            out.remove(hit)
            box = (
                min(box[0], hit[0]),
                min(box[1], hit[1]),
                max(box[2], hit[2]),
                max(box[3], hit[3]),
            )
        out.append(box)
    return out


def _elongation(m: dict[str, float]) -> float:
    """Major over minor axis of a blob, from its moments."""
    if m["m00"] <= 0:
        return math.inf
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    spread = math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11 * mu11)
    major, minor = (mu20 + mu02) / 2 + spread, (mu20 + mu02) / 2 - spread
    return math.sqrt(major / max(minor, 1e-6))


def _blobs(mask: np.ndarray, least_px: float):
    """(left, top, blob) of each 8-connected blob of a 0/1 mask that may hold `least_px`
    pixels, the blob cut to its box. From the outer contours: on a sparse mask far cheaper
    than labelling every pixel (connectedComponentsWithStats costs milliseconds a call)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if w * h < least_px:
            continue
        fill = np.zeros((h, w), np.uint8)
        cv2.drawContours(fill, [c], -1, 1, thickness=cv2.FILLED, offset=(-x, -y))
        yield x, y, fill & mask[y : y + h, x : x + w]


def _framed(mask: np.ndarray) -> np.ndarray:
    """A mask with a pixel of 0 round it (what `np.pad(mask, 1)` gives, for a tenth of its
    cost: a frame has some thirty blobs to frame, and numpy's pad is mostly Python)."""
    return cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)


def _discs(
    blob: np.ndarray,
    least_r: float,
    most_r: float,
    taken: list[tuple[float, float]],
    least_peaks: int = 1,
):
    """(left, top, piece) of each disc that fills a part of a blob: the peaks of its distance
    to the blob's rim from `least_r` to `most_r` (px), widest first, none inside a wider one
    or near a piece already cut (`taken`), each piece the blob within its radius of its peak.
    Nothing when the blob has fewer than `least_peaks` peaks: a caller that wants the discs
    of a blob only when there are two (`find_dots`, a round blob that may be two touching
    discs) skips the rims of the one disc most blobs are, for half of this call's time.

    Two discs that touch over a neck wider than any opening could cut (a sticker stuck
    against a printed disc of its colour: a movement field's, just behind a card) are two
    peaks of that distance, and each is a dot's place and size."""
    dist = cv2.distanceTransform(_framed(blob), cv2.DIST_L2, 5)[1:-1, 1:-1]
    peaks = (dist >= least_r) & (dist >= cv2.dilate(dist, _kernel(5)))
    ys, xs = np.nonzero(peaks)
    if len(ys) < least_peaks:
        return
    spots: list[tuple[float, float, float]] = [(x, y, most_r) for x, y in taken]
    h, w = blob.shape
    for i in np.argsort(-dist[ys, xs], kind="stable"):
        x, y = int(xs[i]), int(ys[i])
        r = float(dist[y, x])
        if r > most_r * 1.1 or any(math.hypot(x - a, y - b) < max(r, q) for a, b, q in spots):
            spots.append((x, y, r))
            continue
        spots.append((x, y, r))
        reach = math.ceil(r + 3)
        x0, y0 = max(0, x - reach), max(0, y - reach)
        x1, y1 = min(w, x + reach + 1), min(h, y + reach + 1)
        cut = (slice(y0 - y + reach, y1 - y + reach), slice(x0 - x + reach, x1 - x + reach))
        rim = _ring(math.ceil(r + 1), reach)[cut]
        near = blob[y0:y1, x0:x1]
        # A disc on a stripe or in a region has much of its rim in the blob: no lobe.
        if np.count_nonzero(near[rim]) > DISC_RIM_SHARE * np.count_nonzero(rim):
            continue
        yield x0, y0, _disc(math.ceil(r + 1), reach)[cut] & near


def find_dots(
    plane: TopPlane,
    colour: HueRange,
    diameter_mm: float,
    max_elongation: float = MAX_ELONGATION,
    levels: tuple[int, ...] = LEVELS,
    opening: float | None = None,
    loose: Callable[[], np.ndarray] | None = None,
) -> list[Dot]:
    """Every dot-like blob of `colour` on the plane (the model's dot is `diameter_mm`),
    looked for at each of `levels` of standing out, opened with a disc `opening` (by default
    `OPENING`) of the smallest dot across (a rescue's is smaller: `RESCUE_OPENING`).
    `loose` gives the plane's `loose_mask` for `colour`, made on its first call, when the
    caller needs it too (`perceive.window_dots`): the isolation test asks it only once a
    dot is found.

    At rising levels of standing out, like maximally stable regions: a sticker touching a
    paler patch of its colour (its reflection in a mirror's face, a bleached print, a card's
    face of a like colour) comes loose at a level the patch does not reach. A place found at
    several levels is given once per level; the identify stage keeps the likeliest.

    Only the lowest level is looked at over the whole plane. The masks of higher levels lie
    inside it and opening keeps that order, so each of their blobs lies inside one blob of
    the level below that was big enough to hold a dot: a higher level is looked at only
    there, in that blob's box (the same blobs, for a fraction of the work).
    """
    out = stand_out(plane.hsv, colour, neighbourhood_px(diameter_mm), plane.sat)
    area_of = (math.pi / 4) * PX_PER_MM * PX_PER_MM
    lo = MIN_SHOWN * area_of * (SIZE_RANGE[0] * diameter_mm) ** 2
    hi = MAX_SHOWN * area_of * (SIZE_RANGE[1] * diameter_mm) ** 2
    # Opening with a disc nearly the smallest dot across keeps every dot whole (a disc is
    # the union of the smaller discs inside it) and cuts it loose from streaks of its colour
    # narrower than that (a guide line, smeared twice as wide by JPEG's halved colour).
    share = OPENING if opening is None else opening
    k = max(3, round(share * SIZE_RANGE[0] * diameter_mm * PX_PER_MM) | 1)
    # A disc shows at least MIN_SHOWN of the smallest dot and is at most the largest.
    least_r = math.sqrt(lo / math.pi)
    most_r = SIZE_RANGE[1] * diameter_mm * PX_PER_MM / 2
    crowd = loose if loose is not None else cache(lambda: loose_mask(plane, colour, diameter_mm))
    # Each dot found: its level, then its measures in `Dot`'s order up to its elongation;
    # where it lies on the plane (px) and its radius in `spots`. How alone and how set off
    # each is are measured once the search is done, all together (`isolations`,
    # `ring_contrasts`).
    found: list[tuple[int, tuple[float, float], float, float]] = []
    spots: list[tuple[float, float, float]] = []

    def isolations() -> list[float]:
        """The isolation of each dot found (`spots`), round it only on the crowd's mask,
        opened too (thin lines of a like colour crossing are no crowd): each dot's box
        reaches a disc beyond its ring, so the opening there is the plane's. Boxes that
        overlap (a sticker found at every level) are opened as one."""
        if not spots:
            return []
        mask = crowd()
        h, w = mask.shape
        boxes = []
        for cx, cy, radius in spots:
            pad = round(radius + 2 + 3 * PX_PER_MM) + k + 1
            x0, y0 = max(0, round(cx) - pad), max(0, round(cy) - pad)
            boxes.append((x0, y0, min(w, round(cx) + pad + 1), min(h, round(cy) + pad + 1)))
        opened = [
            (
                box,
                cv2.morphologyEx(
                    mask[box[1] : box[3], box[0] : box[2]], cv2.MORPH_OPEN, _kernel(k)
                ),
            )
            for box in _merged(boxes)
        ]
        out = []
        for (cx, cy, radius), (x0, y0, x1, y1) in zip(spots, boxes, strict=True):
            (a0, b0, _, _), near = next(
                (box, o)
                for box, o in opened
                if box[0] <= x0 and box[1] <= y0 and x1 <= box[2] and y1 <= box[3]
            )
            crop = near[y0 - b0 : y1 - b0, x0 - a0 : x1 - a0]
            out.append(_isolation(crop, cx - x0, cy - y0, radius))
        return out

    def add(level_i: int, bx: int, by: int, m: dict[str, float]) -> None:
        area = m["m00"]
        cx, cy = m["m10"] / area + bx, m["m01"] / area + by
        centre = plane.mm(np.array((cx, cy)))
        spots.append((cx, cy, math.sqrt(area / math.pi)))
        found.append(
            (
                level_i,
                (float(centre[0]), float(centre[1])),
                area / PX_PER_MM**2,
                _elongation(m),
            )
        )

    def round_blob(m: dict[str, float]) -> bool:
        return lo <= m["m00"] <= hi and _elongation(m) <= max_elongation

    def add_discs(
        level_i: int, discs: Iterable[tuple[int, int, np.ndarray]], bx: int, by: int
    ) -> None:
        """Each round one of the discs `_discs` cut from a blob whose box is at (bx, by)."""
        for px, py, piece in discs:
            m = cv2.moments(piece, binaryImage=True)
            if round_blob(m):
                add(level_i, bx + px, by + py, m)

    def split(level_i: int, blob: np.ndarray, bx: int, by: int) -> None:
        """The round pieces of a blob that is no dot as a whole, cut loose by a wider disc."""
        kk = max(3, round(SPLIT_OPENING * diameter_mm * PX_PER_MM) | 1)
        opened = cv2.morphologyEx(_framed(blob), cv2.MORPH_OPEN, _kernel(kk))
        cut: list[tuple[float, float]] = []
        for px, py, piece in _blobs(opened, lo):
            m = cv2.moments(piece, binaryImage=True)
            if round_blob(m):
                add(level_i, bx + px - 1, by + py - 1, m)
                cut.append((m["m10"] / m["m00"] + px - 1, m["m01"] / m["m00"] + py - 1))
        add_discs(level_i, _discs(blob, least_r, most_r, cut), bx, by)

    def look(level_i: int, mask: np.ndarray, x0: int, y0: int) -> None:
        opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _kernel(k))
        for bx, by, blob in _blobs(opened, lo):
            m = cv2.moments(blob, binaryImage=True)
            area = m["m00"]
            if area < lo:
                continue  # and so is all of it at the levels above
            if round_blob(m):
                add(level_i, bx + x0, by + y0, m)
                # A blob round enough for a dot may still be two discs that touch (with
                # nothing cut yet, one peak gives one disc at most).
                discs = list(_discs(blob, least_r, most_r, [], least_peaks=2))
                if len(discs) > 1:
                    add_discs(level_i, discs, bx + x0, by + y0)
            else:
                split(level_i, blob, bx + x0, by + y0)
            if level_i + 1 == len(levels):
                continue
            bh, bw = blob.shape
            above = out[y0 + by : y0 + by + bh, x0 + bx : x0 + bx + bw] >= levels[level_i + 1]
            inside = above & (blob > 0)
            # Fewer pixels than a dot's least area above this level: no blob at the next
            # level or above can reach it (an opening only takes pixels away).
            if np.count_nonzero(inside) < lo:
                continue
            # Padded by the disc so the opening inside the box sees what it saw here.
            ax0, ay0 = max(0, bx - k), max(0, by - k)
            ax1, ay1 = min(mask.shape[1], bx + bw + k), min(mask.shape[0], by + bh + k)
            sub = np.zeros((ay1 - ay0, ax1 - ax0), np.uint8)
            sub[by - ay0 : by - ay0 + bh, bx - ax0 : bx - ax0 + bw] = inside
            look(level_i + 1, sub, x0 + ax0, y0 + ay0)

    look(0, (out >= levels[0]).astype(np.uint8), 0, 0)
    dots = [
        (d[0], Dot(*d[1:], isolation=i, level=d[0], contrast=c))
        for d, i, c in zip(found, isolations(), ring_contrasts(plane.bgr, spots), strict=True)
    ]
    # In the order of a level-by-level search: every place at the lowest level first.
    return [dot for _, dot in sorted(dots, key=lambda ld: ld[0])]
