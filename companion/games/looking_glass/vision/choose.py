"""Which reader reads a taught deck: decided from the library, not by a flag.

The light-border reader (`read.Reader`) finds a card as a hole in its light border and reads
such decks almost perfectly and fast; a deck whose border is dark, coloured or missing gives
it no hole, and it reads few of its cards. The staged reader (`reader.StagedReader`) finds
cards by their art's local features, whatever the border, but is slower and misses more on
light-bordered decks. So the library's own faces are measured once: how much of each face's
border ring the light-border reader would take for border (`read.white_mask`, the very test
it finds holes with). A deck whose ring is mostly light is the light-border reader's; any
other the staged reader's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from companion.games.looking_glass.vision.read import white_mask
from companion.vision.cards.library import FACE_PX_PER_MM, Library

if TYPE_CHECKING:
    from companion.games.looking_glass.vision.read import Reader
    from companion.games.looking_glass.vision.reader import StagedReader

LIGHT_BORDER_SHARE = 0.5
"""A deck whose faces' border rings are at least this share light (`light_border_share`,
the median over its faces) is read by the light-border reader; PLACEHOLDER until the curve
over the development decks is measured."""
RING = (0.3, 0.8)
"""The ring measured, as shares of the taught border's width (`CardShape.border_mm`) in from
a face's edge: its middle (a teach cut a few px off takes in the table at the edge; the art
begins past it). A deck taught with no border has no ring: it is not a light-bordered deck,
however light its art is at the edge (full-bleed decks whose art is pale there read 0 of
their cards with the light-border reader on development tables)."""
CORNER_MM = 6.0
"""The ring leaves out this much of each side at the corners: rounded corners show table."""


def face_ring(height_px: int, width_px: int, border_mm: float) -> np.ndarray:
    """Mask of a face's border ring (`RING`; the corners left out)."""
    y, x = np.mgrid[:height_px, :width_px]
    dx, dy = np.minimum(x, width_px - 1 - x), np.minimum(y, height_px - 1 - y)
    mm = np.minimum(dx, dy) / FACE_PX_PER_MM
    lo, hi = RING[0] * border_mm, RING[1] * border_mm
    corner = np.maximum(dx, dy) < CORNER_MM * FACE_PX_PER_MM
    return (mm >= lo) & (mm < hi) & ~corner


def light_border_share(lib: Library) -> float:
    """The median over the taught faces of the share of their border ring (`face_ring`)
    that `read.white_mask` calls light (0.0 for a library without faces, or without a
    border: no light border to find cards by)."""
    if lib.faces is None or not len(lib.faces):
        return 0.0
    h, w = lib.faces.shape[1:3]
    ring = face_ring(h, w, lib.shape.border_mm)
    if not ring.any():
        return 0.0
    return float(np.median([white_mask(face)[ring].mean() for face in lib.faces]))


def reader_kind(lib: Library) -> str:
    """ "light-border" or "staged": the reader for this library (module docstring). A library
    taught before whole faces were kept can only be read by the light-border reader."""
    if lib.faces is None or light_border_share(lib) >= LIGHT_BORDER_SHARE:
        return "light-border"
    return "staged"


def make_reader(lib: Library, kind: str = "auto") -> Reader | StagedReader:
    """The reader `kind` names (`commands.READERS`; "auto": `reader_kind`) for this library."""
    from companion.games.looking_glass.vision.read import Reader
    from companion.games.looking_glass.vision.reader import StagedReader

    if kind not in ("auto", "light-border", "staged"):
        raise ValueError(f"unknown reader {kind!r}")
    if kind == "auto":
        kind = reader_kind(lib)
    return StagedReader(lib) if kind == "staged" else Reader(lib)
