"""Which holes the last pair of a round is read from (`read.whole_interiors` at
`read.LAST_PAIR_SHAPE_TOLERANCE`): a whole card's interior as foreshortened as the
plane-shapes curve shows at the rulebook's steepest tilt, and not an upper half."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.vision.read import (
    LAST_PAIR_SHAPE_TOLERANCE,
    Hole,
    Oriented,
    whole_interiors,
)
from companion.vision.cards.library import CARD_W_MM, CardShape, Library

WIDTH_PX = 60.0


def _library() -> Library:
    """A library for its shape alone (the printed card's), as the reader uses it here."""
    ids = list(load_deck().ids)
    empty = np.zeros((len(ids), 1, 1, 3), np.float32)
    return Library(ids, empty, empty.astype(np.uint8), CardShape(), None)


def _hole(height_over_width: float) -> Oriented:
    """An upright hole WIDTH_PX wide with this length-to-width ratio."""
    h = WIDTH_PX * height_over_width
    corners = np.array([[0.0, 0.0], [WIDTH_PX, 0.0], [WIDTH_PX, h], [0.0, h]])
    return Oriented(
        Hole(corners, WIDTH_PX * h, 1.0),
        corners.mean(axis=0),
        np.array([WIDTH_PX, 0.0]),
        np.array([0.0, h]),
    )


@pytest.mark.parametrize("off", [-0.2, 0.2])
def test_a_whole_interior_foreshortened_by_a_fifth_is_read_as_the_last_pair(off: float) -> None:
    """At 25° one framed whole interior in eight of the development curve lay more than 0.18
    from its ratio (the tolerance before), one in twelve more than 0.2: such a pair was not
    read apart from the score piles."""
    lib = _library()
    shape = lib.shape
    ratio = (shape.height_mm - 2 * shape.border_mm) / (CARD_W_MM - 2 * shape.border_mm)
    hole = _hole(ratio * (1 + off))
    assert whole_interiors([hole], lib, LAST_PAIR_SHAPE_TOLERANCE) == [hole]


def test_an_upper_half_is_not_taken_for_a_whole_interior() -> None:
    """An upper half (a covered pile card's hole) at the same foreshortening is not a whole
    card: the pair's plane would be measured from it."""
    lib = _library()
    shape = lib.shape
    half = (shape.height_mm / 2 - shape.border_mm) / (CARD_W_MM - 2 * shape.border_mm)
    holes = [_hole(half * 1.2), _hole(half * 1.3)]
    assert whole_interiors(holes, lib, LAST_PAIR_SHAPE_TOLERANCE) == []
