"""A second, separately written painter of Mirror Mansion boxes: HELD OUT.

ONLY EVER MEASURED, NEVER TUNED ON. No threshold of the reader may be chosen by looking at
these pictures; a failure here is reported, not debugged into the reader.

It shares no drawing code with `companion/games/mirror_mansion/vision/render.py`: only the
camera (`VirtualCamera`, projection), the board model and the answer-key type. Its style is
its own: a cream parchment board with a printed grid of thin dark lines and no slots shown,
flat-shaded pieces drawn as projected polygons (no textures), dark-topped mirrors with a
silver face, square-ish stickers of a different print (rounded squares, not discs), the
room's light as one colour cast, a plain table, and a sleeve instead of an arm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.mirror_mansion.rules.board import FACINGS, SLOTS, Board
from companion.games.mirror_mansion.vision.scene import BoxState, DoorSeen, MirrorSeen
from companion.sim.camera import VirtualCamera
from companion.vision.markers import marker_image

STICKER_GREEN = (60, 190, 30)
STICKER_MAGENTA = (160, 40, 220)
STICKER_ORANGE = (20, 140, 250)


@dataclass(frozen=True)
class HeldOutPhoto:
    image: np.ndarray
    truth: BoxState


def _box(board: Board, rng: np.random.Generator) -> BoxState:
    cells = [board.cells[int(i)] for i in rng.choice(len(board.cells), 5, replace=False)]
    mirrors = []
    for c in cells[:4]:
        s = SLOTS[int(rng.integers(2))]
        mirrors.append(MirrorSeen(c, s, FACINGS[s][int(rng.integers(2))]))
    door = DoorSeen(cells[4], SLOTS[int(rng.integers(2))]) if rng.random() < 0.4 else None
    return BoxState(tuple(mirrors), board.positions[int(rng.integers(12))], door)


def _camera(rng: np.random.Generator) -> VirtualCamera:
    return VirtualCamera.looking_at(
        (150 + rng.uniform(-15, 15), 150 + rng.uniform(-15, 15)),
        rng.uniform(620, 700),
        tilt_deg=rng.uniform(0, 25),
        yaw_deg=rng.uniform(0, 360),
        width=1280,
        height=960,
        hfov_deg=rng.uniform(60, 70),
    )


def _poly(img: np.ndarray, cam: VirtualCamera, pts: np.ndarray, colour) -> None:
    px = cam.project(np.asarray(pts, float))
    cv2.fillPoly(
        img, [np.round(px * 8).astype(np.int32)], tuple(int(c) for c in colour), cv2.LINE_AA, 3
    )


def _rounded_square(c: tuple[float, float], z: float, side: float, turn: float) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    # A superellipse: between a disc and a square, as a die-cut sticker sheet makes them.
    r = side / 2
    x = r * np.sign(np.cos(a)) * np.abs(np.cos(a)) ** 0.6
    y = r * np.sign(np.sin(a)) * np.abs(np.sin(a)) ** 0.6
    ct, st = math.cos(turn), math.sin(turn)
    return np.stack([c[0] + x * ct - y * st, c[1] + x * st + y * ct, np.full(32, z)], axis=1)


def _slab(c, u, length, thick, height) -> list[tuple[np.ndarray, str]]:
    u = np.asarray(u, float) / np.linalg.norm(u)
    v = np.array([-u[1], u[0]])
    c = np.asarray(c, float)

    def p(a, b, top):
        xy = c + a * u * length / 2 + b * v * thick / 2
        return [xy[0], xy[1], -height if top else 0.0]

    return [
        (np.array([p(-1, 1, 1), p(1, 1, 1), p(1, 1, 0), p(-1, 1, 0)]), "front"),
        (np.array([p(1, -1, 1), p(-1, -1, 1), p(-1, -1, 0), p(1, -1, 0)]), "back"),
        (np.array([p(-1, -1, 1), p(1, -1, 1), p(1, 1, 1), p(-1, 1, 1)]), "top"),
    ]


def paint(board: Board, seed: int | tuple[int, ...]) -> HeldOutPhoto:
    rng = np.random.default_rng(list(seed) if isinstance(seed, tuple) else seed)
    truth = _box(board, rng)
    cam = _camera(rng)
    img = np.empty((cam.height, cam.width, 3), np.uint8)
    img[:] = rng.integers(40, 200, 3)
    # The board: parchment, a dark printed grid, corner markers on white.
    _poly(
        img,
        cam,
        [[-25, -25, 0], [325, -25, 0], [325, 325, 0], [-25, 325, 0]],
        (170 + rng.integers(-20, 20), 200 + rng.integers(-20, 20), 215),
    )
    for v in (*board.crossing_x_mm,):
        _poly(
            img,
            cam,
            [[v - 0.7, 20, 0], [v + 0.7, 20, 0], [v + 0.7, 280, 0], [v - 0.7, 280, 0]],
            (60, 50, 40),
        )
        _poly(
            img,
            cam,
            [[20, v - 0.7, 0], [280, v - 0.7, 0], [280, v + 0.7, 0], [20, v + 0.7, 0]],
            (60, 50, 40),
        )
    side = board.marker_side_mm
    for m in board.markers:
        x, y = m.center_mm
        q = side / 2 + 5
        _poly(
            img,
            cam,
            [[x - q, y - q, 0], [x + q, y - q, 0], [x + q, y + q, 0], [x - q, y + q, 0]],
            (245, 245, 245),
        )
        tag = marker_image(m.id, 60)
        cells = 6
        for i in range(cells):
            for j in range(cells):
                if tag[int((i + 0.5) * 10), int((j + 0.5) * 10)] < 128:
                    x0, y0 = x - side / 2 + j * side / cells, y - side / 2 + i * side / cells
                    _poly(
                        img,
                        cam,
                        [
                            [x0, y0, 0],
                            [x0 + side / cells, y0, 0],
                            [x0 + side / cells, y0 + side / cells, 0],
                            [x0, y0 + side / cells, 0],
                        ],
                        (15, 15, 15),
                    )
    # Pieces, far first, each a few flat-shaded faces.
    mh = board.mirror_height_mm + rng.uniform(-2, 2)
    pieces = []
    for m in truth.mirrors:
        u = np.array([1.0, -1.0]) if m.slot == "/" else np.array([1.0, 1.0])
        pieces.append(
            (
                board.crossing_mm(m.cell),
                _slab(board.crossing_mm(m.cell), u, board.mirror_length_mm, 3, mh),
                m,
            )
        )
    if truth.door is not None:
        u = np.array([1.0, -1.0]) if truth.door.slot == "/" else np.array([1.0, 1.0])
        pieces.append(
            (
                board.crossing_mm(truth.door.cell),
                _slab(board.crossing_mm(truth.door.cell), u, board.door_length_mm, 3, 25.0),
                truth.door,
            )
        )
    for p in board.positions:
        u = (1.0, 0.0) if p[0] in "NS" else (0.0, 1.0)
        pieces.append(
            (board.card_mm(p), _slab(board.card_mm(p), u, 52, 2, board.card_height_mm), p)
        )
    pieces.sort(key=lambda t: -math.dist((*t[0], 0), cam.C))
    for centre, faces, what in pieces:
        for quad, name in faces:
            n = np.cross(quad[1] - quad[0], quad[2] - quad[0])
            if float(n @ (cam.C - quad.mean(axis=0))) <= 0 and name != "top":
                continue
            if isinstance(what, MirrorSeen):
                colour = {"front": (200, 200, 195), "back": (60, 60, 70), "top": (55, 55, 60)}
            elif isinstance(what, DoorSeen):
                colour = {"front": (40, 70, 110), "back": (40, 70, 110), "top": (50, 80, 120)}
            else:
                colour = {"front": (150, 170, 180), "back": (90, 60, 120), "top": (215, 225, 230)}
            _poly(img, cam, quad, colour[name])
        turn = rng.uniform(0, math.pi)
        size = rng.uniform(6.5, 11)
        if isinstance(what, MirrorSeen) and what.facing is not None:
            u = (np.array([1.0, -1.0]) if what.slot == "/" else np.array([1.0, 1.0])) / 2**0.5
            nrm = np.array(board.facing_normal(what.facing))
            xy = np.array(centre) + rng.uniform(-17, 17) * u + rng.uniform(2.5, 5.5) * nrm
            _poly(img, cam, _rounded_square(tuple(xy), -mh, size, turn), STICKER_GREEN)
        elif isinstance(what, DoorSeen):
            _poly(img, cam, _rounded_square(centre, -25.0, size, turn), STICKER_ORANGE)
        elif what == truth.window:
            u = np.array([1.0, 0.0]) if what[0] in "NS" else np.array([0.0, 1.0])
            xy = np.array(centre) + rng.uniform(-18, 18) * u
            _poly(
                img,
                cam,
                _rounded_square(tuple(xy), -board.card_height_mm, size, turn),
                STICKER_MAGENTA,
            )
    # A sleeve from the edge of the picture, away from the board's middle.
    if rng.random() < 0.5:
        y = rng.uniform(0, cam.height)
        cv2.ellipse(
            img,
            (0, int(y)),
            (int(rng.uniform(60, 160)), 40),
            0,
            0,
            360,
            tuple(int(c) for c in rng.integers(20, 120, 3)),
            -1,
            cv2.LINE_AA,
        )
    # The room's light, the lens and the file.
    cast = np.array([rng.uniform(0.85, 1.15), 1.0, rng.uniform(0.85, 1.15)], np.float32)
    img = np.clip(img.astype(np.float32) * cast, 0, 255).astype(np.uint8)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.2))
    noise = rng.normal(0, rng.uniform(2, 5), img.shape).astype(np.float32)
    img = np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 95))])
    assert ok
    return HeldOutPhoto(cv2.imdecode(buf, cv2.IMREAD_COLOR), truth)
