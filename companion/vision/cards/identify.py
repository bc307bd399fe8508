"""Which taught card a candidate outline is, or that it is no card: a score per card id.

The candidate's upper half is cut out along its outline (rectified to the library's patch)
and compared with every template by normalised correlation of Lab descriptors
(`library.descriptor`: each channel zero-mean unit-variance, so a dimmer lamp, a warmer bulb or
a glossy sheen that lifts the whole patch change nothing). An outline found a little large or
small, or a little off, is allowed for by trying a few scales about its centre, and the shifts
inside the search margin (`Library.match`). Both ends of the card are tried when the caller
does not know which is its top.

A weak or ambiguous best match is reported as no card (`Identity.card` None): a null costs the
players a question, a wrong name costs them the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.cards.library import (
    CARD_W_MM,
    PATCH_H,
    PATCH_W,
    SEARCH_PX,
    Library,
    descriptor,
)

SCALES = (0.96, 1.0, 1.04)
"""Outline scales tried about its centre: a found outline is within ~3 % of the card."""
MIN_SCORE = 0.5
"""A best correlation below this is no card."""
MIN_MARGIN = 0.1
"""...and one less than this above the runner-up is not told apart from it."""


@dataclass(frozen=True)
class Identity:
    """The verdict on one candidate outline."""

    card: str | None
    """The card id, or None: no card, or none told apart clearly."""
    score: float
    """Best correlation of any template (-1..1)."""
    margin: float
    """Best less the runner-up's."""
    flipped: bool
    """The card's top is at the outline's bottom (corners 2, 3), not at its top."""
    scores: dict[str, float] = field(default_factory=dict)
    """Best correlation of every card id."""

    @property
    def confidence(self) -> float:
        """0..1: a clear margin over the runner-up and a good score of its own."""
        margin = float(np.clip(self.margin / 0.25, 0.0, 1.0))
        level = float(np.clip((self.score - 0.35) / 0.35, 0.0, 1.0))
        return margin * level


def card_to_image(outline: np.ndarray, height_mm: float) -> np.ndarray:
    """Card mm (origin the card's top-left, y down) -> image px for an outline TL, TR, BR, BL."""
    src = np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, height_mm], [0, height_mm]], np.float32)
    return cv2.getPerspectiveTransform(src, outline.astype(np.float32))


def upper_window(
    image: np.ndarray, outline: np.ndarray, lib: Library, margin: int = SEARCH_PX
) -> np.ndarray:
    """The upper-half patch of the card outlined (TL, TR, BR, BL), `margin` px larger on
    every side, rectified to the library's patch (BGR). Sampled at twice the resolution and
    averaged down, so no aliasing."""
    H = card_to_image(outline, lib.shape.height_mm)
    x0, y0, x1, y1 = lib.shape.patch_region()
    m, up = margin, 2
    sx, sy = (x1 - x0) / PATCH_W, (y1 - y0) / PATCH_H
    P = np.array(
        [
            [sx / up, 0, x0 - m * sx + sx / (2 * up)],
            [0, sy / up, y0 - m * sy + sy / (2 * up)],
            [0, 0, 1],
        ]
    )
    size = ((PATCH_W + 2 * m) * up, (PATCH_H + 2 * m) * up)
    big = cv2.warpPerspective(
        image,
        H @ P,
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return cv2.resize(big, (PATCH_W + 2 * m, PATCH_H + 2 * m), interpolation=cv2.INTER_AREA)


def _scaled(outline: np.ndarray, s: float) -> np.ndarray:
    c = outline.mean(axis=0)
    return c + s * (outline - c)


def scores_of(
    image: np.ndarray, outline: np.ndarray, lib: Library, margin: int = SEARCH_PX
) -> np.ndarray:
    """Best correlation of every template with the card outlined, over `SCALES` and shifts."""
    return np.max(
        [
            lib.match(descriptor(upper_window(image, _scaled(outline, s), lib, margin)))
            for s in SCALES
        ],
        axis=0,
    )


def identify(
    image: np.ndarray,
    outline: np.ndarray,
    lib: Library,
    *,
    top_known: bool = False,
    margin: int = SEARCH_PX,
) -> Identity:
    """Which taught card the whole card outlined (TL, TR, BR, BL; image px) is.

    `top_known`: the outline's first corners are the card's top; else both ends are tried.
    `margin`: patch px searched about the outline's place (an outline from a model of the
    table, not from the card's own edges, may lie further off)."""
    ends = [(False, outline)]
    if not top_known:
        ends.append((True, np.roll(outline, 2, axis=0)))
    best: Identity | None = None
    for flipped, q in ends:
        s = scores_of(image, q, lib, margin)
        order = np.argsort(s)[::-1]
        top = float(s[order[0]])
        second = float(s[order[1]]) if len(s) > 1 else -1.0
        card = lib.ids[order[0]] if top >= MIN_SCORE and top - second >= MIN_MARGIN else None
        ident = Identity(
            card,
            top,
            top - second,
            flipped,
            {cid: float(v) for cid, v in zip(lib.ids, s, strict=True)},
        )
        if best is None or ident.score > best.score:
            best = ident
    assert best is not None
    return best
