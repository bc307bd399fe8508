"""Procedural card faces for the simulated Looking Glass, drawn afresh for every seed.

The companion owns no card art; users teach it their own copy. These faces stand in for that
copy in renders, tests and benchmarks. Like the real cards they have a light border, and each
character differs most in its UPPER half (a two-colour name banner and a glyph pattern), since
covered cards show only their upper half. The interior is kept saturated or dark, never white,
so the border stays the one light frame around it, as on most printed cards.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.looking_glass.library import CARD_W_MM

CARD_H_MM = 88.0
BORDER_MM = 4.0
FACE_PX_PER_MM = 4.0
SHAPES = ("circle", "square", "triangle", "diamond", "star", "ring", "bar", "cross")


@dataclass(frozen=True)
class CardArt:
    card_id: str
    face: np.ndarray
    """BGR card face, upright, at `FACE_PX_PER_MM` (border included)."""


def _hsv_bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return (int(b * 255), int(g * 255), int(r * 255))


def _shape(img: np.ndarray, kind: str, c: tuple[float, float], r: float, color) -> None:
    cx, cy = c
    if kind == "circle":
        cv2.circle(img, (int(cx), int(cy)), int(r), color, -1, cv2.LINE_AA)
    elif kind == "ring":
        cv2.circle(img, (int(cx), int(cy)), int(r), color, max(2, int(r / 3)), cv2.LINE_AA)
    elif kind == "square":
        cv2.rectangle(img, (int(cx - r), int(cy - r)), (int(cx + r), int(cy + r)), color, -1)
    elif kind == "bar":
        p0, p1 = (int(cx - r), int(cy - r / 3)), (int(cx + r), int(cy + r / 3))
        cv2.rectangle(img, p0, p1, color, -1)
    elif kind == "cross":
        t = max(2, int(r / 2.5))
        cv2.line(img, (int(cx - r), int(cy - r)), (int(cx + r), int(cy + r)), color, t, cv2.LINE_AA)
        cv2.line(img, (int(cx - r), int(cy + r)), (int(cx + r), int(cy - r)), color, t, cv2.LINE_AA)
    else:
        n, inner = {"triangle": (3, 1.0), "diamond": (4, 1.0), "star": (5, 0.45)}[kind]
        pts = []
        for k in range(n * (2 if kind == "star" else 1)):
            a = -math.pi / 2 + k * math.pi * (1 if kind == "star" else 2) / n
            rr = r if (kind != "star" or k % 2 == 0) else r * inner
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        cv2.fillPoly(img, [np.array(pts, np.int32)], color, cv2.LINE_AA)


def _palette(n: int, rng: np.random.Generator) -> list[float]:
    """n hues spread around the wheel with a random start, in random order."""
    start = rng.random()
    hues = [(start + k / n) % 1.0 for k in range(n)]
    return [hues[i] for i in rng.permutation(n)]


def draw_deck(card_ids: list[str] | tuple[str, ...], seed: int) -> dict[str, CardArt]:
    """One face per card id, all different, reproducible from `seed`."""
    rng = np.random.default_rng([seed, 7151])
    n = len(card_ids)
    banner_hues = _palette(n, rng)
    second_hues = _palette(n, rng)
    glyphs = [SHAPES[i % len(SHAPES)] for i in rng.permutation(max(n, len(SHAPES)))][:n]
    layouts = rng.permutation(n)
    cream = rng.uniform(228, 250, size=3)
    faces = {}
    for i, cid in enumerate(card_ids):
        faces[cid] = CardArt(
            cid,
            _draw_face(
                np.random.default_rng([seed, 7151, i]),
                banner_hues[i],
                second_hues[i],
                glyphs[i],
                int(layouts[i]),
                cream,
            ),
        )
    return faces


def _draw_face(
    rng: np.random.Generator,
    hue: float,
    hue2: float,
    glyph: str,
    arrangement: int,
    cream: np.ndarray,
) -> np.ndarray:
    s = FACE_PX_PER_MM
    w, h = round(CARD_W_MM * s), round(CARD_H_MM * s)
    face = np.empty((h, w, 3), np.uint8)
    face[:] = np.clip(cream + rng.normal(0, 2, 3), 0, 255).astype(np.uint8)
    b = round(BORDER_MM * s)
    x0, y0, x1, y1 = b, b, w - b, h - b
    # Interior: a dark, saturated ground.
    ground = _hsv_bgr(hue2 + 0.5, rng.uniform(0.5, 0.9), rng.uniform(0.25, 0.45))
    face[y0:y1, x0:x1] = ground
    # Banner: two bands of a unique colour pair across the top.
    band = round(9 * s)
    split = x0 + int((x1 - x0) * rng.uniform(0.3, 0.7))
    c1 = _hsv_bgr(hue, rng.uniform(0.7, 1.0), rng.uniform(0.7, 0.85))
    c2 = _hsv_bgr(hue2, rng.uniform(0.7, 1.0), rng.uniform(0.55, 0.8))
    face[y0 : y0 + band, x0:split] = c1
    face[y0 : y0 + band, split:x1] = c2
    # A "name": dark ticks of a character-specific rhythm in the banner.
    ticks = rng.integers(3, 8)
    for k in range(int(ticks)):
        tx = x0 + int((k + 0.5) * (x1 - x0) / ticks)
        cv2.rectangle(face, (tx - int(1.2 * s), y0 + int(2 * s)),
                      (tx + int(1.2 * s), y0 + band - int(2 * s)), (30, 25, 20), -1)
    # Glyph field in the rest of the upper half (to 40 mm from the card's top).
    gy0, gy1 = y0 + band + round(1 * s), round(40 * s)
    cols = [_hsv_bgr(hue + d, rng.uniform(0.6, 1.0), rng.uniform(0.6, 0.95))
            for d in (0.0, 0.33, 0.66)]
    grid = [(3, 2), (2, 2), (4, 2), (3, 1), (2, 1), (5, 2), (1, 1), (4, 1), (3, 3), (2, 3),
            (5, 1), (1, 2)][arrangement % 12]
    gx, gyn = grid
    cell_w, cell_h = (x1 - x0) / gx, (gy1 - gy0) / gyn
    for iy in range(gyn):
        for ix in range(gx):
            cx = x0 + (ix + 0.5) * cell_w
            cy = gy0 + (iy + 0.5) * cell_h
            r = 0.38 * min(cell_w, cell_h)
            _shape(face, glyph, (cx, cy), r, cols[(ix + iy) % 3])
    # Lower half: a figure of random blobs and a team disc; not needed to tell cards apart.
    for _ in range(6):
        cx = rng.uniform(x0 + 8 * s, x1 - 8 * s)
        cy = rng.uniform(48 * s, y1 - 8 * s)
        col = _hsv_bgr(hue + rng.uniform(-0.2, 0.2), rng.uniform(0.5, 1.0), rng.uniform(0.4, 0.8))
        axes = (int(rng.uniform(4, 12) * s), int(rng.uniform(4, 12) * s))
        cv2.ellipse(face, (int(cx), int(cy)), axes,
                    float(rng.uniform(0, 180)), 0, 360, col, -1, cv2.LINE_AA)
    cv2.rectangle(face, (x0, y0), (x1 - 1, y1 - 1), (40, 35, 30), max(1, int(0.4 * s)))
    return face


def scan(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A flatbed scan of a card: tight crop, slight tone change and noise."""
    out = face.astype(np.float32) * rng.uniform(0.9, 1.05) + rng.normal(0, 2.5, face.shape)
    pad = int(rng.integers(0, 6))
    out = cv2.copyMakeBorder(np.clip(out, 0, 255).astype(np.uint8), pad, pad, pad, pad,
                             cv2.BORDER_CONSTANT, value=(255, 255, 255))
    return out
