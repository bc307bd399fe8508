"""Held-out Onirim decks, teach photos and tables. NOBODY TUNES ON THIS FILE.

These designs exist only to be measured (`benchmarks/onirim_vision.py --styles heldout`): no
reader change may be made by looking at their pictures, their failures or their code, and
their seeds are never development seeds. If a reader is tuned on them they stop measuring
anything, and new held-out designs must be written.

The painter is separate code from `companion.games.onirim.vision.art` and `render`: no card,
symbol, background, table-surface or teach-photo drawing function is shared. Only the geometry
is: the moment of a game and where its cards lie (`render.random_table`), laying a face on the
table (`render.paste_card`, which warps whatever face it is given), the corner markers and the
camera (`render.draw_markers`, `render.random_camera`), and the camera's own light, noise and
JPEG (`companion.sim.effects.photograph`). Faces are drawn at the size the table file gives
(a user measures their cards into it), at the resolution `paste_card` expects.

Two designs, none of them a choice the randomised renderer makes:

- `atlas`: ivory paper with a thin double rule in sepia, a broad band of the card's colour across
  the top third, the corner symbol as an outline icon (strokes, not filled shapes) inside a
  paper-coloured lozenge, cross-hatched engraving-like art below.
- `vitrail`: full-bleed stained glass, cells of the card's colour in several shades parted by
  dark lead lines, the corner symbol filled white with a dark outline on a lead-ringed roundel,
  and a small letter under it (S, M, K, D, N) as a printed deck's index would have.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.onirim.rules import ENGINE
from companion.games.onirim.vision.art import PX_PER_MM, card_ids
from companion.games.onirim.vision.layout import TableLayout
from companion.games.onirim.vision.reading import TableReading
from companion.games.onirim.vision.render import (
    CANVAS_PX_PER_MM,
    MARGIN_MM,
    Conditions,
    draw_markers,
    paste_card,
    random_camera,
    random_table,
)
from companion.sim import effects

DESIGNS = ("atlas", "vitrail")
_SS = 4
"""Supersampling of the drawing before it is shrunk to the face's resolution."""
_LETTER = {"sun": "S", "moon": "M", "key": "K", "door": "D", "nightmare": "N"}


def design_of(seed: int) -> str:
    return DESIGNS[seed % len(DESIGNS)]


@dataclass(frozen=True)
class _Palette:
    colours: dict[str, tuple[int, int, int]]
    nightmare: tuple[int, int, int]
    mirror: tuple[int, int, int]
    explored: tuple[int, int, int]


def _hsv(h: float, s: float, v: float) -> tuple[int, int, int]:
    px = np.uint8([[[int(h) % 180, int(s * 255), int(v * 255)]]])
    return tuple(int(c) for c in cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[return-value]


def _palette(rng: np.random.Generator) -> _Palette:
    """Colours of a printing: a red, blue, green and brown each of its own shade."""
    return _Palette(
        colours={
            "red": _hsv(rng.uniform(172, 182), rng.uniform(0.55, 0.85), rng.uniform(0.6, 0.85)),
            "blue": _hsv(rng.uniform(95, 125), rng.uniform(0.5, 0.9), rng.uniform(0.45, 0.8)),
            "green": _hsv(rng.uniform(40, 80), rng.uniform(0.4, 0.85), rng.uniform(0.4, 0.75)),
            "brown": _hsv(rng.uniform(8, 20), rng.uniform(0.45, 0.8), rng.uniform(0.3, 0.5)),
        },
        nightmare=_hsv(rng.uniform(120, 160), rng.uniform(0.3, 0.6), rng.uniform(0.12, 0.25)),
        mirror=_hsv(rng.uniform(90, 110), rng.uniform(0.05, 0.15), rng.uniform(0.75, 0.9)),
        explored=_hsv(rng.uniform(0, 180), rng.uniform(0.3, 0.6), rng.uniform(0.25, 0.45)),
    )


class _Pen:
    """Drawing in card millimetres on a supersampled canvas."""

    def __init__(self, w_mm: float, h_mm: float, fill: tuple[int, int, int]) -> None:
        self.k = PX_PER_MM * _SS
        self.img = np.zeros((round(h_mm * self.k), round(w_mm * self.k), 3), np.uint8)
        self.img[:] = fill

    def pt(self, x: float, y: float) -> tuple[int, int]:
        return round(x * self.k), round(y * self.k)

    def px(self, mm: float) -> int:
        return max(1, round(mm * self.k))

    def poly(
        self, pts: list[tuple[float, float]], colour, width_mm: float = 0.0, closed: bool = True
    ) -> None:
        arr = np.array([self.pt(*p) for p in pts], np.int32)
        if width_mm <= 0:
            cv2.fillPoly(self.img, [arr], colour, cv2.LINE_AA)
        else:
            cv2.polylines(self.img, [arr], closed, colour, self.px(width_mm), cv2.LINE_AA)

    def disc(self, c: tuple[float, float], r: float, colour, width_mm: float = 0.0) -> None:
        cv2.circle(
            self.img,
            self.pt(*c),
            self.px(r),
            colour,
            -1 if width_mm <= 0 else self.px(width_mm),
            cv2.LINE_AA,
        )

    def face(self) -> np.ndarray:
        h, w = self.img.shape[:2]
        return cv2.resize(self.img, (w // _SS, h // _SS), interpolation=cv2.INTER_AREA)


def _icon(
    pen: _Pen, mark: str, c: tuple[float, float], r: float, colour, width: float, pal: _Palette
) -> None:
    """A card's mark as this painter draws it: `width` 0 fills, otherwise strokes."""
    x, y = c
    if mark == "sun":  # a ring with triangular rays
        pen.disc(c, 0.45 * r, colour, width)
        for i in range(12):
            a = 2 * math.pi * i / 12 + math.pi / 12
            b = 0.22
            tri = [
                (x + 0.62 * r * math.cos(a - b), y + 0.62 * r * math.sin(a - b)),
                (x + r * math.cos(a), y + r * math.sin(a)),
                (x + 0.62 * r * math.cos(a + b), y + 0.62 * r * math.sin(a + b)),
            ]
            pen.poly(tri, colour, width)
    elif mark == "moon":  # a crescent opening to the lower left
        outer = [
            (x + r * math.cos(t), y + r * math.sin(t))
            for t in np.linspace(-0.35 * math.pi, 1.15 * math.pi, 40)
        ]
        inner = [
            (x - 0.3 * r + 0.8 * r * math.cos(t), y - 0.3 * r + 0.8 * r * math.sin(t))
            for t in np.linspace(1.15 * math.pi, -0.35 * math.pi, 40)
        ]
        pen.poly(outer + inner, colour, width)
    elif mark == "key":  # a skeleton key lying diagonally, bow up-left
        pen.disc((x - 0.55 * r, y - 0.55 * r), 0.38 * r, colour, max(width, 0.45 * r / 3))
        pen.poly(
            [(x - 0.3 * r, y - 0.3 * r), (x + 0.85 * r, y + 0.85 * r)],
            colour,
            max(width, 0.16 * r),
            closed=False,
        )
        for k in range(2):
            t = 0.45 + 0.28 * k
            pen.poly(
                [(x + t * r, y + t * r), (x + t * r + 0.35 * r, y + t * r - 0.35 * r)],
                colour,
                max(width, 0.14 * r),
                closed=False,
            )
    elif mark == "door":  # a pointed arch with a keyhole
        arch = [
            (x - 0.6 * r, y + r),
            (x - 0.6 * r, y - 0.1 * r),
            (x, y - r),
            (x + 0.6 * r, y - 0.1 * r),
            (x + 0.6 * r, y + r),
        ]
        pen.poly(arch, colour, width)
        hole = (30, 30, 30) if width <= 0 else colour
        pen.disc((x, y + 0.15 * r), 0.15 * r, hole)
        pen.poly([(x - 0.08 * r, y + 0.2 * r), (x + 0.08 * r, y + 0.2 * r), (x, y + 0.6 * r)], hole)
    elif mark == "nightmare":  # an eye with a slit pupil
        top = [
            (x + r * math.cos(t), y + 0.55 * r * math.sin(t))
            for t in np.linspace(math.pi, 2 * math.pi, 20)
        ]
        bottom = [
            (x + r * math.cos(t), y + 0.55 * r * math.sin(t)) for t in np.linspace(0, math.pi, 20)
        ]
        pen.poly(top + bottom, colour, width)
        pen.poly(
            [(x, y - 0.5 * r), (x + 0.15 * r, y), (x, y + 0.5 * r), (x - 0.15 * r, y)],
            (20, 20, 20) if width <= 0 else colour,
        )
    elif mark.startswith("swatch:"):  # a colour Mirror: a diamond of that colour
        col = pal.colours[mark.removeprefix("swatch:")]
        pen.poly([(x, y - r), (x + 0.8 * r, y), (x, y + r), (x - 0.8 * r, y)], col)
        pen.poly([(x, y - r), (x + 0.8 * r, y), (x, y + r), (x - 0.8 * r, y)], colour, 0.4)
    elif mark == "rainbow":  # four bands, one per colour
        for i, col in enumerate(pal.colours.values()):
            y0 = y - r + i * r / 2
            pen.poly([(x - r, y0), (x + r, y0), (x + r, y0 + r / 2), (x - r, y0 + r / 2)], col)
    elif mark == "glyph":
        pen.poly([(x - r, y - r), (x + r, y - r), (x, y + r)], colour, width)


def _parts(card: str, pal: _Palette) -> tuple[tuple[int, int, int], str, bool, bool]:
    """(ground colour, mark, is a Mirror, explored side)."""
    if card == "nightmare":
        return pal.nightmare, "nightmare", False, False
    if card.startswith("door-"):
        return pal.colours[card.removeprefix("door-")], "door", False, False
    if card.startswith("mirror-"):
        rest = card.removeprefix("mirror-")
        explored = rest.endswith("-explored")
        matches = ENGINE.deck.mirrors[rest.removesuffix("-explored")].matches
        mark = (
            f"swatch:{matches}"
            if matches in pal.colours
            else "rainbow"
            if matches == "each-colour"
            else matches
        )
        return pal.explored if explored else pal.mirror, mark, True, explored
    colour, symbol = card.split("-")
    return pal.colours[colour], symbol, False, False


def _shade(c: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(v * f, 0, 255)) for v in c)  # type: ignore[return-value]


def _atlas(
    card: str, pal: _Palette, size: tuple[float, float], rng: np.random.Generator
) -> np.ndarray:
    w, h = size
    ivory, sepia = (205, 228, 240), (40, 70, 110)
    ground, mark, mirror, explored = _parts(card, pal)
    pen = _Pen(w, h, ivory)
    band = 0.3 * h
    pen.poly([(0, 0), (w, 0), (w, band), (0, band)], ground)
    for i in range(int(rng.integers(20, 40))):  # engraving: hatching below the band
        y = band + 2 + i * (h - band - 6) / 40
        pen.poly([(4, y), (w - 4, y + rng.uniform(-3, 3))], _shade(ground, 0.9), 0.25, closed=False)
    big = mark if not mark.startswith("swatch") else "door"
    _icon(pen, big, (w / 2, 0.63 * h), 0.22 * w, sepia, 0.6, pal)
    pen.poly([(1.5, 1.5), (w - 1.5, 1.5), (w - 1.5, h - 1.5), (1.5, h - 1.5)], sepia, 0.35)
    pen.poly([(2.5, 2.5), (w - 2.5, 2.5), (w - 2.5, h - 2.5), (2.5, h - 2.5)], sepia, 0.2)
    if mirror:
        pen.poly(
            [(w * 0.55, 5), (w - 5, 5), (w - 5, band - 4), (w * 0.55, band - 4)],
            _shade(ivory, 0.85),
        )
        if explored:
            pen.poly([(w * 0.55, 5), (w - 5, band - 4)], sepia, 0.8, closed=False)
            pen.poly([(w - 5, 5), (w * 0.55, band - 4)], sepia, 0.8, closed=False)
    cx, cy, r = 11.5, 10.5, 8.0  # the lozenge with the corner icon
    pen.poly([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], ivory)
    pen.poly([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], sepia, 0.35)
    if explored:
        pen.poly([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], _shade(ground, 1.2))
    _icon(
        pen,
        mark,
        (cx, cy),
        4.6,
        sepia if not explored else ivory,
        0.0 if mark.startswith("swatch") or mark == "rainbow" else 0.55,
        pal,
    )
    return pen.face()


def _vitrail(
    card: str, pal: _Palette, size: tuple[float, float], rng: np.random.Generator
) -> np.ndarray:
    w, h = size
    lead = (28, 30, 32)
    ground, mark, mirror, explored = _parts(card, pal)
    pen = _Pen(w, h, ground)
    # glass cells: a jittered grid of quadrilaterals in shades of the ground
    n_x, n_y = 4, 6
    xs = np.linspace(0, w, n_x + 1)
    ys = np.linspace(0, h, n_y + 1)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1)
    grid[1:-1, 1:-1] += rng.uniform(-3, 3, grid[1:-1, 1:-1].shape)
    for j in range(n_y):
        for i in range(n_x):
            q = [grid[j, i], grid[j, i + 1], grid[j + 1, i + 1], grid[j + 1, i]]
            pts = [(float(p[0]), float(p[1])) for p in q]
            pen.poly(pts, _shade(ground, float(rng.uniform(0.7, 1.25))))
            pen.poly(pts, lead, 0.7)
    if mirror:  # a Mirror is a pane of pale glass framed in lead
        pen.poly([(4, 4), (w - 4, 4), (w - 4, h - 4), (4, h - 4)], lead, 1.2)
        if explored:
            for k in range(5):
                x0 = 6 + k * (w - 12) / 5
                pen.poly([(x0, 20), (x0 + 10, h - 6)], lead, 0.5, closed=False)
    big = mark if not mark.startswith("swatch") else "door"
    _icon(pen, big, (w / 2, 0.62 * h), 0.25 * w, (240, 240, 235), 0.0, pal)
    cx, cy, r = 9.5, 9.0, 7.5  # the roundel
    pen.disc((cx, cy), r, (235, 238, 240) if not explored else lead)
    pen.disc((cx, cy), r, lead, 0.9)
    ink = lead if not explored else (235, 238, 240)
    _icon(pen, mark, (cx, cy), 4.8, ink, 0.0, pal)
    letter = _LETTER.get(mark, "")
    if letter:
        cv2.putText(
            pen.img,
            letter,
            pen.pt(cx + r + 1.5, cy + 2.5),
            cv2.FONT_HERSHEY_COMPLEX_SMALL,
            0.9 * pen.k / 4,
            (240, 240, 235),
            pen.px(0.5),
            cv2.LINE_AA,
        )
    return pen.face()


def _alpha(face: np.ndarray, radius_px: float) -> np.ndarray:
    h, w = face.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) + 0.5
    dx = np.maximum(0, np.maximum(radius_px - xx, xx - (w - radius_px)))
    dy = np.maximum(0, np.maximum(radius_px - yy, yy - (h - radius_px)))
    a = np.clip(radius_px - np.sqrt(dx * dx + dy * dy) + 0.5, 0, 1)
    return np.dstack([face, (a * 255).astype(np.uint8)])


def heldout_deck(
    seed: int, layout: TableLayout, design: str | None = None
) -> dict[str, np.ndarray]:
    """Every face (BGRA at `art.PX_PER_MM`, the layout's card size) in a held-out design."""
    design = design or design_of(seed)
    rng = np.random.default_rng([seed, 33017])
    pal = _palette(rng)
    paint = {"atlas": _atlas, "vitrail": _vitrail}[design]
    radius = {"atlas": 2.0, "vitrail": 3.5}[design] * PX_PER_MM
    return {
        cid: _alpha(
            paint(cid, pal, layout.card_mm, np.random.default_rng([seed, 33018, i])), radius
        )
        for i, cid in enumerate(card_ids(ENGINE.deck))
    }


def _surface(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A table of this painter's own: slate, linen or a warm laminate, with broad blotches."""
    base = np.array(
        {0: (70, 75, 78), 1: (175, 190, 200), 2: (95, 135, 170)}[int(rng.integers(3))], np.float32
    )
    blot = cv2.resize(rng.random((6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    grain = rng.normal(0, 5, (h, w)).astype(np.float32)
    img = base[None, None, :] * (0.85 + 0.3 * blot[..., None]) + grain[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class HeldOutPhoto:
    image: np.ndarray
    truth: TableReading


def heldout_table(
    seed: int,
    index: int,
    faces: dict[str, np.ndarray],
    layout: TableLayout,
    cond: Conditions | None = None,
) -> HeldOutPhoto:
    prng = random.Random(f"onirim-heldout-{seed}-{index}")
    placed, truth = random_table(layout, prng)
    rng = np.random.default_rng([seed, index, 33019])
    w_mm, h_mm = layout.size_mm
    W = round((w_mm + 2 * MARGIN_MM) * CANVAS_PX_PER_MM)
    H = round((h_mm + 2 * MARGIN_MM) * CANVAS_PX_PER_MM)
    canvas = _surface(W, H, rng)
    draw_markers(canvas, layout)
    for p in placed:
        dx, dy = rng.uniform(-p.jitter, p.jitter, 2)
        paste_card(
            canvas,
            faces[p.card],
            (p.place[0] + dx, p.place[1] + dy),
            float(rng.uniform(-p.turn, p.turn)),
        )
    cam = random_camera(layout, rng, cond or Conditions())
    img = cam.render_plane(canvas, CANVAS_PX_PER_MM, (-MARGIN_MM, -MARGIN_MM))
    img = effects.photograph(
        img,
        rng,
        glare_spots=int(rng.integers(0, 2)),
        shadow=False,
        noise_sigma=float(rng.uniform(1.5, 4.0)),
        blur_sigma=float(rng.uniform(0.0, 1.0)),
        jpeg_quality=int(rng.integers(70, 95)),
    )
    return HeldOutPhoto(img, truth)


def heldout_teach_photo(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One card on a plain mat of a contrasting tone, shot by a phone held a little askew
    (a small perspective, not only a turn)."""
    W, H = 1280, 960
    light = float(face[..., :3].mean()) < 120
    mat = np.empty((H, W, 3), np.float32)
    mat[:] = (200, 205, 210) if light else (45, 42, 40)
    mat += rng.normal(0, 3, (H, W, 1)).astype(np.float32)
    h, w = face.shape[:2]
    s = rng.uniform(4.8, 6.2) / PX_PER_MM
    cx, cy = W / 2 + rng.uniform(-100, 100), H / 2 + rng.uniform(-50, 50)
    a = math.radians(rng.uniform(-6, 6))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = []
    for x, y in src:
        u, v = (x - w / 2) * s, (y - h / 2) * s
        dst.append(
            [
                cx + u * math.cos(a) - v * math.sin(a) + rng.uniform(-8, 8),
                cy + u * math.sin(a) + v * math.cos(a) + rng.uniform(-8, 8),
            ]
        )
    M = cv2.getPerspectiveTransform(src, np.float32(dst))
    warped = cv2.warpPerspective(
        face,
        M,
        (W, H),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = warped[..., 3:].astype(np.float32) / 255
    img = mat * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
    img = np.clip(img, 0, 255).astype(np.uint8)
    return effects.photograph(
        img, rng, noise_sigma=float(rng.uniform(1.5, 3.0)), jpeg_quality=int(rng.integers(80, 95))
    )
