"""The staged reader: one photograph -> a `read.Reading`, through the typed stages of
`stages` (plane, features, glass fit) and `slots` (the glass's lattice, every free slot named
by its upper half, coverage from the lattice), so the tracker and live play consume it as
they consume the light-border reader's. It keeps no memory between frames: that is the
tracker's (`verify` hands the reading back as it is).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.errors import UserError
from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.rules.layout import Layout, load_layouts
from companion.games.looking_glass.vision.finder import by_correlation, fill_by_places
from companion.games.looking_glass.vision.read import Reading, SeenCard, layout_fits
from companion.games.looking_glass.vision.slots import Probe, fill_probed, layout_span
from companion.games.looking_glass.vision.stages import (
    Glass,
    Identified,
    Plane,
    by_features,
    fit_glass,
)
from companion.vision.cards.features import FaceIndex
from companion.vision.cards.library import Library
from companion.vision.markers import Marker

WORK_WIDTH = 1280
"""Features are found on a copy at most this wide (a card there is ~100 px across)."""


@dataclass(frozen=True)
class Stages:
    """What each stage made of one photograph, in working-image px."""

    found: list[Identified]
    """The cards the features found and named, before the glass fit."""
    glass: Glass
    """The fitted glass, its lattice's slots filled."""
    scale: float
    """Working image px over full-resolution px."""
    probes: list[Probe]
    """Every free lattice slot looked at, named or not."""


class StagedReader:
    """Reads photographs with one card library. Keeps no state between images."""

    verifies = False
    """`verify` hands a reading back as it is: `incremental` reads a still frame whose cards
    changed in full, and calls the changed cards of a moving one hidden."""

    def __init__(self, library: Library, *, layouts: dict[str, Layout] | None = None) -> None:
        if library.faces is None:
            raise UserError(
                "this card library was taught before whole faces were kept; "
                "teach the deck again to read with the staged reader"
            )
        self.lib = library
        self.index = FaceIndex.of(library)
        self.layouts = load_layouts() if layouts is None else layouts
        self.max_cols = layout_span(self.layouts.values())
        # With a card of the base deck left untaught, a slot's weaker best is no name
        # (`slots.name_slots`).
        self.every_card_taught = set(load_deck().normal_ids) <= set(library.ids)

    def stages(
        self,
        image: np.ndarray,
        H_mm_from_image: np.ndarray | None = None,
        *,
        correlate: bool = True,
    ) -> Stages:
        """Every stage's output for one photograph (working-image px). When the features'
        cards fix no lattice (smooth art: they name a few cards, rarely one and its
        reflection), places found by correlation fix it with them, and the slot stage names
        every slot (`finder.fill_by_places`; `correlate` False: the features alone)."""
        small, sc = working_image(image)
        H = None if H_mm_from_image is None else H_mm_from_image @ np.diag([1 / sc, 1 / sc, 1])
        found = by_features(small, self.index)
        glass, probes = fill_probed(
            small, fit_glass(found, Plane(H)), self.lib, self.max_cols, self.every_card_taught
        )
        if correlate and not probes:
            filled = fill_by_places(
                small,
                found,
                by_correlation(small, found, self.lib),
                Plane(H),
                self.lib,
                self.max_cols,
                self.every_card_taught,
            )
            if filled is not None:
                glass, probes = filled
        return Stages(found, glass, sc, probes)

    def glass(
        self, image: np.ndarray, H_mm_from_image: np.ndarray | None = None
    ) -> tuple[Glass, float]:
        """The fitted glass (in working-image px) and the scale of the working image."""
        st = self.stages(image, H_mm_from_image)
        return st.glass, st.scale

    def read(
        self,
        image: np.ndarray,
        H_mm_from_image: np.ndarray | None = None,
        markers: dict[int, Marker] | None = None,
    ) -> Reading:
        """`H_mm_from_image`: the table registration if the caller has one (full-res px).
        `markers` is taken as `read.Reader.read` takes it (live play hands both readers the
        same arguments); the staged reader never looks for markers, so it needs none."""
        return self.reading(self.stages(image, H_mm_from_image), H_mm_from_image)

    def reading(self, st: Stages, H_mm_from_image: np.ndarray | None = None) -> Reading:
        """The stages' glass as the tracker and live play consume a reading (full-res px)."""
        seen = []
        for p in st.glass.cards:
            outline = p.card.hypothesis.outline / st.scale
            ident = p.card.identity
            centre = outline.mean(axis=0)
            seen.append(
                SeenCard(
                    ident.card,
                    ident.confidence,
                    centre,
                    outline,
                    p.card.hypothesis.covered,
                    p.half,
                    p.row,
                    p.col,
                    centre,
                    dict(ident.scores),
                )
            )
        layout = self.layout(seen)
        return Reading(seen, layout, [], H_mm_from_image, None, 0.0, H_mm_from_image is not None)

    def verify(
        self,
        image: np.ndarray,
        reading: Reading,
        prior: list[SeenCard],
        *,
        keep_looks: bool = False,
    ) -> Reading:
        """Memory across frames is the tracker's: the reading as it is (the arguments are
        `read.Reader.verify`'s, so live play and `incremental` call either reader alike)."""
        return reading

    def layout(self, seen: list[SeenCard]) -> str | None:
        """The one layout whose cells hold every (row, column) read, columns counted either
        way along the line (every layout is symmetric, so both ways usually fit: the first
        way that fits at one column shift numbers them); None when two layouts fit, or one
        fits at several shifts. Columns are renumbered as that layout numbers them."""
        if not seen:
            return None
        top = max(c.col for c in seen)
        for sign in (1, -1):
            observed = {(c.row, c.col if sign == 1 else top - c.col) for c in seen}
            fits = layout_fits(observed, self.layouts)
            if len({lid for lid, _ in fits}) > 1:
                return None
            if len(fits) == 1:
                lid, shift = fits[0]
                for c in seen:
                    c.col = (c.col if sign == 1 else top - c.col) + shift
                return lid
        return None


def working_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photograph at most `WORK_WIDTH` wide, and the scale from the photograph to it:
    every stage works at this size, so a tool that runs a stage alone must too."""
    import cv2

    sc = min(1.0, WORK_WIDTH / image.shape[1])
    if sc == 1.0:
        return image, sc
    return cv2.resize(image, None, fx=sc, fy=sc, interpolation=cv2.INTER_AREA), sc
