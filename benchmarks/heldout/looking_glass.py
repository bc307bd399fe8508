"""Held-out Looking Glass decks and tables. NOBODY TUNES ON THIS FILE.

These designs exist only to be measured: no reader change may be made by looking at their
pictures, their failures or their code, and their seeds are never development seeds. If a
reader is tuned on them they stop measuring anything, and new held-out designs must be
written (by someone who has not seen the reader's latest failures).

The painter is separate code from `companion.games.looking_glass.vision.art` and `render`: no card,
frame, art, table or teach-photo drawing function is shared. Only the geometry is: the deal and
layout (`render.scene_table`), the camera and its projection (`render.TableCamera`, which warps
whatever face images and table surface it is given, and adds the camera's own light, noise and
JPEG). Three designs, none of them a choice the randomised renderer makes:

- `night`: a 66×106 mm card (no common size), a navy-black border with a double gold rule, round
  corners, a starry sky with rings and a moon, a numeral plate at the top, the name at the foot.
- `pixel`: a full-bleed 60×90 mm card with nearly square corners, pixel-art mosaic art and a
  white rounded name plate floating in its upper third.
- `tile`: a 56×87 mm card with a terracotta border, no rule, mosaic tiles with grout lines.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.games.looking_glass.vision.art import FACE_PX_PER_MM, CardArt, DeckStyle
from companion.games.looking_glass.vision.render import render_scene

DESIGNS = ("night", "pixel", "tile")
_SIZES = {"night": (66.0, 106.0), "pixel": (60.0, 90.0), "tile": (56.0, 87.0)}
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII")


def design_of(seed: int) -> str:
    return DESIGNS[seed % len(DESIGNS)]


def heldout_deck(
    card_ids: list[str] | tuple[str, ...], seed: int, design: str | None = None
) -> dict[str, CardArt]:
    """One face per card id in a held-out design (by default the seed's)."""
    design = design or design_of(seed)
    w_mm, h_mm = _SIZES[design]
    s = FACE_PX_PER_MM
    w, h = round(w_mm * s), round(h_mm * s)
    style = DeckStyle(
        name=f"heldout-{design}",
        size=design,
        width_mm=w_mm,
        height_mm=h_mm,
        border={"night": "dark", "pixel": "none", "tile": "coloured"}[design],
        border_bgr={"night": (40, 20, 15), "pixel": (0, 0, 0), "tile": (60, 90, 170)}[design],
        art="heldout",
        sleeve="none",
        finish="matte",
    )
    corner = {"night": 4.0, "pixel": 0.8, "tile": 2.5}[design] * s
    mask = _corner_mask(w, h, corner)
    deck_rng = np.random.default_rng([seed, 90001])
    tint = deck_rng.random()
    out = {}
    for i, cid in enumerate(card_ids):
        rng = np.random.default_rng([seed, 90002, i])
        paint = {"night": _night, "pixel": _pixel, "tile": _tile}[design]
        face = paint(rng, w, h, cid, i, tint)
        out[cid] = CardArt(cid, face, style, mask)
    return out


def _corner_mask(w: int, h: int, r: float) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) + 0.5
    dx = np.maximum(0, np.maximum(r - xx, xx - (w - r)))
    dy = np.maximum(0, np.maximum(r - yy, yy - (h - r)))
    d = np.sqrt(dx * dx + dy * dy)
    return (np.clip(r - d + 0.5, 0, 1) * 255).astype(np.uint8)


def _bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    hsv = np.uint8([[[int(h % 1.0 * 180) % 180, int(s * 255), int(v * 255)]]])
    return tuple(int(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])


def _night(rng: np.random.Generator, w: int, h: int, name: str, i: int, tint: float) -> np.ndarray:
    s = FACE_PX_PER_MM
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (48, 22, 14)
    b = round(3.2 * s)
    yy = np.linspace(0, 1, h - 2 * b, dtype=np.float32)[:, None, None]
    sky_top = np.array(_bgr(0.62 + 0.1 * rng.random(), 0.7, 0.25 + 0.2 * rng.random()), np.float32)
    sky_low = np.array(_bgr(tint + rng.random() * 0.3, 0.6, 0.55), np.float32)
    img[b : h - b, b : w - b] = (sky_top * (1 - yy) + sky_low * yy).astype(np.uint8)
    for _ in range(int(rng.integers(40, 90))):
        x, y = int(rng.uniform(b, w - b)), int(rng.uniform(b, h - b))
        img[max(0, y - 1) : y + 1, max(0, x - 1) : x + 1] = (230, 240, 255)
    cx, cy = int(rng.uniform(0.25, 0.75) * w), int(rng.uniform(0.2, 0.45) * h)
    for k in range(int(rng.integers(2, 6))):
        cv2.circle(
            img,
            (cx, cy),
            int((k + 1) * rng.uniform(6, 14) * s / 2),
            _bgr(tint + 0.15 * k + rng.random() * 0.2, 0.8, 0.9),
            int(rng.integers(1, 4)),
        )
    mr = int(rng.uniform(5, 9) * s)
    mx, my = int(rng.uniform(0.2, 0.8) * w), int(rng.uniform(0.15, 0.4) * h)
    cv2.circle(img, (mx, my), mr, (200, 235, 245), -1, cv2.LINE_AA)
    cv2.circle(
        img, (mx + mr // 2, my - mr // 3), mr, tuple(int(v) for v in sky_top), -1, cv2.LINE_AA
    )
    hill = np.array(
        [[b, h - b]]
        + [[int(x), int(h * rng.uniform(0.6, 0.8))] for x in np.linspace(b, w - b, 7)]
        + [[w - b, h - b]]
    )
    cv2.fillPoly(img, [hill.astype(np.int32)], _bgr(tint + 0.5, 0.5, 0.2))
    ring = np.ones((h, w), bool)
    ring[b : h - b, b : w - b] = False
    img[ring] = (48, 22, 14)  # the art stops at the border
    gold = (60, 170, 215)
    for inset, t in ((b - 2, 1), (b + 4, 2)):
        cv2.rectangle(img, (inset, inset), (w - 1 - inset, h - 1 - inset), gold, t, cv2.LINE_AA)
    plate_w = int(14 * s)
    cv2.rectangle(
        img,
        (w // 2 - plate_w // 2, b + 6),
        (w // 2 + plate_w // 2, b + 6 + int(7 * s)),
        (30, 15, 10),
        -1,
    )
    cv2.putText(
        img,
        _ROMAN[i % len(_ROMAN)],
        (w // 2 - plate_w // 3, b + 2 + int(6 * s)),
        cv2.FONT_HERSHEY_COMPLEX_SMALL,
        0.9,
        gold,
        1,
        cv2.LINE_AA,
    )
    cv2.putText(
        img,
        name.replace("-", " ").title(),
        (b + 10, h - b - 10),
        cv2.FONT_HERSHEY_COMPLEX_SMALL | cv2.FONT_ITALIC,
        0.8,
        gold,
        1,
        cv2.LINE_AA,
    )
    return img


def _pixel(rng: np.random.Generator, w: int, h: int, name: str, i: int, tint: float) -> np.ndarray:
    s = FACE_PX_PER_MM
    palette = np.array(
        [
            _bgr(tint + rng.random() * 0.5, 0.4 + 0.6 * rng.random(), 0.3 + 0.7 * rng.random())
            for _ in range(6)
        ],
        np.uint8,
    )
    gw, gh = 12, 18
    grid = rng.integers(0, 6, (gh, gw))
    for _ in range(3):  # a few rounds of majority smoothing: blobs, not static
        pad = np.pad(grid, 1, mode="edge")
        neigh = np.stack(
            [
                pad[1 + dy : gh + 1 + dy, 1 + dx : gw + 1 + dx]
                for dy in (-1, 0, 1)
                for dx in (-1, 0, 1)
            ]
        )
        grid = np.apply_along_axis(lambda v: np.bincount(v, minlength=6).argmax(), 0, neigh)
    img = cv2.resize(palette[grid], (w, h), interpolation=cv2.INTER_NEAREST)
    px = w / gw
    for gx in range(gw + 1):
        cv2.line(img, (int(gx * px), 0), (int(gx * px), h), (0, 0, 0), 1)
    for gy in range(gh + 1):
        cv2.line(img, (0, int(gy * h / gh)), (w, int(gy * h / gh)), (0, 0, 0), 1)
    py0 = int(rng.uniform(0.12, 0.22) * h)
    x0, x1 = int(4 * s), w - int(4 * s)
    plate = np.zeros((h, w), np.uint8)
    cv2.rectangle(plate, (x0, py0), (x1, py0 + int(9 * s)), 255, -1)
    img[plate > 0] = (245, 245, 245)
    cv2.putText(
        img,
        name.upper().replace("-", " "),
        (x0 + 6, py0 + int(6.5 * s)),
        cv2.FONT_HERSHEY_PLAIN,
        1.1 * w / 240,
        (20, 20, 20),
        2,
        cv2.LINE_8,
    )
    return img


def _tile(rng: np.random.Generator, w: int, h: int, name: str, i: int, tint: float) -> np.ndarray:
    s = FACE_PX_PER_MM
    b = round(5 * s)
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (60, 90, 170)
    iw, ih = w - 2 * b, h - 2 * b
    seeds = rng.random((int(rng.integers(25, 45)), 2)) * (iw, ih)
    cols = np.array(
        [
            _bgr(tint + rng.normal(0, 0.15), 0.3 + 0.6 * rng.random(), 0.35 + 0.6 * rng.random())
            for _ in range(len(seeds))
        ],
        np.uint8,
    )
    yy, xx = np.mgrid[0:ih, 0:iw]
    d = (xx[..., None] - seeds[:, 0]) ** 2 + (yy[..., None] - seeds[:, 1]) ** 2
    order = np.argsort(d, axis=-1)
    near = order[..., 0]
    tiles = cols[near]
    d_sorted = np.take_along_axis(d, order[..., :2], axis=-1)
    grout = (np.sqrt(d_sorted[..., 1]) - np.sqrt(d_sorted[..., 0])) < 3.0
    tiles[grout] = (200, 205, 210)
    img[b : h - b, b : w - b] = tiles
    return img


# -- tables ------------------------------------------------------------------------------------
def heldout_table(kind: str):
    """A table-surface painter of a held-out kind: linen, marble or slate."""

    def paint(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
        if kind == "linen":
            base = rng.uniform(150, 230, 3)
            rows = rng.normal(0, 10, (height, 1, 1))
            cols = rng.normal(0, 10, (1, width, 1))
            img = base + rows + cols
        elif kind == "marble":
            yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
            turb = np.zeros((height, width), np.float32)
            for octave in range(4):
                small = rng.random((4 * 2**octave, 4 * 2**octave)).astype(np.float32)
                turb += cv2.resize(small, (width, height)) / 2**octave
            veins = np.abs(np.sin((xx + yy) / rng.uniform(40, 90) + 6 * turb))
            base = rng.uniform(180, 240, 3)
            img = base * (0.75 + 0.25 * veins[..., None])
        else:  # slate
            base = rng.uniform(30, 65) * np.array([1.0, 1.02, 0.97])
            speck = rng.random((height, width, 1)) < 0.02
            img = base + rng.normal(0, 5, (height, width, 1)) + speck * 40
        return np.clip(img, 0, 255).astype(np.uint8)

    return paint


TABLE_KINDS = ("linen", "marble", "slate")


def heldout_scene(seed: int, index: int, art: dict[str, CardArt]) -> tuple[np.ndarray, dict]:
    """A table of a held-out deck on a held-out surface, with its truth."""
    kind = TABLE_KINDS[int(np.random.default_rng([seed, 90003, index]).integers(3))]
    img, truth = render_scene(seed, index, art, table_painter=heldout_table(kind))
    truth["truth"]["heldout_table"] = kind
    return img, truth


# -- teach photos --------------------------------------------------------------------------
def heldout_teach_photo(art: CardArt, rng: np.random.Generator) -> np.ndarray:
    """A phone photo of the card on a held-out surface (or a scan on a grey lid)."""
    face = art.face
    cover = (art.mask if art.mask is not None else np.full(face.shape[:2], 255, np.uint8)).astype(
        np.float32
    ) / 255
    if rng.random() < 0.2:
        m = int(rng.integers(15, 50))
        img = np.full((face.shape[0] + 2 * m, face.shape[1] + 2 * m, 3), 225, np.float32)
        roi = img[m : m + face.shape[0], m : m + face.shape[1]]
        roi[:] = roi * (1 - cover[..., None]) + face * cover[..., None]
        img += rng.normal(0, 2, img.shape)
        return np.clip(img, 0, 255).astype(np.uint8)
    W, H = 1280, 960
    surface = heldout_table(str(rng.choice(TABLE_KINDS)))(W, H, rng)
    fh, fw = face.shape[:2]
    k = rng.uniform(170, 300) / fw
    ang = math.radians(rng.uniform(-12, 12))
    cx, cy = rng.uniform(0.3, 0.7) * W, rng.uniform(0.35, 0.65) * H
    src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    ca, sa = math.cos(ang), math.sin(ang)
    dst = []
    for x, y in src:
        u, v = (x - fw / 2) * k, (y - fh / 2) * k
        dst.append([cx + u * ca - v * sa, cy + u * sa + v * ca])
    dst = np.float32(dst) + rng.normal(0, 4, (4, 2)).astype(np.float32)  # not quite square
    M = cv2.getPerspectiveTransform(src, dst)
    card = cv2.warpPerspective(face, M, (W, H), flags=cv2.INTER_AREA)
    a = cv2.warpPerspective(cover, M, (W, H))[..., None]
    img = surface.astype(np.float32) * (1 - a) + card.astype(np.float32) * a
    xx = np.linspace(-1, 1, W, dtype=np.float32)[None, :]
    yy = np.linspace(-1, 1, H, dtype=np.float32)[:, None]
    light = 1.0 - 0.25 * (rng.uniform(-1, 1) * xx + rng.uniform(-1, 1) * yy + 1) / 2
    img = img * light[..., None] + rng.normal(0, 3, (H, W, 1))
    _, buf = cv2.imencode(
        ".jpg",
        np.clip(img, 0, 255).astype(np.uint8),
        [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 92))],
    )
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
