"""The glass as a lattice: every slot the fitted cards imply, each one named by its upper half.

The feature stage finds cards whose art shows many local features; a covered card shows only
its upper half and often too few. But the glass is a lattice (`rules.layout.placement`):
columns half a card width apart, rows half a card height apart, the two halves mirrored about
the centre line, every card's top toward it. So the cards the features found fix the
homography from glass units to image px (`fit_lattice`), and every other slot of the lattice
can be looked at directly: its upper half (the part a covered card still shows) rectified and
correlated with every taught face (`companion.vision.cards.identify`, gain- and offset-free
Lab correlation). A slot that names no card clearly is empty (the table, an arm, a
neighbour half in view). Coverage follows from the lattice too: a card is covered when a card
of the next row outward lies within two half-widths of its column, in its half or the other
(the two halves hold the same slots).

Glass units: the taught card's width is `CARD_W_MM` (the library measures the height in the
same units); x along the centre line (a card's centre at col * width / 2), y across it,
half 0 at y > 0 with its tops toward -y, half 1 mirrored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.looking_glass.rules.layout import Layout
from companion.games.looking_glass.vision.stages import (
    PAIR_TOLERANCE,
    SAME_PLACE,
    Glass,
    Hypothesis,
    Identified,
    Placed,
    across_gap,
    card_frame,
)
from companion.vision.cards.features import VERIFY_PX_PER_MM, FaceIndex, faces_lightness
from companion.vision.cards.identify import Identity, card_to_image, identify
from companion.vision.cards.library import CARD_W_MM, Library

GAP = 10.0
"""First guess of the gap between the two innermost rows (glass units); refined from the
cards found (`fit_lattice`)."""
REPROJ = 0.12
"""A found card's corner agrees with the lattice within this share of a card width."""
MAX_ROWS = 6
"""Rows per half a layout may have (models/looking-glass/layouts and the rulebook's cards)."""
ANCHORS = 3
"""The strongest cards each tried as the lattice's anchor (`fit_lattice`)."""
SCALES = np.arange(0.8, 1.35, 0.005)
"""Dealt-over-taught scales tried (`dealt_scale`), along the line and across it apart: a
taught face is the whole card or the art inside its border (a border up to a tenth of the
card's width on each side), a border of one width on every side changes the card's two
sides by different shares, and a face taught with its sleeve's margin is larger than the
card the layout steps by. Ties go to the scales nearest 1. New development decks of the
random family (10 decks, 30 tables, 522 cards), one scale of 1.0 to 1.3 -> these: cards
right 362 -> 364, phantom cards 8 -> 5, tables exact 8 -> 9; a mini deck in coloured sleeves
(steps 0.83 and 0.855 of its taught face) fitted no lattice of its own glass and took a
score pile's cards in by their votes."""
SCALE_TOLERANCE = 0.1
"""Two cards lie whole steps apart when within this share of a step of it."""
REFITS = 3
"""Rounds of: every card to its nearest slot, the lattice refitted to those square in it."""
COL_REACH = 2
"""Slots are looked at this many half-widths past the outermost columns found."""
MIN_SCORE = 0.75
"""A slot's best correlation must reach this to be a card. From the curve on the committed
development set (`benchmarks/looking_glass_failures.py --reader staged`, margin 0.1, slots
searched `PROBE_SEARCH_PX`), slots named right / empty slots named / named wrong: 0.5:
131 / 29 / 5; 0.55: 131 / 9 / 5; 0.6: 130 / 4 / 4; 0.65: 126 / 3 / 3; 0.7: 121 / 3 / 2;
0.75: 116 / 0 / 0; 0.8: 109 / 0 / 0 (a null costs a question, a wrong name the game)."""
MIN_MARGIN = 0.1
"""...and beat the runner-up by this much, or the slot is not told apart: no card named."""
REFLECTED_MIN_SCORE = 0.7
"""...or this, where the slot's reflection holds a named card: a card lies there (the two
halves hold the same slots), so a lower threshold risks no empty slot named, only a card named
wrong. From the curve over such slots (`benchmarks/looking_glass_failures.py --reader staged`,
`reflected_slot_curve`, margin `MIN_MARGIN`), right / empty named / wrong, on the committed
development set: 0.75: 98 / 0 / 0; 0.65: 103 / 0 / 0; 0.6: 106 / 0 / 0; 0.55: 107 / 0 / 0;
0.5: 108 / 0 / 0; 0.45: 108 / 0 / 1; 0.4: 108 / 0 / 1; and on new development decks of the
random family (8 decks, 24 tables, 372 cards): 0.75: 47 / 0 / 0; 0.6: 48 / 0 / 0; 0.5: 48 /
0 / 0; 0.45: 50 / 0 / 0; 0.4: 50 / 0 / 3 (an untaught card's slot names its nearest look).
0.6 kept 0.15 above the first wrong name on both (a null costs a question). Raised to 0.7
(lg17) on 12 new development decks of the random family (36 tables) and the 10 of lg15 (30
tables), the same curve: 0.6: 173 / 0 / 3; 0.65: 172 / 0 / 1; 0.7: 167 / 0 / 0; 0.75: 163 /
0 / 0. The wrong name at 0.68 reached the table: a card whose teach photo was cut to its
art alone (no banner, no border) scored 0.45 at its own slot, and a look-alike with the
deck's banner 0.68. The cost on the committed development set (auto, b718f8a -> 51474d8): 527
-> 523 of 563 cards, 17 -> 15 of 30 tables exact (four row-0 covered cards whose slots
reached 0.6 to 0.7 beside their named reflections), 0 wrong and 0 phantoms both."""
REFLECTED_WIDE_MARGIN = 0.3
"""...and a slot whose reflection holds a named card is named at `REFLECTED_WIDE_MIN_SCORE`
too when its best card beats the runner-up by this much (a covered card's cut face scores
low against every card, its own still far clear of the rest). From
`benchmarks/looking_glass_failures.py --reader auto`'s `reflected_margin_curve` on a
development draw of the random family (8 decks, 16 tables, `docs/looking-glass-table.md`,
lg32): of the slots beside a named reflection scoring under `REFLECTED_MIN_SCORE`, 4 right
(score / margin 0.437 / 0.242, 0.578 / 0.218, 0.603 / 0.115, 0.668 / 0.409), 2 wrong
(0.411 / 0.032, 0.577 / 0.147). Cards gained / named wrong added, least margin by least
score: 0.1: 0.65 +1 / 0, 0.6 +2 / 0, 0.55 +3 / 1; 0.2: 0.6-0.65 +1 / 0, 0.45-0.55 +2 / 0,
0.3-0.4 +3 / 0; 0.3 and 0.4: 0.3-0.65 +1 / 0. 0.3, not 0.2: lg17's wrong name (a
look-alike at 0.68 over the card's own 0.45, a margin of 0.23 at most) stays out."""
REFLECTED_WIDE_MIN_SCORE = 0.6
"""The least score `REFLECTED_WIDE_MARGIN` names at: from the same curve, every least score
0.3 to 0.65 gains the one card (0.668) at margin 0.3; 0.6 keeps 0.1 under
`REFLECTED_MIN_SCORE`."""
UNTAUGHT_MIN_SCORE = 0.8
"""`MIN_SCORE` for a deck with a card of the base deck untaught (its teach photo refused): an
untaught card in a slot correlates best with its nearest taught look-alike, and its own look,
which would have been the runner-up, is missing, so `MIN_MARGIN` says less. From the curve
over the slots of such decks (`benchmarks/looking_glass_failures.py --reader staged`,
`untaught_slot_curve`, margin `MIN_MARGIN`), right / empty named / wrong, on new development
decks of the random family (10 decks, 30 tables; 4 decks with cards untaught): 0.7: 26 / 0 /
3; 0.75: 26 / 0 / 1; 0.8: 25 / 0 / 0; 0.85: 19 / 0 / 0; 0.9: 16 / 0 / 0 (the wrong one an
untaught White Rabbit named the Caterpillar at 0.76)."""
PROBE_SEARCH_PX = 4
"""A slot's upper half is matched at every shift up to this many patch px (about a mm each)
about where the lattice puts it, not `library.SEARCH_PX` (2): a lattice extrapolated from a
few cards is a few mm off at its far slots. Committed development set, failures 88 -> 75
(covered cards whose slot scored below `MIN_SCORE` 21 -> 12), 1 phantom either way;
`MIN_SCORE`'s curve is measured with it."""


@dataclass(frozen=True)
class Lattice:
    """Where the glass lies in the image."""

    H_image_from_glass: np.ndarray
    card_h: float
    gap: float
    scale: float = 1.0
    """The card as dealt over the card as taught, along the centre line (columns): teach may
    have kept only the art inside a dark border, and the layout's steps are the whole card's."""
    scale_y: float | None = None
    """...and across it (rows; None: `scale`)."""

    @property
    def sy(self) -> float:
        return self.scale if self.scale_y is None else self.scale_y

    def glass_outline(self, half: int, row: int, col: float) -> np.ndarray:
        """TL, TR, BR, BL (from the card's own top) of a slot's taught face, glass units."""
        w, h = CARD_W_MM / 2, self.card_h / 2
        x = col * self.scale * CARD_W_MM / 2
        y = self.gap / 2 + self.sy * h * (1 + row)
        if half == 0:
            return np.array([[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h]])
        return np.array([[x + w, -y + h], [x - w, -y + h], [x - w, -y - h], [x + w, -y - h]])

    def nearest(self, card: Identified) -> Placed:
        """The card in the slot nearest its centre."""
        return Placed(card, *self.slot_at(card.centre))

    def slot_at(self, point: np.ndarray) -> tuple[int, int, int]:
        """(half, row, col) of the slot whose centre is nearest an image point."""
        c = cv2.perspectiveTransform(
            point.reshape(1, 1, 2).astype(np.float64), np.linalg.inv(self.H_image_from_glass)
        ).reshape(2)
        half = int(c[1] < 0)
        step = self.sy * self.card_h / 2
        row = max(0, round((abs(c[1]) - self.gap / 2) / step - 1))
        return half, int(row), round(c[0] / (self.scale * CARD_W_MM / 2))

    def scaled(self, by: float) -> Lattice:
        """The same lattice in an image `by` times as large (working px -> full-res px)."""
        return Lattice(
            np.diag([by, by, 1.0]) @ self.H_image_from_glass,
            self.card_h,
            self.gap,
            self.scale,
            self.scale_y,
        )

    def outline(self, half: int, row: int, col: float) -> np.ndarray:
        """The slot's outline in image px, TL, TR, BR, BL turning clockwise (y down)."""
        q = cv2.perspectiveTransform(
            self.glass_outline(half, row, col).reshape(-1, 1, 2), self.H_image_from_glass
        ).reshape(4, 2)
        e0, e1 = q[1] - q[0], q[2] - q[1]
        if e0[0] * e1[1] - e0[1] * e1[0] < 0:  # the glass frame is mirrored in the image
            q = q[[1, 0, 3, 2]]
        return q


def _correspondences(
    placed: list[Placed], lat: Lattice, mirrored: bool
) -> tuple[np.ndarray, np.ndarray]:
    src = np.vstack([lat.glass_outline(p.half, p.row, p.col) for p in placed])
    dst = np.array([p.card.hypothesis.outline for p in placed])
    if mirrored:  # a found outline turns clockwise in the image; the glass's may not
        dst = dst[:, [1, 0, 3, 2]]
    return src.astype(np.float64), dst.reshape(-1, 2).astype(np.float64)


def _corner_error(lat: Lattice, p: Placed, mirrored: bool) -> float:
    """How far (image px) a card's corners lie from its slot's on the lattice."""
    src, dst = _correspondences([p], lat, mirrored)
    got = cv2.perspectiveTransform(src.reshape(-1, 1, 2), lat.H_image_from_glass).reshape(-1, 2)
    return float(np.abs(got - dst).max())


def _mirrored(placed: list[Placed], lat: Lattice) -> bool | None:
    """Whether the glass frame is mirrored in the image: the sign of the affine map from the
    slots' centres to the found centres (None: the centres are all on one line)."""
    src = np.array([lat.glass_outline(p.half, p.row, p.col).mean(axis=0) for p in placed])
    dst = np.array([p.card.hypothesis.outline.mean(axis=0) for p in placed])
    A = np.hstack([src, np.ones((len(src), 1))])
    sol, _, rank, _ = np.linalg.lstsq(A, dst, rcond=None)
    if rank < 3:
        return None
    return bool(np.linalg.det(sol[:2].T) < 0)


def _sized(to_anchor: np.ndarray, cards: list[Identified], card_h: float) -> np.ndarray:
    """The anchor's frame rescaled so that the cards' median face is the taught size there:
    one card's outline from a few features (smooth photographic art) is often a tenth or more
    too large or too small, and every step measured in its frame would be off by as much."""
    o = cv2.perspectiveTransform(
        np.array([k.hypothesis.outline for k in cards]).reshape(-1, 1, 2).astype(np.float64),
        to_anchor,
    ).reshape(-1, 4, 2)
    w = float(np.median(np.linalg.norm(o[:, 1] - o[:, 0], axis=1)))
    h = float(np.median(np.linalg.norm(o[:, 3] - o[:, 0], axis=1)))
    if w <= 0 or h <= 0:
        return to_anchor
    return np.diag([CARD_W_MM / w, card_h / h, 1.0]) @ to_anchor


def dealt_scale(c: np.ndarray, half: np.ndarray, card_h: float) -> tuple[float, float]:
    """The card as dealt over the card as taught along the line and across it (`Lattice.scale`,
    `Lattice.scale_y`): the scales at which most pairs of cards of one half lie whole steps
    apart, columns half a card width, rows half a card height (centres `c` in the taught
    card's units)."""
    i, j = np.triu_indices(len(c), 1)
    same = half[i] == half[j]
    d = np.abs(c[i[same]] - c[j[same]])
    if not len(d):
        return 1.0, 1.0
    ks = SCALES[np.argsort(np.abs(SCALES - 1.0), kind="stable")]  # ties: nearest 1 first

    def whole(u: np.ndarray) -> np.ndarray:
        return np.abs(u - np.round(u)) < SCALE_TOLERANCE

    on_x = whole(d[:, :1] / (ks[None, :] * CARD_W_MM / 2)).astype(np.int32)
    on_y = whole(d[:, 1:] / (ks[None, :] * card_h / 2)).astype(np.int32)
    hits = on_x.T @ on_y  # pairs whole steps apart both ways, per (x scale, y scale)
    # Ties to the pair of scales nearest 1 (both orders run nearest 1 first).
    rank = np.add.outer(np.arange(len(ks)), np.arange(len(ks)))
    best = np.flatnonzero((hits == hits.max()).ravel())
    kx, ky = np.unravel_index(best[np.argmin(rank.ravel()[best])], hits.shape)
    return float(ks[kx]), float(ks[ky])


SAME_COLUMN = 0.25
"""Two cards of the two halves lie in one column when their centres along the line are
within this share of a card width (columns are half a width apart)."""


def mirror_line(c: np.ndarray, half: np.ndarray, step_y: float) -> float | None:
    """The centre line (y in the anchor's frame) midway between the cards that are each
    other's reflection: of the midpoints of every two cards of the two halves in one column,
    the one most others agree with (a card and its reflection agree exactly; a card of one
    row and a card two rows out in the other half lie a whole row step off). Ties go to the
    line nearest midway between the halves' innermost cards. None: no two cards of the two
    halves share a column, or no such line has every card on its own side.

    Counted from the innermost cards alone, the line lies a quarter card off when a half's
    first row is missed (covered and featureless, or under an arm): that half's rows are then
    numbered one out and its first row never looked at."""
    top, bottom = c[half == 0], c[half == 1]
    if not len(top) or not len(bottom):
        return None
    dx = np.abs(top[:, None, 0] - bottom[None, :, 0])
    i, j = np.nonzero(dx < SAME_COLUMN * CARD_W_MM)
    mids = (top[i, 1] + bottom[j, 1]) / 2
    mids = mids[(mids < top[:, 1].min()) & (mids > bottom[:, 1].max())]
    if not len(mids):
        return None
    near = np.abs(mids[:, None] - mids[None, :]) < step_y / 4
    support = near.sum(axis=1)
    inner = (top[:, 1].min() + bottom[:, 1].max()) / 2
    best = np.flatnonzero(support == support.max())
    k = best[np.argmin(np.abs(mids[best] - inner))]
    return float(mids[near[k]].mean())


def assign(
    cards: list[Identified], anchor: Identified, card_h: float
) -> tuple[list[tuple[int, int, int]], tuple[float, float], float]:
    """(half, row, col) of each card in the lattice seen from the anchor card's frame: the
    half by which way its top faces, the centre line where the reflections put it
    (`mirror_line`; else midway between the innermost cards of the two halves), rows and
    columns by half a card height and width; the dealt scales (`dealt_scale`); and the gap
    between the halves' innermost rows: where the reflections put the line, from the cards'
    distances to it (a deck's gap in glass units is its dealer's gap over its own card width:
    10 mm between mini cards is 14 units, between tarot cards 9), else `GAP`."""
    to_anchor = _sized(card_frame(anchor, card_h), cards, card_h)
    c = cv2.perspectiveTransform(
        np.array([k.centre for k in cards]).reshape(-1, 1, 2).astype(np.float64), to_anchor
    ).reshape(-1, 2)
    tops = cv2.perspectiveTransform(
        np.array([k.centre + 10 * k.up for k in cards]).reshape(-1, 1, 2).astype(np.float64),
        to_anchor,
    ).reshape(-1, 2)
    # Half 0 faces the line as the anchor does (its top toward -y).
    half = (tops[:, 1] > c[:, 1]).astype(int)
    scale, scale_y = dealt_scale(c, half, card_h)
    y = c[:, 1]
    same, other = y[half == 0], y[half == 1]
    line = mirror_line(c, half, scale_y * card_h / 2)
    mirrored_line = line is not None
    if line is not None:
        reach = GAP / 2 + scale_y * card_h / 2
    elif len(other):
        line = (same.min() + other.max()) / 2
        reach = (same.min() - other.max()) / 2  # gap / 2 + h / 2, if both innermost are row 0
    else:
        reach = GAP / 2 + scale_y * card_h / 2
        line = same.min() - reach
    row_f = (np.abs(y - line) - reach) / (scale_y * card_h / 2)
    rows = np.maximum(0, np.round(row_f)).astype(int)
    gap = GAP
    if mirrored_line:
        step_y = scale_y * card_h / 2
        half_gap = float(np.median(np.abs(y - line) - (1 + rows) * step_y))
        gap = float(np.clip(2 * half_gap, 0.0, step_y))
    step = scale * CARD_W_MM / 2
    phase = float(np.angle(np.exp(2j * np.pi * c[:, 0] / step).mean()) / (2 * np.pi))
    cols = np.round(c[:, 0] / step - phase).astype(int)
    cols -= cols.min()
    slots = [(int(h), int(r), int(k)) for h, r, k in zip(half, rows, cols, strict=True)]
    return slots, (scale, scale_y), gap


def _steps(agree: list[Placed], lat: Lattice) -> tuple[float, float, float]:
    """(gap, scale, scale_y) of the lattice through the cards in their slots, from every card
    at once: in the glass frame of `lat` (whose scales may be off: its homography then
    stretches the faces to make up), the steps by least squares, a centre at a + col * step
    along the line and at gap / 2 + (1 + row) * step_y across it, over the faces' own
    width and height there (medians): the face is the one length the dealt steps are measured
    against. A scale the cards do not fix (all in one column, or one row) stays, and so does
    one outside `SCALES` (a slot misnumbered). `dealt_scale`'s vote is within
    `SCALE_TOLERANCE` of a step, which far out from the line is enough to number a row one
    out."""
    inv = np.linalg.inv(lat.H_image_from_glass)
    o = cv2.perspectiveTransform(
        np.array([p.card.hypothesis.outline for p in agree]).reshape(-1, 1, 2).astype(np.float64),
        inv,
    ).reshape(-1, 4, 2)
    face_w = float(np.median(np.linalg.norm(o[:, 1] - o[:, 0], axis=1)))
    face_h = float(np.median(np.linalg.norm(o[:, 3] - o[:, 0], axis=1)))
    c = o.mean(axis=1)
    cols = np.array([p.col for p in agree], np.float64)
    rows = np.array([p.row for p in agree], np.float64)
    sx, sy = lat.scale, lat.sy
    lo, hi = float(SCALES.min()), float(SCALES.max())
    if np.ptp(cols) > 0:
        A = np.column_stack([np.ones_like(cols), cols])
        k = float(np.linalg.lstsq(A, c[:, 0], rcond=None)[0][1]) / (face_w / 2)
        sx = k if lo <= k <= hi else sx
    y = np.abs(c[:, 1]) / face_h * lat.card_h  # glass units: a face card_h tall
    if np.ptp(rows) > 0:
        A = np.column_stack([np.ones_like(rows), (1 + rows) * lat.card_h / 2])
        k = float(np.linalg.lstsq(A, y, rcond=None)[0][1])
        sy = k if lo <= k <= hi else sy
    half_gap = float(np.median(y - (1 + rows) * sy * lat.card_h / 2))
    return max(0.0, 2 * half_gap), sx, sy


def fit_lattice(
    glass: Glass,
    card_h: float,
    voters: list[Identified] | None = None,
    max_cols: int | None = None,
) -> tuple[Lattice, Glass] | None:
    """The lattice through the glass's named cards and the glass with each card in its slot.

    Each of the strongest few cards is tried as the anchor of `assign`; one RANSAC
    homography over the slots' corners per anchor, the anchor whose lattice most corners
    agree with wins; then the homography, the gap and the dealt scales are refined by least
    squares on the agreeing cards (`_steps`). None when fewer than two cards agree on one
    lattice.

    `voters`: cards outside the glass that may fit it too (they join it if they agree). A
    lattice they help to fit must hold agreeing cards in both halves and, given `max_cols`,
    span no more columns than that: else None (a score pile is one-sided, or lies beside the
    glass)."""
    named_cards = [p.card for p in glass.cards if p.card.identity.card is not None]
    named_cards += [k for k in voters or [] if k.identity.card is not None]
    if len(named_cards) < 2:
        return None
    width = float(
        np.median(
            [np.linalg.norm(k.hypothesis.outline[1] - k.hypothesis.outline[0]) for k in named_cards]
        )
    )
    best: tuple[int, np.ndarray, list[Placed], bool, tuple[float, float], float] | None = None
    anchors = sorted(named_cards, key=lambda k: -k.identity.score)[:ANCHORS]
    for anchor in anchors:
        slots, scale, gap = assign(named_cards, anchor, card_h)
        lat = Lattice(np.eye(3), card_h, gap, *scale)
        placed = [Placed(k, *s) for k, s in zip(named_cards, slots, strict=True)]
        side = _mirrored(placed, lat)
        for mirrored in (False, True) if side is None else (side,):
            H, mask = cv2.findHomography(
                *_correspondences(placed, lat, mirrored), cv2.RANSAC, REPROJ * width
            )
            if H is None:
                continue
            keep = mask.ravel().reshape(-1, 4).all(axis=1)
            if best is None or int(keep.sum()) > best[0]:
                best = (
                    int(keep.sum()),
                    H,
                    [p for p, k in zip(placed, keep, strict=True) if k],
                    mirrored,
                    scale,
                    gap,
                )
    if best is None or best[0] < 2:
        return None
    _, H, agree, mirrored, scale, gap = best
    lat = Lattice(H, card_h, gap, *scale)
    for _ in range(REFITS):
        # Every named card to the slot nearest it on this lattice; those that lie square in
        # it refit the lattice by least squares, and the gap from where their tops lie.
        moved = [
            lat.nearest(p.card)
            for p in agree
            + [Placed(k, 0, 0, 0) for k in named_cards if all(k is not a.card for a in agree)]
        ]
        fits = [p for p in moved if _corner_error(lat, p, mirrored) < REPROJ * width]
        if len(fits) < 2:
            break
        agree = fits
        H, _ = cv2.findHomography(*_correspondences(agree, lat, mirrored), 0)
        if H is None:
            return None
        gap, sx, sy = _steps(agree, Lattice(H, card_h, lat.gap, *scale))
        scale = (sx, sy)
        lat = Lattice(H, card_h, gap, *scale)
        H, _ = cv2.findHomography(*_correspondences(agree, lat, mirrored), 0)
        if H is None:
            return None
        lat = Lattice(H, card_h, lat.gap, *scale)
    if voters is not None:
        cols = [p.col for p in agree]
        if len({p.half for p in agree}) < 2 or (
            max_cols is not None and max(cols) - min(cols) > max_cols
        ):
            return None
    lattice = Lattice(H, card_h, lat.gap, *scale)
    kept = {id(p.card) for p in agree}
    # The other cards of the glass (unnamed, or off the RANSAC lattice) take the slot nearest
    # their centre: the fit decides where they lie, not what they are.
    rest = [lattice.nearest(p.card) for p in glass.cards if id(p.card) not in kept]
    return lattice, Glass(agree + rest, glass.normal, glass.offset, glass.rejected)


def _in_view(q: np.ndarray, shape: tuple[int, ...]) -> bool:
    """The slot's upper half lies inside the frame."""
    upper = np.array([q[0], q[1], (q[1] + q[2]) / 2, (q[0] + q[3]) / 2])
    return bool(
        (upper >= 0).all() and (upper[:, 0] < shape[1]).all() and (upper[:, 1] < shape[0]).all()
    )


@dataclass(frozen=True)
class Probe:
    """One slot looked at: where it is and what its upper half correlates with."""

    half: int
    row: int
    col: int
    outline: np.ndarray
    identity: Identity


def probe_slots(
    image: np.ndarray,
    glass: Glass,
    lattice: Lattice,
    lib: Library,
    where: np.ndarray | None = None,
) -> list[Probe]:
    """Every free slot of the lattice near the cards found, with its best names.
    `where`: a mask (image size, or a thumbnail of it): only the slots whose upper half
    overlaps it are looked at (live play looks again only where the picture changed)."""
    if not glass.cards:
        return []
    cols = [p.col for p in glass.cards]
    rows = max(p.row for p in glass.cards) + 1
    taken = {(p.half, p.row, p.col) for p in glass.cards if p.card.identity.card is not None}
    out = []
    for half in (0, 1):
        for row in range(min(MAX_ROWS, rows + 1)):
            for col in range(min(cols) - COL_REACH, max(cols) + COL_REACH + 1):
                if any((half, row, c) in taken for c in (col - 1, col, col + 1)):
                    continue
                q = lattice.outline(half, row, col)
                if not _in_view(q, image.shape) or not _overlaps(q, where, image.shape):
                    continue
                ident = identify(image, q, lib, top_known=True, margin=PROBE_SEARCH_PX)
                out.append(Probe(half, row, col, q, ident))
    return out


def _overlaps(q: np.ndarray, where: np.ndarray | None, shape: tuple[int, ...]) -> bool:
    """Whether the slot's upper half (outline `q`, image px) overlaps the mask `where`."""
    if where is None:
        return True
    upper = np.array([q[0], q[1], (q[1] + q[2]) / 2, (q[0] + q[3]) / 2])
    sx, sy = where.shape[1] / shape[1], where.shape[0] / shape[0]
    poly = np.zeros_like(where)
    cv2.fillConvexPoly(poly, np.round(upper * [sx, sy]).astype(np.int32), 255)
    return bool(cv2.countNonZero(poly & where))


def _width(p: Placed) -> float:
    o = p.card.hypothesis.outline
    return float(np.linalg.norm(o[1] - o[0]))


def named(probe: Probe, every_card_taught: bool = True) -> bool:
    """Whether a slot names its best card: from `MIN_SCORE`, or `UNTAUGHT_MIN_SCORE` when a
    card of the deck is untaught (its own look is missing, so the margin over the runner-up
    says less)."""
    i = probe.identity
    least = MIN_SCORE if every_card_taught else UNTAUGHT_MIN_SCORE
    return i.card is not None and i.score >= least and i.margin >= MIN_MARGIN


def reflected_named(probe: Probe) -> bool:
    """Whether a slot whose reflection holds a named card is named by its best card: at
    `REFLECTED_MIN_SCORE` by `MIN_MARGIN`, or at `REFLECTED_WIDE_MIN_SCORE` by
    `REFLECTED_WIDE_MARGIN`."""
    i = probe.identity
    if i.score >= REFLECTED_MIN_SCORE and i.margin >= MIN_MARGIN:
        return True
    return i.score >= REFLECTED_WIDE_MIN_SCORE and i.margin >= REFLECTED_WIDE_MARGIN


def fill(image: np.ndarray, glass: Glass, lib: Library, max_cols: int | None = None) -> Glass:
    """The glass with every slot the lattice names added, and every card's coverage read from
    the lattice (a card of the next row outward within two half-widths of its column).
    `max_cols`: the widest layout's span of columns (`layout_span`), if the caller knows it."""
    return fill_probed(image, glass, lib, max_cols)[0]


def layout_span(layouts: Iterable[Layout]) -> int:
    """The widest span of columns (half-card widths, first to last card's left edge) of any
    layout: no glass is wider."""
    return max(max(c.col for c in lay.cells) - min(c.col for c in lay.cells) for lay in layouts)


def fill_probed(
    image: np.ndarray,
    glass: Glass,
    lib: Library,
    max_cols: int | None = None,
    every_card_taught: bool = True,
) -> tuple[Glass, list[Probe]]:
    """`fill`, and every slot it looked at (named or not): what the failure benchmark and
    a threshold's curve are made of. `every_card_taught`: `name_slots`'s.

    The lattice is fitted to the glass's cards (`stages.fit_glass`: cards whose reflection
    was found). When that fails, every named card votes, the glass's and the others (a deck
    of smooth photographic art shows few features: the committed development set's dark
    photo-art deck had 2 to 6 of 28 cards named, rarely one and its reflection, and no slot
    was looked at). A score pile's cards would vote too, so a lattice voted for must have
    cards on both sides of its centre line, and span no more columns than the widest layout."""
    lattice, glass = lattice_of(image, glass, lib, max_cols)
    if lattice is None:
        return without_lone_pair(glass), []
    return fill_lattice(image, lattice, glass, lib, max_cols, every_card_taught)


def lattice_of(
    image: np.ndarray, glass: Glass, lib: Library, max_cols: int | None = None
) -> tuple[Lattice | None, Glass]:
    """`fill_probed`'s fit: the lattice through the glass's named cards, else voted for by
    every named card (`fit_lattice`'s voters, each with a card in its reflection's slot), and
    the glass with each card in its slot; no lattice (None, and the glass as far as it was
    fitted) when there is none, or it rests on a lone pair beside other named cards."""
    fitted = fit_lattice(glass, lib.shape.height_mm)
    if fitted is None and glass.rejected:
        # Few cards named (smooth art shows few features), and of those few a reflection:
        # every named card votes for the lattice, on the conditions `fit_lattice` sets them;
        # a voter whose reflection's slot shows no card is off the glass (a score pile's
        # card beside it), and the lattice is voted for again without it.
        voters = list(glass.rejected)
        while True:
            fitted = fit_lattice(glass, lib.shape.height_mm, voters, max_cols)
            if fitted is None:
                break
            lone = {
                id(p.card)
                for p, score in reflection_evidence(image, *fitted, voters, lib)
                if score < REFLECTION_SHOWN
            }
            if not lone:
                break
            voters = [k for k in voters if id(k) not in lone]
    if fitted is None or not without_lone_pair(fitted[1]).cards:
        # No lattice, or one that rests on a lone pair beside other named cards: its slots
        # would be looked at on a guess (a score pile's cards, an empty patterned cloth named).
        return None, glass if fitted is None else fitted[1]
    return fitted


def fill_lattice(
    image: np.ndarray,
    lattice: Lattice,
    glass: Glass,
    lib: Library,
    max_cols: int | None = None,
    every_card_taught: bool = True,
    marks: frozenset[int] = frozenset(),
) -> tuple[Glass, list[Probe]]:
    """`fill_probed` past the fit: the glass's free slots on a fitted lattice named, the
    slots straddling shown lower halves dropped, coverage from the lattice. Unnamed glass
    cards mark where the glass reaches (its slots are looked at) and stay, unnamed, where no
    slot named a card, except `marks` (ids of their `Identified`): places that only say where
    to look, never a card read."""
    glass = with_pairs_on(glass, lattice, max_cols)
    cards, looked = lattice_cards(image, lattice, glass, lib, max_cols, every_card_taught, marks)
    if halves_disagree(cards) or reflections_too_few(cards):
        # The halves disagree about the line: the lattice numbers one a row out, and what it
        # reads there is read off the glass; or too few of its cards show their reflection,
        # so the lattice lies over a score pile. No glass (a question), not a guess.
        rest = [p.card for p in glass.cards if id(p.card) not in marks]
        return Glass([], glass.normal, glass.offset, rest + list(glass.rejected)), looked
    out = with_coverage(cards)
    return without_lone_pair(Glass(out, glass.normal, glass.offset, glass.rejected)), looked


def lattice_cards(
    image: np.ndarray,
    lattice: Lattice,
    glass: Glass,
    lib: Library,
    max_cols: int | None = None,
    every_card_taught: bool = True,
    marks: frozenset[int] = frozenset(),
) -> tuple[list[Placed], list[Probe]]:
    """`fill_lattice`'s cards before it weighs the halves (`halves_disagree`): the glass's
    named cards, every slot named (`named_outward`) less those straddling shown lower halves,
    and the features' unnamed cards where no card was named (not `marks`); and every slot
    looked at. `glass`: with the pairs far along the line already joined (`with_pairs_on`)."""
    # Unnamed feature finds give way to what their slot's upper half says.
    found = {id(p) for p in glass.cards if p.card.identity.card is not None}
    cards, looked = named_outward(image, glass, lattice, lib, every_card_taught, max_cols)
    cards = without_shown_lower_halves(image, cards, found, lib)
    # A card the features found but could not name stays, unnamed, where no card was named.
    for u in glass.cards:
        if id(u.card) in marks:
            continue
        if u.card.identity.card is None and all(
            np.linalg.norm(u.card.centre - c.card.centre) > SAME_PLACE * _width(c) for c in cards
        ):
            cards.append(u)
    return cards, looked


def named_outward(
    image: np.ndarray,
    glass: Glass,
    lattice: Lattice,
    lib: Library,
    every_card_taught: bool = True,
    max_cols: int | None = None,
) -> tuple[list[Placed], list[Probe]]:
    """The glass's named cards with every slot `name_slots` names added, and every slot looked
    at. Slots are looked at `COL_REACH` columns and a row past the cards known; when a slot
    named there widens the glass, the slots past it are looked at in turn, until no new slot
    names a card or the glass would be wider than `max_cols`: the features may have found only
    the cards of the middle columns (smooth art, one end of the glass in a lamp's glare), and a
    layout reaches further than the cards found by more than one card."""
    cards = [p for p in glass.cards if p.card.identity.card is not None]
    unnamed = [p for p in glass.cards if p.card.identity.card is None]
    looked = probe_slots(image, glass, lattice, lib)
    cards = name_slots(cards, looked, every_card_taught)
    seen = {_slot(p) for p in looked}
    while True:
        more = [
            p
            for p in probe_slots(image, Glass(cards + unnamed), lattice, lib)
            if _slot(p) not in seen
        ]
        if not more:
            break
        looked += more
        seen |= {_slot(p) for p in more}
        grown = name_slots(cards, looked, every_card_taught)
        cols = [p.col for p in grown]
        if len(grown) == len(cards) or (max_cols is not None and max(cols) - min(cols) > max_cols):
            break
        cards = grown
    return cards, looked


LOWER_SHOWN = 0.75
"""A card named by its slot alone (`name_slots`) lies over the lower half of every card of
the row inward within a column of it (`with_coverage`): where that card's own lower half
still matches its taught face at least this well (`lower_shown`), the slot holds no card,
and is not named. From the curve over every card named by its slot alone past the first
row, with the cards it would lie over named (12 new development decks of the random family,
36 tables, and lg15's 10, 30 tables; staged reader; 152 right, 2 on no card), slots dropped
right / empty at each threshold: 0.4: 13 / 1; 0.5: 6 / 1; 0.55: 3 / 1; 0.6 to 0.9: 0 / 1.
The right ones reach 0.59 (smooth photo art, whose blobs correlate a little anywhere), the
empty one dropped 0.95 (a slot past the glass's last row straddling two cards' lower halves,
named at 0.76 and calling both covered); 0.75 is the middle of the flat stretch. The other
empty one (0.13) lay where the lattice was some 10 mm off the cards below it."""
SHOWN_SEARCH_MM = 3
"""`lower_shown` slides the face this many mm each way: an outline from the lattice is a
few mm off (`PROBE_SEARCH_PX`)."""
SHOWN_MIN_MM2 = 150.0
"""Less of a lower half than this (mm²) under the slot says nothing either way."""


def lower_shown(image: np.ndarray, under: Placed, over: np.ndarray, lib: Library) -> float:
    """How well the part of `under`'s lower half that a card outlined `over` (image px, TL,
    TR, BR, BL from its top) would hide still matches `under`'s own taught face
    (`lower_half_shown`; -1 where its card is not named or not taught)."""
    card = under.card.identity.card
    face = None if card is None else face_lightness(lib, card)
    if face is None:
        return -1.0
    return lower_half_shown(image, under.card.hypothesis.outline, face, lib.shape.height_mm, over)


def face_lightness(lib: Library, card: str) -> np.ndarray | None:
    """`card`'s taught face as lightness at `features.VERIFY_PX_PER_MM` (float32; None when
    the library holds no such face). The features' index keeps these (`FaceIndex.faces_grey`);
    a reader that never builds that index (the light-border one: its SIFT features cost a
    third of a second a deck) gets them made alone, once per library (`Library.derived`)."""
    if card not in lib.ids or lib.faces is None:
        return None
    k = lib.ids.index(card)
    index = lib.derived.get("face_index")
    if isinstance(index, FaceIndex) and index.faces_grey:
        return index.faces_grey[k]
    made = lib.derived.get("faces_lightness")
    if not isinstance(made, tuple):
        made = faces_lightness(lib.faces, lib.shape.height_mm)
        lib.derived["faces_lightness"] = made
    face: np.ndarray = made[k]
    return face


def lower_half_shown(
    image: np.ndarray, outline: np.ndarray, face: np.ndarray, height_mm: float, over: np.ndarray
) -> float:
    """How well the part of the lower half of a card outlined `outline` (image px, TL, TR, BR,
    BL from its top; its taught face's lightness `face`, `face_lightness`) that a card
    outlined `over` would hide still matches that face: zero-mean normalised correlation of
    lightness at `features.VERIFY_PX_PER_MM`, the best over shifts of up to
    `SHOWN_SEARCH_MM` (-1 where too little of it lies under `over`, or in view). A card lies
    over that part and hides it; where it still shows, no card lies there."""
    fh, fw = face.shape
    px = VERIFY_PX_PER_MM
    m = max(1, round(SHOWN_SEARCH_MM * px))
    to_image = card_to_image(outline, height_mm)
    # Face px (with a margin of m on every side) -> image px.
    M = to_image @ np.array([[1 / px, 0, -m / px], [0, 1 / px, -m / px], [0, 0, 1]])
    warped = cv2.warpPerspective(
        image, M, (fw + 2 * m, fh + 2 * m), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
    )
    gx, gy = np.meshgrid(np.arange(fw + 2 * m), np.arange(fh + 2 * m))
    at = cv2.perspectiveTransform(
        np.stack([gx, gy], axis=-1).reshape(-1, 1, 2).astype(np.float64), M
    ).reshape((*gx.shape, 2))
    inside = (
        (at[..., 0] >= 0)
        & (at[..., 0] <= image.shape[1] - 1)
        & (at[..., 1] >= 0)
        & (at[..., 1] <= image.shape[0] - 1)
    )
    grey = cv2.cvtColor(warped, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
    upper = np.array([over[0], over[1], (over[1] + over[2]) / 2, (over[0] + over[3]) / 2])
    in_face = (
        cv2.perspectiveTransform(
            upper.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(to_image)
        ).reshape(-1, 2)
        * px
    )
    mask = np.zeros((fh, fw), np.uint8)
    cv2.fillConvexPoly(mask, np.round(in_face).astype(np.int32), 1)
    mask[: fh // 2] = 0
    region = mask.astype(bool) & inside[m : m + fh, m : m + fw]
    if region.sum() < SHOWN_MIN_MM2 * px * px:
        return -1.0
    b = face[region] - face[region].mean()
    nb = float(np.sqrt((b * b).sum()))
    if nb < 1e-6:
        return -1.0
    # Every shift at once: the region's px of each shifted window, one row a shift.
    ys, xs = np.nonzero(region)
    dy, dx = (v.reshape(-1, 1) for v in np.mgrid[0 : 2 * m + 1, 0 : 2 * m + 1])
    a = grey[ys + dy, xs + dx]
    a -= a.mean(axis=1, keepdims=True)
    na = np.sqrt((a * a).sum(axis=1))
    ok = na > 1e-6
    if not ok.any():
        return -1.0
    return float(max(-1.0, float(((a[ok] @ b) / (na[ok] * nb)).max())))


def shown_under(image: np.ndarray, cards: list[Placed], p: Placed, lib: Library) -> float:
    """The best `lower_shown` of the named cards `p` would lie over (-1: none)."""
    return max(
        (
            lower_shown(image, c, p.card.hypothesis.outline, lib)
            for c in cards
            if c.half == p.half and c.row == p.row - 1 and abs(c.col - p.col) < 2
        ),
        default=-1.0,
    )


def without_shown_lower_halves(
    image: np.ndarray, cards: list[Placed], found: set[int], lib: Library
) -> list[Placed]:
    """The cards less those named by their slot alone (not in `found`, ids of the cards the
    features named) that would lie over a card whose own lower half is in view there
    (`LOWER_SHOWN`): a slot straddling the lower halves of the row inward (past the glass's
    last row, say) correlates with some face by chance, and would be a phantom that also
    calls the cards it lies on covered."""
    return [
        p
        for p in cards
        if id(p) in found or p.row == 0 or shown_under(image, cards, p, lib) < LOWER_SHOWN
    ]


REFLECTION_SHOWN = 0.4
"""A card that joined the glass by its vote alone (`fit_lattice`'s voters) stays only if its
reflection's slot holds a named card or correlates at least this with some taught face:
every glass card's reflection lies on the table (a pick takes both), a score pile's card has
empty table or another pile's card across the line. From the curve over the voters of the
first vote on new development decks of the random family (10 decks, 30 tables; 19 voters, 12
of them glass cards; `benchmarks/looking_glass_failures.py --voter-curve`), glass cards kept
/ dropped / off-glass cards kept: 0.2: 10 / 2 / 2; 0.3: 8 / 4 / 0; 0.4: 8 / 4 / 0; 0.45 to
0.7: 7 / 5 / 0 (a glass card whose reflection is untaught or under a hand is dropped: a
null, not a phantom). On a second block of 10 development decks (9 voters, 3 of them glass
cards), measured after the choice: 0.2: 3 / 0 / 3; 0.3: 2 / 1 / 1; 0.4 to 0.7: 2 / 1 / 0.
Both: 0.4 is the least with no off-glass card kept, one off-glass voter scored between 0.3
and 0.4, so the margin below is thin; 0.45 to 0.7 keep one glass card fewer (9 of 15 against
10)."""


def reflection_evidence(
    image: np.ndarray,
    lattice: Lattice,
    glass: Glass,
    voters: list[Identified],
    lib: Library,
) -> list[tuple[Placed, float]]:
    """Each voter in the fitted glass with how surely its reflection's slot holds a card: 1
    where a named card of the glass lies there, else the best correlation of that slot's
    upper half with any taught face (0 where it lies out of the frame)."""
    voted = {id(k) for k in voters}
    named_at = {_slot(p) for p in glass.cards if p.card.identity.card is not None}
    out = []
    for p in glass.cards:
        if id(p.card) not in voted:
            continue
        mirror = (1 - p.half, p.row, p.col)
        if mirror in named_at:
            out.append((p, 1.0))
            continue
        q = lattice.outline(*mirror)
        if not _in_view(q, image.shape):
            out.append((p, 0.0))
            continue
        out.append((p, identify(image, q, lib, top_known=True, margin=PROBE_SEARCH_PX).score))
    return out


def with_pairs_on(glass: Glass, lattice: Lattice, max_cols: int | None = None) -> Glass:
    """The glass with every two named cards left out of it that are each other's reflection
    in the lattice's frame, each top facing the line, in free slots: a pair far along the line
    from the pairs the glass was fitted to, where a reflection's error in image px grows past
    `stages.PAIR_TOLERANCE`. The test is relative (the two lie side by side, so the lattice's
    error far out moves both alike), and in pairs only: the score piles lie point-symmetric,
    so no pile is another's reflection. None joins when the glass would then be wider than
    `max_cols`."""
    named_off = [k for k in glass.rejected if k.identity.card is not None]
    if not glass.cards or len(named_off) < 2:
        return glass
    inv = np.linalg.inv(lattice.H_image_from_glass)
    pts = np.array([[k.centre, k.centre + 10 * k.up] for k in named_off]).reshape(-1, 1, 2)
    g = cv2.perspectiveTransform(pts.astype(np.float64), inv).reshape(-1, 2, 2)
    c, up = g[:, 0], g[:, 1] - g[:, 0]
    toward = c[:, 1] * up[:, 1] < 0  # the top faces the centre line
    reach = PAIR_TOLERANCE * lattice.scale * CARD_W_MM
    taken = {_slot(p) for p in glass.cards}
    joined: list[Placed] = []
    used: set[int] = set()
    for i in range(len(named_off)):
        for j in range(i + 1, len(named_off)):
            if i in used or j in used or not (toward[i] and toward[j]):
                continue
            if c[i, 1] * c[j, 1] >= 0 or np.hypot(c[i, 0] - c[j, 0], c[i, 1] + c[j, 1]) > reach:
                continue
            a, b = lattice.nearest(named_off[i]), lattice.nearest(named_off[j])
            if (a.row, a.col) != (b.row, b.col) or {_slot(a), _slot(b)} & taken:
                continue
            joined += [a, b]
            used |= {i, j}
    cols = [p.col for p in glass.cards + joined]
    if not joined or (max_cols is not None and max(cols) - min(cols) > max_cols):
        return glass
    rest = [k for k in glass.rejected if all(k is not p.card for p in joined)]
    return Glass(glass.cards + joined, glass.normal, glass.offset, rest)


def _blocked(cards: list[Placed], p: Probe) -> bool:
    """A card of the slot's row lies on it or overlaps it (cards of a row are a width apart)."""
    return any(c.half == p.half and c.row == p.row and abs(c.col - p.col) < 2 for c in cards)


def name_slots(
    cards: list[Placed], looked: list[Probe], every_card_taught: bool = True
) -> list[Placed]:
    """The named cards with every slot looked at that names a card added, the strongest first:
    a slot that `named` names, then a slot whose reflection holds a named card that
    `reflected_named` names (a pick takes a card and its reflection together, so the two
    halves hold the same slots: there the question is only which card, not whether one),
    if `halves_agree` and `every_card_taught`. With a card of the deck left untaught (its
    teach photo refused), a slot holding it is still sure to hold a card, and the taught
    card that correlates best there at the lower threshold is a wrong name."""
    cards = list(cards)
    for p in sorted(
        (p for p in looked if named(p, every_card_taught)), key=lambda p: -p.identity.score
    ):
        if not _blocked(cards, p):
            cards.append(Placed(Identified(Hypothesis(p.outline, False), p.identity), *_slot(p)))
    if not every_card_taught or not halves_agree(cards):
        return cards
    named_at = {_slot(c) for c in cards if c.card.identity.card is not None}
    for p in sorted(looked, key=lambda p: -p.identity.score):
        if (1 - p.half, p.row, p.col) not in named_at or not reflected_named(p):
            continue
        if _blocked(cards, p):
            continue
        i = p.identity
        best = max(i.scores, key=lambda k: i.scores[k])
        ident = Identity(best, i.score, i.margin, False, i.scores)
        cards.append(Placed(Identified(Hypothesis(p.outline, False), ident), *_slot(p)))
    return cards


def _slot(p: Placed | Probe) -> tuple[int, int, int]:
    return p.half, p.row, p.col


def halves_agree(cards: list[Placed]) -> bool:
    """Whether the lattice numbers the two halves' rows alike: both halves hold named cards,
    their outermost rows (free, so the best seen) the same. A lattice whose gap was fitted a
    row off (a half's innermost row all missed) numbers one half's rows a row out, and what
    one half says of the other's slots would then be said of the wrong ones."""
    outer = [max((c.row for c in cards if c.half == h), default=-1) for h in (0, 1)]
    return outer[0] == outer[1] >= 0


def reflection_pairs(cards: list[Placed], shift: int = 0, along: int = 0) -> int:
    """How many named cards of half 0 have a named card in the other half's slot `shift`
    rows further out and `along` columns on (0, 0: the card's reflection, so the count of
    pairs). A pick takes a card and its reflection together, so a glass shows its cards in
    pairs; a score pile's cards, stacked each half a card along the one before, line up as a
    column of one half's rows and show none."""
    named = {(p.half, p.row, p.col) for p in cards if p.card.identity.card is not None}
    return sum((1, r + shift, c + along) in named for h, r, c in named if h == 0)


MIRROR_SHIFTS = 2
"""Row shifts of one half against the other that `halves_disagree` tries, either way: a
centre line half a row step off numbers the halves a row apart, a whole step off two."""


def shift_pairs(cards: list[Placed]) -> dict[tuple[int, int], int]:
    """`reflection_pairs` at every shift `halves_disagree` weighs: (rows, columns) of half 1
    against half 0, rows up to `MIRROR_SHIFTS` either way and columns up to the named cards'
    span; (0, 0) is the reflections' own count. Empty when no card is named."""
    cols = [p.col for p in cards if p.card.identity.card is not None]
    if not cols:
        return {}
    span = max(cols) - min(cols)
    return {
        (dr, dc): reflection_pairs(cards, dr, dc)
        for dr in range(-MIRROR_SHIFTS, MIRROR_SHIFTS + 1)
        for dc in range(-span, span + 1)
    }


def halves_disagree(cards: list[Placed]) -> bool:
    """Whether the two halves disagree about where the glass's mirror lies: more named cards
    find a named card in the other half some rows further out (up to `MIRROR_SHIFTS`) or some
    columns along (up to the named cards' span) than in their reflection's slot
    (`shift_pairs`). The two halves hold the same slots (a pick takes a card and its
    reflection), so on a lattice that numbers both halves alike the reflections pair best. A
    lattice fitted through the glass's cards of one half and a score pile's cards taken for
    the other (its half under an arm, or its features too few) pairs nothing across its line,
    and the pile's stack pairs with the glass at some shift by chance; one whose line lies a
    row off (a half's first rows all missed) pairs its cards best a row apart, and the slots
    it names past that half's cards lie off the glass. No threshold: the numbering the named
    cards themselves pair best under. Over the 45 development tables this was chosen on
    (`benchmarks/looking_glass_failures.py`, the glass's named cards against the truth), the
    rule held on every table whose glass carried no phantom, and on the three that did.

    Such a lattice is dropped, not renumbered at the shift that pairs best: on those three
    tables two to twelve shifts tie for best; on two of them every pair at those shifts joins
    a score pile's card to a glass card, on the third two of four pair right cards and two a
    pile's; on 32 newer development tables no lattice's halves disagree
    (`benchmarks/looking_glass_failures.py --shifts` lists them)."""
    pairs = shift_pairs(cards)
    here = pairs.get((0, 0), 0)
    return any(n > here for n in pairs.values())


REFLECTED_SHARE = 0.3
"""`reflections_too_few`: the least share of a glass's named cards whose reflection's slot
holds a named card. The curve (glasses of three or more named cards, the share of them paired;
tables asked / right cards lost / phantoms removed), over lg22's 41 staged development tables
of the random family as its reader read them (docs/looking-glass-table.md, lg26): 0.1 to 0.5:
3 / 19 / 20 (the three glasses that took a score pile in, at share 0: 2 right and 9
phantoms, 4 and 6, 13 and 5); 0.6: 4 / 33 / 20. The lowest share of a glass read right was
0.57 (a glass of 14 named cards); 0.3 lies in the middle of the gap. Those
three glasses `halves_disagree` now refuses too: this rule is the one a pile with a small
glass's one pair passes, where no shift pairs better than the pair itself."""


def reflections_too_few(cards: list[Placed]) -> bool:
    """Whether fewer than `REFLECTED_SHARE` of the glass's named cards (three or more; a lone
    pair is `without_lone_pair`'s) have a named card in their reflection's slot. A pick
    takes a card and its reflection together, so the two halves of a glass hold the same
    slots and a glass read right shows most of its cards in pairs (a hand or glare hides a
    few); a score pile's stacks, dealt half a card apart down the table like a glass's rows,
    show none, and a lattice fitted over one (a small glass beside it, a glass card facing a
    pile's card) names them as a glass of one half."""
    named = [p for p in cards if p.card.identity.card is not None]
    return len(named) > 2 and 2 * reflection_pairs(cards) < REFLECTED_SHARE * len(named)


def with_coverage(cards: list[Placed]) -> list[Placed]:
    """Each card covered when a card of the next row outward lies within two half-widths of
    its column, in its own half or, if `halves_agree`, the other: the two halves hold the same
    slots, so a card's reflection is covered when it is (a covering card missed, untaught or
    under an arm in one half is often seen in the other)."""
    both = halves_agree(cards)
    out = []
    for c in cards:
        covered = any(
            (both or o.half == c.half) and o.row == c.row + 1 and abs(o.col - c.col) < 2
            for o in cards
        )
        h = c.card.hypothesis
        card = Identified(Hypothesis(h.outline, covered), c.card.identity)
        out.append(Placed(card, c.half, c.row, c.col))
    return out


def without_lone_pair(glass: Glass) -> Glass:
    """No glass when all it rests on is one pair of named cards while other named cards lie
    off it: a card of the glass and a score pile's card facing it make a pair as well as a
    real one does, and which it is the picture does not say (a null costs a question, a
    score pile read as the glass a wrong score)."""
    named_in = [p for p in glass.cards if p.card.identity.card is not None]
    named_off = [k for k in glass.rejected if k.identity.card is not None]
    if len(named_in) > 2 or not named_off:
        return glass
    if len(named_in) == 2 and across_gap(named_in[0].card, named_in[1].card):
        # The pair lies as a glass's innermost pair does; it is the glass when no other two
        # named cards lie so (a score pile's cards rarely face each other across a gap).
        every = [p.card for p in named_in] + named_off
        if not any(
            across_gap(every[i], every[j])
            for i in range(len(every))
            for j in range(max(2, i + 1), len(every))
        ):
            return glass
    return Glass([], rejected=[p.card for p in glass.cards] + list(glass.rejected))
