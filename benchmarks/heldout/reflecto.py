"""A second, separately written painter of Reflecto boards: HELD OUT.

ONLY EVER MEASURED, NEVER TUNED ON. No threshold of the reader may be chosen by looking at
these pictures; a failure here is reported, not debugged into the reader.

It shares no drawing code with `companion/games/reflecto/vision/render.py` (nor the shared
`sim.solids`, `sim.effects` or `sim.conditions`): only the camera (`VirtualCamera`,
projection), the board geometry, the answer-key type and the ArUco marker image. Its styles
are its own:

- "walnut": a dark wooden board with grain streaks and engraved grid grooves, screens of
  toy-box plastic (a fixed palette of six colours), each a flat-shaded box on a wider foot,
  a cream tile on the face toward the owner;
- "felt": a green or blue baize board with chalk-white lines and a printed dot in every
  square, screens in pastel plastic with a darker rim drawn round the top;

both with one lamp whose reflection may wash out part of a screen's top (from a small spot
to most of it), the room's light as one colour cast, a plain table, a sleeve (any dull
colour) reaching in from the board's edge, noise and JPEG.

The answer key: every screen, with `near_sleeve` the squares the sleeve comes near (there
the reader may abstain) and `washed` the squares whose top is mostly glare (there too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.games.reflecto.vision.geometry import BoardGeometry, Cell
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.sim.camera import VirtualCamera
from companion.vision.markers import marker_image

HELD_OUT_STYLES = ("walnut", "felt")
TOY_PLASTIC = {  # BGR
    "red": (40, 35, 200),
    "blue": (190, 90, 30),
    "yellow": (30, 200, 235),
    "green": (60, 160, 40),
    "orange": (20, 120, 240),
    "purple": (150, 50, 120),
}
PASTEL = {
    "pink": (170, 140, 240),
    "sky": (235, 190, 120),
    "mint": (170, 225, 140),
    "lemon": (120, 230, 245),
    "lilac": (220, 150, 180),
}


@dataclass(frozen=True)
class HeldOutPhoto:
    image: np.ndarray
    truth: BoardReading
    near_sleeve: frozenset[Cell]
    washed: frozenset[Cell]
    style: str
    setup: np.ndarray | None = None
    board: np.ndarray | None = None


def _position(geom: BoardGeometry, rng: np.random.Generator) -> BoardReading:
    counts = [int(rng.integers(1, 8)), int(rng.integers(1, 8))]
    picks = rng.choice(len(geom.cells), sum(counts), replace=False)
    return BoardReading(
        tuple(
            ScreenSeen(geom.cells[int(p)], 0 if i < counts[0] else 1) for i, p in enumerate(picks)
        )
    )


def _camera(geom: BoardGeometry, rng: np.random.Generator) -> VirtualCamera:
    w, h = geom.size_mm
    size = (1280, 960) if rng.random() < 0.75 else (1600, 1200)
    cam = None
    for dist in np.linspace(420, 800, 20):
        cam = VirtualCamera.looking_at(
            (w / 2 + rng.uniform(-10, 10), h / 2 + rng.uniform(-10, 10)),
            float(dist),
            tilt_deg=float(rng.uniform(0, 25)),
            yaw_deg=float(rng.uniform(0, 360)),
            width=size[0],
            height=size[1],
            hfov_deg=float(rng.uniform(55, 72)),
        )
        rim = 22.0
        pts = np.array(
            [
                [x, y, z]
                for x in (-rim, w + rim)
                for y in (-rim, h + rim)
                for z in (0.0, -geom.screen_height_mm)
            ]
        )
        p = cam.project(pts)
        if (
            (p.min(axis=0) > 12).all()
            and (p[:, 0] < size[0] - 12).all()
            and (p[:, 1] < size[1] - 12).all()
        ):
            return cam
    assert cam is not None
    return cam


def _poly(img: np.ndarray, cam: VirtualCamera, pts3: np.ndarray, colour: tuple) -> None:
    p = cam.project(np.asarray(pts3, float))
    cv2.fillPoly(img, [np.round(p * 8).astype(np.int32)], colour, cv2.LINE_AA, 3)


def _rect3(x0: float, y0: float, x1: float, y1: float, z: float = 0.0) -> np.ndarray:
    return np.array([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]], float)


def _board(
    img: np.ndarray, cam: VirtualCamera, geom: BoardGeometry, style: str, rng: np.random.Generator
) -> None:
    w, h = geom.size_mm
    rim = 20.0
    sq = geom.square_mm
    (gx0, gy0), (gx1, gy1) = geom.grid_box_mm
    if style == "walnut":
        base = np.array([40, 70, 105]) + rng.uniform(-15, 15, 3)
        _poly(img, cam, _rect3(-rim, -rim, w + rim, h + rim), tuple(int(v) for v in base))
        for _ in range(60):  # grain
            y = rng.uniform(-rim, h + rim)
            shade = tuple(int(v) for v in np.clip(base * rng.uniform(0.75, 1.25), 0, 255))
            _poly(img, cam, _rect3(-rim, y, w + rim, y + rng.uniform(0.5, 3)), shade)
        groove = tuple(int(v) for v in base * 0.45)
        width = 1.2
    else:
        felt = (50, 110, 40) if rng.random() < 0.5 else (110, 60, 30)
        felt = tuple(int(v + rng.uniform(-12, 12)) for v in felt)
        _poly(img, cam, _rect3(-rim, -rim, w + rim, h + rim), felt)
        groove = (225, 230, 230)
        width = 0.8
        for cell in geom.cells:
            x, y = geom.cell_mm(cell)
            ring = np.array(
                [
                    [x + 3 * math.cos(a), y + 3 * math.sin(a), 0]
                    for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)
                ]
            )
            _poly(img, cam, ring, (200, 205, 205))
    for k in range(geom.cols + 1):
        x = gx0 + k * sq
        _poly(img, cam, _rect3(x - width / 2, gy0, x + width / 2, gy1), groove)
    for k in range(geom.rows + 1):
        y = gy0 + k * sq
        _poly(img, cam, _rect3(gx0, y - width / 2, gx1, y + width / 2), groove)
    side = geom.marker_side_mm
    for m in geom.markers:
        cx, cy = m.center_mm
        q = side / 2 + 3.5
        _poly(img, cam, _rect3(cx - q, cy - q, cx + q, cy + q), (242, 244, 244))
        tag = cv2.cvtColor(marker_image(m.id, 160), cv2.COLOR_GRAY2BGR)
        src = np.float32([[0, 0], [159, 0], [159, 159], [0, 159]])
        half = side / 2
        dst = cam.project(_rect3(cx - half, cy - half, cx + half, cy + half)).astype(np.float32)
        M = cv2.getPerspectiveTransform(src, dst)
        size = (img.shape[1], img.shape[0])
        warped = cv2.warpPerspective(tag, M, size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((160, 160), 255, np.uint8), M, size)
        img[mask > 128] = warped[mask > 128]


def _box_faces(
    centre: np.ndarray, u: np.ndarray, length: float, depth: float, z0: float, z1: float
) -> list[tuple[str, np.ndarray]]:
    """A box's faces as (name, 4x3 corners); `u` along its length, v toward +y of u's turn."""
    v = np.array([-u[1], u[0]])
    a, b = u * length / 2, v * depth / 2
    c2 = [centre - a - b, centre + a - b, centre + a + b, centre - a + b]

    def at(p: np.ndarray, z: float) -> list[float]:
        return [float(p[0]), float(p[1]), -z]

    return [
        ("v-", np.array([at(c2[0], z0), at(c2[1], z0), at(c2[1], z1), at(c2[0], z1)])),
        ("u+", np.array([at(c2[1], z0), at(c2[2], z0), at(c2[2], z1), at(c2[1], z1)])),
        ("v+", np.array([at(c2[2], z0), at(c2[3], z0), at(c2[3], z1), at(c2[2], z1)])),
        ("u-", np.array([at(c2[3], z0), at(c2[0], z0), at(c2[0], z1), at(c2[3], z1)])),
        ("top", np.array([at(p, z1) for p in c2])),
    ]


def _shade(colour: tuple, k: float) -> tuple[int, int, int]:
    b, g, r = (int(np.clip(c * k, 0, 255)) for c in colour)
    return b, g, r


def _screens(
    img: np.ndarray,
    cam: VirtualCamera,
    geom: BoardGeometry,
    position: BoardReading,
    plastics: tuple[tuple, tuple],
    style: str,
    rng: np.random.Generator,
    lamp_seed: int,
) -> set[Cell]:
    """Draws the screens far to near; returns the squares whose top is mostly glare."""
    washed: set[Cell] = set()
    order = sorted(
        position.screens,
        key=lambda s: -float(np.linalg.norm(np.array([*geom.cell_mm(s.cell), 0.0]) - cam.C)),
    )
    lr = np.random.default_rng(lamp_seed)
    lamp = np.array([lr.uniform(-0.5, 0.5), lr.uniform(-0.5, 0.5), -1.0])
    lamp /= np.linalg.norm(lamp)
    for s in order:
        x, y = geom.cell_mm(s.cell)
        skew = math.radians(rng.uniform(-5, 5))
        centre = np.array([x + rng.uniform(-1.2, 1.2), y + rng.uniform(-1.2, 1.2)])
        u = np.array([math.cos(skew), math.sin(skew)])
        toward_owner = 1.0 if s.owner == 0 else -1.0  # seat 0 sits at +y
        plastic = plastics[s.owner]
        v = np.array([-u[1], u[0]])
        normals = {"u+": u, "u-": -u, "v+": v, "v-": -v}
        for z0, z1, depth in (
            (0.0, geom.foot_height_mm, geom.foot_depth_mm),
            (geom.foot_height_mm, geom.screen_height_mm, geom.screen_thickness_mm),
        ):
            faces = _box_faces(centre, u, geom.screen_width_mm, depth, z0, z1)
            # Faces turned away from the camera first (the top last).
            sides = [f for f in faces if f[0] != "top"]
            sides.sort(key=lambda f: -float(np.linalg.norm(f[1][:, :2].mean(axis=0) - cam.C[:2])))
            for name, quad in sides:
                n = normals[name]
                lit = 0.55 + 0.35 * max(0.0, float(-(n[0] * lamp[0] + n[1] * lamp[1])))
                _poly(img, cam, quad, _shade(plastic, lit))
                if z0 > 0 and n[1] * toward_owner > 0.7:  # the tile faces the owner
                    mid = quad.mean(axis=0)
                    tile = mid + (quad - mid) * np.array([0.82, 0.82, 0.7])
                    _poly(img, cam, tile, _shade((225, 235, 240), lit))
            top = faces[-1][1]
            _poly(img, cam, top, _shade(plastic, 1.0))
            if style == "felt" and z0 > 0:
                p = cam.project(top)
                cv2.polylines(
                    img,
                    [np.round(p * 8).astype(np.int32)],
                    True,
                    _shade(plastic, 0.6),
                    1,
                    cv2.LINE_AA,
                    3,
                )
        if rng.random() < 0.3:  # the lamp on the glossy top
            cover = float(rng.uniform(0.15, 1.0))
            rx = geom.screen_width_mm / 2 * cover
            ry = geom.screen_thickness_mm / 2 * min(1.0, cover * 1.5)
            t = rng.uniform(-1, 1) * (geom.screen_width_mm / 2 - rx)
            c = centre + u * t
            ring = np.array(
                [
                    [*(c + u * rx * math.cos(a) + v * ry * math.sin(a)), -geom.screen_height_mm]
                    for a in np.linspace(0, 2 * math.pi, 20, endpoint=False)
                ]
            )
            glow = np.zeros(img.shape[:2], np.uint8)
            p = cam.project(ring)
            cv2.fillPoly(glow, [np.round(p * 8).astype(np.int32)], 255, cv2.LINE_AA, 3)
            glow = cv2.GaussianBlur(glow, (0, 0), 1.5).astype(np.float32)[..., None] / 255
            img[:] = (img * (1 - glow) + 250 * glow).astype(np.uint8)
            if cover >= 0.5:
                washed.add(s.cell)
    return washed


def _sleeve(img: np.ndarray, cam: VirtualCamera, geom: BoardGeometry, rng: np.random.Generator):
    """A sleeve from beyond one edge of the board to a point over it; its mask."""
    w, h = geom.size_mm
    edge = int(rng.integers(4))
    t = rng.uniform(0.15, 0.85)
    start = [(t * w, -150.0), (w + 150.0, t * h), (t * w, h + 150.0), (-150.0, t * h)][edge]
    end = (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h)
    a, b = cam.project(np.array([[*start, -120.0], [*end, -70.0]]))
    mask = np.zeros(img.shape[:2], np.uint8)
    width = max(8, int(cam.px_per_mm_at(end) * rng.uniform(55, 80)))
    cv2.line(mask, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), 255, width)
    cv2.circle(mask, tuple(np.round(b).astype(int)), int(width * 0.55), 255, -1)
    hue = rng.uniform(0, 180)
    px = np.uint8([[[int(hue), int(rng.uniform(20, 90)), int(rng.uniform(50, 170))]]])
    img[mask > 0] = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
    return mask


def _near(cam: VirtualCamera, geom: BoardGeometry, mask: np.ndarray) -> frozenset[Cell]:
    """Squares whose column of air, board to a screen's top, the sleeve comes near."""
    grown = cv2.dilate(mask, np.ones((11, 11), np.uint8))
    out = set()
    half = geom.square_mm / 2
    for cell in geom.cells:
        x, y = geom.cell_mm(cell)
        pts = np.array(
            [
                [x + dx, y + dy, z]
                for dx in (-half, half)
                for dy in (-half, half)
                for z in (0.0, -geom.screen_height_mm)
            ]
        )
        p = cam.project(pts)
        poly = np.zeros_like(mask)
        cv2.fillConvexPoly(poly, cv2.convexHull(np.round(p).astype(np.int32)), 255)
        if (poly & grown).any():
            out.add(cell)
    return frozenset(out)


def start_position(geom: BoardGeometry) -> BoardReading:
    """Every screen on its seat's first row (as many as fit)."""
    first = max(0, (geom.cols - 7) // 2)
    return BoardReading(
        tuple(
            ScreenSeen((0 if o == 0 else geom.rows - 1, first + i), o)
            for o in (0, 1)
            for i in range(min(7, geom.cols))
        )
    )


def paint(
    geom: BoardGeometry,
    seed: int | tuple[int, ...],
    *,
    setup: bool = False,
    board: bool = False,
) -> HeldOutPhoto:
    """The held-out photograph number `seed`; `setup` also paints the start position on the
    same table under the same camera and lamp (`HeldOutPhoto.setup`); `board` the same board
    empty from another camera on another table in another light (`HeldOutPhoto.board`).
    Neither changes the photograph."""
    rng = np.random.default_rng(list(seed) if isinstance(seed, tuple) else seed)
    style = HELD_OUT_STYLES[int(rng.integers(len(HELD_OUT_STYLES)))]
    position = _position(geom, rng)
    palette = TOY_PLASTIC if style == "walnut" else PASTEL
    names = rng.choice(sorted(palette), 2, replace=False)
    plastics = (palette[str(names[0])], palette[str(names[1])])
    cam = _camera(geom, rng)
    base = np.empty((cam.height, cam.width, 3), np.uint8)
    base[:] = tuple(int(v) for v in rng.uniform(60, 190, 3))
    before_board = rng.bit_generator.state
    _board(base, cam, geom, style, rng)
    cast = rng.uniform(0.85, 1.12, 3)
    lamp_seed = int(rng.integers(1 << 31))

    def photograph(img: np.ndarray) -> np.ndarray:
        out = img.astype(np.float32) * cast
        out += rng.normal(0, rng.uniform(1, 4), out.shape)
        out = np.clip(out, 0, 255).astype(np.uint8)
        q = int(rng.integers(70, 95))
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)

    img = base.copy()
    washed = _screens(img, cam, geom, position, plastics, style, rng, lamp_seed)
    near: frozenset[Cell] = frozenset()
    if rng.random() < 0.5:
        near = _near(cam, geom, _sleeve(img, cam, geom, rng))
    first = None
    if setup:
        start = base.copy()
        _screens(start, cam, geom, start_position(geom), plastics, style, rng, lamp_seed)
        first = photograph(start)
    empty = _empty(geom, style, before_board, rng.spawn(1)[0]) if board else None
    return HeldOutPhoto(photograph(img), position, near, frozenset(washed), style, first, empty)


def _empty(
    geom: BoardGeometry, style: str, before_board: Any, other: np.random.Generator
) -> np.ndarray:
    """The board `paint` drew (its draws replayed), empty, through another camera."""
    again = np.random.default_rng()
    again.bit_generator.state = before_board
    cam = _camera(geom, other)
    img = np.empty((cam.height, cam.width, 3), np.uint8)
    img[:] = tuple(int(v) for v in other.uniform(60, 190, 3))
    _board(img, cam, geom, style, again)
    out = img.astype(np.float32) * other.uniform(0.8, 1.15, 3)
    out *= np.linspace(other.uniform(0.8, 1.0), other.uniform(1.0, 1.2), cam.width)[None, :, None]
    out += other.normal(0, other.uniform(1, 4), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(other.integers(70, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
