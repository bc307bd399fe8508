"""A card found by its outline that its whole window names unclearly (a shadow or a sleeve's
sheen across it) is named when its cells back the name (`read.cells_back_name`)."""

from __future__ import annotations

import numpy as np

from companion.games.looking_glass.vision.read import (
    CONFIDENCE_THRESHOLD,
    FACE_IN_VIEW_SCORE,
    VERIFY_SCORE,
    VISIBLE_MARGIN,
    cells_back_name,
    confidence,
)

# Three faces; the whole window leads with the first, unclearly (a look-alike close behind).
WHOLE = np.array([VERIFY_SCORE + 0.1, VERIFY_SCORE + 0.06, 0.2])


def test_a_shadowed_card_whose_cells_lead_its_face_clearly_is_named():
    """The cells lead the same face at 0.8 by 0.35 (a sheen keeps them below the 0.85 an arm's
    cells need): that names the card, as sure as the cells are."""
    assert confidence(float(WHOLE[0]), float(WHOLE[1])) < CONFIDENCE_THRESHOLD
    cells = np.array([0.8, 0.45, 0.1])
    assert FACE_IN_VIEW_SCORE <= 0.8 < 0.85
    sure = cells_back_name(WHOLE, cells)
    assert sure is not None and sure >= CONFIDENCE_THRESHOLD
    assert sure == confidence(0.8, 0.45)


def test_cells_that_do_not_back_the_name_leave_it_asked():
    """No name when the cells lead another face, lead by less than VISIBLE_MARGIN, or match
    below FACE_IN_VIEW_SCORE, nor when the whole window matches below VERIFY_SCORE (a pair of
    cloth squares, an untaught card's copies on a look-alike)."""
    assert cells_back_name(WHOLE, np.array([0.45, 0.8, 0.1])) is None
    assert cells_back_name(WHOLE, np.array([0.8, 0.8 - VISIBLE_MARGIN + 0.02, 0.1])) is None
    assert cells_back_name(WHOLE, np.array([FACE_IN_VIEW_SCORE - 0.02, 0.3, 0.1])) is None
    low = np.array([VERIFY_SCORE - 0.02, VERIFY_SCORE - 0.06, 0.2])
    assert cells_back_name(low, np.array([0.9, 0.4, 0.1])) is None
