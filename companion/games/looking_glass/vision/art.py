"""Procedural card faces for the simulated Looking Glass, drawn afresh for every seed.

The companion owns no card art; users teach it their own copy. These faces stand in for that
copy in renders, tests and benchmarks.

Two families. The `house` style is the one the reader grew up on: a light border, a dark
saturated interior, a two-colour name banner and a glyph pattern in the upper half. It stays
for the tests and the live `sim` camera, which need a deck the reader knows. Every other deck
draws each design choice a real printer makes at random (`DeckStyle.sample`): border colour or
none, a thin frame line, corner radius, photographic, painted or line-drawn art, a title
banner, matte or glossy print, sleeves and the card size. That is domain randomisation: the
reader must not rely on any one of these choices, because a user's own deck makes its own.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.games.looking_glass.vision.library import CARD_W_MM

CARD_H_MM = 88.0
BORDER_MM = 4.0
FACE_PX_PER_MM = 4.0
SHAPES = ("circle", "square", "triangle", "diamond", "star", "ring", "bar", "cross")


BORDERS = ("white", "cream", "black", "dark", "coloured", "none")
ART_KINDS = ("photo", "painted", "line")
SLEEVES = ("none", "clear", "matte", "coloured")
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 67.0),
}
"""Common printed sizes (width, height mm); the reader must measure which one at teach time."""


@dataclass(frozen=True)
class DeckStyle:
    """Every design choice of one printed deck (and how its owner keeps it)."""

    name: str = "house"
    size: str = "poker"
    width_mm: float = CARD_W_MM
    height_mm: float = CARD_H_MM
    border: str = "cream"
    border_bgr: tuple[int, int, int] = (240, 240, 240)
    border_mm: float = BORDER_MM
    frame_mm: float = 0.0
    """Width of a thin line round the art (0: none)."""
    frame_bgr: tuple[int, int, int] = (40, 35, 30)
    corner_mm: float = 0.0
    art: str = "house"
    title: str = "top"
    """Where the name banner sits: top, bottom or none."""
    title_bgr: tuple[int, int, int] = (230, 230, 230)
    palette_hue: float = 0.0
    finish: str = "matte"
    sleeve: str = "none"
    sleeve_bgr: tuple[int, int, int] = (200, 200, 200)

    @property
    def is_house(self) -> bool:
        return self.art == "house"

    @property
    def light_border(self) -> bool:
        """Whether the card's outer edge is light (for "light cards on a light cloth")."""
        return bool(np.mean(self.border_bgr) > 150) if self.border != "none" else False

    @classmethod
    def house(cls) -> DeckStyle:
        return cls()

    @classmethod
    def sample(cls, rng: np.random.Generator) -> DeckStyle:
        """A deck no one designed: each choice drawn independently."""
        size = str(rng.choice(list(CARD_SIZES)))
        w, h = CARD_SIZES[size]
        border = str(rng.choice(BORDERS))
        hue = float(rng.random())
        if border == "white":
            bgr = tuple(int(v) for v in rng.uniform(238, 255, 3))
        elif border == "cream":
            c = _hsv_bgr(rng.uniform(0.08, 0.15), rng.uniform(0.08, 0.2), rng.uniform(0.88, 0.97))
            bgr = c
        elif border == "black":
            bgr = tuple(int(v) for v in rng.uniform(5, 30, 3))
        elif border == "dark":
            bgr = _hsv_bgr(rng.random(), rng.uniform(0.3, 0.8), rng.uniform(0.15, 0.35))
        elif border == "coloured":
            bgr = _hsv_bgr(rng.random(), rng.uniform(0.5, 0.95), rng.uniform(0.45, 0.85))
        else:
            bgr = (0, 0, 0)
        border_mm = 0.0 if border == "none" else float(rng.uniform(2.0, 6.0))
        light = border != "none" and float(np.mean(bgr)) > 150
        frame = rng.random() < 0.55
        if light:
            frame_bgr = tuple(int(v) for v in rng.uniform(10, 90, 3))
        else:
            frame_bgr = (
                _hsv_bgr(rng.uniform(0.1, 0.16), rng.uniform(0.3, 0.7), 0.9)
                if rng.random() < 0.5
                else tuple(int(v) for v in rng.uniform(200, 250, 3))
            )
        sleeve = str(rng.choice(SLEEVES, p=[0.5, 0.2, 0.15, 0.15]))
        return cls(
            name="random",
            size=size,
            width_mm=w,
            height_mm=h,
            border=border,
            border_bgr=(int(bgr[0]), int(bgr[1]), int(bgr[2])),
            border_mm=border_mm,
            frame_mm=float(rng.uniform(0.3, 1.0)) if frame else 0.0,
            frame_bgr=(int(frame_bgr[0]), int(frame_bgr[1]), int(frame_bgr[2])),
            corner_mm=float(rng.choice([0.0, rng.uniform(0.5, 2.0), rng.uniform(2.0, 5.0)])),
            art=str(rng.choice(ART_KINDS)),
            title=str(rng.choice(["top", "bottom", "none"], p=[0.45, 0.3, 0.25])),
            title_bgr=_hsv_bgr(rng.random(), rng.uniform(0, 0.8), rng.uniform(0.2, 0.95)),
            palette_hue=hue,
            finish=str(rng.choice(["matte", "glossy"])),
            sleeve=sleeve,
            sleeve_bgr=_hsv_bgr(rng.random(), rng.uniform(0.5, 0.9), rng.uniform(0.25, 0.75)),
        )

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class CardArt:
    card_id: str
    face: np.ndarray
    """BGR card face, upright, at `FACE_PX_PER_MM` (border included)."""
    style: DeckStyle = field(default_factory=DeckStyle)
    mask: np.ndarray | None = None
    """0..255 coverage of the face (rounded corners); None: the whole rectangle."""


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


def deck_style(art: dict[str, CardArt]) -> DeckStyle:
    """The style a deck's faces were drawn in."""
    return next(iter(art.values())).style


def draw_deck(
    card_ids: list[str] | tuple[str, ...], seed: int, style: DeckStyle | None = None
) -> dict[str, CardArt]:
    """One face per card id, all different, reproducible from `seed` (house style unless
    `style` says otherwise)."""
    if style is not None and not style.is_house:
        return _draw_world_deck(card_ids, seed, style)
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
        cv2.rectangle(
            face,
            (tx - int(1.2 * s), y0 + int(2 * s)),
            (tx + int(1.2 * s), y0 + band - int(2 * s)),
            (30, 25, 20),
            -1,
        )
    # Glyph field in the rest of the upper half (to 40 mm from the card's top).
    gy0, gy1 = y0 + band + round(1 * s), round(40 * s)
    cols = [
        _hsv_bgr(hue + d, rng.uniform(0.6, 1.0), rng.uniform(0.6, 0.95)) for d in (0.0, 0.33, 0.66)
    ]
    grid = [
        (3, 2),
        (2, 2),
        (4, 2),
        (3, 1),
        (2, 1),
        (5, 2),
        (1, 1),
        (4, 1),
        (3, 3),
        (2, 3),
        (5, 1),
        (1, 2),
    ][arrangement % 12]
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
        cv2.ellipse(
            face, (int(cx), int(cy)), axes, float(rng.uniform(0, 180)), 0, 360, col, -1, cv2.LINE_AA
        )
    cv2.rectangle(face, (x0, y0), (x1 - 1, y1 - 1), (40, 35, 30), max(1, int(0.4 * s)))
    return face


def scan(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A flatbed scan of a card: tight crop, slight tone change and noise."""
    out = face.astype(np.float32) * rng.uniform(0.9, 1.05) + rng.normal(0, 2.5, face.shape)
    pad = int(rng.integers(0, 6))
    out = cv2.copyMakeBorder(
        np.clip(out, 0, 255).astype(np.uint8),
        pad,
        pad,
        pad,
        pad,
        cv2.BORDER_CONSTANT,
        value=(255, 255, 255),
    )
    return out


# -- randomised decks ------------------------------------------------------------------------
def _draw_world_deck(
    card_ids: list[str] | tuple[str, ...], seed: int, style: DeckStyle
) -> dict[str, CardArt]:
    s = FACE_PX_PER_MM
    w, h = round(style.width_mm * s), round(style.height_mm * s)
    mask = _rounded_mask(w, h, style.corner_mm * s)
    out = {}
    for i, cid in enumerate(card_ids):
        rng = np.random.default_rng([seed, 7152, i])
        face = _draw_world_face(rng, style, cid, w, h)
        out[cid] = CardArt(cid, face, style, mask)
    return out


def _rounded_mask(w: int, h: int, r: float) -> np.ndarray | None:
    if r < 1.0:
        return None
    ss = 4  # drawn 4× larger and reduced: a smooth, anti-aliased corner
    big = np.zeros((h * ss, w * ss), np.uint8)
    R = round(r * ss)
    cv2.rectangle(big, (R, 0), (w * ss - 1 - R, h * ss - 1), 255, -1)
    cv2.rectangle(big, (0, R), (w * ss - 1, h * ss - 1 - R), 255, -1)
    for cx, cy in (
        (R, R),
        (w * ss - 1 - R, R),
        (R, h * ss - 1 - R),
        (w * ss - 1 - R, h * ss - 1 - R),
    ):
        cv2.circle(big, (cx, cy), R, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


def _draw_world_face(
    rng: np.random.Generator, style: DeckStyle, name: str, w: int, h: int
) -> np.ndarray:
    s = FACE_PX_PER_MM
    face = np.empty((h, w, 3), np.float32)
    face[:] = style.border_bgr
    face += rng.normal(0, 1.5, (h, w, 1)).astype(np.float32)  # paper and print grain
    b = round(style.border_mm * s)
    ax0, ay0, ax1, ay1 = b, b, w - b, h - b
    aw, ah = ax1 - ax0, ay1 - ay0
    hue = (style.palette_hue + rng.normal(0, 0.12)) % 1.0
    painter = {"photo": _photo_art, "painted": _painted_art, "line": _line_art}[style.art]
    face[ay0:ay1, ax0:ax1] = painter(rng, aw, ah, hue)
    face = np.clip(face, 0, 255).astype(np.uint8)
    if style.title != "none":
        band = round(rng.uniform(7, 11) * s * min(1.0, style.width_mm / 63))
        top = ay0 if style.title == "top" else ay1 - band
        inset = round(rng.uniform(0, 3) * s)
        cv2.rectangle(
            face,
            (ax0 + inset, top + inset // 2),
            (ax1 - 1 - inset, top + band - inset // 2),
            style.title_bgr,
            -1,
        )
        ink = (20, 20, 20) if np.mean(style.title_bgr) > 128 else (235, 235, 235)
        text = name.replace("-", " ").upper()
        scale = band / 40.0
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
        scale *= min(1.0, 0.9 * (aw - 2 * inset) / max(1, tw))
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
        cv2.putText(
            face,
            text,
            (ax0 + (aw - tw) // 2, top + (band + th) // 2),
            cv2.FONT_HERSHEY_DUPLEX,
            scale,
            ink,
            max(1, round(scale * 1.5)),
            cv2.LINE_AA,
        )
    if style.frame_mm > 0:
        t = max(1, round(style.frame_mm * s))
        cv2.rectangle(face, (ax0, ay0), (ax1 - 1, ay1 - 1), style.frame_bgr, t)
    if style.finish == "matte":  # a matte print: a little less contrast
        face = (face * 0.92 + face.mean(axis=(0, 1)) * 0.08).astype(np.uint8)
    return face


def _field(rng: np.random.Generator, w: int, h: int, cells: int) -> np.ndarray:
    """Smooth random values in [0, 1] over w × h, about `cells` blobs across."""
    small = rng.random((max(2, cells * h // max(1, w) + 2), cells + 2)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _photo_art(rng: np.random.Generator, w: int, h: int, hue: float) -> np.ndarray:
    """A photograph-like scene: a sky-to-ground gradient, soft shapes, fine texture."""
    top = np.array(_hsv_bgr(hue, rng.uniform(0.2, 0.7), rng.uniform(0.4, 0.95)), np.float32)
    low = np.array(
        _hsv_bgr(hue + rng.uniform(0.2, 0.5), rng.uniform(0.3, 0.9), rng.uniform(0.1, 0.6)),
        np.float32,
    )
    horizon = rng.uniform(0.3, 0.7)
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    t = 1 / (1 + np.exp(-(y - horizon) * rng.uniform(6, 20)))
    img = top * (1 - t) + low * t + np.zeros((1, w, 1), np.float32)
    img += (_field(rng, w, h, 5)[..., None] - 0.5) * rng.uniform(30, 80)
    for _ in range(int(rng.integers(4, 10))):
        layer = np.zeros((h, w), np.float32)
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(0.08, 0.35) * w), int(rng.uniform(0.05, 0.3) * h))
        cv2.ellipse(layer, c, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        layer = cv2.GaussianBlur(layer, (0, 0), rng.uniform(1.5, 8))[..., None]
        col = np.array(
            _hsv_bgr(hue + rng.normal(0, 0.25), rng.uniform(0.2, 1.0), rng.uniform(0.1, 1.0)),
            np.float32,
        )
        img = img * (1 - layer) + col * layer
    img += rng.normal(0, rng.uniform(3, 10), (h, w, 1)).astype(np.float32)
    vignette = 1 - 0.35 * (
        (np.linspace(-1, 1, w)[None, :] ** 2 + np.linspace(-1, 1, h)[:, None] ** 2) / 2
    ).astype(np.float32)
    return img * vignette[..., None]


def _painted_art(rng: np.random.Generator, w: int, h: int, hue: float) -> np.ndarray:
    """A painting: a wash, then many translucent brush strokes of a small palette."""
    palette = [
        np.array(
            _hsv_bgr(hue + rng.normal(0, 0.2), rng.uniform(0.3, 1.0), rng.uniform(0.2, 1.0)),
            np.float32,
        )
        for _ in range(5)
    ]
    img = np.empty((h, w, 3), np.float32)
    img[:] = palette[0]
    img += (_field(rng, w, h, 3)[..., None] - 0.5) * 60
    for _ in range(int(rng.integers(50, 120))):
        p0 = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        ang = rng.uniform(0, 2 * math.pi)
        length = rng.uniform(0.05, 0.4) * w
        p1 = p0 + length * np.array([math.cos(ang), math.sin(ang)])
        thick = int(rng.uniform(0.02, 0.08) * w) + 1
        a = rng.uniform(0.3, 0.9)
        col = palette[int(rng.integers(len(palette)))] + rng.normal(0, 12, 3).astype(np.float32)
        # Only the stroke's own box is blended: a deck of 12 faces in well under a second.
        m = thick + 4
        x0, y0 = max(0, int(min(p0[0], p1[0])) - m), max(0, int(min(p0[1], p1[1])) - m)
        x1, y1 = min(w, int(max(p0[0], p1[0])) + m), min(h, int(max(p0[1], p1[1])) + m)
        if x1 <= x0 or y1 <= y0:
            continue
        layer = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.line(
            layer,
            (int(p0[0]) - x0, int(p0[1]) - y0),
            (int(p1[0]) - x0, int(p1[1]) - y0),
            1.0,
            thick,
            cv2.LINE_AA,
        )
        layer = cv2.GaussianBlur(layer, (0, 0), 1.0)[..., None] * a
        roi = img[y0:y1, x0:x1]
        img[y0:y1, x0:x1] = roi * (1 - layer) + col * layer
    return img


def _line_art(rng: np.random.Generator, w: int, h: int, hue: float) -> np.ndarray:
    """A line drawing: ink curves and hatching on paper, now and then a flat spot colour."""
    paper = np.array(_hsv_bgr(hue, rng.uniform(0.0, 0.15), rng.uniform(0.85, 1.0)), np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = paper
    ink = tuple(float(v) for v in _hsv_bgr(hue + 0.5, rng.uniform(0, 0.6), rng.uniform(0.05, 0.3)))
    for _ in range(int(rng.integers(1, 4))):
        if rng.random() < 0.6:
            spot = np.array(
                _hsv_bgr(hue + rng.normal(0, 0.3), rng.uniform(0.3, 0.8), rng.uniform(0.6, 0.95)),
                np.float32,
            )
            pts = (rng.random((int(rng.integers(3, 7)), 2)) * (w, h)).astype(np.int32)
            cv2.fillPoly(img, [cv2.convexHull(pts)], tuple(float(v) for v in spot), cv2.LINE_AA)
    for _ in range(int(rng.integers(12, 30))):
        n = int(rng.integers(3, 8))
        p = np.cumsum(rng.normal(0, 0.12, (n, 2)), axis=0) + rng.random(2)
        pts = (p * (w, h)).astype(np.int32)
        cv2.polylines(
            img, [pts], bool(rng.random() < 0.3), ink, int(rng.integers(1, 4)), cv2.LINE_AA
        )
    for _ in range(int(rng.integers(2, 6))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        cv2.circle(
            img, c, int(rng.uniform(0.03, 0.2) * w), ink, int(rng.integers(1, 3)), cv2.LINE_AA
        )
    x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
    for k in range(int(rng.integers(0, 14))):
        d = k * rng.uniform(3, 5)
        cv2.line(img, (int(x0 + d), int(y0)), (int(x0 + d - 20), int(y0 + 30)), ink, 1, cv2.LINE_AA)
    return img
