"""Things that stand up from the table, drawn as a camera would see them.

A renderer describes each standing piece (a mirror, a card on edge, a screen, a die) as a
convex `Solid` of flat `Face`s in board millimetres (z < 0 above the board) and hands the lot
to `draw_solids`, which paints them through a `VirtualCamera` far to near. Games share this
so that a piece at its true height looks the same way in every game's synthetic photograph.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.sim.camera import VirtualCamera


@dataclass
class Face:
    quad: np.ndarray
    """4×3 world points, counter-clockwise seen from outside."""
    normal: np.ndarray
    paint: tuple[int, int, int] | np.ndarray
    """A colour, or a texture warped onto the quad (its corners 0..3 = texture TL,TR,BR,BL)."""


@dataclass
class Solid:
    faces: list[Face]
    centre: np.ndarray
    decals: list[tuple[np.ndarray, tuple[int, int, int]]]
    """Flat polygons (N×3 world points) painted on the top after the faces, e.g. dots."""


Paint = tuple[int, int, int] | np.ndarray


def slab(
    centre_xy: tuple[float, float] | np.ndarray,
    u: np.ndarray,
    length: float,
    thickness: float,
    top_mm: float,
    paints: dict[str, Paint],
    *,
    bottom_mm: float = 0.0,
) -> Solid:
    """An upright box standing from `bottom_mm` to `top_mm` above the board: `u` along its
    length, `v` (u turned a quarter) through its thickness. `paints` names the `front` (the
    face toward +v, a texture upright and left to right as seen from there), the `back`,
    both `end`s and the `top`: mirrors, cards on edge, doors, dice and screens are all one."""
    u = np.asarray(u, np.float64) / np.linalg.norm(u)
    v = np.array([-u[1], u[0]])
    c = np.array([centre_xy[0], centre_xy[1]])

    def p(a: float, b: float, top: bool) -> np.ndarray:
        xy = c + a * u * length / 2 + b * v * thickness / 2
        return np.array([xy[0], xy[1], -top_mm if top else -bottom_mm])

    up = np.array([0.0, 0.0, -1.0])
    u3, v3 = np.array([u[0], u[1], 0.0]), np.array([v[0], v[1], 0.0])
    faces = [
        Face(
            np.array([p(-1, 1, True), p(1, 1, True), p(1, 1, False), p(-1, 1, False)]),
            v3,
            paints["front"],
        ),
        Face(
            np.array([p(1, -1, True), p(-1, -1, True), p(-1, -1, False), p(1, -1, False)]),
            -v3,
            paints["back"],
        ),
        Face(
            np.array([p(1, 1, True), p(1, -1, True), p(1, -1, False), p(1, 1, False)]),
            u3,
            paints["end"],
        ),
        Face(
            np.array([p(-1, -1, True), p(-1, 1, True), p(-1, 1, False), p(-1, -1, False)]),
            -u3,
            paints["end"],
        ),
        Face(
            np.array([p(-1, -1, True), p(1, -1, True), p(1, 1, True), p(-1, 1, True)]),
            up,
            paints["top"],
        ),
    ]
    return Solid(faces, np.array([c[0], c[1], -(bottom_mm + top_mm) / 2]), [])


def _paint_face(img: np.ndarray, quad_px: np.ndarray, paint: Paint, shade: float) -> None:
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad_px.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad_px.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    local = (quad_px - [x0, y0]).astype(np.float32)
    mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(local * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    if isinstance(paint, np.ndarray):
        th, tw = paint.shape[:2]
        src = np.array([[0, 0], [tw - 1, 0], [tw - 1, th - 1], [0, th - 1]], np.float32)
        M = cv2.getPerspectiveTransform(src, local)
        layer = cv2.warpPerspective(
            paint, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        ).astype(np.float32)
    else:
        layer = np.empty(roi.shape, np.float32)
        layer[:] = paint
    layer *= shade
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi[:] = np.clip(roi * (1 - a) + layer * a, 0, 255).astype(np.uint8)


def draw_solids(
    img: np.ndarray, cam: VirtualCamera, solids: list[Solid], light_dir: np.ndarray
) -> None:
    """Painter's algorithm: far solids first; within one convex solid, only faces toward us."""
    order = sorted(solids, key=lambda s: -float(np.linalg.norm(s.centre - cam.C)))
    for s in order:
        for f in s.faces:
            centre = f.quad.mean(axis=0)
            if float(f.normal @ (cam.C - centre)) <= 0:
                continue
            shade = 0.65 + 0.45 * max(0.0, float(f.normal @ light_dir))
            _paint_face(img, cam.project(f.quad), f.paint, shade)
        for poly, color in s.decals:
            pts = cam.project(poly)
            cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], color, cv2.LINE_AA, 4)
