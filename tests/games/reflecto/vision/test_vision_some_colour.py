"""A strip in one seat's colour short of `SURE` whose colour goes on beside it in the same
shade is the print (`read.SOME_COLOUR_PRINTED`): called empty, where it was asked about; a
screen so coloured, its colour found nowhere beside it, is still asked about."""

from __future__ import annotations

import pytest

import companion.games.reflecto.vision.read as read
from companion.games.reflecto.vision.colours import ScreenColours
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.render import render_photo
from companion.sim.conditions import Conditions

GEOM = load_geometry()

DEVELOPMENT_BOARD = (2027310061, 19)
"""A board of refl32's random development family docs/reflecto.md names (the curve the rule
was read off): a row printed in a seat's colour, and a screen in that colour short of
`SURE` on the row beside it."""


def test_some_colour_the_print_is_empty_and_a_screen_is_still_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    photo = render_photo(GEOM, DEVELOPMENT_BOARD, Conditions(), setup=True)
    assert photo.setup is not None
    setup, rect = read.rectify(photo.setup, GEOM), read.rectify(photo.image, GEOM)
    assert setup is not None and rect is not None
    colours = read.learn_at_setup(setup, GEOM)
    truth = dict(photo.truth.layout_key())
    monkeypatch.setattr(read, "SOME_COLOUR_PRINTED", False)
    before = read.classify(rect, GEOM, colours)
    monkeypatch.setattr(read, "SOME_COLOUR_PRINTED", True)
    after = read.classify(rect, GEOM, colours)
    asked = [j for j, c in enumerate(before) if c.why == "some colour"]
    called = [j for j in asked if after[j].why == "some colour, the print"]
    kept = [j for j in asked if after[j].why == "some colour"]
    assert len(called) >= 3 and kept and set(called) | set(kept) == set(asked)
    for j in called:  # the print: empty, without a question, and no screen stands there
        assert after[j].owner is None and not after[j].unclear
        assert GEOM.cells[j] not in truth
        # ... as the print test of a strip in the seat's colour says.
        k = max((0, 1), key=lambda s: after[j].shares[s])
        assert read.printed(read.print_share(rect, GEOM, _ev(rect, colours), GEOM.cells[j], k, 1))
    # The screen asked as "some colour" is still asked (its colour is not the board's).
    screens = [j for j in kept if GEOM.cells[j] in truth]
    assert screens and all(after[j].unclear and after[j].owner is None for j in screens)
    # Every other square is read as before.
    for j, (a, b) in enumerate(zip(before, after, strict=True)):
        if j not in called:
            assert a == b


def _ev(rect: read.Rectified, colours: ScreenColours) -> read.Evidence:
    return read.evidence(rect, GEOM, colours, (read.FLOOR, read.FAINT_FLOOR))
