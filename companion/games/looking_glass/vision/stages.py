"""The staged Looking Glass reader's stages, each a function from one typed result to the next.

    plane      the platform's registration, if the caller has one (never detected here)
    features   cards found and named in one step by the taught art's local features
               (`companion.vision.cards.features`): whatever the border, overlapped or not;
               the card under another is covered; two cards claiming one place are unsure
    candidates (the older way, from outlines) card outlines (`companion.vision.cards.quads`):
               a whole card, or the upper half of a card the next row covers, with its
               possible tops
    identify   each candidate against the taught deck (`companion.vision.cards.identify`);
               the hypothesis (whole or half, which end is the top) that matches best
    glass      the mirror-symmetric model fitted by RANSAC over pairs of cards whose tops face
               each other: the centre line; the cards that have a reflection across it, or
               face it within the glass's extent, are the glass; rows and columns follow from
               the distance to the line and the position along it

Nothing names a scene: an arm over cards, score piles and the last lone pair are what the fit
makes of them (an arm hides candidates; piles have no reflection; a lone pair is a pair).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.cards.features import FaceIndex, Instance, find_instances
from companion.vision.cards.identify import Identity, identify
from companion.vision.cards.library import CARD_W_MM, Library, card_outline_mm
from companion.vision.cards.quads import Quad, find_quads

SIZE_SLACK = 0.2
"""A candidate's sides may differ this much (share) from a whole card's or an upper half's."""
SAME_PLACE = 0.35
"""Two instances whose centres are nearer than this share of a card width are one card."""
RIVAL = 0.5
"""...and if the weaker names another card with at least this share of the stronger's
inliers, the card is unsure (None): a null costs a question, a wrong name the game."""
COVER_SHARE = 0.1
"""A card is covered when another lies on top over at least this share of its area."""
PAIR_TOLERANCE = 0.35
"""A card's mirror image lies within this many card widths of its reflection's centre."""
FACING = 0.8
"""Two cards are a reflection pair only if each one's top faces the other: the cosine of the
angle between a card's up direction and the line to the other at least this. Stricter is
worse (committed development set, one run: 0.95 removes a phantom pairing of a glass card
with a score pile's, but loses true pairs: failures 75 -> 91, cards no stage looked at 27
-> 44)."""


@dataclass(frozen=True)
class Plane:
    """Where the image is on the table: table mm from image px, if the caller registered it."""

    H_mm_from_image: np.ndarray | None = None

    def to_plane(self, pts: np.ndarray) -> np.ndarray:
        """Points in the plane the glass is fitted in: mm if registered, else image px."""
        if self.H_mm_from_image is None:
            return pts
        return cv2.perspectiveTransform(
            pts.reshape(-1, 1, 2).astype(np.float64), self.H_mm_from_image
        ).reshape(-1, 2)


PLANE_MIN_CARDS = 3
"""Cards needed to estimate the table plane from their outlines (`plane_of_cards`)."""
AXIS_SPREAD_DEG = 15.0
"""Cards whose width axis lies within this of the dominant one (either way round) set the
plane's affine part: the glass's cards lie square to each other, a pile's card may not."""


def plane_of_cards(outlines: np.ndarray) -> np.ndarray | None:
    """Image px -> a plane in which the table's cards are congruent rectangles (up to a
    rotation, a shift and a stretch along the cards' own axes), from the cards' outlines
    alone: the registration's plane where the caller has none.

    Every card has one size on the table, so its area in the image grows with the cube of
    the homography's denominator at its centre (the projective part, two numbers, fitted to
    all cards at once, robustly); the cards whose axes agree then fix the affine part (their
    width and height vectors made the plane's axes). A stretch along the cards' axes keeps
    what the glass fit asks of the plane: a reflection across a line parallel to the cards'
    width. None with fewer than `PLANE_MIN_CARDS` cards (image px serve)."""
    if len(outlines) < PLANE_MIN_CARDS:
        return None
    q = np.asarray(outlines, np.float64)
    centres = q.mean(axis=1)
    areas = np.array([abs(cv2.contourArea(o.astype(np.float32))) for o in q])
    w3 = np.cbrt(np.maximum(areas, 1e-6))
    A = np.hstack([centres, np.ones((len(q), 1))])
    weights = np.ones(len(q))
    m = np.array([0.0, 0.0, float(np.median(w3))])
    for _ in range(4):
        sol, *_ = np.linalg.lstsq(A * weights[:, None], w3 * weights, rcond=None)
        resid = np.abs(A @ sol - w3) / np.median(w3)
        weights = 1 / (1 + (resid / 0.04) ** 2)
        m = sol
    if np.any(A @ m <= 0) or m[2] <= 0:
        m = np.array([0.0, 0.0, 1.0])
    P = np.array([[1.0, 0, 0], [0, 1.0, 0], [m[0] / m[2], m[1] / m[2], 1.0]])
    p = cv2.perspectiveTransform(q.reshape(-1, 1, 2), P).reshape(-1, 4, 2)
    a = ((p[:, 1] - p[:, 0]) + (p[:, 2] - p[:, 3])) / 2
    b = ((p[:, 3] - p[:, 0]) + (p[:, 2] - p[:, 1])) / 2
    angle = np.arctan2(a[:, 1], a[:, 0])
    dominant = np.angle(np.exp(2j * angle).sum()) / 2
    off = np.abs(np.angle(np.exp(2j * (angle - dominant)))) / 2
    agree = off <= np.radians(AXIS_SPREAD_DEG)
    ref = np.array([np.cos(dominant), np.sin(dominant)])
    sign = np.where(a @ ref < 0, -1.0, 1.0)[:, None]
    a_m = np.median((a * sign)[agree], axis=0)
    b_m = np.median((b * sign)[agree], axis=0)
    basis = np.column_stack([a_m, b_m])
    if abs(np.linalg.det(basis)) < 1e-9:
        return None
    r = float(np.linalg.norm(b_m) / np.linalg.norm(a_m))
    L = np.diag([CARD_W_MM, CARD_W_MM * r]) @ np.linalg.inv(basis)
    affine = np.eye(3)
    affine[:2, :2] = L
    return affine @ P


@dataclass(frozen=True)
class Hypothesis:
    """One reading of a candidate: the whole card's outline (TL, TR, BR, BL from its own top,
    image px) and whether only its upper half is in view."""

    outline: np.ndarray
    covered: bool


@dataclass(frozen=True)
class Candidate:
    quad: Quad
    hypotheses: tuple[Hypothesis, ...]


@dataclass(frozen=True)
class Identified:
    hypothesis: Hypothesis
    identity: Identity

    @property
    def centre(self) -> np.ndarray:
        return self.hypothesis.outline.mean(axis=0)

    @property
    def up(self) -> np.ndarray:
        """Unit vector from the card's bottom edge to its top (image px)."""
        o = self.hypothesis.outline
        v = (o[0] + o[1]) / 2 - (o[2] + o[3]) / 2
        return v / max(1e-6, float(np.linalg.norm(v)))


@dataclass(frozen=True)
class Placed:
    card: Identified
    half: int
    row: int
    col: int


@dataclass
class Glass:
    cards: list[Placed]
    normal: np.ndarray | None = None
    """Unit normal of the centre line (plane coordinates), toward half 0."""
    offset: float = 0.0
    rejected: list[Identified] = field(default_factory=list)
    """Cards identified but not in the glass (score piles, stray cards)."""


# -- candidates ---------------------------------------------------------------------------------
def _extend(quad: np.ndarray, side: int, by: float) -> np.ndarray:
    """The quad grown across its side `side` (corners side, side+1) by `by` of its depth."""
    q = quad.copy()
    a, b = side, (side + 1) % 4
    c, d = (side + 3) % 4, (side + 2) % 4  # the opposite side's corners, a-c and b-d edges
    q[a] = quad[a] + by * (quad[a] - quad[c])
    q[b] = quad[b] + by * (quad[b] - quad[d])
    return q


def _from_top(quad: np.ndarray, top_side: int) -> np.ndarray:
    """Corners TL, TR, BR, BL of a card whose top is the quad's side `top_side`."""
    return np.roll(quad, -top_side, axis=0)


def candidates(image: np.ndarray, lib: Library, min_side_px: float = 20.0) -> list[Candidate]:
    """Card-shaped outlines: a whole card (either end its top) or a card's upper half, its
    long side the card's width, the whole card reaching past either long side."""
    aspect = lib.shape.height_mm / CARD_W_MM
    half_depth = lib.shape.height_mm / 2
    half_aspect = CARD_W_MM / half_depth
    out = []
    for q in find_quads(image, min_side_px=min_side_px):
        s = q.sides
        long_i = int(np.argmax([(s[0] + s[2]) / 2, (s[1] + s[3]) / 2]))  # 0: sides 0,2 long
        hyps: list[Hypothesis] = []
        if abs(q.aspect - aspect) <= SIZE_SLACK * aspect:
            # Whole: its top is one of the two short sides.
            for top in (1, 3) if long_i == 0 else (0, 2):
                hyps.append(Hypothesis(_from_top(q.corners, top), False))
        if abs(q.aspect - half_aspect) <= SIZE_SLACK * half_aspect:
            # Upper half: the top is a long side; the rest of the card lies past the other.
            for top in (0, 2) if long_i == 0 else (1, 3):
                bottom = (top + 2) % 4
                grown = _extend(q.corners, bottom, (lib.shape.height_mm - half_depth) / half_depth)
                hyps.append(Hypothesis(_from_top(grown, top), True))
        if hyps:
            out.append(Candidate(q, tuple(hyps)))
    return out


# -- features: find and identify in one step ---------------------------------------------------
def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def _inside(pts: np.ndarray, outline: np.ndarray) -> int:
    poly = outline.astype(np.float32).reshape(-1, 1, 2)
    return sum(cv2.pointPolygonTest(poly, (float(x), float(y)), False) > 0 for x, y in pts)


def _on_top(a: Instance, b: Instance) -> bool:
    """Whether `a` lies on `b` where they overlap: more of a's features than of b's are seen
    in the overlap (a card under another shows nothing there). A tie goes to the card whose
    top half lies over the other's bottom half, as a next row lies."""
    pa = cv2.perspectiveTransform(a.inlier_mm.reshape(-1, 1, 2).astype(np.float64), a.H).reshape(
        -1, 2
    )
    pb = cv2.perspectiveTransform(b.inlier_mm.reshape(-1, 1, 2).astype(np.float64), b.H).reshape(
        -1, 2
    )
    na, nb = _inside(pa, b.outline), _inside(pb, a.outline)
    if na != nb:
        return na > nb
    return float(b.to_card(a.centre.reshape(1, 2))[0, 1]) > float(
        a.to_card(b.centre.reshape(1, 2))[0, 1]
    )


def by_features(image: np.ndarray, index: FaceIndex) -> list[Identified]:
    """Every card in the frame, named (or unsure), its whole outline and whether another
    card covers part of it."""
    return named_places(find_instances(image, index), index)


def named_places(instances: list[Instance], index: FaceIndex) -> list[Identified]:
    """`by_features` from the instances found (strongest first): one card per place."""
    places: list[list[Instance]] = []
    for inst in instances:  # strongest first
        for place in places:
            if np.linalg.norm(place[0].centre - inst.centre) < SAME_PLACE * place[0].width_px:
                place.append(inst)
                break
        else:
            places.append([inst])
    kept = [p[0] for p in places]
    out = []
    for k, (best, place) in enumerate(zip(kept, places, strict=True)):
        area = abs(cv2.contourArea(best.outline.astype(np.float32)))
        covered = any(
            j != k and _overlap(best.outline, o.outline) > COVER_SHARE * area and _on_top(o, best)
            for j, o in enumerate(kept)
        )
        rival = max((i.inliers for i in place if i.card != best.card), default=0)
        scores = {cid: 0.0 for cid in index.ids}
        for i in place:
            scores[i.card] = max(scores[i.card], i.inliers / best.inliers)
        card = best.card if rival < RIVAL * best.inliers else None
        ident = Identity(
            card,
            best.inliers / (best.inliers + rival),
            (best.inliers - rival) / best.inliers,
            False,
            scores,
        )
        out.append(Identified(Hypothesis(best.outline, covered), ident))
    return out


# -- identify -----------------------------------------------------------------------------------
def identify_all(image: np.ndarray, cands: list[Candidate], lib: Library) -> list[Identified]:
    """Each candidate's best hypothesis, if it names a card; overlapping finds of one card
    (its outline and its art frame, say) are kept once, the better."""
    found: list[Identified] = []
    for c in cands:
        best: Identified | None = None
        for h in c.hypotheses:
            ident = identify(image, h.outline, lib, top_known=True)
            if best is None or ident.score > best.identity.score:
                best = Identified(h, ident)
        if best is not None and best.identity.card is not None:
            found.append(best)
    found.sort(key=lambda f: -f.identity.score)
    kept: list[Identified] = []
    for f in found:
        w = float(np.linalg.norm(f.hypothesis.outline[1] - f.hypothesis.outline[0]))
        if all(np.linalg.norm(f.centre - k.centre) > 0.4 * w for k in kept):
            kept.append(f)
    return kept


# -- the glass ----------------------------------------------------------------------------------
def card_frame(anchor: Identified, card_h: float) -> np.ndarray:
    """Image px -> the anchor card's mm (its top-left the origin, y toward its bottom): the
    glass's own axes, every glass card lying square to them."""
    outline = anchor.hypothesis.outline.astype(np.float32)
    return cv2.getPerspectiveTransform(outline, card_outline_mm(card_h))


def _mirror(p: np.ndarray, n: np.ndarray, off: float) -> np.ndarray:
    return p - 2 * ((p @ n) - off)[..., None] * n


def across_gap(a: Identified, b: Identified) -> bool:
    """Whether two cards lie as a glass's innermost pair does: their tops facing each other
    (`FACING`), one beyond the other's top edge along its up direction within
    `PAIR_TOLERANCE` card widths of its axis, the two top edges at most half a card height
    apart (the lattice's gap is never more than a row step, `slots.assign`) and not
    overlapping by more than that tolerance. Image px: two neighbouring cards see the same
    perspective. Over every two named cards facing each other on new development decks of
    the random family (10 decks, 30 tables, `by_features`), within these bounds: 71 of 251
    pairs that are a card and its reflection, 15 other pairs of glass cards, 0 of 1,470 with a
    card off the glass (the nearest of those lay a card height and more apart)."""
    if a.up @ b.up > -FACING:
        return False
    oa, ob = a.hypothesis.outline, b.hypothesis.outline
    w = float(np.linalg.norm(oa[1] - oa[0]) + np.linalg.norm(ob[1] - ob[0])) / 2
    h = float(np.linalg.norm(oa[0] - oa[3]) + np.linalg.norm(ob[0] - ob[3])) / 2
    d = b.centre - a.centre
    along = float(d @ a.up)
    beside = float(abs(d[0] * a.up[1] - d[1] * a.up[0]))
    gap = along - h
    return beside <= PAIR_TOLERANCE * w and -PAIR_TOLERANCE * w <= gap <= h / 2


def fit_glass(cards: list[Identified], plane: Plane) -> Glass:
    """The centre line about which most cards have a reflection, their tops facing it."""
    if len(cards) < 2:
        return Glass([], rejected=list(cards))
    if plane.H_mm_from_image is None:
        # No registration: the plane from the cards themselves, else a tilted camera's
        # perspective breaks the reflection across a wide glass (a card's mirror image a
        # card height and more from its reflection).
        plane = Plane(plane_of_cards(np.array([k.hypothesis.outline for k in cards])))
    c_img = np.array([c.centre for c in cards])
    tops_img = np.array([c.centre + c.up * 10.0 for c in cards])
    c = plane.to_plane(c_img)
    up = plane.to_plane(tops_img) - c
    up /= np.maximum(np.linalg.norm(up, axis=1), 1e-6)[:, None]
    widths = np.array(
        [
            np.linalg.norm(
                plane.to_plane(k.hypothesis.outline[:2])[1]
                - plane.to_plane(k.hypothesis.outline[:2])[0]
            )
            for k in cards
        ]
    )
    w = float(np.median(widths))
    best: tuple[int, np.ndarray, float, np.ndarray] | None = None
    pairs_alike: dict[frozenset[int], tuple[int, np.ndarray, float, np.ndarray]] = {}
    """The cards each best-scoring line pairs, with its line (a lone pair: which pair?)."""
    n_cards = len(cards)
    for i in range(n_cards):
        for j in range(i + 1, n_cards):
            if up[i] @ up[j] > -FACING:
                continue
            d = c[j] - c[i]
            if np.linalg.norm(d) < 1e-6:
                continue
            n = d / np.linalg.norm(d)
            if abs(n @ up[i]) < FACING or n @ up[i] < 0:
                continue  # i's top must face j across the line
            off = float(n @ (c[i] + c[j]) / 2)
            mirrored = _mirror(c, n, off)
            dist = np.linalg.norm(mirrored[:, None, :] - c[None, :, :], axis=2)
            facing = (up @ n)[:, None] * (up @ n)[None, :] < 0
            partner = (dist < PAIR_TOLERANCE * w) & facing
            toward = ((c @ n - off) * (up @ n)) < 0
            paired = partner.any(axis=1) & toward
            score = int(paired.sum())
            if best is None or score > best[0]:
                best = (score, n, off, paired)
                pairs_alike = {}
            if score == best[0]:
                pairs_alike[frozenset(np.flatnonzero(paired).tolist())] = (score, n, off, paired)
    if best is not None and best[0] <= 2 and len(pairs_alike) > 1:
        # Several lone pairs on lines of their own: a glass card facing a score pile's card
        # pairs as well as a card and its reflection do. The glass's last pair lies across
        # the gap (`across_gap`); if just one does, it is the glass, else the pairs do not say
        # which (the lattice's vote over every named card may: `slots.fill_probed`).
        across = [
            line
            for k, line in pairs_alike.items()
            if len(k) == 2 and across_gap(*(cards[i] for i in k))
        ]
        best = across[0] if len(across) == 1 else None
    if best is None:
        return Glass([], rejected=list(cards))
    _, n, off, paired = best
    dist_line = c @ n - off
    toward = (dist_line * (up @ n)) < 0
    along = c @ np.array([-n[1], n[0]])
    reach = np.abs(dist_line[paired]).max() + 0.5 * w
    span = (along[paired].min() - w, along[paired].max() + w)
    in_glass = paired | (
        toward & (np.abs(dist_line) <= reach) & (along >= span[0]) & (along <= span[1])
    )
    idx = np.flatnonzero(in_glass)
    # Rows: the distance of each card's top edge from the line, in half-card heights.
    heights = np.array(
        [
            np.linalg.norm(
                plane.to_plane(k.hypothesis.outline[[0, 3]])[0]
                - plane.to_plane(k.hypothesis.outline[[0, 3]])[1]
            )
            for k in cards
        ]
    )
    top_dist = np.abs(dist_line) - heights / 2
    h = float(np.median(heights[idx]))
    rows = np.round((top_dist - top_dist[idx].min()) / (h / 2)).astype(int)
    cols_f = along / (w / 2)
    phase = float(np.angle(np.exp(2j * np.pi * cols_f[idx]).mean()) / (2 * np.pi))
    cols = np.round(cols_f - phase).astype(int)
    cols -= cols[idx].min()
    placed = [Placed(cards[k], int(dist_line[k] < 0), int(rows[k]), int(cols[k])) for k in idx]
    return Glass(placed, n, off, [cards[k] for k in np.flatnonzero(~in_glass)])
