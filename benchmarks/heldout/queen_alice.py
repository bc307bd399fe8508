"""A second, separately written painter of Queen Alice's Central board: HELD OUT.

ONLY EVER MEASURED, NEVER TUNED ON. No threshold of the reader may be chosen by looking at
these pictures; a failure here is reported, not debugged into the reader.

It shares no drawing code with `companion/games/queen_alice/vision/render.py`: only the
camera (`VirtualCamera`, projection), the board geometry and the answer-key type. Its two
styles are its own:

- "parchment": a cream-and-brown board with a printed grid of thin ink lines and
  alternating sepia squares, round wooden discs (flat-topped checkers) in red lacquer and
  natural maple, a dark ring at each disc's rim;
- "slate": a dark blue-grey board with hatched squares, tall cylindrical pawns with a
  sphere-like head (a lit disc over a darker body), ruby and pearl coloured;

both with the room's light as one colour cast, a plain table, and a sleeve (any dull
colour) instead of an arm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.queen_alice.vision.geometry import BoardGeometry, Cell
from companion.games.queen_alice.vision.reading import BoardReading, unsure_warning
from companion.sim.camera import VirtualCamera
from companion.vision.markers import marker_image

HELD_OUT_STYLES = ("parchment", "slate")


@dataclass(frozen=True)
class HeldOutPhoto:
    image: np.ndarray
    truth: BoardReading
    near_arm: frozenset[Cell]
    position: BoardReading
    style: str


def _position(geom: BoardGeometry, rng: np.random.Generator) -> BoardReading:
    n = int(rng.integers(4, 19))
    cells = [geom.cells[int(i)] for i in rng.choice(len(geom.cells), n, replace=False)]
    squares = {c: ("red" if rng.random() < 0.5 else "white") for c in cells}
    alice = {k: int(rng.integers(0, len(geom.paths[k]))) for k in ("red", "white")}
    return BoardReading(
        squares, frozenset(), int(rng.integers(0, len(geom.crown_slots) + 1)), alice
    )


def _camera(geom: BoardGeometry, rng: np.random.Generator) -> VirtualCamera:
    w, h = geom.board_mm
    size = (1280, 960) if rng.random() < 0.7 else (1920, 1440)
    for dist in np.linspace(360, 700, 18):
        cam = VirtualCamera.looking_at(
            (w / 2 + rng.uniform(-15, 15), h / 2 + rng.uniform(-15, 15)),
            float(dist),
            tilt_deg=float(rng.uniform(0, 25)),
            yaw_deg=float(rng.uniform(0, 360)),
            width=size[0],
            height=size[1],
            hfov_deg=float(rng.uniform(55, 75)),
        )
        corners = np.array(
            [[-20, -20, -35], [w + 20, -20, -35], [w + 20, h + 20, -35], [-20, h + 20, -35]], float
        )
        p = cam.project(corners)
        if (
            (p.min(axis=0) > 10).all()
            and (p[:, 0] < size[0] - 10).all()
            and (p[:, 1] < size[1] - 10).all()
        ):
            return cam
    return cam


def _fill(img: np.ndarray, cam: VirtualCamera, pts3: np.ndarray, colour) -> None:
    p = cam.project(np.asarray(pts3, float))
    cv2.fillPoly(img, [np.round(p * 8).astype(np.int32)], colour, cv2.LINE_AA, 3)


def _circle3(c: tuple[float, float], r: float, z: float, n: int = 36) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a), np.full(n, -z)], axis=1)


def _board(
    img: np.ndarray, cam: VirtualCamera, geom: BoardGeometry, style: str, rng: np.random.Generator
) -> None:
    w, h = geom.board_mm
    ground = (150, 200, 225) if style == "parchment" else (80, 70, 60)
    ground = tuple(int(v + rng.uniform(-12, 12)) for v in ground)
    _fill(
        img,
        cam,
        np.array([[-16, -16, 0], [w + 16, -16, 0], [w + 16, h + 16, 0], [-16, h + 16, 0]], float),
        ground,
    )
    sq = geom.square_mm
    if style == "parchment":
        light, dark = (170, 215, 235), (95, 140, 175)
    else:
        light, dark = (120, 110, 100), (70, 62, 55)
    for cell in geom.cells:
        x, y = geom.cell_mm(cell)
        colour = light if (cell[0] + cell[1]) % 2 == 0 else dark
        _fill(
            img,
            cam,
            np.array(
                [
                    [x - sq / 2, y - sq / 2, 0],
                    [x + sq / 2, y - sq / 2, 0],
                    [x + sq / 2, y + sq / 2, 0],
                    [x - sq / 2, y + sq / 2, 0],
                ]
            ),
            colour,
        )
        if style == "slate" and colour == dark:  # hatching
            for k in range(-3, 4):
                a = np.array(
                    [
                        [x + k * sq / 7 - sq / 4, y - sq / 2.2, 0],
                        [x + k * sq / 7 + sq / 4, y + sq / 2.2, 0],
                    ]
                )
                pa = cam.project(a)
                cv2.line(
                    img,
                    tuple(np.round(pa[0]).astype(int)),
                    tuple(np.round(pa[1]).astype(int)),
                    (88, 80, 72),
                    1,
                    cv2.LINE_AA,
                )
    (gx0, gy0), (gx1, gy1) = geom.grid_box_mm
    ink = (40, 50, 70) if style == "parchment" else (150, 150, 150)
    for k in range(geom.cols + 1):
        p = cam.project(np.array([[gx0 + k * sq, gy0, 0], [gx0 + k * sq, gy1, 0]], float))
        cv2.line(
            img,
            tuple(np.round(p[0]).astype(int)),
            tuple(np.round(p[1]).astype(int)),
            ink,
            1,
            cv2.LINE_AA,
        )
    for k in range(geom.rows + 1):
        p = cam.project(np.array([[gx0, gy0 + k * sq, 0], [gx1, gy0 + k * sq, 0]], float))
        cv2.line(
            img,
            tuple(np.round(p[0]).astype(int)),
            tuple(np.round(p[1]).astype(int)),
            ink,
            1,
            cv2.LINE_AA,
        )
    for spot in [*geom.paths["red"], *geom.paths["white"], *geom.crown_slots]:
        ring = _circle3(spot, geom.token_mm * 0.62, 0)
        p = cam.project(ring)
        cv2.polylines(img, [np.round(p).astype(np.int32)], True, ink, 1, cv2.LINE_AA)
    side = geom.marker_side_mm
    for m in geom.markers:
        cx, cy = m.center_mm
        q = side / 2 + 3
        _fill(
            img,
            cam,
            np.array(
                [[cx - q, cy - q, 0], [cx + q, cy - q, 0], [cx + q, cy + q, 0], [cx - q, cy + q, 0]]
            ),
            (245, 245, 245),
        )
        tag = cv2.cvtColor(marker_image(m.id, 120), cv2.COLOR_GRAY2BGR)
        src = np.float32([[0, 0], [119, 0], [119, 119], [0, 119]])
        half = side / 2
        dst = cam.project(
            np.array(
                [
                    [cx - half, cy - half],
                    [cx + half, cy - half],
                    [cx + half, cy + half],
                    [cx - half, cy + half],
                ]
            )
        )
        M = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        warped = cv2.warpPerspective(
            tag, M, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR, borderValue=(1, 2, 3)
        )
        mask = cv2.warpPerspective(
            np.full((120, 120), 255, np.uint8), M, (img.shape[1], img.shape[0])
        )
        img[mask > 128] = warped[mask > 128]


def _cylinder(
    img: np.ndarray,
    cam: VirtualCamera,
    c: tuple[float, float],
    r: float,
    h: float,
    side_colour,
    top_colour,
) -> None:
    """A vertical cylinder: its silhouette hull (body) then its lit top."""
    body = np.vstack([_circle3(c, r, 0), _circle3(c, r, h)])
    p = cam.project(body)
    hull = cv2.convexHull(p.astype(np.float32))
    cv2.fillConvexPoly(
        img, np.round(hull.reshape(-1, 2) * 8).astype(np.int32), side_colour, cv2.LINE_AA, 3
    )
    _fill(img, cam, _circle3(c, r, h), top_colour)


def _pieces(
    img: np.ndarray,
    cam: VirtualCamera,
    geom: BoardGeometry,
    position: BoardReading,
    style: str,
    rng: np.random.Generator,
) -> None:
    sq = geom.square_mm
    red = (40, 30, 170) if style == "parchment" else (70, 20, 150)
    white = (190, 215, 230) if style == "parchment" else (225, 228, 232)
    things = []
    for cell, colour in position.squares.items():
        x, y = geom.cell_mm(cell)
        c = (x + rng.uniform(-1.5, 1.5), y + rng.uniform(-1.5, 1.5))
        things.append((c, red if colour == "red" else white, "piece"))
    gold = (40, 190, 230)
    for i in rng.permutation(len(geom.crown_slots))[: position.crowns_left or 0]:
        things.append((geom.crown_slots[int(i)], gold, "token"))
    for k in ("red", "white"):
        i = position.alice[k]
        if i is not None:
            things.append((geom.paths[k][i], red if k == "red" else white, "token"))
    # far from the camera first
    things.sort(key=lambda t: -float(np.linalg.norm(np.array([*t[0], 0.0]) - cam.C)))
    for c, colour, kind in things:
        darker = tuple(int(v * 0.7) for v in colour)
        if kind == "token":
            _cylinder(img, cam, c, geom.token_mm * 0.48, 4, darker, colour)
        elif style == "parchment":
            _cylinder(img, cam, c, sq * 0.33, 6, darker, colour)
            ring = cam.project(_circle3(c, sq * 0.3, 6))
            cv2.polylines(
                img,
                [np.round(ring).astype(np.int32)],
                True,
                tuple(int(v * 0.5) for v in colour),
                2,
                cv2.LINE_AA,
            )
        else:
            _cylinder(img, cam, c, sq * 0.3, 4, darker, darker)
            _cylinder(img, cam, c, sq * 0.2, sq * 0.7, darker, colour)
            head = cam.project(np.array([[c[0], c[1], -sq * 0.8]]))[0]
            rr = cam.px_per_mm_at(c) * sq * 0.17
            cv2.circle(
                img, tuple(np.round(head).astype(int)), max(2, int(rr)), colour, -1, cv2.LINE_AA
            )


def _sleeve(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    start = (
        np.array([rng.uniform(0, w), h + 50.0])
        if rng.random() < 0.5
        else np.array([-50.0, rng.uniform(0, h)])
    )
    end = np.array([rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h])
    width = int(rng.uniform(0.05, 0.08) * w)
    cv2.line(mask, tuple(start.astype(int)), tuple(end.astype(int)), 255, width)
    cv2.circle(mask, tuple(end.astype(int)), int(width * 0.6), 255, -1)
    hue = rng.uniform(0, 180)
    px = np.uint8([[[int(hue), int(rng.uniform(60, 140)), int(rng.uniform(70, 200))]]])
    colour = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    img[mask > 0] = colour
    return mask


def paint(geom: BoardGeometry, seed: int | tuple[int, ...]) -> HeldOutPhoto:
    rng = np.random.default_rng(list(seed) if isinstance(seed, tuple) else seed)
    style = HELD_OUT_STYLES[int(rng.integers(len(HELD_OUT_STYLES)))]
    position = _position(geom, rng)
    cam = _camera(geom, rng)
    img = np.empty((cam.height, cam.width, 3), np.uint8)
    img[:] = tuple(int(v) for v in rng.uniform(40, 200, 3))
    _board(img, cam, geom, style, rng)
    _pieces(img, cam, geom, position, style, rng)
    mask = _sleeve(img, rng) if rng.random() < 0.5 else np.zeros(img.shape[:2], np.uint8)
    cast = rng.uniform(0.88, 1.12, 3)
    out = img.astype(np.float32) * cast
    out += rng.normal(0, rng.uniform(1, 4), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 95))])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth, near = _hidden(geom, position, cam, mask)
    return HeldOutPhoto(out, truth, near, position, style)


def paint_empty(geom: BoardGeometry, seed: int | tuple[int, ...]) -> np.ndarray:
    """The "teach your board" photograph of the box `paint(geom, seed)` draws: the same
    board with nothing on it, from another pose, on another table, in another light."""
    seeds = list(seed) if isinstance(seed, tuple) else [seed]
    rng = np.random.default_rng(seeds)
    style = HELD_OUT_STYLES[int(rng.integers(len(HELD_OUT_STYLES)))]
    _position(geom, rng)
    _camera(geom, rng)
    rng.uniform(40, 200, 3)  # the table's colour in `paint`: the board's own choices follow
    other = np.random.default_rng([*seeds, len(seeds)])
    cam = _camera(geom, other)
    img = np.empty((cam.height, cam.width, 3), np.uint8)
    img[:] = tuple(int(v) for v in other.uniform(40, 200, 3))
    _board(img, cam, geom, style, rng)
    out = img.astype(np.float32) * other.uniform(0.88, 1.12, 3)
    out += other.normal(0, other.uniform(1, 4), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(other.integers(70, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _hidden(
    geom: BoardGeometry, position: BoardReading, cam: VirtualCamera, mask: np.ndarray
) -> tuple[BoardReading, frozenset[Cell]]:
    """Squares the sleeve hides (must be unsure or right) and comes near (may be unsure)."""
    if not mask.any():
        return position, frozenset()
    near_mask = cv2.dilate(mask, np.ones((9, 9), np.uint8))

    def touches(m: np.ndarray, pts3: np.ndarray) -> bool:
        p = np.round(cam.project(pts3)).astype(int)
        poly = np.zeros_like(m)
        cv2.fillConvexPoly(poly, cv2.convexHull(p.astype(np.int32)), 255)
        return bool((poly & m).any())

    hidden, near = set(), set()
    sq = geom.square_mm
    for cell in geom.cells:
        x, y = geom.cell_mm(cell)
        box = np.array(
            [
                [x + dx, y + dy, z]
                for dx in (-sq / 2, sq / 2)
                for dy in (-sq / 2, sq / 2)
                for z in (0, -sq)
            ],
            float,
        )
        if touches(near_mask, box):
            near.add(cell)
            if touches(mask, box):
                hidden.add(cell)
    crowns = position.crowns_left
    r = geom.token_mm * 0.7
    if any(touches(near_mask, _circle3(s, r, 0, 8)) for s in geom.crown_slots):
        crowns = None
    alice = {
        k: (None if any(touches(near_mask, _circle3(s, r, 0, 8)) for s in geom.paths[k]) else v)
        for k, v in position.alice.items()
    }
    squares = {c: v for c, v in position.squares.items() if c not in hidden}
    warnings = tuple(unsure_warning(c, "a sleeve over it") for c in sorted(hidden))
    return BoardReading(squares, frozenset(hidden), crowns, alice, {}, warnings), frozenset(near)
