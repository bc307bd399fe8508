"""The two players' screen colours, as the camera sees them.

Colours are compared by chromaticity, (b, g, r) / (b + g + r): a screen in the lamp's light
and the same screen in a shadow have the same chromaticity, and a glare spot (near white)
has almost none. That is also why screens must be coloured plastic, not black, white or
grey: `learn_*` warn when a colour lies too near grey to be told from the board's.

The colours are settings, learned once at set-up from the first rows (`learn_at_setup`);
`learn_from_cells` finds them in a single photograph with no set-up, as the two clusters of
strongly coloured squares, for `companion read` on loose photos.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

GREY = np.full(3, 1 / 3)
MIN_GREY_DISTANCE = 0.03
"""A screen colour nearer grey than this (chromaticity) is not usable: a grey plastic under a
faintly coloured light. A dull plastic is learned nearer grey than its tops lie (the median
of tops differing in hue and shade, in the set-up's light), and a refused colour loses the
whole board. From the development curve (`benchmarks/reflecto_curves.py refusal` on a random
and a house development family, some 75 random and 125 house boards: the boards whose weaker
colour or pair lay under 0.15, read with no limit): at the limit 0.06 before, six boards
learned at 0.039, 0.045, 0.049, 0.050, 0.056 and 0.058 were refused (45 screens lost); read,
they gave 30 screens right (one board entirely), 0 phantoms, 0 wrong owners. No development
board came nearer grey than 0.039 (the renderer draws no grey plastic): 0.03 keeps them and
refuses a grey one."""
MIN_APART = 0.06
"""The two colours must lie this far apart (chromaticity) to be told from each other. On
the same curve the pairs under it (0.028, 0.058) read 3 and 0 screens in the wrong
owner's colour, and one at 0.069 read 1: not lowered."""


def chromaticity(bgr: np.ndarray) -> np.ndarray:
    """(..., 3) BGR to (..., 3) chromaticity; black pixels come out grey."""
    f = bgr.astype(np.float32)
    s = f.sum(axis=-1, keepdims=True)
    return np.where(s > 0, f / np.maximum(s, 1e-6), np.float32(1 / 3))


@dataclass(frozen=True)
class ScreenColours:
    """Each seat's screen colour as chromaticity (b, g, r summing to 1)."""

    seat0: tuple[float, float, float]
    seat1: tuple[float, float, float]
    learned_from: str = "set-up"
    """"set-up" (the first rows at the start) or "this image" (clusters, no set-up)."""
    hue_spread: tuple[float, float] = (0.0, 0.0)
    """Per seat, how far (degrees of hue) its screens at set-up lay from their median: one
    seat's screens differ in make and shade, and a dull plastic's hue with them (0 when
    not learned from a set-up)."""

    @property
    def means(self) -> np.ndarray:
        return np.array([self.seat0, self.seat1], np.float32)

    def problems(self) -> list[str]:
        """Why these colours cannot be told apart (empty when they can)."""
        m = self.means
        out = [
            f"seat {k}'s screen colour is too near grey to tell from the board"
            for k in (0, 1)
            if float(np.linalg.norm(m[k] - GREY)) < MIN_GREY_DISTANCE
        ]
        if float(np.linalg.norm(m[0] - m[1])) < MIN_APART:
            out.append("the two seats' screen colours are too alike to tell apart")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "seat0": [round(v, 4) for v in self.seat0],
            "seat1": [round(v, 4) for v in self.seat1],
            "learned_from": self.learned_from,
            "hue_spread": [round(v, 2) for v in self.hue_spread],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScreenColours:
        def three(v: Any) -> tuple[float, float, float]:
            a, b, c = (float(x) for x in v)
            return a, b, c

        a, b = (float(v) for v in data.get("hue_spread", (0.0, 0.0)))
        return cls(
            three(data["seat0"]),
            three(data["seat1"]),
            str(data.get("learned_from", "set-up")),
            (a, b),
        )


def k_means(points: np.ndarray, k: int, iterations: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """Plain k-means, seeded by farthest points (deterministic: the same cells, the same
    clusters). Returns the centres and each point's label."""
    k = min(k, len(points))
    chosen = [int(np.argmax(np.linalg.norm(points - points.mean(axis=0), axis=1)))]
    while len(chosen) < k:
        d = np.min(np.linalg.norm(points[:, None] - points[chosen][None], axis=-1), axis=1)
        chosen.append(int(np.argmax(d)))
    centres = points[chosen].astype(np.float64)
    labels = np.full(len(points), -1)
    for _ in range(iterations):
        new = np.argmin(np.linalg.norm(points[:, None] - centres[None], axis=-1), axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            if np.any(labels == j):
                centres[j] = points[labels == j].mean(axis=0)
    return centres, labels
