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
of the next row outward lies within two half-widths of its column.

Glass units: the taught card's width is `CARD_W_MM` (the library measures the height in the
same units); x along the centre line (a card's centre at col * width / 2), y across it,
half 0 at y > 0 with its tops toward -y, half 1 mirrored.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.looking_glass.vision.stages import (
    SAME_PLACE,
    Glass,
    Hypothesis,
    Identified,
    Placed,
)
from companion.vision.cards.identify import Identity, identify
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
COL_REACH = 2
"""Slots are looked at this many half-widths past the outermost columns found."""
MIN_SCORE = 0.65
"""A slot's best correlation must reach this to be a card. From the curve on the committed
development set (1,423 slots looked at, 227 of them holding a card; margin 0.1): at 0.5, 183
named right, 7 empty slots named, 3 named wrong; 0.6: 177, 0, 2; 0.65: 176, 0, 1; 0.7: 161,
0, 1; 0.75: 141, 0, 0."""
MIN_MARGIN = 0.1
"""...and beat the runner-up by this much, or the slot is not told apart: no card named."""


@dataclass(frozen=True)
class Lattice:
    """Where the glass lies in the image."""

    H_image_from_glass: np.ndarray
    card_h: float
    gap: float

    def glass_outline(self, half: int, row: int, col: float) -> np.ndarray:
        """TL, TR, BR, BL (from the card's own top) of a slot, glass units."""
        w, h = CARD_W_MM / 2, self.card_h / 2
        x = col * CARD_W_MM / 2
        y = self.gap / 2 + h + row * self.card_h / 2
        if half == 0:
            return np.array([[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h]])
        return np.array([[x + w, -y + h], [x - w, -y + h], [x - w, -y - h], [x + w, -y - h]])

    def nearest(self, card: Identified) -> Placed:
        """The card in the slot nearest its centre."""
        c = cv2.perspectiveTransform(card.centre.reshape(1, 1, 2).astype(np.float64),
                                     np.linalg.inv(self.H_image_from_glass)).reshape(2)
        half = int(c[1] < 0)
        row = max(0, round((abs(c[1]) - self.gap / 2 - self.card_h / 2) / (self.card_h / 2)))
        return Placed(card, half, int(row), round(c[0] / (CARD_W_MM / 2)))

    def outline(self, half: int, row: int, col: float) -> np.ndarray:
        """The slot's outline in image px, TL, TR, BR, BL turning clockwise (y down)."""
        q = cv2.perspectiveTransform(self.glass_outline(half, row, col).reshape(-1, 1, 2),
                                     self.H_image_from_glass).reshape(4, 2)
        e0, e1 = q[1] - q[0], q[2] - q[1]
        if e0[0] * e1[1] - e0[1] * e1[0] < 0:  # the glass frame is mirrored in the image
            q = q[[1, 0, 3, 2]]
        return q


def _correspondences(placed: list[Placed], lat: Lattice, mirrored: bool
                     ) -> tuple[np.ndarray, np.ndarray]:
    src = np.vstack([lat.glass_outline(p.half, p.row, p.col) for p in placed])
    dst = np.array([p.card.hypothesis.outline for p in placed])
    if mirrored:  # a found outline turns clockwise in the image; the glass's may not
        dst = dst[:, [1, 0, 3, 2]]
    return src.astype(np.float64), dst.reshape(-1, 2).astype(np.float64)


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


def _card_frame(anchor: Identified, card_h: float) -> np.ndarray:
    """Image px -> the anchor card's mm (its top-left the origin, y toward its bottom): the
    glass's own axes, every glass card lying square to them."""
    src = np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, card_h], [0, card_h]], np.float32)
    return cv2.getPerspectiveTransform(anchor.hypothesis.outline.astype(np.float32), src)


def assign(cards: list[Identified], anchor: Identified, card_h: float
           ) -> list[tuple[int, int, int]]:
    """(half, row, col) of each card in the lattice seen from the anchor card's frame: the
    half by which way its top faces, the centre line midway between the innermost cards of
    the two halves, rows and columns by half a card height and width."""
    to_anchor = _card_frame(anchor, card_h)
    c = cv2.perspectiveTransform(np.array([k.centre for k in cards]).reshape(-1, 1, 2)
                                 .astype(np.float64), to_anchor).reshape(-1, 2)
    tops = cv2.perspectiveTransform(np.array([k.centre + 10 * k.up for k in cards])
                                    .reshape(-1, 1, 2).astype(np.float64), to_anchor
                                    ).reshape(-1, 2)
    # Half 0 faces the line as the anchor does (its top toward -y).
    half = (tops[:, 1] > c[:, 1]).astype(int)
    y = c[:, 1]
    same, other = y[half == 0], y[half == 1]
    if len(other):
        line = (same.min() + other.max()) / 2
        reach = (same.min() - other.max()) / 2  # gap / 2 + h / 2, if both innermost are row 0
    else:
        reach = GAP / 2 + card_h / 2
        line = same.min() - reach
    row_f = (np.abs(y - line) - reach) / (card_h / 2)
    rows = np.maximum(0, np.round(row_f)).astype(int)
    step = CARD_W_MM / 2
    phase = float(np.angle(np.exp(2j * np.pi * c[:, 0] / step).mean()) / (2 * np.pi))
    cols = np.round(c[:, 0] / step - phase).astype(int)
    cols -= cols.min()
    return [(int(h), int(r), int(k)) for h, r, k in zip(half, rows, cols, strict=True)]


def fit_lattice(glass: Glass, card_h: float) -> tuple[Lattice, Glass] | None:
    """The lattice through the glass's named cards and the glass with each card in its slot.

    Each of the strongest few cards is tried as the anchor of `assign`; one RANSAC
    homography over the slots' corners per anchor, the anchor whose lattice most corners
    agree with wins; then the gap and the homography are refined by least squares on the
    agreeing cards (a top lies at gap / 2 + row * height / 2 from the line). None when fewer
    than two cards agree on one lattice."""
    named_cards = [p.card for p in glass.cards if p.card.identity.card is not None]
    if len(named_cards) < 2:
        return None
    lat = Lattice(np.eye(3), card_h, GAP)
    width = float(np.median([np.linalg.norm(k.hypothesis.outline[1] - k.hypothesis.outline[0])
                             for k in named_cards]))
    best: tuple[int, np.ndarray, list[Placed], bool] | None = None
    anchors = sorted(named_cards, key=lambda k: -k.identity.score)[:ANCHORS]
    for anchor in anchors:
        slots = assign(named_cards, anchor, card_h)
        placed = [Placed(k, *s) for k, s in zip(named_cards, slots, strict=True)]
        side = _mirrored(placed, lat)
        for mirrored in ((False, True) if side is None else (side,)):
            H, mask = cv2.findHomography(*_correspondences(placed, lat, mirrored), cv2.RANSAC,
                                         REPROJ * width)
            if H is None:
                continue
            keep = mask.ravel().reshape(-1, 4).all(axis=1)
            if best is None or int(keep.sum()) > best[0]:
                best = (int(keep.sum()), H, [p for p, k in zip(placed, keep, strict=True)
                                             if k], mirrored)
    if best is None or best[0] < 2:
        return None
    _, H, agree, mirrored = best
    for _ in range(2):
        inv = np.linalg.inv(H)
        tops = []
        for p in agree:
            o = p.card.hypothesis.outline
            mid = cv2.perspectiveTransform(((o[0] + o[1]) / 2).reshape(1, 1, 2)
                                           .astype(np.float64), inv).reshape(2)
            tops.append(abs(mid[1]) - lat.glass_outline(0, p.row, 0)[0, 1] + lat.gap / 2)
        lat = Lattice(H, card_h, max(0.0, 2 * float(np.median(tops))))
        H, _ = cv2.findHomography(*_correspondences(agree, lat, mirrored), 0)
        if H is None:
            return None
    lattice = Lattice(H, card_h, lat.gap)
    kept = {id(p.card) for p in agree}
    # The other cards of the glass (unnamed, or off the RANSAC lattice) take the slot nearest
    # their centre: the fit decides where they lie, not what they are.
    rest = [lattice.nearest(p.card) for p in glass.cards if id(p.card) not in kept]
    return lattice, Glass(agree + rest, glass.normal, glass.offset, glass.rejected)


def _in_view(q: np.ndarray, shape: tuple[int, ...]) -> bool:
    """The slot's upper half lies inside the frame."""
    upper = np.array([q[0], q[1], (q[1] + q[2]) / 2, (q[0] + q[3]) / 2])
    return bool((upper >= 0).all() and (upper[:, 0] < shape[1]).all()
                and (upper[:, 1] < shape[0]).all())


@dataclass(frozen=True)
class Probe:
    """One slot looked at: where it is and what its upper half correlates with."""

    half: int
    row: int
    col: int
    outline: np.ndarray
    identity: Identity


def probe_slots(image: np.ndarray, glass: Glass, lattice: Lattice, lib: Library
                ) -> list[Probe]:
    """Every free slot of the lattice near the cards found, with its best names."""
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
                if not _in_view(q, image.shape):
                    continue
                out.append(Probe(half, row, col, q, identify(image, q, lib, top_known=True)))
    return out


def _width(p: Placed) -> float:
    o = p.card.hypothesis.outline
    return float(np.linalg.norm(o[1] - o[0]))


def named(probe: Probe) -> bool:
    i = probe.identity
    return i.card is not None and i.score >= MIN_SCORE and i.margin >= MIN_MARGIN


def fill(image: np.ndarray, glass: Glass, lib: Library) -> Glass:
    """The glass with every slot the lattice names added, and every card's coverage read from
    the lattice (a card of the next row outward within two half-widths of its column)."""
    fitted = fit_lattice(glass, lib.shape.height_mm)
    if fitted is None:
        return glass
    lattice, glass = fitted
    cards = [p for p in glass.cards if p.card.identity.card is not None]
    # Unnamed feature finds give way to what their slot's upper half says.
    probes = sorted((p for p in probe_slots(image, glass, lattice, lib) if named(p)),
                    key=lambda p: -p.identity.score)
    for p in probes:
        if any(c.half == p.half and c.row == p.row and abs(c.col - p.col) < 2 for c in cards):
            continue
        ident = Identified(Hypothesis(p.outline, False), p.identity)
        cards.append(Placed(ident, p.half, p.row, p.col))
    # A card the features found but could not name stays, unnamed, where no card was named.
    for u in glass.cards:
        if u.card.identity.card is None and all(
                np.linalg.norm(u.card.centre - c.card.centre) > SAME_PLACE * _width(c)
                for c in cards):
            cards.append(u)
    out = []
    for c in cards:
        covered = any(o.half == c.half and o.row == c.row + 1 and abs(o.col - c.col) < 2
                      for o in cards)
        h = c.card.hypothesis
        out.append(Placed(Identified(Hypothesis(h.outline, covered), c.card.identity),
                          c.half, c.row, c.col))
    return Glass(out, glass.normal, glass.offset, glass.rejected)
