"""Card quadrilaterals from edges and line geometry, whatever the card's border looks like.

A card is a flat, convex four-sided shape whose outline differs from what lies round it in
lightness or in colour; nothing here asks the border to be light, or to exist at all. Edges
are found in each Lab channel (a dark card on a dark table still differs in hue, a white card
on a white cloth in texture), closed outlines are taken from them, and each outline that is
nearly its own convex hull becomes a quad. Each side is then fitted again, as a line, to the
strongest edge near it, so rounded corners and a blurred outline do not bend the quad.
Everything is in the caller's image px.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

WORK_WIDTH = 960
"""Edges are found on a copy at most this wide (outlines are large; a cloth's weave is not)."""
CANNY_LOW, CANNY_HIGH = 20, 50
"""Canny hysteresis on Lab channels blurred at sigma 1 (a and b are stretched x2 first, their
range is half of L's)."""


@dataclass(frozen=True)
class Quad:
    """A convex quadrilateral: corners in image px, clockwise on screen (y down)."""

    corners: np.ndarray

    @property
    def area(self) -> float:
        return float(abs(cv2.contourArea(self.corners.astype(np.float32))))

    @property
    def sides(self) -> np.ndarray:
        """Lengths of the four sides, from corner 0 to 1 onward."""
        return np.linalg.norm(np.roll(self.corners, -1, axis=0) - self.corners, axis=1)

    @property
    def aspect(self) -> float:
        """Long over short side, each the mean of the two opposite sides (>= 1)."""
        s = self.sides
        a, b = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
        return float(max(a, b) / max(1e-6, min(a, b)))

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    def shared_area(self, other: Quad) -> float:
        """The area (px²) this quad and `other` cover both."""
        shared, _ = cv2.intersectConvexConvex(
            self.corners.astype(np.float32), other.corners.astype(np.float32)
        )
        return float(shared)

    def contains(self, other: Quad, slack: float = 2.0) -> bool:
        """Whether every corner of `other` lies inside this quad (or within `slack` px)."""
        poly = self.corners.astype(np.float32)
        return all(
            cv2.pointPolygonTest(poly, (float(x), float(y)), True) >= -slack
            for x, y in other.corners
        )


def clockwise(pts: np.ndarray) -> np.ndarray:
    """The four corners ordered clockwise on screen, starting nearest the top-left."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0).astype(np.float64)


def edge_map(image: np.ndarray) -> np.ndarray:
    """Edges of `image` (BGR) in any of lightness and the two colour axes (uint8 0/255)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.0), cv2.COLOR_BGR2LAB)
    edges = cv2.Canny(lab[..., 0], CANNY_LOW, CANNY_HIGH, L2gradient=True)
    for k in (1, 2):
        ch = cv2.convertScaleAbs(lab[..., k], alpha=2.0, beta=-128.0)
        edges |= cv2.Canny(ch, CANNY_LOW, CANNY_HIGH, L2gradient=True)
    return edges


def refine(image_gray: np.ndarray, quad: np.ndarray, reach: float = 4.0) -> np.ndarray:
    """`quad`'s corners where its four sides, each fitted as a line to the strongest edge
    within `reach` px of it, cross. Points near corners are left out (corners may be round).
    The input quad is kept where a side finds too little edge."""
    gx = cv2.Sobel(image_gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image_gray, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    steps = np.arange(-reach, reach + 0.25, 0.5)
    lines = []
    for a, edge, n in sides_outward(quad):
        base, prof = side_profiles(mag, a, edge, n, np.linspace(0.15, 0.85, 16), steps)
        k = prof.argmax(axis=1)
        strong = prof.max(axis=1) > 0.3 * float(np.median(prof.max(axis=1)) + 1e-6)
        found = base[strong] + steps[k[strong]][:, None] * n
        if len(found) < 6:
            lines.append((a, edge / max(1e-6, float(np.linalg.norm(edge)))))
            continue
        vx, vy, x0, y0 = cv2.fitLine(
            found.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01
        ).ravel()
        lines.append((np.array([x0, y0], float), np.array([vx, vy], float)))
    out = sides_meet(lines)
    if out is None or np.linalg.norm(out - quad, axis=1).max() > 2 * reach:
        return quad
    return out


def sides_outward(q: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each side of the quad `q` (corners in order round it) as (its start, its vector, its
    unit normal pointing away from the quad): the frame every profile across a side is
    sampled in (`side_profiles`)."""
    centre = q.mean(axis=0)
    sides = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        edge = b - a
        normal = np.array([edge[1], -edge[0]]) / max(1e-6, float(np.linalg.norm(edge)))
        sides.append((a, edge, normal if normal @ ((a + b) / 2 - centre) >= 0 else -normal))
    return sides


def side_profiles(
    image: np.ndarray,
    start: np.ndarray,
    edge: np.ndarray,
    normal: np.ndarray,
    fractions: np.ndarray,
    steps: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """`image` sampled across one side of a quad: at each of `fractions` of the way along it
    (from `start`, by `edge`), at each of `steps` px along `normal`. Where a card's edge or
    border ends is found on such profiles, one per point along the side. Returns the points
    on the side and the samples (points x steps, and the image's channels)."""
    base = start + fractions[:, None] * edge
    pts = base[:, None, :] + steps[None, :, None] * normal
    profiles = cv2.remap(
        image,
        pts[..., 0].astype(np.float32),
        pts[..., 1].astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return base, profiles


def sides_meet(lines: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
    """The 4x2 corners where four fitted sides (each a point and a direction, in order round
    the quad) cross, each corner where a side meets the one before it; None when two
    neighbouring sides are parallel, so no quad can be made of them. Refitting each side on
    its own and crossing them is how a tilted card's outline is made exact."""
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + t[0] * d1)
    return np.array(corners)


def _duplicate(a: np.ndarray, b: np.ndarray, tol: float) -> bool:
    return bool(np.linalg.norm(a - b, axis=1).max() < tol)


@dataclass(frozen=True)
class _Segments:
    """Straight edge segments: endpoints (n, 2, 2), unit directions and lengths."""

    ends: np.ndarray
    unit: np.ndarray
    length: np.ndarray

    @classmethod
    def of(cls, edges: np.ndarray, min_len: float) -> _Segments:
        raw = cv2.HoughLinesP(
            edges,
            1,
            math.pi / 360,
            threshold=max(8, int(min_len / 2)),
            minLineLength=min_len / 2,
            maxLineGap=2,
        )
        ends = np.zeros((0, 2, 2)) if raw is None else raw.reshape(-1, 2, 2).astype(np.float64)
        # (A woven cloth's texture gives thousands of short pieces: the longest are enough.)
        ends = ends[
            np.argsort(-np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1))[: 4 * MAX_SEGMENTS]
        ]
        ends = _merge_collinear(ends)
        d = ends[:, 1] - ends[:, 0]
        length = np.linalg.norm(d, axis=1)
        keep = np.argsort(-length)[:MAX_SEGMENTS]
        keep = keep[length[keep] >= min_len]
        return cls(ends[keep], d[keep] / np.maximum(length[keep], 1e-6)[:, None], length[keep])


MAX_SEGMENTS = 150
"""The longest segments kept (a woven cloth's texture makes thousands of short ones)."""


def _merge_collinear(
    ends: np.ndarray, angle_deg: float = 3.0, offset: float = 2.5, gap: float = 6.0
) -> np.ndarray:
    """Segments of one straight edge, broken by noise or by art touching it, joined: those
    within `angle_deg` and `offset` px of the same line whose extents overlap or lie within
    `gap` px are replaced by one segment spanning them all (longest first, greedily)."""
    if len(ends) == 0:
        return ends
    d = ends[:, 1] - ends[:, 0]
    length = np.linalg.norm(d, axis=1)
    order = np.argsort(-length)
    used = np.zeros(len(ends), bool)
    cos_max = math.cos(math.radians(angle_deg))
    out = []
    for i in order:
        if used[i]:
            continue
        used[i] = True
        p0, u = ends[i, 0], d[i] / max(length[i], 1e-6)
        n = np.array([-u[1], u[0]])
        lo, hi = 0.0, float(length[i])
        grown = True
        while grown:
            grown = False
            rest = np.flatnonzero(~used)
            if len(rest) == 0:
                break
            du = d[rest] / np.maximum(length[rest], 1e-6)[:, None]
            rel = ends[rest] - p0
            t = rel @ u
            off = np.abs(rel @ n).max(axis=1)
            tlo, thi = t.min(axis=1), t.max(axis=1)
            hit = (
                (np.abs(du @ u) >= cos_max)
                & (off <= offset)
                & (tlo <= hi + gap)
                & (thi >= lo - gap)
            )
            if hit.any():
                used[rest[hit]] = True
                lo, hi = min(lo, float(tlo[hit].min())), max(hi, float(thi[hit].max()))
                grown = True
        out.append([p0 + lo * u, p0 + hi * u])
    return np.array(out, np.float64)


TEXTURE_DENSITY = 0.25
"""Edge pixels where more than this share of a 9 × 9 window is edge are a texture (a woven
cloth, wood grain), not an outline: a straight edge fills about 0.11 of it."""


def _lines_only(edges: np.ndarray) -> np.ndarray:
    density = cv2.boxFilter((edges > 0).astype(np.float32), -1, (9, 9))
    return np.where(density <= TEXTURE_DENSITY, edges, 0).astype(np.uint8)


def _corners(seg: _Segments) -> tuple[np.ndarray, np.ndarray]:
    """Which pairs of segments meet at a corner (n × n bool) and where (n × n × 2): lines
    at 50-130° to each other crossing near an end of one and within the reach of the other
    (a T, where one card's side ends at the edge of the card lying over it, counts)."""
    n = len(seg.length)
    p, u, L = seg.ends[:, 0], seg.unit, seg.length
    cross = u[:, None, 0] * u[None, :, 1] - u[:, None, 1] * u[None, :, 0]  # sin of the angle
    ok = np.abs(cross) > math.sin(math.radians(50))
    # Intersection: p_i + t_i u_i = p_j + t_j u_j.
    dp = p[None, :, :] - p[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        t_i = (dp[..., 0] * u[None, :, 1] - dp[..., 1] * u[None, :, 0]) / cross
        t_j = (dp[..., 0] * u[:, None, 1] - dp[..., 1] * u[:, None, 0]) / cross
    reach = np.maximum(5.0, 0.12 * np.minimum(L[:, None], L[None, :]))
    near_end_i = (np.abs(t_i) < reach) | (np.abs(t_i - L[:, None]) < reach)
    near_end_j = (np.abs(t_j) < reach) | (np.abs(t_j - L[None, :]) < reach)
    within_i = (t_i > -reach) & (t_i < L[:, None] + reach)
    within_j = (t_j > -reach) & (t_j < L[None, :] + reach)
    ok &= (near_end_i & within_j) | (near_end_j & within_i)
    ok &= ~np.eye(n, dtype=bool)
    at = p[:, None, :] + np.nan_to_num(t_i)[..., None] * u[:, None, :]
    return ok, at


def _support(edges: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Share of the side a-b (its middle 80 %) that runs along an edge pixel."""
    n = max(8, int(np.linalg.norm(b - a) / 2))
    t = np.linspace(0.1, 0.9, n)[:, None]
    pts = np.rint(a + t * (b - a)).astype(int)
    h, w = edges.shape
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    if not inside.all():
        return 0.0
    return float(np.count_nonzero(edges[pts[:, 1], pts[:, 0]])) / n


SOLIDITY = 0.88
"""A closed outline is a quad's only if it fills this share of its convex hull..."""
QUAD_FIT = 0.9
"""...and its hull fills this share of the quad fitted to it."""


def _quad_of(contour: np.ndarray) -> np.ndarray | None:
    """A quad (4×2) for a closed outline that is one, else None."""
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or area < SOLIDITY * hull_area:
        return None
    peri = cv2.arcLength(hull, True)
    approx = cv2.approxPolyDP(hull, 0.02 * peri, True)
    if len(approx) == 4 and cv2.isContourConvex(approx):
        quad = approx.reshape(4, 2).astype(np.float64)
    else:
        # Rounded corners cut each corner into several vertices: the hull's best rectangle.
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    q_area = abs(cv2.contourArea(quad.astype(np.float32)))
    if q_area <= 0 or hull_area < QUAD_FIT * q_area or q_area < QUAD_FIT * hull_area:
        return None
    return clockwise(quad)


def _closed_outlines(near: np.ndarray, min_area: float, max_area: float) -> list[np.ndarray]:
    """Quads from the closed outlines of the (thickened) edge map."""
    contours, _ = cv2.findContours(near, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        if min_area <= cv2.contourArea(c) <= max_area:
            q = _quad_of(c)
            if q is not None:
                out.append(q)
    return out


SUPPORT = 0.7
"""A quad is kept if each of its sides runs along edge pixels for this share of its length."""


def _cycles(
    seg: _Segments, ok: np.ndarray, at: np.ndarray, edges: np.ndarray, min_side: float
) -> list[np.ndarray]:
    """Quads closed by four segments, each meeting the next at a corner."""
    nbr = [np.flatnonzero(row) for row in ok]
    par = np.abs(seg.unit @ seg.unit.T) > math.cos(math.radians(25))
    out: list[np.ndarray] = []
    seen: set[tuple[int, ...]] = set()
    for i in range(len(nbr)):
        for j in nbr[i]:
            if j < i:
                continue
            for k in nbr[j]:
                if k <= i or not par[i, k]:
                    continue
                for m in np.intersect1d(nbr[k], nbr[i], assume_unique=True):
                    if m == j or m < i or not par[j, m]:
                        continue
                    key = tuple(sorted((i, int(j), int(k), int(m))))
                    if key in seen:
                        continue
                    seen.add(key)
                    q = np.array([at[i, j], at[j, k], at[k, m], at[m, i]])
                    if not cv2.isContourConvex(q.astype(np.float32).reshape(-1, 1, 2)):
                        continue
                    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
                    if sides.min() < min_side:
                        continue
                    if min(_support(edges, q[s], q[(s + 1) % 4]) for s in range(4)) < SUPPORT:
                        continue
                    out.append(clockwise(q))
    return out


def find_quads(
    image: np.ndarray, *, min_side_px: float = 12.0, max_area_frac: float = 0.95
) -> list[Quad]:
    """Every convex quad outlined in `image` (BGR), largest first, near-duplicates merged.

    Outlines are the edge map's closed outlines, and those closed from straight edge segments
    that meet at corners, so an outline that touches other edges (a patterned cloth, art
    reaching the card's edge, the card over it) still closes. `min_side_px`: the shortest
    side kept (image px). Quads are not filtered by aspect: what is a card is the caller's
    question."""
    w = image.shape[1]
    sc = min(1.0, WORK_WIDTH / w)
    small = (
        image if sc == 1.0 else cv2.resize(image, None, fx=sc, fy=sc, interpolation=cv2.INTER_AREA)
    )
    edges = edge_map(small)
    near = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    seg = _Segments.of(_lines_only(edges), max(8.0, 0.6 * min_side_px * sc))
    ok, at = _corners(seg)
    max_area = max_area_frac * small.shape[0] * small.shape[1]
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    found: list[np.ndarray] = []
    cands = _closed_outlines(near, (min_side_px * sc) ** 2, max_area)
    cands += _cycles(seg, ok, at, near, min_side_px * sc)
    cands.sort(key=lambda q: -abs(cv2.contourArea(q.astype(np.float32))))
    for q in cands:
        if abs(cv2.contourArea(q.astype(np.float32))) > max_area:
            continue
        q = refine(gray, q)
        sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
        tol = max(3.0, 0.04 * float(sides.min()))
        if any(_duplicate(q, f, tol) for f in found):
            continue
        found.append(q)
    quads = [Quad(clockwise(q / sc)) for q in found]
    quads.sort(key=lambda q: -q.area)
    return quads


def side_angle(q: Quad) -> float:
    """Direction of the quad's first side, radians in [0, pi)."""
    d = q.corners[1] - q.corners[0]
    return math.atan2(d[1], d[0]) % math.pi
