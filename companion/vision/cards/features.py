"""Cards found and named in one step, by the taught art's local features.

Finding card outlines first and naming them second fails where real tables are hard: cards
that overlap in rows hide the edges an outline needs, and a dark border or full-bleed art on a
dark table has no edge at all. The art itself is what every card has. So the frame's local
features (SIFT: scale- and rotation-free, and gain-free on the gradients) are matched to the
features of every taught face, the matches of each card id are split into instances by
RANSAC homographies (one card may lie on the table several times), and each homography must
map the taught face to a card-shaped, unmirrored quadrilateral. The outline of the whole card
follows from the homography even where the card is half covered or half hidden by an arm.

What is not decided here: which instances are the glass (the game's fit) and which card
covers which (`covered_by_next`, a geometric test on the instances found).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.cards.library import CARD_W_MM, FACE_PX_PER_MM, Library, card_outline_mm

RATIO = 0.85
"""Lowe's ratio: a frame feature's nearest taught feature must be this much nearer than the
second nearest, or the match says nothing."""
REPROJ_PX = 4.0
"""A match agrees with an instance's homography within this many frame px."""
MIN_INLIERS = 6
"""An instance needs this many agreeing matches (chosen from the curve in the commit that set
it: right instances against wrongly named ones, by inlier count, on the development set)."""
RANSAC_ITERS = 2000
"""RANSAC's most hypotheses per instance sought. Each card id's search ends with one run over
matches that hold no further instance, which always spends them all: on a busy frame this is
most of the instances stage's time (sim camera: 321 ms of a 1,385 ms read). It is not cut:
cards with smooth (photographic) art are found from a few matches among many, which only a
large budget samples. A card game's committed development set, failures (its failures benchmark,
one run each, before the index was deterministic, so within its noise): 500: 129, 1000: 122,
2000: 95, 4000: 93 (instances stage on two dev tables: 62 / 110 ms at 500, 95 / 247 ms at
2000)."""
MAX_INSTANCES = 8
"""At most this many instances of one card id are sought (a deck has few copies of a card)."""
MAX_FEATURES = 3000
"""The strongest keypoints kept per image: a cloth's weave or a noisy photo yields tens of
thousands, which cost seconds to match and name no card (dev set: 6000 read no more)."""
CONTRAST = 0.02
"""SIFT's contrast threshold, half its default: soft painted art has faint extrema (dev set,
photo-art deck: 6 -> 16 of 75 cards found; line-art deck 84 -> 88 of 107)."""
CONTRAST_PX = 9
"""Window (px) over which a channel's variation about a keypoint is measured."""
SHAPE_SLACK = 0.35
"""An instance's outline: opposite sides within this share of each other, and its aspect
within this share of the card's (a tilt of 25° and perspective stay well inside)."""
MIN_NCC = 0.3
"""An instance's visible part, rectified by its homography, must correlate with the taught
face at least this much (zero-mean normalised correlation of lightness), or it is "not a
card": a few features agreeing on a card-shaped homography by chance (a cloth's weave, a
neighbour's art) leave the pixels between them unlike the face. From the curve in the commit
that set it (committed dev set): every right find scores >= 0.357; the same hypotheses moved
1.5 card widths aside (what a chance find sees) pass 0.3 in 3 % of cases."""
VERIFY_PX_PER_MM = 1.0
"""Resolution at which an instance is compared with its face: coarse enough that a homography
a pixel or two off still correlates, fine enough to see the art's shapes."""
VISIBLE_MARGIN_MM = 4.0
"""The visible part is the hull of the agreeing features grown by this much: what lies past
them may be another card, an arm or the table."""


@dataclass(frozen=True)
class FaceIndex:
    """The taught faces' features: descriptors, the card each belongs to, where on the card
    (mm from the card's top-left)."""

    ids: tuple[str, ...]
    descriptors: np.ndarray
    labels: np.ndarray
    points_mm: np.ndarray
    height_mm: float
    faces_grey: tuple[np.ndarray, ...] = ()
    """Each face's lightness at `VERIFY_PX_PER_MM`, float32 (the verification's templates)."""
    matcher: cv2.FlannBasedMatcher | None = field(default=None, compare=False, repr=False)
    """The descriptors' search index, built once per library (`_matcher`), not per read."""

    @classmethod
    def of(cls, lib: Library) -> FaceIndex:
        """The library's index, made once per library (`Library.derived`): a reader made
        again for the same deck (live play after a camera restart, the automatic choice of
        reader) does not find every face's features again."""
        made = lib.derived.get("face_index")
        if isinstance(made, FaceIndex):
            return made
        index = cls._made(lib)
        lib.derived["face_index"] = index
        return index

    @classmethod
    def _made(cls, lib: Library) -> FaceIndex:
        if lib.faces is None:
            raise ValueError("library has no faces (taught before they were kept)")
        descs, labels, pts = [], [], []
        for k, face in enumerate(lib.faces):
            p, d = frame_features(face)
            descs.append(d)
            labels += [k] * len(p)
            pts.append(p)
        grey = faces_lightness(lib.faces, lib.shape.height_mm)
        descriptors = np.vstack(descs).astype(np.float32)
        return cls(
            tuple(lib.ids),
            descriptors,
            np.array(labels, np.int32),
            np.vstack(pts).astype(np.float32) / FACE_PX_PER_MM,
            lib.shape.height_mm,
            grey,
            _matcher(descriptors),
        )

    def outline_mm(self) -> np.ndarray:
        return card_outline_mm(self.height_mm)


@dataclass(frozen=True)
class Instance:
    """One card lying in the frame."""

    card: str
    H: np.ndarray
    """Card mm (origin its top-left, y toward its bottom) -> frame px."""
    inliers: int
    inlier_mm: np.ndarray
    """Where on the card the agreeing features lie (mm): what of the card is in view."""
    outline: np.ndarray
    """The whole card's corners TL, TR, BR, BL from its own top (frame px)."""
    ncc: float = 1.0
    """How its visible part correlates with the taught face (`visible_ncc`)."""

    @property
    def centre(self) -> np.ndarray:
        return self.outline.mean(axis=0)

    @property
    def width_px(self) -> float:
        o = self.outline
        return float(np.linalg.norm(o[1] - o[0]) + np.linalg.norm(o[2] - o[3])) / 2

    def to_card(self, pts: np.ndarray) -> np.ndarray:
        """Frame px -> card mm."""
        return cv2.perspectiveTransform(
            pts.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(self.H)
        ).reshape(-1, 2)


FLANN_TREES, FLANN_CHECKS = 4, 64
"""Randomised k-d trees over the taught descriptors, and leaves visited per query: a frame's
3000 features are matched in a fraction of brute force's time, the ratio test still decided
on (nearly always) the true two nearest."""


def _matcher(descriptors: np.ndarray) -> cv2.FlannBasedMatcher | None:
    if len(descriptors) < 2:
        return None
    m = cv2.FlannBasedMatcher({"algorithm": 1, "trees": FLANN_TREES}, {"checks": FLANN_CHECKS})
    m.add([descriptors])
    # The trees are drawn from OpenCV's process-wide generator, whose state depends on what
    # ran before: one deck's reading changed with it (dev deck, alone 93 cards right, after
    # other tests in one process 84). Its start state (seed 0) makes every index the same.
    cv2.setRNGSeed(0)
    m.train()
    return m


def faces_lightness(faces: np.ndarray, height_mm: float) -> tuple[np.ndarray, ...]:
    """Each taught face (BGR) as lightness at `VERIFY_PX_PER_MM`, float32: what a find is
    verified against (`FaceIndex.faces_grey`), and what a reader that never builds the index
    compares a card's shown lower half with (`slots.face_lightness`)."""
    return tuple(
        _verify_size(cv2.cvtColor(f, cv2.COLOR_BGR2LAB)[:, :, 0], height_mm) for f in faces
    )


def _verify_size(face_l: np.ndarray, height_mm: float) -> np.ndarray:
    size = (round(CARD_W_MM * VERIFY_PX_PER_MM), round(height_mm * VERIFY_PX_PER_MM))
    return cv2.resize(face_l, size, interpolation=cv2.INTER_AREA).astype(np.float32)


def visible_ncc(
    frame_l: np.ndarray, H: np.ndarray, inlier_mm: np.ndarray, face: np.ndarray
) -> float:
    """Zero-mean normalised correlation between the frame, rectified into the card by `H`
    (card mm -> frame px), and the taught face's lightness `face`, over the hull of the
    agreeing features grown by `VISIBLE_MARGIN_MM` and clipped to the card and the frame."""
    h, w = face.shape
    to_px = np.diag([VERIFY_PX_PER_MM, VERIFY_PX_PER_MM, 1.0])
    M = H @ np.linalg.inv(to_px)  # verification px -> frame px
    warped = cv2.warpPerspective(
        frame_l, M, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderValue=-1.0
    )
    mask = np.zeros((h, w), np.uint8)
    hull = cv2.convexHull((inlier_mm * VERIFY_PX_PER_MM).astype(np.float32))
    cv2.fillConvexPoly(mask, hull.reshape(-1, 2).round().astype(np.int32), 1)
    grow = max(1, round(2 * VISIBLE_MARGIN_MM * VERIFY_PX_PER_MM) + 1)
    mask = cv2.dilate(mask, np.ones((grow, grow), np.uint8)).astype(bool) & (warped >= 0)
    if mask.sum() < 16:
        return -1.0
    a = warped[mask] - warped[mask].mean()
    b = face[mask] - face[mask].mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / den) if den > 1e-6 else -1.0


def _detector() -> cv2.SIFT:
    return cv2.SIFT.create(nfeatures=MAX_FEATURES, contrastThreshold=CONTRAST)


def frame_features(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(points px, descriptors) of a BGR image: keypoints found in its lightness, each
    described in lightness and in both chroma channels, each part weighted by how much that
    channel varies about the keypoint. Art whose shapes differ in hue more than in lightness
    (painted blobs) is told apart by its chroma; line art, whose chroma is flat noise, keeps
    its lightness descriptor undiluted."""
    lab = cv2.split(cv2.cvtColor(image, cv2.COLOR_BGR2LAB))
    sift = _detector()
    kp, first = sift.detectAndCompute(lab[0], None)  # one scale pyramid for both
    if not kp:
        return np.zeros((0, 2), np.float32), np.zeros((0, 128 * len(lab)), np.float32)
    pts = np.array([k.pt for k in kp], np.float32)
    x = np.clip(np.round(pts[:, 0]).astype(int), 0, image.shape[1] - 1)
    y = np.clip(np.round(pts[:, 1]).astype(int), 0, image.shape[0] - 1)
    parts, weights = [], []
    for ch, d in zip(lab, [first] + [sift.compute(c, kp)[1] for c in lab[1:]], strict=True):
        f = ch.astype(np.float32)
        var = cv2.blur(f * f, (CONTRAST_PX, CONTRAST_PX)) - cv2.blur(f, (CONTRAST_PX,) * 2) ** 2
        weights.append(np.sqrt(np.maximum(var[y, x], 0.0)))
        parts.append(d)
    w = np.array(weights)
    w /= np.maximum(np.linalg.norm(w, axis=0), 1e-6)
    return pts, np.hstack([d * wk[:, None] for d, wk in zip(parts, w, strict=True)])


def _matches(desc: np.ndarray, index: FaceIndex) -> tuple[np.ndarray, np.ndarray]:
    """(frame feature index, taught feature index) of every match passing the ratio test."""
    if len(desc) < 2 or len(index.descriptors) < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if index.matcher is not None:
        knn = index.matcher.knnMatch(desc.astype(np.float32), k=2)
    else:
        knn = cv2.BFMatcher(cv2.NORM_L2).knnMatch(desc, index.descriptors, k=2)
    pairs = [
        (m[0].queryIdx, m[0].trainIdx)
        for m in knn
        if len(m) == 2 and m[0].distance < RATIO * m[1].distance
    ]
    if not pairs:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    q, t = np.array(pairs, np.int64).T
    return q, t


def card_shaped(outline: np.ndarray, aspect: float) -> bool:
    """A convex, unmirrored quadrilateral of about the card's proportions."""
    if not cv2.isContourConvex(outline.astype(np.float32).reshape(-1, 1, 2)):
        return False
    e = [outline[(i + 1) % 4] - outline[i] for i in range(4)]
    if float(e[0][0] * e[1][1] - e[0][1] * e[1][0]) <= 0:  # TL, TR, BR turn clockwise (y down)
        return False
    s = [float(np.linalg.norm(v)) for v in e]
    if min(s) < 8:
        return False
    lo = 1 - SHAPE_SLACK
    if min(s[0], s[2]) / max(s[0], s[2]) < lo or min(s[1], s[3]) / max(s[1], s[3]) < lo:
        return False
    seen = (s[1] + s[3]) / (s[0] + s[2])
    return lo <= seen / aspect <= 1 / lo


def find_instances(image: np.ndarray, index: FaceIndex) -> list[Instance]:
    """Every card-shaped instance of a taught card in the frame, strongest first (instances
    of different cards may overlap; the caller decides between them)."""
    pts, desc = frame_features(image)
    return instances_of(image, pts, *_matches(desc, index), index)


def instances_of(
    image: np.ndarray, pts: np.ndarray, q: np.ndarray, t: np.ndarray, index: FaceIndex
) -> list[Instance]:
    """`find_instances` from the frame's feature points `pts` and their matches (frame
    feature `q[i]` to taught feature `t[i]`): each stage can be timed on its own."""
    frame_l = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
    out: list[Instance] = []
    rect = index.outline_mm().reshape(-1, 1, 2)
    aspect = index.height_mm / CARD_W_MM
    for k, cid in enumerate(index.ids):
        sel = index.labels[t] == k
        src = index.points_mm[t[sel]]
        dst = pts[q[sel]]
        alive = np.ones(len(src), bool)
        for _ in range(MAX_INSTANCES):
            if alive.sum() < MIN_INLIERS:
                break
            live = np.flatnonzero(alive)
            H, mask = cv2.findHomography(
                src[live], dst[live], cv2.RANSAC, REPROJ_PX, maxIters=RANSAC_ITERS, confidence=0.995
            )
            if H is None:
                break
            inl = live[mask.ravel().astype(bool)]
            if len(inl) < MIN_INLIERS:
                break
            alive[inl] = False
            outline = cv2.perspectiveTransform(rect, H).reshape(4, 2)
            if not card_shaped(outline, aspect):
                continue
            ncc = (
                visible_ncc(frame_l, H, src[inl], index.faces_grey[k]) if index.faces_grey else 1.0
            )
            if ncc >= MIN_NCC:
                out.append(Instance(cid, H, len(inl), src[inl], outline, ncc))
    out.sort(key=lambda i: -i.inliers)
    return out
