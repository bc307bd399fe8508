"""How hard a rendered photograph of a board is, for the renderers that photograph one."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Conditions:
    """How hard a photograph is: the ranges the reader must cope with."""

    max_tilt_deg: float = 25.0
    hands: int = 2
    blur_max: float = 1.2
    jpeg_min: int = 70
    glare: bool = True
    sizes: tuple[tuple[int, int], ...] = ((1280, 960), (1280, 960), (1280, 960), (1600, 1200))
