"""Card faces in many printed styles, and photos of one card on a table, for the card tests.

Written for these tests alone (it shares nothing with the game's renderer): borders white,
cream, black, dark, coloured or none, with or without a thin light frame round the art, square
or round corners, and art of random shapes. Sizes in px at `PX_PER_MM`.
"""

from __future__ import annotations

import colorsys
import math

import cv2
import numpy as np

from companion.sim import effects

PX_PER_MM = 4.0
BORDERS = ("white", "cream", "black", "dark", "coloured", "none")


def _bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return (int(b * 255), int(g * 255), int(r * 255))


def border_colour(kind: str, rng: np.random.Generator) -> tuple[int, int, int]:
    return {
        "white": (245, 245, 245),
        "cream": (200, 230, 240),
        "black": (20, 20, 20),
        "dark": _bgr(rng.uniform(0, 1), 0.6, 0.25),
        "coloured": _bgr(rng.uniform(0, 1), 0.8, 0.7),
        "none": (0, 0, 0),
    }[kind]


def face(
    rng: np.random.Generator,
    border: str,
    *,
    frame: bool,
    radius_mm: float,
    size_mm: tuple[float, float] = (63.0, 88.0),
    border_mm: float = 4.0,
) -> np.ndarray:
    """One card face: a uniform border (or none), a thin light frame, random art."""
    w, h = round(size_mm[0] * PX_PER_MM), round(size_mm[1] * PX_PER_MM)
    b = 0 if border == "none" else round(border_mm * PX_PER_MM)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = border_colour(border, rng)
    art = np.empty((h - 2 * b, w - 2 * b, 3), np.uint8)
    art[:] = _bgr(rng.uniform(0, 1), rng.uniform(0.2, 0.9), rng.uniform(0.2, 0.9))
    for _ in range(14):
        c = _bgr(rng.uniform(0, 1), rng.uniform(0.3, 1.0), rng.uniform(0.2, 1.0))
        x, y = int(rng.uniform(0, art.shape[1])), int(rng.uniform(0, art.shape[0]))
        r = int(rng.uniform(0.04, 0.2) * art.shape[1])
        if rng.random() < 0.5:
            cv2.circle(art, (x, y), r, c, -1, cv2.LINE_AA)
        else:
            cv2.rectangle(art, (x - r, y - r // 2), (x + r, y + r // 2), c, -1)
    img[b : h - b, b : w - b] = art
    if frame and b:
        t = max(1, round(0.5 * PX_PER_MM))
        cv2.rectangle(img, (b - t, b - t), (w - b + t - 1, h - b + t - 1), (235, 240, 240), t)
    if radius_mm > 0:
        mask = np.zeros((h, w), np.uint8)
        r = round(radius_mm * PX_PER_MM)
        cv2.rectangle(mask, (r, 0), (w - r, h), 255, -1)
        cv2.rectangle(mask, (0, r), (w, h - r), 255, -1)
        for cx, cy in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
            cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
        img = np.where(mask[..., None] > 0, img, 0).astype(np.uint8)
        img = np.dstack([img, mask])
    return img


def photo(
    card: np.ndarray,
    rng: np.random.Generator,
    *,
    table: str | None = None,
    tone: str | None = None,
    width_px: float | None = None,
    tilt_deg: float = 10.0,
    size: tuple[int, int] = (1280, 960),
) -> tuple[np.ndarray, np.ndarray]:
    """(photo, the card's four corners TL TR BR BL in it) of `card` lying on a table
    (`tone`: "light" or "dark", `effects.TONES`; any by default)."""
    w, h = size
    tex = effects.table_texture(w, h, rng, table, tone)
    ch, cw = card.shape[:2]
    s = (width_px or rng.uniform(150, 320)) / cw
    ang = math.radians(rng.uniform(-tilt_deg, tilt_deg))
    cx, cy = rng.uniform(0.35, 0.65) * w, rng.uniform(0.4, 0.6) * h
    A = np.array(
        [
            [s * math.cos(ang), -s * math.sin(ang), 0],
            [s * math.sin(ang), s * math.cos(ang), 0],
            [0, 0, 1],
        ]
    )
    A[:2, 2] = np.array([cx, cy]) - A[:2, :2] @ np.array([cw / 2, ch / 2])
    P = np.eye(3)
    P[2, :2] = rng.normal(0, 0.0001, 2)
    M = P @ A
    M /= M[2, 2]
    rgb = card[..., :3]
    alpha = card[..., 3] if card.shape[2] == 4 else np.full((ch, cw), 255, np.uint8)
    warped = cv2.warpPerspective(rgb, M, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(alpha, M, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
    img = (warped * (mask[..., None] / 255) + tex * (1 - mask[..., None] / 255)).astype(np.uint8)
    corners = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64)
    pts = cv2.perspectiveTransform(corners[None], M)[0]
    out = effects.photograph(img, rng, glare_spots=0, noise_sigma=2.5)
    return out, pts


def scan(card: np.ndarray, rng: np.random.Generator, margin_px: int = 3) -> np.ndarray:
    """A flat, tight scan: the card on a white bed, `margin_px` of it round the card."""
    rgb = card[..., :3].astype(np.float32)
    if card.shape[2] == 4:
        a = card[..., 3:4].astype(np.float32) / 255
        rgb = rgb * a + 255 * (1 - a)
    rgb = rgb * rng.uniform(0.9, 1.05) + rng.normal(0, 2.5, rgb.shape)
    out = np.clip(rgb, 0, 255).astype(np.uint8)
    return cv2.copyMakeBorder(
        out, margin_px, margin_px, margin_px, margin_px, cv2.BORDER_CONSTANT, value=(255, 255, 255)
    )
