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


def _paint_face(
    img: np.ndarray, quad_px: np.ndarray, paint: tuple[int, int, int] | np.ndarray, shade: float
) -> None:
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
        src = np.float32([[0, 0], [tw - 1, 0], [tw - 1, th - 1], [0, th - 1]])
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
