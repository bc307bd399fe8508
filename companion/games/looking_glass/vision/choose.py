"""Which reader reads a taught deck: decided from the library, not by a flag.

The light-border reader (`read.Reader`) finds a card as a hole in its light border and reads
such decks almost perfectly and fast; a deck whose border is dark, coloured or missing gives
it no hole, and it reads few of its cards. The staged reader (`reader.StagedReader`) finds
cards by their art's local features, whatever the border, but is slower and misses more on
light-bordered decks. So the library's own faces are measured once: how much of each face's
border ring the light-border reader would take for border (`read.white_mask`, the very test
it finds holes with), times the border's measured width: a deck with a light border wide
enough is the light-border reader's; any other (dark, coloured or no border, or a dark
border round a thin light frame) the staged reader's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from companion.games.looking_glass.vision.read import white_mask
from companion.vision.cards.library import FACE_PX_PER_MM, Library

if TYPE_CHECKING:
    from companion.games.looking_glass.vision.read import Reader
    from companion.games.looking_glass.vision.reader import StagedReader

LIGHT_BORDER_MM = 2.3
"""A deck whose light border (`light_border_mm`) is at least this wide is read by the
light-border reader. From the curve over 22 development decks (10 house, 12 randomised:
`benchmarks/looking_glass_reader_choice.py`, 816 cards on 2 tables a deck), cards right under
the choice: 1.0 mm: 641, 1.5: 680, 2.0: 707, 2.25: 727, 2.5: 727, 3.0: 711, 4.0: 697. The
flat best lies between a randomised deck measured 2.10 mm (light-border 0 of 36 cards,
staged 20) and one measured 2.53 mm (44 and 28 of 48); house decks measure 3.9 mm. A dark
border round a thin light frame measures 1.1 to 1.6 mm (light-border 19, 2 and 15 cards of
46, 40 and 39; staged 46, 29 and 27).

Not settled: with the committed set's white- and cream-bordered decks added (4.8 and 4.9 mm:
light-border 0 of 46 and 18 of 33, staged 41 and 34), 24 decks, 895 cards, the curve is 2.25
to 2.5 mm: 745, 3.0: 729, 4.0: 715, and the staged reader for every deck (5.0): 774. A light
border is necessary for the light-border reader, not sufficient; this measure keeps the house
style's decks on it (361 of 361 cards vs 346 staged, and live play at ~18 frames a second
instead of a 1.5 s read whenever the table changes) at a cost of 29 cards on the other
decks."""
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


def light_border_mm(lib: Library) -> float:
    """How wide (mm) a light border the taught deck has: the border teach measured times the
    share of it that is light (`light_border_share`). A thin light frame inside a dark
    border is measured as a narrow border (teach finds the card as a hole in the frame), and
    gives the light-border reader too little to find cards by at the table."""
    return lib.shape.border_mm * light_border_share(lib)


def reader_kind(lib: Library) -> str:
    """Which reader reads this library, "light-border" or "staged" (module docstring). A
    library taught before whole faces were kept can only be read by the light-border one."""
    if lib.faces is None or light_border_mm(lib) >= LIGHT_BORDER_MM:
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
