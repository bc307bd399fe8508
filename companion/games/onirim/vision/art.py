"""Card faces of an Onirim deck drawn from a `DeckStyle`: every design choice drawn per deck.

The reader may assume only what a real Onirim deck has: each Location shows its colour over
the face and its symbol in the top-left corner; Doors, Nightmares and the Mirror cards are
told apart by whatever their corner shows. Everything else (hues within a colour's range,
backgrounds, borders, how a Sun, Moon or Key is drawn, fonts, sizes) is drawn at random,
so nothing downstream can lean on one look.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.games.onirim.rules.deck import Deck

PX_PER_MM = 4.0
"""Resolution of a drawn face."""
HUE_RANGES = {  # OpenCV hue (0..180), saturation, value ranges of each colour
    "red": ((-6.0, 5.0), (0.6, 0.95), (0.55, 0.9)),
    "blue": ((100.0, 122.0), (0.55, 0.95), (0.45, 0.9)),
    "green": ((45.0, 75.0), (0.45, 0.9), (0.4, 0.8)),
    "brown": ((9.0, 18.0), (0.5, 0.85), (0.3, 0.52)),
}
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)
BACKGROUNDS = ("flat", "gradient", "stripes", "mottled")
BORDERS = ("none", "white", "black", "cream", "dark")
BADGES = ("disc", "square", "diamond", "ring")
COLOUR_AREAS = ("full", "frame", "art")

BGR = tuple[int, int, int]


def hsv_bgr(h: float, s: float, v: float) -> BGR:
    px = np.array([[[round(h) % 180, round(s * 255), round(v * 255)]]], np.uint8)
    b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


@dataclass(frozen=True)
class DeckStyle:
    """Every design choice of one printed Onirim deck."""

    name: str = "house"
    colours: dict[str, BGR] = field(
        default_factory=lambda: {
            "red": (40, 40, 200),
            "blue": (170, 90, 30),
            "green": (60, 150, 50),
            "brown": (30, 70, 120),
        }
    )
    background: str = "gradient"
    border: str = "black"
    border_bgr: BGR = (20, 20, 20)
    border_mm: float = 2.5
    corner_mm: float = 3.0
    ink: BGR = (235, 240, 245)
    """The symbols' colour."""
    index_mm: float = 10.0
    """Size of the corner symbol."""
    badge: bool = False
    """A disc behind the corner symbol."""
    sun_rays: int = 8
    sun_star: bool = False
    moon_bite: float = 0.45
    key_teeth: int = 2
    font: int = cv2.FONT_HERSHEY_TRIPLEX
    index_offset_mm: tuple[float, float] = (0.0, 0.0)
    """How far the corner symbol sits from its usual place (printings differ)."""
    outline: bool = False
    """Symbols drawn as outlines, not filled."""
    ink_edge: bool = False
    """A dark edge around the symbols' ink (print over a busy background)."""
    corner_art: int = 0
    """Shapes of the art that reach into the corner, behind the symbol."""
    badge_shape: str = "disc"
    """The badge's outline: a disc, a square, a diamond, or a ring (a disc's outline)."""
    colour_area: str = "full"
    """Where a card's colour lies: over the whole face (`full`); as a frame round plain paper
    (`frame`); or over the art below a plain top (`art`). Off `full` the corner is paper and
    its symbol is printed in the card's colour: the colour shows in the symbol alone."""
    paper_bgr: BGR = (235, 240, 245)
    frame_mm: float = 3.0
    index_letter: bool = False
    """A letter under the corner symbol (S, M, K...), as some printings add."""
    symbol_turn_deg: float = 0.0
    """The corner symbol turned by this much (a Key drawn slanting, a Moon facing up)."""
    pale: float = 0.0
    """How far the whole print is washed toward its paper (a faded or light-toned printing):
    0 as designed, 0.5 half way; the corner's symbol and the Mirrors' print then hardly show."""
    nightmare_bgr: BGR = (30, 20, 35)
    mirror_bgr: BGR = (200, 195, 190)
    explored_bgr: BGR = (110, 70, 80)
    seed: int = 0

    @classmethod
    def house(cls) -> DeckStyle:
        return cls()

    @classmethod
    def sample(cls, rng: np.random.Generator) -> DeckStyle:
        colours = {}
        for c, (h, s, v) in HUE_RANGES.items():
            colours[c] = hsv_bgr(rng.uniform(*h), rng.uniform(*s), rng.uniform(*v))
        border = str(rng.choice(BORDERS))
        border_bgr = {
            "none": (0, 0, 0),
            "white": tuple(int(x) for x in rng.uniform(235, 255, 3)),
            "black": tuple(int(x) for x in rng.uniform(5, 35, 3)),
            "cream": hsv_bgr(rng.uniform(10, 25), rng.uniform(0.1, 0.25), rng.uniform(0.85, 0.97)),
            "dark": hsv_bgr(rng.uniform(0, 180), rng.uniform(0.2, 0.6), rng.uniform(0.15, 0.3)),
        }[border]
        ink = (
            tuple(int(x) for x in rng.uniform(225, 255, 3))
            if rng.random() < 0.6
            else hsv_bgr(rng.uniform(20, 32), rng.uniform(0.5, 0.9), rng.uniform(0.85, 1.0))
        )
        grey = rng.uniform(170, 225)
        tint = rng.uniform(-15, 15, 3)
        return cls(
            name="random",
            colours=colours,
            background=str(rng.choice(BACKGROUNDS)),
            border=border,
            border_bgr=border_bgr,  # type: ignore[arg-type]
            border_mm=0.0 if border == "none" else float(rng.uniform(1.0, 4.0)),
            corner_mm=float(rng.uniform(0.0, 4.0)),
            ink=ink,  # type: ignore[arg-type]
            index_mm=float(rng.uniform(8.0, 11.0)),
            badge=bool(rng.random() < 0.4),
            sun_rays=int(rng.integers(6, 15)),
            sun_star=bool(rng.random() < 0.4),
            moon_bite=float(rng.uniform(0.3, 0.6)),
            key_teeth=int(rng.integers(1, 4)),
            font=int(rng.choice(FONTS)),
            nightmare_bgr=hsv_bgr(
                rng.uniform(0, 180), rng.uniform(0.2, 0.7), rng.uniform(0.08, 0.22)
            ),
            mirror_bgr=tuple(int(np.clip(grey + t, 0, 255)) for t in tint),  # type: ignore[arg-type]
            explored_bgr=hsv_bgr(
                rng.uniform(0, 180), rng.uniform(0.25, 0.6), rng.uniform(0.3, 0.5)
            ),
            seed=int(rng.integers(2**31)),
            index_offset_mm=(float(rng.uniform(-1.0, 3.0)), float(rng.uniform(-1.0, 1.0))),
            outline=bool(rng.random() < 0.3),
            ink_edge=bool(rng.random() < 0.3),
            corner_art=int(rng.choice([0, 0, 1, 2, 3])),
            # Drawn last, so that the choices above stay what they were for a seed.
            badge_shape=str(rng.choice(BADGES)),
            colour_area=str(rng.choice(COLOUR_AREAS, p=[0.6, 0.2, 0.2])),
            paper_bgr=hsv_bgr(rng.uniform(10, 30), rng.uniform(0.0, 0.2), rng.uniform(0.82, 0.98)),
            frame_mm=float(rng.uniform(2.0, 5.0)),
            index_letter=bool(rng.random() < 0.3),
            symbol_turn_deg=float(rng.uniform(-35, 35)) if rng.random() < 0.3 else 0.0,
            pale=float(rng.uniform(0.15, 0.55)) if rng.random() < 0.25 else 0.0,
        )


def card_ids(deck: Deck) -> list[str]:
    """Every face a table can show: each kind, and both sides of each Mirror card."""
    ids = [k for k in deck.kinds]
    for m in deck.mirrors:
        ids += [f"mirror-{m}", f"mirror-{m}-explored"]
    return ids


def _p(x_mm: float, y_mm: float) -> tuple[int, int]:
    return round(x_mm * PX_PER_MM * 16), round(y_mm * PX_PER_MM * 16)


def _r(mm: float) -> int:
    return round(mm * PX_PER_MM * 16)


def draw_symbol(
    img: np.ndarray, symbol: str, c: tuple[float, float], size: float, style: DeckStyle, ink: BGR
) -> None:
    """A Sun, Moon, Key, Door, Nightmare or Glyph mark centred at `c` (mm), `size` mm across."""
    r = size / 2
    x, y = c
    aa = cv2.LINE_AA
    fill = max(1, round(0.1 * r * PX_PER_MM)) if style.outline else -1
    """Filled (-1), or an outline this many px wide."""
    if symbol == "sun":
        if style.sun_star:
            n = style.sun_rays
            pts = [
                (
                    x + (r if i % 2 == 0 else 0.5 * r) * math.cos(math.pi * i / n - math.pi / 2),
                    y + (r if i % 2 == 0 else 0.5 * r) * math.sin(math.pi * i / n - math.pi / 2),
                )
                for i in range(2 * n)
            ]
            _poly(img, [_p(*p) for p in pts], ink, fill)
        else:
            cv2.circle(img, _p(x, y), _r(0.5 * r), ink, fill, aa, 4)
            for i in range(style.sun_rays):
                a = 2 * math.pi * i / style.sun_rays
                cv2.line(
                    img,
                    _p(x + 0.65 * r * math.cos(a), y + 0.65 * r * math.sin(a)),
                    _p(x + r * math.cos(a), y + r * math.sin(a)),
                    ink,
                    max(1, round(0.12 * r * PX_PER_MM)),
                    aa,
                    4,
                )
    elif symbol == "moon":
        mask = np.zeros(img.shape[:2], np.uint8)
        cv2.circle(mask, _p(x, y), _r(r), 255, -1, aa, 4)
        off = style.moon_bite * r
        cv2.circle(mask, _p(x + off, y - 0.3 * off), _r(0.85 * r), 0, -1, aa, 4)
        if fill > 0:  # the crescent's outline: its edge, a stroke wide
            mask = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((fill, fill), np.uint8))
        img[mask > 127] = ink
    elif symbol == "key":
        t = max(1, round(0.16 * r * PX_PER_MM))
        cv2.circle(img, _p(x - 0.55 * r, y), _r(0.4 * r), ink, t, aa, 4)
        cv2.line(img, _p(x - 0.15 * r, y), _p(x + r, y), ink, t, aa, 4)
        for k in range(style.key_teeth):
            tx = x + r - k * 0.3 * r - 0.05 * r
            cv2.line(img, _p(tx, y), _p(tx, y + 0.45 * r), ink, t, aa, 4)
    elif symbol == "door":
        cv2.rectangle(img, _p(x - 0.55 * r, y - 0.2 * r), _p(x + 0.55 * r, y + r), ink, -1, aa, 4)
        cv2.ellipse(
            img, _p(x, y - 0.2 * r), (_r(0.55 * r), _r(0.7 * r)), 0, 180, 360, ink, -1, aa, 4
        )
    elif symbol == "nightmare":
        n = 7
        pts = [
            (
                x + (r if i % 2 == 0 else 0.3 * r) * math.cos(math.pi * i / n),
                y + (r if i % 2 == 0 else 0.3 * r) * math.sin(math.pi * i / n),
            )
            for i in range(2 * n)
        ]
        cv2.fillPoly(img, [np.array([_p(*p) for p in pts], np.int32)], ink, aa, 4)
    elif symbol == "glyph":
        cv2.fillPoly(
            img,
            [np.array([_p(x, y - r), _p(x + r, y + r), _p(x - r, y + r)], np.int32)],
            ink,
            aa,
            4,
        )


def _symbol_mask(
    mark: str, c: tuple[float, float], size: float, style: DeckStyle, shape: tuple[int, ...]
) -> np.ndarray:
    """uint8 (h, w): where the corner symbol's ink lies, turned by `style.symbol_turn_deg`
    about its middle."""
    layer = np.zeros((*shape[:2], 3), np.uint8)
    draw_symbol(layer, mark, c, size, style, (255, 255, 255))
    mask = layer[..., 0]
    if style.symbol_turn_deg:
        M = cv2.getRotationMatrix2D(
            (c[0] * PX_PER_MM, c[1] * PX_PER_MM), style.symbol_turn_deg, 1.0
        )
        mask = cv2.warpAffine(mask, M, (mask.shape[1], mask.shape[0]), flags=cv2.INTER_LINEAR)
    return mask


def _badge(img: np.ndarray, c: tuple[float, float], r: float, shape: str, shade: BGR) -> None:
    """A badge of radius `r` mm behind the corner symbol."""
    x, y = c
    aa = cv2.LINE_AA
    if shape == "square":
        cv2.rectangle(img, _p(x - r, y - r), _p(x + r, y + r), shade, -1, aa, 4)
    elif shape == "diamond":
        _poly(img, [_p(x, y - r), _p(x + r, y), _p(x, y + r), _p(x - r, y)], shade, -1)
    elif shape == "ring":
        cv2.circle(img, _p(x, y), _r(r), shade, max(1, round(0.5 * PX_PER_MM)), aa, 4)
    else:
        cv2.circle(img, _p(x, y), _r(r), shade, -1, aa, 4)


def _poly(img: np.ndarray, pts: list[tuple[int, int]], ink: BGR, fill: int) -> None:
    """A polygon filled (`fill` -1) or outlined `fill` px wide (fixed-point, 4 bits)."""
    a = np.array(pts, np.int32)
    if fill < 0:
        cv2.fillPoly(img, [a], ink, cv2.LINE_AA, 4)
    else:
        cv2.polylines(img, [a], True, ink, fill, cv2.LINE_AA, 4)


def _background(w: int, h: int, bgr: BGR, style: DeckStyle, rng: np.random.Generator) -> np.ndarray:
    base = np.array(bgr, np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    if style.background == "gradient":
        g = np.linspace(1.1, 0.8, h, dtype=np.float32)[:, None, None]
        img *= g
    elif style.background == "stripes":
        y = np.arange(h, dtype=np.float32)[:, None, None]
        img *= 0.9 + 0.1 * np.sign(np.sin(y / (PX_PER_MM * 4)))
    elif style.background == "mottled":
        small = rng.random((8, 6)).astype(np.float32)
        big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)[..., None]
        img *= 0.82 + 0.3 * big
    return np.clip(img, 0, 255).astype(np.uint8)


def _face_parts(card: str, style: DeckStyle, deck: Deck) -> tuple[BGR, str, BGR | None]:
    """(background colour, corner mark, a swatch colour for colour Mirrors)."""
    if card == "nightmare":
        return style.nightmare_bgr, "nightmare", None
    if card.startswith("door-"):
        return style.colours[card.removeprefix("door-")], "door", None
    if card.startswith("mirror-"):
        rest = card.removeprefix("mirror-")
        explored = rest.endswith("-explored")
        mid = rest.removesuffix("-explored")
        bg = style.explored_bgr if explored else style.mirror_bgr
        matches = deck.mirrors[mid].matches
        if matches in style.colours:
            return bg, "swatch", style.colours[matches]
        if matches == "each-colour":
            return bg, "rainbow", None
        return bg, matches, None
    colour, symbol = card.split("-")
    return style.colours[colour], symbol, None


def draw_face(card: str, style: DeckStyle, deck: Deck, size_mm: tuple[float, float]) -> np.ndarray:
    """One card face (BGR, `PX_PER_MM`), upright; outside rounded corners is black with
    alpha 0 in the fourth channel."""
    wmm, hmm = size_mm
    w, h = round(wmm * PX_PER_MM), round(hmm * PX_PER_MM)
    rng = np.random.default_rng([style.seed, sum(map(ord, card))])
    bg, mark, swatch = _face_parts(card, style, deck)
    img = _background(w, h, bg, style, rng)
    b = style.border_mm
    area = "full" if card.startswith("mirror-") else style.colour_area
    inset = 0.0
    if area != "full":  # plain paper where the colour is not
        paper = _background(w, h, style.paper_bgr, style, rng)
        if area == "frame":
            inset = style.frame_mm
            f = round((b + inset) * PX_PER_MM)
            img[f : h - f, f : w - f] = paper[f : h - f, f : w - f]
        else:
            top = round(hmm * 0.3 * PX_PER_MM)
            img[:top] = paper[:top]
    mark_ink = style.ink if area == "full" else bg
    # the big art in the middle: the mark again, large, and a few random strokes
    ink = style.ink if mark != "swatch" else swatch or style.ink
    for _ in range(int(rng.integers(2, 6))):
        c = tuple(int(np.clip(v * rng.uniform(0.7, 1.3), 0, 255)) for v in bg)
        cv2.circle(
            img,
            _p(rng.uniform(b, wmm - b), rng.uniform(hmm * 0.4, hmm - b)),
            _r(rng.uniform(4, 14)),
            c,
            -1,
            cv2.LINE_AA,
            4,
        )
    big = {"swatch": "door", "rainbow": "glyph"}.get(mark, mark)
    if mark in ("swatch", "rainbow"):
        big = "glyph"
    draw_symbol(
        img,
        big,
        (wmm / 2, hmm * 0.6),
        min(wmm, hmm) * 0.45,
        style,
        ink if mark != "rainbow" else style.ink,
    )
    if card.startswith("mirror-") and card.endswith("-explored"):
        cv2.line(
            img,
            _p(b + 4, hmm - b - 10),
            _p(wmm - b - 4, hmm * 0.35),
            style.ink,
            round(PX_PER_MM),
            cv2.LINE_AA,
            4,
        )
    title = card.split("-")[-1] if not card.startswith("mirror") else "mirror"
    scale = 0.9 if style.font != cv2.FONT_HERSHEY_PLAIN else 1.6
    cv2.putText(
        img,
        title.upper(),
        (round((b + 3) * PX_PER_MM), round((hmm - b - 4) * PX_PER_MM)),
        style.font,
        scale,
        style.ink,
        2,
        cv2.LINE_AA,
    )
    # the corner index: what a fan leaves in view
    s = style.index_mm
    dx, dy = style.index_offset_mm
    cx, cy = b + inset + 2.5 + s / 2 + dx, b + inset + 2.5 + s / 2 + dy
    for _ in range(style.corner_art):  # the art reaching in behind the symbol
        c = tuple(int(np.clip(v * rng.uniform(0.6, 1.4), 0, 255)) for v in bg)
        cv2.circle(
            img,
            _p(rng.uniform(b, 30.0), rng.uniform(b, 20.0)),
            _r(rng.uniform(2, 8)),
            c,
            -1,
            cv2.LINE_AA,
            4,
        )
    if style.ink_edge and mark not in ("swatch", "rainbow"):
        edge = tuple(int(v * 0.25) for v in bg)
        grown = _symbol_mask(mark, (cx, cy), s, style, img.shape[:2])
        grown = cv2.dilate(grown, np.ones((5, 5), np.uint8))
        img[grown > 127] = edge
    if style.badge:
        shade = tuple(
            int(np.clip(v * 0.6, 0, 255)) for v in (bg if area == "full" else style.paper_bgr)
        )
        _badge(img, (cx, cy), 0.62 * s, style.badge_shape, shade)  # type: ignore[arg-type]
    if mark == "swatch":
        cv2.circle(img, _p(cx, cy), _r(0.45 * s), swatch, -1, cv2.LINE_AA, 4)  # type: ignore[arg-type]
        cv2.circle(img, _p(cx, cy), _r(0.45 * s), style.ink, 2, cv2.LINE_AA, 4)
    elif mark == "rainbow":
        for i, col in enumerate(style.colours.values()):
            cv2.ellipse(
                img,
                _p(cx, cy),
                (_r(0.45 * s), _r(0.45 * s)),
                0,
                90 * i,
                90 * i + 90,
                col,
                -1,
                cv2.LINE_AA,
                4,
            )
    else:
        a = _symbol_mask(mark, (cx, cy), s, style, img.shape[:2])[..., None] / 255.0
        img[:] = np.round(img * (1 - a) + np.array(mark_ink, np.float64) * a).astype(np.uint8)
    if style.index_letter:
        letter = {"nightmare": "N", "door": "D", "sun": "S", "moon": "M", "key": "K"}.get(mark, "")
        if card.startswith("mirror-"):
            letter = "R" if card.endswith("-explored") else "M"
        cv2.putText(
            img,
            letter,
            (round((cx - 0.2 * s) * PX_PER_MM), round((cy + 0.5 * s + 4.5) * PX_PER_MM)),
            style.font,
            0.6,
            mark_ink,
            2,
            cv2.LINE_AA,
        )
    if card.startswith("mirror-"):  # the Mirror's frame, so a Mirror is not a Location
        cv2.rectangle(
            img,
            _p(b + 0.5, b + 0.5),
            _p(wmm - b - 0.5, hmm - b - 0.5),
            style.ink,
            max(1, round(0.6 * PX_PER_MM)),
            cv2.LINE_AA,
            4,
        )
    if b > 0:
        bw = round(b * PX_PER_MM)
        img[:bw], img[-bw:], img[:, :bw], img[:, -bw:] = (style.border_bgr,) * 4
    if style.pale > 0:
        paper = np.array(style.paper_bgr, np.float32)
        img[:] = np.round(img * (1 - style.pale) + paper * style.pale).astype(np.uint8)
    alpha = np.full((h, w), 255, np.uint8)
    rc = round(style.corner_mm * PX_PER_MM)
    if rc > 0:
        alpha[:] = 0
        cv2.rectangle(alpha, (rc, 0), (w - 1 - rc, h - 1), 255, -1)
        cv2.rectangle(alpha, (0, rc), (w - 1, h - 1 - rc), 255, -1)
        for px, py in ((rc, rc), (w - 1 - rc, rc), (rc, h - 1 - rc), (w - 1 - rc, h - 1 - rc)):
            cv2.circle(alpha, (px, py), rc, 255, -1, cv2.LINE_AA)
    return np.dstack([img, alpha])


def draw_deck(style: DeckStyle, deck: Deck, size_mm: tuple[float, float]) -> dict[str, np.ndarray]:
    return {cid: draw_face(cid, style, deck, size_mm) for cid in card_ids(deck)}
