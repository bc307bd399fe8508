"""Which taught card a candidate outline is, or that it is no card: a score per card id.

The candidate's upper half is cut out along its outline (rectified to the library's patch)
and compared with every template by normalised correlation of Lab descriptors
(`library.descriptor`: each channel zero-mean unit-variance, so a dimmer lamp, a warmer bulb or
a glossy sheen that lifts the whole patch change nothing). An outline found a little large or
small, or a little off, is allowed for by trying a few scales about its centre, and the shifts
inside the search margin (`Library.match`'s scores, computed by the FFT: `match_windows`). Both
ends of the card are tried when the caller does not know which is its top.

A weak or ambiguous best match is reported as no card (`Identity.card` None): a null costs the
players a question, a wrong name costs them the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.cards.library import (
    PATCH_H,
    PATCH_W,
    SEARCH_PX,
    Library,
    card_outline_mm,
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
    return cv2.getPerspectiveTransform(card_outline_mm(height_mm), outline.astype(np.float32))


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


def _template_spectra(lib: Library, margin: int) -> np.ndarray:
    """(n, 3, h, w // 2 + 1) conjugate spectra of the unit-norm templates, zero-padded to a
    search window of `margin` (made once per library and margin, `Library.derived`)."""
    key = f"template_spectra_{margin}"
    made = lib.derived.get(key)
    if isinstance(made, np.ndarray):
        return made
    flat = lib.templates.reshape(len(lib.ids), -1)
    unit = lib.templates / np.maximum(1e-6, np.linalg.norm(flat, axis=1))[:, None, None, None]
    size = (PATCH_H + 2 * margin, PATCH_W + 2 * margin)
    spectra = np.conj(np.fft.rfft2(unit.astype(np.float32), s=size, axes=(1, 2)))
    made = np.ascontiguousarray(spectra.transpose(0, 3, 1, 2))
    lib.derived[key] = made
    return made


def match_windows(windows: np.ndarray, lib: Library, margin: int) -> np.ndarray:
    """`Library.match` of each search window descriptor ((k, h, w, 3), `margin` px larger
    than the patch on every side): (k, n) best correlations over every shift. The same
    numbers (to float rounding) by the FFT: a window's correlation with a template at every
    shift is one product of spectra, where `match` multiplies every shifted crop with every
    template (81 crops at a margin of 4 px; a tenth of the time)."""
    ws = np.asarray(windows, np.float32)
    k, h, w = ws.shape[:3]
    spectra = np.fft.rfft2(ws, axes=(1, 2)).transpose(0, 3, 1, 2)  # k, channel, fy, fx
    product = np.einsum("kchw,nchw->knhw", spectra, _template_spectra(lib, margin))
    shifts = (2 * margin + 1, 2 * margin + 1)
    corr = np.fft.irfft2(product, s=(h, w), axes=(2, 3))[:, :, : shifts[0], : shifts[1]]
    # Each shifted crop's norm: a box sum of the squared window (summed-area table).
    sq = np.pad((ws * ws).sum(axis=3).cumsum(1).cumsum(2), ((0, 0), (1, 0), (1, 0)))
    box = (
        sq[:, PATCH_H:, PATCH_W:]
        - sq[:, :-PATCH_H, PATCH_W:]
        - sq[:, PATCH_H:, :-PATCH_W]
        + sq[:, :-PATCH_H, :-PATCH_W]
    )
    norms = np.sqrt(np.maximum(box, 0.0))
    return (corr / np.maximum(1e-6, norms)[:, None]).reshape(k, len(lib.ids), -1).max(axis=2)


def _half_templates(lib: Library) -> np.ndarray:
    """(PATCH_LEN / 4, n) the unit-norm templates at half resolution, as columns (made once per
    library, `Library.derived`)."""
    made = lib.derived.get("half_templates")
    if isinstance(made, np.ndarray):
        return made
    half = np.stack(
        [
            cv2.resize(t, (PATCH_W // 2, PATCH_H // 2), interpolation=cv2.INTER_AREA)
            for t in lib.templates.astype(np.float32)
        ]
    ).reshape(len(lib.ids), -1)
    made = np.ascontiguousarray((half / np.maximum(1e-6, np.linalg.norm(half, axis=1))[:, None]).T)
    lib.derived["half_templates"] = made
    return made


def coarse_shift(window: np.ndarray, lib: Library, margin: int) -> tuple[int, int]:
    """(dy, dx) patch px, each even, of the patch-sized crop of a search window descriptor
    ((h, w, 3), `margin` px larger than the patch on every side, `margin` even) that some
    template matches best by normalised correlation, compared at half resolution: every shift
    of a wide window in one small product (a sixteenth of the full-resolution one). The
    caller matches the patch there at full resolution, whose ±`SEARCH_PX` slide covers the
    half-resolution step."""
    h, w = window.shape[:2]
    small = cv2.resize(
        np.ascontiguousarray(window, np.float32), (w // 2, h // 2), interpolation=cv2.INTER_AREA
    )
    ph, pw = PATCH_H // 2, PATCH_W // 2
    shifts = (h // 2 - ph + 1, w // 2 - pw + 1)
    crops = np.ascontiguousarray(
        np.lib.stride_tricks.sliding_window_view(small, (ph, pw, 3)).reshape(-1, ph * pw * 3)
    )
    norms = np.sqrt(np.einsum("ij,ij->i", crops, crops))
    corr = (crops @ _half_templates(lib)) / np.maximum(1e-6, norms)[:, None]
    cy, cx = divmod(int(np.argmax(corr)) // len(lib.ids), shifts[1])
    return 2 * cy - margin, 2 * cx - margin


def scores_of(
    image: np.ndarray, outline: np.ndarray, lib: Library, margin: int = SEARCH_PX
) -> np.ndarray:
    """Best correlation of every template with the card outlined, over `SCALES` and shifts."""
    windows = [descriptor(upper_window(image, _scaled(outline, s), lib, margin)) for s in SCALES]
    return match_windows(np.array(windows), lib, margin).max(axis=0)


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
