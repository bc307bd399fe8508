"""The one card in a teach photo, by its outline, and the width of its border, measured.

Game-independent: a photo shows one card lying on any table, or a flat scan of it. The card is
the largest card-shaped quad (`quads.find_quads`) that is not nested in another card-shaped one.
A scan's card fills the photo, so the photo is padded with a colour unlike its own edge, which
makes the photo's frame an outline too: a quad inside it whose margins to the frame are equal
on all four sides, and which is square to it, is the art inside the card's printed border (a
print is symmetric and square to its card; a card put down on a scanner is neither, or lies a
degree or two askew), and the card is the frame.

The border is measured inward from the outline, whatever its colour: it is where the colour
just inside the outline gives way to something else, the same depth on every side. A card
with no uniform border (full-bleed art) measures 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.cards.quads import (
    Quad,
    find_quads,
    side_profiles,
    sides_meet,
    sides_outward,
)

CARD_ASPECT = (1.1, 2.0)
"""Long over short side of anything taken for a card: mini 1.53, poker 1.40, bridge 1.56,
tarot 1.71, with slack for a photo not taken square."""
PAD = 24
"""Padding round a photo (px), so a scan's own frame is an outline."""
MIN_CARD_FRAC = 0.08
"""A card's short side is at least this share of the photo's short side."""
SYMMETRIC = 0.02
"""Margins (of the photo's width) equal within this are a printed border, not a placement..."""
SQUARE_DEG = 0.6
"""...if the quad's sides also run along the photo's edges within this many degrees: a tight
scan is cut along the card's edges, and a print's lines are parallel to them, while a card
laid on a scanner with an even margin round it lies a degree or two askew (taken for the
frame's art, such a card was cut with the scanner's lid as its border)."""
COARSE_SIGMA = 2.0
"""When no card's outline closes, the photo is looked at again blurred by this (px): a woven
cloth's or a felt's fine texture (a weave of 3-7 px) is then smooth, and the card's edge
against it, which the texture filter had broken into pieces, closes. Of the 29 photos of 720
development teach photos (three blocks of development decks) in which teach found no card,
the blurred look cut within 3 mm / more than 3 mm off: at sigma 2, 9 / 4; at 3, 9 / 5 (one a
block of a chequered cloth's squares)."""
BORDER_STEP = 28.0
"""Lab distance from the colour just inside the outline at which the border has ended."""


@dataclass(frozen=True)
class CardInPhoto:
    """The card found, or why none was."""

    outline: np.ndarray | None
    """4×2 corners TL, TR, BR, BL (upright portrait), photo px; None if no card was found."""
    cards_seen: int
    """How many cards the photo showed (0, 1 or more)."""
    inner: np.ndarray | None = None
    """Set when the photo's frame was taken for the card (a tight scan): the quad inside it
    taken for the printed art (4×2, TL, TR, BR, BL). A card laid square and centred on a
    scanner with an even margin looks the same, and then this is the card: a caller that
    knows the deck's aspect from its other photos decides."""


def upright(corners: np.ndarray) -> np.ndarray:
    """Corners TL, TR, BR, BL of a portrait card lying roughly upright."""
    return corners[_upright_order(corners)].astype(np.float64)


def card_like(corners: np.ndarray) -> bool:
    """Whether `upright` tells the quad's four corners apart. A quad sheared far past any
    tilt a card is photographed at (a sliver between a pattern's lines) has two corners that
    are both its top left, say; taken for a card, its cut collapses to a line and every
    measure of it (width, border, the table's step) is NaN."""
    return len(set(_upright_order(corners))) == 4


def card_quad(q: Quad) -> bool:
    """Whether a quad found in a photo may be a card: card-shaped (`CARD_ASPECT`) and
    `card_like`. The one test every finder of a card's outline applies to its quads."""
    return CARD_ASPECT[0] <= q.aspect <= CARD_ASPECT[1] and card_like(q.corners)


def _upright_order(corners: np.ndarray) -> list[int]:
    """The indices of `corners` at TL, TR, BR, BL (`upright`)."""
    c = corners.mean(axis=0)
    e = [corners[(i + 1) % 4] - corners[i] for i in range(4)]
    long_i = int(np.argmax([np.linalg.norm(v) for v in e]))
    down = e[long_i] / np.linalg.norm(e[long_i])
    if down[1] < 0:
        down = -down
    right = np.array([down[1], -down[0]])
    local = [(float((p - c) @ right), float((p - c) @ down)) for p in corners]
    tl = min(range(4), key=lambda i: local[i][0] + local[i][1])
    tr = min(range(4), key=lambda i: -local[i][0] + local[i][1])
    br = max(range(4), key=lambda i: local[i][0] + local[i][1])
    bl = max(range(4), key=lambda i: -local[i][0] + local[i][1])
    return [tl, tr, br, bl]


def _pad_colour(image: np.ndarray) -> tuple[int, int, int]:
    """Black or white, whichever differs more from the photo's own outermost pixels."""
    ring = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).astype(np.float32)
    return (0, 0, 0) if float(ring.mean()) > 110 else (255, 255, 255)


def _margins(q: Quad, w: int, h: int) -> np.ndarray:
    """Distances of the quad's extremes to the photo's four edges (left, top, right, bottom)."""
    x, y = q.corners[:, 0], q.corners[:, 1]
    return np.array([x.min(), y.min(), w - x.max(), h - y.max()])


def _overlap(a: Quad, b: Quad) -> float:
    """The area two quads share, as a share of the smaller one's."""
    return a.shared_area(b) / max(1e-6, min(a.area, b.area))


def _square_to_frame(q: Quad) -> bool:
    """Whether `q` is turned no more than `SQUARE_DEG` from the photo's axes: the mean turn of
    its four sides (a side alone may lean a degree where a corner was fitted a few px off)."""
    d = np.roll(q.corners, -1, axis=0) - q.corners
    turn = (np.degrees(np.arctan2(d[:, 1], d[:, 0])) + 45.0) % 90.0 - 45.0
    return bool(abs(float(turn.mean())) <= SQUARE_DEG)


def _cards_in(padded: np.ndarray, w: int, h: int) -> list[Quad]:
    """The card-shaped quads of a padded `w` × `h` photo, photo px, not on its frame."""
    min_side = MIN_CARD_FRAC * min(w, h)
    quads = [
        Quad(q.corners - PAD) for q in find_quads(padded, min_side_px=min_side, max_area_frac=1.0)
    ]
    cards = [q for q in quads if card_quad(q)]
    frame_tol = 3.0 + 0.01 * max(w, h)
    return [q for q in cards if _margins(q, w, h).min() > frame_tol]


def find_card_outline(image: np.ndarray) -> CardInPhoto:
    """The one card in a photo (`CardInPhoto.outline` None when there is none or several)."""
    h, w = image.shape[:2]
    padded = cv2.copyMakeBorder(
        image, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=_pad_colour(image)
    )
    in_photo = _cards_in(padded, w, h)
    if not in_photo:
        in_photo = _cards_in(cv2.GaussianBlur(padded, (0, 0), COARSE_SIGMA), w, h)
    frame = Quad(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    photo_is_card_shaped = CARD_ASPECT[0] <= frame.aspect <= CARD_ASPECT[1]
    if not in_photo:
        # (A photo's frame alone is no card: a bare table is shaped like one too.)
        return CardInPhoto(None, 0)
    # Outermost first: a card's own art frame lies nested inside it.
    outer = [
        q
        for q in in_photo
        if not any(o is not q and o.area > q.area and o.contains(q) for o in in_photo)
    ]
    outer.sort(key=lambda q: -q.area)
    card = outer[0]
    m = _margins(card, w, h)
    if (
        photo_is_card_shaped
        and m.max() - m.min() <= SYMMETRIC * w
        and m.max() < 0.15 * w
        and _square_to_frame(card)
    ):
        return CardInPhoto(upright(frame.corners), 1, upright(card.corners))
    # Another outline over most of this one is this card drawn twice (its edge and its
    # sleeve's, or a corner fitted two ways), not a second card beside it.
    rivals = [q for q in outer[1:] if q.area > 0.5 * card.area and _overlap(q, card) < 0.5]
    if rivals:
        return CardInPhoto(None, 1 + len(rivals))
    return CardInPhoto(upright(card.corners), 1)


def border_depths(image: np.ndarray, outline: np.ndarray) -> np.ndarray | None:
    """Each side's border width in px (sides TL-TR, TR-BR, BR-BL, BL-TL), measured inward
    from the outline; None if the card has no uniform border (along some side the colour
    changes at scattered depths, as art does). A photo not taken square sees each side's
    border at its own width, so each side is measured on its own."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    width = float(np.linalg.norm(outline[1] - outline[0]))
    reach = max(8.0, 0.2 * width)
    steps = np.arange(1.0, reach, 0.5)
    out = []
    for a, e, outward in sides_outward(outline):
        n = -outward  # inward
        _, prof = side_profiles(lab, a, e, n, np.linspace(0.2, 0.8, 11), steps)
        depths = []
        for p in prof:
            ref = np.median(p[2:6], axis=0)
            off = np.nonzero(np.linalg.norm(p[6:] - ref, axis=1) > BORDER_STEP)[0]
            if len(off):
                depths.append(float(steps[off[0] + 6]))
        if len(depths) < 0.6 * len(prof):
            return None
        d = np.array(depths)
        med = float(np.median(d))
        if np.mean(np.abs(d - med) <= max(1.5, 0.15 * med)) < 0.6:
            return None
        out.append(med)
    return np.array(out)


def border_width(image: np.ndarray, outline: np.ndarray) -> float:
    """The card's border width in px (the mean of its sides'); 0.0 if it has none."""
    d = border_depths(image, outline)
    return 0.0 if d is None else float(d.mean())


def inset_sides(outline: np.ndarray, depths: np.ndarray) -> np.ndarray:
    """The quad whose sides lie `depths` px inside the outline's, side by side (the outline
    itself where two of its sides are parallel, which no card's are)."""
    lines = []
    for (a, e, out), d in zip(sides_outward(outline), depths, strict=True):
        lines.append((a - d * out, e / max(1e-6, float(np.linalg.norm(e)))))
    inset = sides_meet(lines)
    return outline.astype(np.float64) if inset is None else inset


SURROUND_RING = 0.25
"""Width of the ring round a cut that `surround_likeness` compares it with (of the cut's width)."""
LIKENESS_BINS = 8
"""Histogram bins along each of L*, a* and b* (coarse: a print and a cloth differ in colours
present, not in shades of one)."""


def surround_likeness(image: np.ndarray, quad: np.ndarray) -> float:
    """How much the inside of `quad` (photo px) looks like the ring round it: the
    Bhattacharyya coefficient of their Lab colour histograms (1: the same colours in the same
    shares). A card differs from the table it lies on, so a cut that is a piece of that table
    (a block of a chequered cloth's squares, closed by the squares' own edges) is as like its
    surroundings as the table is like itself."""
    h, w = image.shape[:2]
    width = float(np.linalg.norm(quad[1] - quad[0]))
    ring = inset_sides(quad, np.full(4, -SURROUND_RING * width))
    inside = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 255)
    around = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(around, np.round(ring).astype(np.int32), 255)
    around[inside > 0] = 0
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    bins, ranges = [LIKENESS_BINS] * 3, [0, 256] * 3
    hists = [cv2.calcHist([lab], [0, 1, 2], m, bins, ranges).ravel() for m in (inside, around)]
    if min(float(hh.sum()) for hh in hists) <= 0:
        return 0.0
    a, b = (hh / hh.sum() for hh in hists)
    return float(np.sum(np.sqrt(a * b)))


TABLE_STEP = 14.0
"""Lab distance from the nearest of the table's colours at which something that is not the
table begins (`table_edges`). The curve of the teach step that moves cuts out to the card's
edge (its `OUT_TO_EDGE` docstring), cuts more than 3 mm off / made worse, with the move at
0.04 of the width: 7 25 / 1, 10 25 / 1, 14 25 / 0, 20 25 / 0 (30 / 0 unmoved)."""
EDGE_INSIDE, EDGE_TABLE = 0.1, (0.25, 0.35)
"""How far inside a cut its card's edge is looked for, and the band outside it whose colours
are the table's (shares of the cut's width). A cut at the art of a card with a wide border
must still have the table, not the border, in that band: a 6 mm border round a mini card's
32 mm art is 0.19 of the cut's width. With the band at 0.14-0.24 a deck whose cuts all stopped
at the art of a dark border on a dark wood took the border's colour for the table's, walked
through it and never moved out. Curve over the 237 accepted photos of two development blocks
of 10 randomised decks (named in the guide), cut more than 3 mm off / made worse by more than
0.05 mm / better by more than 0.3 mm: 0.14-0.24 31 / 0 / 0, 0.2-0.3 23 / 1 / 9, 0.25-0.35 24 /
0 / 8."""
EDGE_AGREE = 0.9
"""A side's edge is known only where this share of its profiles finds it within 1.5 % of the
cut's width of their median (a table's pattern crossing the profiles scatters them)."""


def agreed_edge(found: list[float], profiles: int, width: float) -> float:
    """The median of the offsets `found` along one side's `profiles` profiles, where at least
    `EDGE_AGREE` of the profiles found one within 1.5 % of `width` of it; NaN otherwise."""
    if len(found) < EDGE_AGREE * profiles:
        return float("nan")
    f = np.array(found)
    med = float(np.median(f))
    if np.count_nonzero(np.abs(f - med) <= 0.015 * width) >= EDGE_AGREE * profiles:
        return med
    return float("nan")


def nearest_distance(samples: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """Each sample's (… x 3) Euclidean distance to the nearest of `colours` (n x 3).

    Summed channel by channel and rooted after the minimum: the same numbers as the norm of
    the whole difference array, without building it (it is most of a teach photo's cost)."""
    sq = np.zeros((*samples.shape[:-1], len(colours)), np.result_type(samples, colours))
    for c in range(samples.shape[-1]):
        sq += np.square(samples[..., c, None] - colours[:, c])
    return np.sqrt(np.min(sq, axis=-1))


def table_edges(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Where each side of `quad` (photo px, corners in order round it) would lie on the
    outermost step from the table to something else: each side's signed offset in px
    (positive outward, sides as `quads.sides_outward`), NaN where the profiles do not agree.

    A card's true edge has the card on one side and the table on the other; a frame line or
    an art edge has card on both. The table's colours are those of a band well outside the
    cut, all round it (a wood grain's or a chequered cloth's several colours are all the
    table's); walking inward from that band, the first samples unlike every one of them are
    the card (or its sleeve). Only the outermost step is found, so a light border on a table
    of its tone is walked through to the art: a caller moves a cut outward by this, never
    inward."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.0), cv2.COLOR_BGR2LAB).astype(np.float32)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    step, run = 0.5, 3
    steps = np.arange(-EDGE_INSIDE * width, EDGE_TABLE[1] * width, step)
    far = steps >= EDGE_TABLE[0] * width
    start = int(np.argmax(far)) - 1
    if start < run:
        return np.full(4, np.nan)
    fractions = np.linspace(0.2, 0.8, 13)
    profiles = [side_profiles(lab, a, e, n, fractions, steps)[1] for a, e, n in sides_outward(quad)]
    table = np.concatenate([p[:, far].reshape(-1, 3) for p in profiles])
    table = table[:: max(1, len(table) // 400)]
    out = np.full(4, np.nan)
    for s, prof in enumerate(profiles):
        d = nearest_distance(prof[:, : start + 2], table)  # not the far band (the table)
        unlike = d > TABLE_STEP
        # ends[:, k]: samples k - run + 1 .. k all unlike the table (k from run - 1).
        ends = np.ones((len(d), unlike.shape[1] - run + 1), bool)
        for i in range(run):
            ends &= unlike[:, i : unlike.shape[1] - run + 1 + i]
        found = []
        for row, end in zip(d, ends[:, : start - run + 2], strict=True):
            hits = np.flatnonzero(end)
            if not len(hits):
                continue
            k = int(hits[-1]) + run - 1  # the outermost run that ends at or inside `start`
            # The edge: where the distance crosses half the card's (from the table's side).
            inner = row[max(0, k - run - 6) : k - run + 1]
            level = max(TABLE_STEP, 0.5 * float(np.median(inner) if len(inner) else row[k]))
            j = k
            while j + 1 <= start and row[j + 1] > level:
                j += 1
            a, b = float(row[j]), float(row[j + 1])
            found.append(steps[j] + step * (a - level) / max(a - b, 1e-6))
        out[s] = agreed_edge(found, len(d), width)
    return out


UNLIKE_MARGIN = 0.06
"""The band round a photo's frame (of its short side) whose colours are taken for the table's
(`find_card_unlike_table`): a teach photo shows the card with the table all round it."""
UNLIKE_WORK = 320
"""Width (px) the photo is looked at in by `find_card_unlike_table`."""


def unlike_table_mask(image: np.ndarray) -> tuple[np.ndarray, float]:
    """Where a photo (scaled to `UNLIKE_WORK` px wide) is unlike every colour of its own
    margins (`UNLIKE_MARGIN`), by more than `TABLE_STEP`, and the scale used. The table is
    what the photo shows round its frame; a wood's grain or a chequered cloth's squares are
    all its colours."""
    w = image.shape[1]
    sc = min(1.0, UNLIKE_WORK / w)
    small = cv2.resize(image, None, fx=sc, fy=sc, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), 1.0), cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    m = max(2, round(UNLIKE_MARGIN * min(sh, sw)))
    ring = np.concatenate(
        [
            lab[:m].reshape(-1, 3),
            lab[-m:].reshape(-1, 3),
            lab[m:-m, :m].reshape(-1, 3),
            lab[m:-m, -m:].reshape(-1, 3),
        ]
    )
    table = ring[:: max(1, len(ring) // 400)]
    return nearest_distance(lab, table) > TABLE_STEP, sc


def find_card_unlike_table(image: np.ndarray) -> tuple[np.ndarray | None, float]:
    """The card as the one region of the photo unlike its table (`unlike_table_mask`): the
    quad fitted round the largest such region, and the share of that quad the region fills
    (None, 0.0 when no card-shaped quad is fitted). For a card neither finder saw: its
    outline did not close against a patterned cloth, and it has no light border."""
    mask, sc = unlike_table_mask(image)
    sh, sw = mask.shape
    # Closed across a pixel's gap, filled (the card's art may share the table's colours), and
    # opened to drop the thin seams between a cloth's squares.
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    closed = cv2.morphologyEx(mask.astype(np.uint8) * 255, cv2.MORPH_CLOSE, k)
    outer, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    solid = np.zeros((sh, sw), np.uint8)
    cv2.drawContours(solid, outer, -1, 255, -1)
    k5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    clean = cv2.morphologyEx(solid, cv2.MORPH_OPEN, k5)
    contours, _ = cv2.findContours(clean, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None, 0.0
    blob = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(blob)
    quad = None
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.04, 0.05):
        poly = cv2.approxPolyDP(hull, eps * peri, True)
        if len(poly) == 4:
            quad = poly.reshape(4, 2).astype(np.float64)
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    quad = _refit_sides(blob.reshape(-1, 2).astype(np.float64), quad)
    filled = np.zeros((sh, sw), np.uint8)
    cv2.drawContours(filled, [blob], -1, 255, -1)
    q = Quad(upright(quad))
    if not card_quad(q) or q.area <= 0:
        return None, 0.0
    fill = float(np.count_nonzero(filled)) / q.area
    x, y = quad[:, 0], quad[:, 1]
    if min(x.min(), y.min(), sw - x.max(), sh - y.max()) < 1.0:
        return None, 0.0  # at the frame: not a card with the table all round it
    if min(q.sides) < MIN_CARD_FRAC * min(sh, sw):
        return None, 0.0
    return upright(quad / sc + 0.5 * (1 / sc - 1)), fill


def _refit_sides(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """`quad` (corners in order round it) with each side refitted to the middle of the
    outline `points` that lie nearest that side, and moved out half a pixel (the outline's
    pixels lie inside the region's edge): a rounded corner pulls a corner fitted to the
    outline's own points inward."""
    c = quad.mean(axis=0)
    dist = []
    for a, e, _ in sides_outward(quad):
        t = np.clip((points - a) @ e / max(float(e @ e), 1e-6), 0.0, 1.0)
        dist.append(np.linalg.norm(points - (a + t[:, None] * e), axis=1))
    nearest = np.argmin(np.array(dist), axis=0)
    lines = []
    for i, (a, e, n) in enumerate(sides_outward(quad)):
        t = (points - a) @ e / max(float(e @ e), 1e-6)
        mine = points[(nearest == i) & (t > 0.2) & (t < 0.8)]
        if len(mine) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(mine.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01)
        d = np.array([float(vx[0]), float(vy[0])])
        p = np.array([float(x0[0]), float(y0[0])])
        lines.append((p + 0.5 * n, d))
    met = sides_meet(lines)
    if (
        met is None
        or np.linalg.norm(met - c, axis=1).max() > 2 * np.linalg.norm(quad - c, axis=1).max()
    ):
        return quad
    return met
