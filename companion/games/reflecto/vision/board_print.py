"""The board's own print, learned where the board is known to be empty.

One photograph cannot always tell a screen from the print under it: a board may be printed
in a player's colour, in a shade a top takes under some light. The empty look of a square
is known once the square has been seen empty, as the Looking Glass knows a user's deck once
it has been taught: from a photograph of the empty board ("teach your board", `read
--board`), or at the table from the squares the engine says are free (at set-up every row
but the two first rows, later every square no screen stands on). A square is then judged
by change against its print (`change_shares`), and the screen's colour still says whose.

The print is kept on the board's own plane (height 0), where it lies whatever the camera's
pose, so a photograph taught under another light, tilt or turn of the board still serves:
for each picture it is seen through that picture's pose on the tops' plane the reader looks
at (`expected_top`), where an empty square's strip shows the print some millimetres from
its centre (the tilt pulls it toward the point under the camera). Light differs between the
two pictures: each square's print is scaled, channel by channel, to the board around it in
this picture, where no screen can stand (`screen_reach`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.reflecto.vision.geometry import BoardGeometry
from companion.vision.board_pose import BoardPose, Calibration, pose_in_image
from companion.vision.markers import Marker

PX_PER_MM = 1.5
"""As the tops' plane (`read.PX_PER_MM`): the print is looked at there pixel for pixel."""
MARGIN_MM = 40.0
"""Board plane kept beyond the grid: an empty square's strip shows print up to some 25 mm
off its centre under a 25° tilt."""
SLACK_PX = 2
"""A pixel is compared with the print's range within this many pixels (registration of two
pictures from their markers agrees to about a pixel; the print may have fine lines)."""
GAIN_RANGE = (0.4, 2.5)
"""The light's scale between the two pictures, per channel: outside this the print around
a square is not the print in this picture's light (a lamp's glare washed it out when it
was taught, a shadow lies over it now), and the square is read from the picture alone."""
FIT = 14.0
"""... and the light is told only loosely when the board around a square, once the print
is put in this picture's light, still differs from it by this much (BGR, median)..."""
FIT_LOOSE = FIT
"""... and not at all (the square is read from the picture alone) when by this much: as
`FIT`, so no light is told loosely (refl30's 22, below, measured fresh and taken out: see
docs/reflecto.md; `benchmarks/reflecto_curves.py loose-fit` sets candidates). Between
`FIT` and this the square is judged against its print, but a light told loosely changes
part of an empty strip too, so a screen is called there only when most of the strip
changed (`Change.loose`, `read.judge_by_print`). From the development curve (refl30:
house and random families named in docs/reflecto.md, boards 0-29 each, with the empty
board's photograph; the squares whose fit lies over `FIT` and under a candidate, judged
by change; screens gained / wrong calls / screens lost (asked), a screen called at any
share changed: 16: 5 / 1 / 1, 18: 10 / 2 / 1, 22: 12 / 2 / 1, 26: 13 / 4 / 1, 30: 14 / 4
/ 2; called only when changed at least `read.CHANGED_MOST` (0.7): 16: 4 / 0 / 1, 18: 8 / 0
/ 2, 22: 10 / 0 / 2, 26: 11 / 0 / 2, 30: 12 / 0 / 4; at 0.5, 22: 11 / 0 / 1 and 26: 12 /
1 / 1). The wrong calls were empty squares printed in a seat's colour changed 0.31-0.58
(the print beside, or maybe the print, from the picture alone); the screens gained changed
0.82-1.0. Fresh at 22 and 0.7: no added phantom or wrong owner, but boards entirely right
with the print 65 -> 64 of 120 (screens the picture alone read right asked instead)."""
SPREAD = 40.0
"""Board around a square whose values (a channel's 10th and 90th percentiles) spread this
far shows two shades or more: light's offset is told from its scale there (a narrower
spread is grain, outlines and noise, and would give any scale)."""
LEAST_MM2 = 25.0
"""Board beside a square needed to scale its print by; less, and the whole board's is used."""
KNOWN = 0.9
"""Share of a strip whose print must be known for the strip to be judged against it."""
PIXEL_CHANGE = 18.0
"""A strip pixel (BGR) this far outside its print's range (put in this picture's light)
has changed: something stands there."""
SCREEN_CHANGE = 0.3
"""A strip in a seat's colour changed over at least this share is a screen ...

From the development set's curve (`benchmarks/reflecto_curves.py`, 24 house and 24 random
boards with the empty board from another camera in other light; 1847 squares whose print
could be put in the picture's light): at `PIXEL_CHANGE` 18, 2 of 411 screens changed under
0.3 (1 under 0.15: a top the very colour of its print), 9 empty squares at 0.15 or more,
2 of them in a seat's colour; at 12 no screen under 0.3 but 13 empty squares over it, at 36
8 screens under it."""
PRINT_SAME = 0.15
"""... and one changed over at most this share is the print; between, the players are
asked (same curve)."""


@dataclass
class BoardPrint:
    """The empty board on its own plane, and where that is known (taught or seen empty).

    Mutable: live play adds squares as the engine frees them (`learn_from`)."""

    image: np.ndarray
    """BGR, `PX_PER_MM`, over the grid plus `MARGIN_MM`."""
    known: np.ndarray
    """uint8, 1 where `image` shows the empty print."""
    origin_mm: tuple[float, float]

    @property
    def any_known(self) -> bool:
        return bool(self.known.any())


def blank_print(geom: BoardGeometry) -> BoardPrint:
    """A print of which nothing is known yet."""
    (x0, y0), (x1, y1) = geom.grid_box_mm
    w = round((x1 - x0 + 2 * MARGIN_MM) * PX_PER_MM)
    h = round((y1 - y0 + 2 * MARGIN_MM) * PX_PER_MM)
    return BoardPrint(
        np.zeros((h, w, 3), np.uint8), np.zeros((h, w), np.uint8), (x0 - MARGIN_MM, y0 - MARGIN_MM)
    )


def plane_px_to_mm(origin: tuple[float, float], scale: float) -> np.ndarray:
    """Pixels of a plane picture to plane millimetres."""
    return np.array([[1 / scale, 0, origin[0]], [0, 1 / scale, origin[1]], [0, 0, 1]])


def board_to_top(
    ref: BoardPrint,
    pose: BoardPose,
    geom: BoardGeometry,
    top_origin: tuple[float, float],
    top_scale: float,
) -> np.ndarray:
    """The 3x3 map from the print's pixels to the tops' plane pixels (`read.Rectified`)
    that the same camera ray passes through."""
    H0 = pose.plane_homography(0.0) @ plane_px_to_mm(ref.origin_mm, PX_PER_MM)
    Ht = pose.plane_homography(geom.screen_height_mm) @ plane_px_to_mm(top_origin, top_scale)
    A = np.linalg.inv(Ht) @ H0
    out: np.ndarray = A / A[2, 2]
    return out


def learn_print(
    image: np.ndarray,
    geom: BoardGeometry,
    markers: dict[int, Marker] | None = None,
    calibration: Calibration | None = None,
) -> BoardPrint | None:
    """The print from a photograph of the empty board, all of it known; None when fewer
    than three corner markers are seen."""
    pose = pose_in_image(image, geom, markers, calibration)
    if pose is None:
        return None
    ref = blank_print(geom)
    h, w = ref.known.shape
    H0 = pose.plane_homography(0.0) @ plane_px_to_mm(ref.origin_mm, PX_PER_MM)
    ref.image[:] = cv2.warpPerspective(
        image, H0, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    )
    inside = cv2.warpPerspective(
        np.ones(image.shape[:2], np.uint8),
        H0,
        (w, h),
        flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
    )
    ref.known[:] = inside
    return ref


def learn_from(
    ref: BoardPrint,
    top: np.ndarray,
    A: np.ndarray,
    empty: np.ndarray,
) -> None:
    """Adds to `ref` what the tops'-plane picture `top` shows where `empty` (a tops'-plane
    mask) is the bare board; `A` is `board_to_top` for that picture."""
    h, w = ref.known.shape
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    seen = cv2.warpPerspective(top, A, (w, h), flags=flags)
    mask = cv2.warpPerspective(
        empty.astype(np.uint8), A, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP
    ).astype(bool)
    ref.image[mask] = seen[mask]
    ref.known[mask] = 1


@dataclass(frozen=True)
class Expected:
    """The print as this picture's tops' plane would show it with no screen anywhere."""

    lo: np.ndarray
    hi: np.ndarray
    """Float32 BGR, the print's least and greatest value within `SLACK_PX`."""
    mid: np.ndarray
    known: np.ndarray
    """bool: where the print is known."""


def expected_top(ref: BoardPrint, A: np.ndarray, shape: tuple[int, ...]) -> Expected:
    h, w = shape[:2]
    inv = np.linalg.inv(A)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    mid = cv2.warpPerspective(ref.image, inv, (w, h), flags=flags)
    known = cv2.warpPerspective(
        ref.known, inv, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP
    )
    k = np.ones((2 * SLACK_PX + 1, 2 * SLACK_PX + 1), np.uint8)
    known = cv2.erode(known, k)  # a pixel's whole range must be known
    return Expected(
        cv2.erode(mid, k).astype(np.float32),
        cv2.dilate(mid, k).astype(np.float32),
        mid.astype(np.float32),
        known.astype(bool),
    )


@dataclass(frozen=True)
class Change:
    """A strip against its print (`change_shares`)."""

    share: float
    """Share of the strip that differs from its print."""
    colour: tuple[float, float]
    """Share of the changed pixels in each seat's colour: whose the top is (the unchanged
    rest is print showing round a screen standing off centre)."""
    beside: tuple[float, float] = (0.0, 0.0)
    """Share of the board round the square where no screen can show (no square's reach)
    changed from its print into each seat's colour: a top stays within its reach, an arm
    or sleeve over the square changes the board round it too."""
    moved: float = 0.0
    """Share of that board changed from its print at all, into any colour: an arm or a
    sleeve coloured only in part like a seat's plastic changes it too (read by
    `benchmarks/reflecto_curves.py washed-change`, for a strip with little colour)."""
    loose: bool = False
    """The print was put in this picture's light only loosely (its fit over `FIT`, within
    `FIT_LOOSE`): part of an empty strip may read as changed."""


def change_shares(
    top: np.ndarray,
    exp: Expected,
    centres: np.ndarray,
    half: tuple[int, int],
    free: np.ndarray,
    board: np.ndarray,
    square_px: int,
    masks: np.ndarray,
    pixel: float = PIXEL_CHANGE,
    needed: list[bool] | None = None,
) -> list[Change | None]:
    """Per square (centre in tops'-plane pixels), how its strip (half-sizes `half`, counted
    where `free`: no other square's screen can reach) differs from its print, None where
    too little of the strip's print is known. The print is scaled to this picture's light
    by the board (`board`: no screen can reach) around the square; `masks` (2, h, w) are
    the pixels of each seat's colour; a square not `needed` (nothing of a seat's colour in
    it: empty whatever its print) is None too."""
    hx, hy = half
    h, w = top.shape[:2]
    least = LEAST_MM2 * PX_PER_MM**2
    usable = board & exp.known
    whole: list[tuple[np.ndarray, np.ndarray, bool] | None] = []  # the whole board's, if needed
    out: list[Change | None] = []
    r = square_px // 2
    for j, (cx, cy) in enumerate(centres):
        if needed is not None and not needed[j]:
            out.append(None)
            continue
        y0, y1, x0, x1 = max(cy - hy, 0), min(cy + hy + 1, h), max(cx - hx, 0), min(cx + hx + 1, w)
        look = free[y0:y1, x0:x1] & exp.known[y0:y1, x0:x1]
        counted = _count(look)
        if counted < KNOWN * _count(free[y0:y1, x0:x1]) or not counted:
            out.append(None)
            continue
        a0, a1, b0, b1 = max(cy - r, 0), min(cy + r + 1, h), max(cx - r, 0), min(cx + r + 1, w)
        near = usable[a0:a1, b0:b1]
        beside_too = _count(near) >= least
        if beside_too:
            # Every other pixel is plenty for quartiles (speed).
            fitted = light_against_print(
                top[a0:a1, b0:b1][near][::2], exp.mid[a0:a1, b0:b1][near][::2]
            )
        else:
            if not whole:
                enough = usable.sum() >= least
                whole.append(
                    light_against_print(top[usable][::8], exp.mid[usable][::8]) if enough else None
                )
            fitted = whole[0]
        if fitted is None:
            out.append(None)
            continue
        gain, loose = (fitted[0], fitted[1]), fitted[2]
        # The pixels changed, over one rectangle holding the strip and, where the light
        # was fitted beside the square, that window too (`Change.beside`, `Change.moved`).
        Y0, Y1, X0, X1 = (y0, y1, x0, x1)
        if beside_too:
            Y0, Y1, X0, X1 = min(y0, a0), max(y1, a1), min(x0, b0), max(x1, b1)
        changed = _changed(top, exp, (Y0, Y1, X0, X1), gain, pixel)
        strip = changed[y0 - Y0 : y1 - Y0, x0 - X0 : x1 - X0] & look
        n = _count(strip)
        colour = (0.0, 0.0)
        if n:
            colour = (
                _count(masks[0, y0:y1, x0:x1] & strip) / n,
                _count(masks[1, y0:y1, x0:x1] & strip) / n,
            )
        beside, moved = (0.0, 0.0), 0.0
        if beside_too:
            around = changed[a0 - Y0 : a1 - Y0, b0 - X0 : b1 - X0] & near
            m = _count(near)
            beside = (
                _count(around & masks[0, a0:a1, b0:b1]) / m,
                _count(around & masks[1, a0:a1, b0:b1]) / m,
            )
            moved = _count(around) / m
        out.append(Change(n / counted, colour, beside, moved, loose))
    return out


def _count(mask: np.ndarray) -> int:
    """How many of `mask` are set, as a Python int (numbers made of it stay plain floats)."""
    return int(np.count_nonzero(mask))


def _changed(
    top: np.ndarray,
    exp: Expected,
    window: tuple[int, int, int, int],
    gain: tuple[np.ndarray, np.ndarray],
    pixel: float,
) -> np.ndarray:
    """Over `window` (y0, y1, x0, x1), the pixels that differ from the print's range put in
    this light by `gain` (scale, offset) by more than `pixel` (BGR distance)."""
    y0, y1, x0, x1 = window
    cur = top[y0:y1, x0:x1].astype(np.float32)
    lo = exp.lo[y0:y1, x0:x1] * gain[0] + gain[1]
    hi = exp.hi[y0:y1, x0:x1] * gain[0] + gain[1]
    off = cur - np.clip(cur, lo, hi)
    return np.sqrt((off * off).sum(axis=2)) > pixel


def light_against_print(
    cur: np.ndarray, ref: np.ndarray
) -> tuple[np.ndarray, np.ndarray, bool] | None:
    """Per channel, the light of this picture against the print's over the same board:
    `cur ≈ gain * ref + offset`. A lamp adds light (glare, a brighter corner) as much as it
    scales it, so where the board shows more than one shade the two are told apart by the
    spread of its values (10th and 90th percentiles); on a board of one shade only a scale
    can be told. None when the light cannot be told (`GAIN_RANGE`, `FIT_LOOSE`); the last
    item says whether it is told only loosely (over `FIT`)."""
    cur, ref = cur.astype(np.float32), ref.astype(np.float32)
    q = spread_quantiles(np.concatenate((cur, ref), axis=1))
    c, r = q[:, :3], q[:, 3:]
    spread = r[2] - r[0]
    varied = spread >= SPREAD
    gain = np.where(varied, (c[2] - c[0]) / np.maximum(spread, 1.0), c[1] / np.maximum(r[1], 8.0))
    offset = np.where(varied, c[1] - gain * r[1], 0.0)
    if gain.min() < GAIN_RANGE[0] or gain.max() > GAIN_RANGE[1]:
        return None
    off = cur - (ref * gain + offset)
    fit = median(np.sqrt((off * off).sum(axis=1)))
    if fit > FIT_LOOSE:
        return None
    return gain.astype(np.float32), offset.astype(np.float32), fit > FIT


_QUANTILES = np.true_divide(np.array((10, 50, 90), np.float64), 100)
_AT: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
"""`spread_quantiles`' order statistics and weights per count of values, made once."""


def spread_quantiles(values: np.ndarray) -> np.ndarray:
    """Per column of `values` (n, k; float, no NaN), its 10th, 50th and 90th percentiles
    (3, k), as `np.percentile(values, (10, 50, 90), axis=0)` gives them to the last bit
    (its linear method: the same order statistics and the same interpolation) without its
    checks, in one partial sort; `values` is reordered in place."""
    n = values.shape[0]
    at = _AT.get(n)
    if at is None:
        virtual = (n - 1) * _QUANTILES
        below = np.floor(virtual)
        weight = (virtual - below)[:, None]
        lo = np.where(virtual >= n - 1, n - 1, below).astype(np.intp)
        hi = np.minimum(lo + 1, n - 1)
        kth = np.array(sorted({0, n - 1, *lo.tolist(), *hi.tolist()}), np.intp)
        at = _AT[n] = (lo, hi, weight, kth)
    lo, hi, weight, kth = at
    values.partition(kth, axis=0)
    a, b = values[lo], values[hi]
    step = b - a
    out = a + step * weight
    np.subtract(b, step * (1 - weight), out=out, where=weight >= 0.5)
    return out


def median(values: np.ndarray) -> float:
    """`np.median` of a 1-D float array with no NaN, to the last bit (the middle value, or
    the mean of the middle two), without its checks; `values` is left as it was."""
    n = values.size
    half = n // 2
    if n % 2:
        return float(np.partition(values, half)[half])
    part = np.partition(values, (half - 1, half))
    return float((part[half - 1] + part[half]) / 2)
