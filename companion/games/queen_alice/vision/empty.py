"""The board's own empty look: each square's print, learnt from a picture of it with nothing
on it, so a piece is found by what it changes rather than by how it differs from some idea of
a print.

A single photograph must tell a piece from the print by the print's neighbourhood (`read.py`),
and a pale grey piece on a light grey square, or a red checker as wide as its square, looks
too much like print there. A board's print does not change during a game, and the live
table knows from the engine which squares are free (at set-up, and after every move), so the
print of every square can be seen once with nothing on it: `companion read queen-alice
--board EMPTY.jpg` (the "teach your board" photo), or the live table's frames of squares the
engine says are free while the picture is still (`EmptyLook.learn`).

The look is kept rectified (board millimetres, `PX_PER_MM`, sampled at pixel centres
through the pose's own projection, lens included), so any later pose samples it at the same
board points it samples the photograph at. The light differs between the two
pictures: the room's colour cast is one gain per channel over the board, and the light
across the board (a lamp to one side, a glare, a shadow) varies smoothly, so each square's
print as seen now is its learnt print through the cast and an affine map of its own
(`LightFit`), fitted on the strips of print beside the square's middle that `read.py` looks at
(across the pieces' lean, where neither the square's piece nor a neighbour's reaches). A
disc sample far from that (`CHANGED`) has changed; a square holds something when enough of its
disc has (`OCCUPIED`) in the way a piece changes it (an outline, a colour of its own:
`OUTLINE`), and is empty when almost none has (`CLEAR`); else it is asked about.

`CHANGED` is set by reasoning (the reader's own `DIFFERENT` scale: JPEG, noise and the
resampling of two poses stay below it); `OCCUPIED`, `CLEAR`, `OUTLINE`, `OWN_HUE`,
`CLEAR_OUTLINE`, `COVERED` and `OFFSET_WEIGHT` are chosen from curves on development renders
(`benchmarks/queen_alice_failures.py --reference-curves`, in the commit that set them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.queen_alice.vision.geometry import BoardGeometry, Cell

ToPixels = Callable[[np.ndarray], np.ndarray]

PX_PER_MM = 2.0
"""Resolution of the rectified look: about the camera's own at 1280 x 960 over the board,
so nothing is invented and little is lost."""
CHANGED = 14.0
"""Lab distance between a disc sample and its learnt print, through the light, beyond which
the sample has changed."""
OCCUPIED = 0.25
"""Share of a square's disc changed for something to stand there (a thin peg changes a
third of it) ..."""
OUTLINE = 6.0
"""... with an outline (`Change.steps` at least this) and a colour of its own
(`Change.hue_apart` at least `OWN_HUE`), or a clear outline (`CLEAR_OUTLINE`): a glare the
light fit missed changes a square's print smoothly (a slope, not a step) and toward white
(the print's own hue), so it is asked about, never read as a piece."""
OWN_HUE = 6.0
CLEAR_OUTLINE = 12.0
CLEAR = 0.12
"""Share of a square's disc changed at most for the square to be empty."""
COVERED = 0.25
"""Share of a square's strips of print beside changed (`Change.covered`) from which the
picture alone's "plainly the print" is not a second opinion: it compares the middle with
those strips, and a piece as wide as its square covers both (one strip of four: the
strips changed under the neighbours' light are a piece's, never an empty square's, on the
development curve in the commit that set it)."""
FIT_RESIDUAL = 12.0
"""Grey levels a square's light fit may miss its own strips by (set by reasoning: strips
are medians of a few samples, so noise and JPEG stay within a few levels; a piece's colour
over a strip is tens of levels off)."""
OFFSET_WEIGHT = 0.005
"""How strongly a square's light fit prefers a pure gain to a gain with a neutral offset (a
glare adds white; a lamp scales): only enough to settle the fit on a grey print, where the
two cannot be told apart."""


@dataclass
class EmptyLook:
    """Each square's empty print, rectified; `known` says which squares have been seen."""

    raster: np.ndarray
    """H x W x 3 float32 BGR of the grid's box and a margin, at `PX_PER_MM`."""
    origin_mm: tuple[float, float]
    """Board mm of the raster's pixel (0, 0)."""
    known: np.ndarray
    """Per square (in `BoardGeometry.cells` order): its print has been seen."""

    def sample(self, points_mm: np.ndarray) -> np.ndarray:
        """BGR of the learnt print at board points (N x 2 -> N x 3)."""
        px = (points_mm - np.asarray(self.origin_mm)) * PX_PER_MM - 0.5  # pixel centres
        got = cv2.remap(
            self.raster,
            np.ascontiguousarray(px[:, 0], np.float32).reshape(1, -1),
            np.ascontiguousarray(px[:, 1], np.float32).reshape(1, -1),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return got.reshape(-1, 3)

    def learn(
        self,
        image: np.ndarray,
        geom: BoardGeometry,
        to_pixels: ToPixels,
        cells: set[Cell] | frozenset[Cell],
        weight: float = 1.0,
    ) -> None:
        """Take (or blend in, `weight` < 1) the print of `cells` from a picture whose board
        plane maps to pixels by `to_pixels` (N x 2 board mm -> N x 2 pixels): squares the
        engine says are free while nothing moves. A square seen for the first time is
        taken whole."""
        if not cells:
            return
        fresh = rectify(image, geom, to_pixels)
        h, w = self.raster.shape[:2]
        mask = np.zeros((h, w), np.float32)
        index = {c: k for k, c in enumerate(geom.cells)}
        for cell in cells:
            (x0, y0), (x1, y1) = _square_box_px(geom, cell, self.origin_mm)
            mask[y0:y1, x0:x1] = weight if self.known[index[cell]] else 1.0
            self.known[index[cell]] = True
        self.raster += mask[..., None] * (fresh - self.raster)


def _box_mm(geom: BoardGeometry) -> tuple[tuple[float, float], tuple[int, int]]:
    """The raster's origin (board mm) and size (pixels): the grid with half a square round."""
    (x0, y0), (x1, y1) = geom.grid_box_mm
    m = 0.5 * geom.square_mm
    w = round((x1 - x0 + 2 * m) * PX_PER_MM)
    h = round((y1 - y0 + 2 * m) * PX_PER_MM)
    return (x0 - m, y0 - m), (w, h)


def _square_box_px(
    geom: BoardGeometry, cell: Cell, origin: tuple[float, float]
) -> tuple[tuple[int, int], tuple[int, int]]:
    x, y = geom.cell_mm(cell)
    s = geom.square_mm / 2
    a = (round((x - s - origin[0]) * PX_PER_MM), round((y - s - origin[1]) * PX_PER_MM))
    b = (round((x + s - origin[0]) * PX_PER_MM), round((y + s - origin[1]) * PX_PER_MM))
    return a, b


def rectify(image: np.ndarray, geom: BoardGeometry, to_pixels: ToPixels) -> np.ndarray:
    """The grid's box seen straight down, at `PX_PER_MM` (float32 BGR)."""
    origin, (w, h) = _box_mm(geom)
    xs = origin[0] + (np.arange(w) + 0.5) / PX_PER_MM
    ys = origin[1] + (np.arange(h) + 0.5) / PX_PER_MM
    xx, yy = np.meshgrid(xs, ys)
    pix = to_pixels(np.stack([xx.ravel(), yy.ravel()], axis=1)).astype(np.float32)
    out = cv2.remap(
        image,
        pix[:, 0].reshape(h, w),
        pix[:, 1].reshape(h, w),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return out.astype(np.float32)


def empty_look(
    image: np.ndarray,
    geom: BoardGeometry,
    to_pixels: ToPixels,
    cells: set[Cell] | frozenset[Cell] | None = None,
) -> EmptyLook:
    """The look learnt from one picture of the empty board (`cells`: the squares seen empty
    in it, default all)."""
    origin, (w, h) = _box_mm(geom)
    look = EmptyLook(np.zeros((h, w, 3), np.float32), origin, np.zeros(len(geom.cells), bool))
    look.learn(image, geom, to_pixels, set(geom.cells) if cells is None else cells)
    return look


@dataclass(frozen=True)
class Change:
    """Per square, what changed against the learnt print."""

    share: np.ndarray
    """N: share of the disc's samples changed (NaN where the print is not known)."""
    colour: np.ndarray
    """N x 3 Lab: the median of the changed samples (the disc's where none changed)."""
    steps: np.ndarray
    """N: 95th percentile of the change's step between neighbouring disc samples: a piece's
    outline, rim or decal is a step, a light the fit missed (a glare's middle) a slope."""
    hue_apart: np.ndarray
    """N: distance in (a, b) between the changed samples' own colour and the learnt print's
    there: light the fit missed makes the print lighter or darker, not another colour."""
    covered: np.ndarray
    """N: share of the square's strips of print beside that changed, under the light of
    the squares round it: something over the print the picture alone compares the middle
    with (a piece as wide as its square, a neighbour's lean, an arm)."""


def _lab(bgr: np.ndarray) -> np.ndarray:
    px = np.clip(np.rint(bgr), 0, 255).astype(np.uint8).reshape(1, -1, 3)
    lab = cv2.cvtColor(px, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    return lab * np.array([100.0 / 255.0, 1.0, 1.0], np.float32) - np.array(
        [0.0, 128.0, 128.0], np.float32
    )


def light_fit(now: np.ndarray, then: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The light that takes the learnt print to what is seen now.

    `now`, `then`: N x S x 3 BGR medians of each square's S strips. Returns the cast (3: one
    gain per channel for the whole board, from every strip's ratio), and per square a gain
    and an offset (N each) with `now ~ gain * cast * then + offset`, fitted over its strips
    and channels with the offset held toward 0 (`OFFSET_WEIGHT`)."""
    ratio = ((now + 1.0) / (then + 1.0)).reshape(-1, 3)
    # each strip's own brightness out, so the squares' light does not pass for a cast
    cast = np.median(ratio / np.mean(ratio, axis=1, keepdims=True), axis=0)
    cast = cast / float(np.mean(cast))
    x = (then * cast).reshape(len(now), -1)
    y = now.reshape(len(now), -1)
    n = x.shape[1]
    sx, sy = x.sum(axis=1), y.sum(axis=1)
    sxx, sxy = (x * x).sum(axis=1), (x * y).sum(axis=1)
    ridge = OFFSET_WEIGHT * n  # the offset's penalty, against the n samples' own weight
    det = sxx * (n + ridge) - sx * sx
    gain = (sxy * (n + ridge) - sx * sy) / np.maximum(det, 1e-6)
    offset = (sy - gain * sx) / (n + ridge)
    return cast, gain.astype(np.float32), offset.astype(np.float32)


def _fit_residual(
    now: np.ndarray, then: np.ndarray, cast: np.ndarray, gain: np.ndarray, offset: np.ndarray
) -> np.ndarray:
    """Per square: the largest grey-level error of its light fit over its strips."""
    seen = then * cast * gain[:, None, None] + offset[:, None, None]
    return np.asarray(np.max(np.abs(seen - now).reshape(len(now), -1), axis=1))


def _nan_neighbours_median(values: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
    """Per square, the median of `values` over its eight neighbours and itself, NaN ones
    left out (NaN where all are)."""
    rows, cols = grid
    v = values.reshape(rows, cols)
    padded = np.full((rows + 2, cols + 2), np.nan, np.float32)
    padded[1:-1, 1:-1] = v
    stack = np.stack(
        [
            padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
        ]
    )
    count = np.sum(~np.isnan(stack), axis=0).reshape(-1)
    ranked = np.sort(np.where(np.isnan(stack), np.inf, stack).reshape(9, -1).T, axis=1)
    out = _median_of_first(ranked, np.maximum(count, 1))
    out[count == 0] = np.nan
    return np.asarray(out)


def _median_of_first(ranked: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Per row of `ranked` (sorted along axis 1), the median of its first `count` values, as
    `np.median` takes it (the mean of the two middle ones when the count is even): one
    call for every square instead of one per square."""
    shape = (len(count),) + (1,) * (ranked.ndim - 1)
    lo = np.take_along_axis(ranked, ((count - 1) // 2).reshape(shape), axis=1)
    hi = np.take_along_axis(ranked, (count // 2).reshape(shape), axis=1)
    return np.asarray(((lo + hi) / 2)[:, 0])


def changes(
    look: EmptyLook,
    disc_mm: np.ndarray,
    disc_bgr: np.ndarray,
    strips_mm: np.ndarray,
    strips_bgr: np.ndarray,
    pairs: np.ndarray,
    grid: tuple[int, int],
) -> Change:
    """What changed on each square: `disc_*` N x M (board mm, BGR now) of each square's
    middle disc, `strips_*` N x S x K of its strips of print beside; `pairs` (P x 2) the
    disc samples next to each other; `grid` (rows, cols) the squares' layout, row by row.

    A square whose own light fit does not take its learnt strips to what they show now
    (`FIT_RESIDUAL`: a wide piece or a neighbour's over some of them, which no light does)
    takes the median fit of its neighbours instead."""
    n, m = disc_bgr.shape[:2]
    s = strips_bgr.shape[1]
    then_disc = look.sample(disc_mm.reshape(-1, 2)).reshape(n, m, 3)
    then_strips = np.median(look.sample(strips_mm.reshape(-1, 2)).reshape(n, s, -1, 3), axis=2)
    now_strips = np.median(strips_bgr, axis=2)
    cast, gain, offset = light_fit(now_strips, then_strips)
    bad = _fit_residual(now_strips, then_strips, cast, gain, offset) > FIT_RESIDUAL
    bad |= ~look.known
    good_gain, good_offset = gain.copy(), offset.copy()
    good_gain[bad], good_offset[bad] = np.nan, np.nan
    near_gain = _nan_neighbours_median(good_gain, grid)
    near_offset = _nan_neighbours_median(good_offset, grid)
    near_gain = np.where(np.isnan(near_gain), gain, near_gain)
    near_offset = np.where(np.isnan(near_offset), offset, near_offset)
    gain[bad], offset[bad] = near_gain[bad], near_offset[bad]
    # the strips under the light round the square, not their own fit (which a piece as
    # wide as the square over them bends toward itself)
    strips_seen = then_strips * cast * near_gain[:, None, None] + near_offset[:, None, None]
    strips_off = np.linalg.norm(
        (_lab(now_strips.reshape(-1, 3)) - _lab(strips_seen.reshape(-1, 3))).reshape(n, s, 3),
        axis=2,
    )
    covered = np.mean(strips_off > CHANGED, axis=1).astype(np.float32)
    seen = then_disc * cast * gain[:, None, None] + offset[:, None, None]
    lab_now = _lab(disc_bgr.reshape(-1, 3)).reshape(n, m, 3)
    lab_then = _lab(seen.reshape(-1, 3)).reshape(n, m, 3)
    residual = lab_now - lab_then
    changed = np.linalg.norm(residual, axis=2) > CHANGED
    share = changed.mean(axis=1).astype(np.float32)
    step = np.take(residual, pairs[:, 0], axis=1) - np.take(residual, pairs[:, 1], axis=1)
    steps = np.percentile(np.sqrt(np.einsum("npk,npk->np", step, step)), 95, axis=1)
    pick = changed | ~changed.any(axis=1, keepdims=True)  # all samples where none changed
    both = np.where(pick[..., None, None], np.stack([lab_now, lab_then], axis=2), np.inf)
    medians = _median_of_first(np.sort(both, axis=1), pick.sum(axis=1))  # N x 2 x 3
    colour = medians[:, 0].astype(np.float32)
    hue_apart = np.hypot(*(medians[:, 0, 1:] - medians[:, 1, 1:]).T).astype(np.float32)
    share[~look.known] = np.nan
    return Change(share, colour, steps.astype(np.float32), hue_apart, covered)


def like_a_piece(change: Change, k: int) -> bool:
    """Square `k` changed as a piece changes it, not as light the fit missed (`OUTLINE`)."""
    steps, hue = float(change.steps[k]), float(change.hue_apart[k])
    return steps >= CLEAR_OUTLINE or (steps >= OUTLINE and hue >= OWN_HUE)
