"""With the empty board's print (refl33): a "no colour" square whose strip changed from its
print, the board round it not, is asked about (`read.NO_COLOUR_ASK`), not called empty
without a word; a "some colour" strip is called the print only where the print test and
the learnt model both say so (`read.SOME_COLOUR_MODEL`)."""

from __future__ import annotations

import pytest

import companion.games.reflecto.vision.read as read
import companion.games.reflecto.vision.second_opinion as opinion
from companion.games.reflecto.vision.board_print import learn_print
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.render import render_photo
from companion.sim.conditions import Conditions
from tests.games.reflecto.vision.voting import sure

GEOM = load_geometry()

NO_COLOUR_BOARD = ("house", (6305157234, 22))
"""A board of refl33's house development family docs/reflecto.md names (the curve
`NO_COLOUR_CHANGED` was read off): a screen with none of its seat's colour left, read "no
colour" and called empty without a word by the reader before the rule."""
SOME_COLOUR_BOARD = ("random", (7248966206, 8))
"""A board of refl33's random development family: strips printed in a seat's colour asked
about as "some colour", and a screen so asked, its colour found nowhere beside it."""


def _read(which: str, seed: tuple[int, int]) -> tuple:
    conditions = Conditions(hands=0) if which == "house" else Conditions()
    photo = render_photo(GEOM, seed, conditions, setup=True, board=True)
    assert photo.setup is not None and photo.board is not None
    setup, rect = read.rectify(photo.setup, GEOM), read.rectify(photo.image, GEOM)
    assert setup is not None and rect is not None
    taught = learn_print(photo.board, GEOM)
    assert taught is not None
    return dict(photo.truth.layout_key()), rect, read.learn_at_setup(setup, GEOM), taught


def test_a_changed_square_with_no_colour_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    truth, rect, colours, taught = _read(*NO_COLOUR_BOARD)
    monkeypatch.setattr(opinion, "SECOND_OPINION", False)  # the hand reader's own calls
    monkeypatch.setattr(read, "NO_COLOUR_ASK", False)
    before = read.classify(rect, GEOM, colours, taught)
    monkeypatch.setattr(read, "NO_COLOUR_ASK", True)
    after = read.classify(rect, GEOM, colours, taught)
    asked = [j for j, c in enumerate(after) if c.why == "no colour, changed"]
    # The screen called empty without a word before is a question now.
    missed = [j for j, c in enumerate(before) if GEOM.cells[j] in truth and c.owner is None]
    silent = [j for j in missed if not before[j].unclear and before[j].why == "no colour"]
    assert silent and set(silent) <= set(asked)
    ev = read.evidence(rect, GEOM, colours, (read.FLOOR, read.FAINT_FLOOR))
    changes = read.print_changes(rect, GEOM, ev, taught)
    for j in asked:  # each a "no colour" square that changed, the board round it not
        assert before[j].why == "no colour" and after[j].unclear and after[j].owner is None
        change = changes[j]
        assert change is not None and change.share >= read.NO_COLOUR_CHANGED
        assert change.moved < read.ARM_BESIDE
    # Every other square is read as before, and most "no colour" squares stay silent.
    assert all(a == b for j, (a, b) in enumerate(zip(before, after, strict=True)) if j not in asked)
    assert sum(c.why == "no colour" for c in after) > 5 * len(asked)
    # From the picture alone (no print) the rule cannot act.
    alone = read.classify(rect, GEOM, colours)
    assert all(c.why != "no colour, changed" for c in alone)


def test_some_colour_is_the_print_only_where_the_model_agrees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    truth, rect, colours, taught = _read(*SOME_COLOUR_BOARD)
    monkeypatch.setattr(opinion, "SECOND_OPINION", True)
    monkeypatch.setattr(read, "NO_COLOUR_ASK", False)
    monkeypatch.setattr(read, "SOME_COLOUR_MODEL", False)
    before = read.classify(rect, GEOM, colours, taught)
    some = [j for j, c in enumerate(before) if c.why == "some colour"]
    assert any(GEOM.cells[j] in truth for j in some) and len(some) >= 3
    monkeypatch.setattr(read, "SOME_COLOUR_MODEL", True)
    after = read.classify(rect, GEOM, colours, taught)  # the trained model
    called = [j for j in some if after[j].why == "some colour, the print"]
    assert len(called) >= 2
    for j in called:  # empty, no question, and no screen stands there
        assert after[j].owner is None and not after[j].unclear and GEOM.cells[j] not in truth
    # The screen asked about as "some colour" is still asked.
    assert all(after[j].unclear for j in some if GEOM.cells[j] in truth)
    assert all(
        a == b for j, (a, b) in enumerate(zip(before, after, strict=True)) if j not in called
    )
    # A model that says a screen everywhere calls none of them the print, whatever the print
    # test says; one sure of empty squares calls those the print test calls the print.
    monkeypatch.setattr(read, "square_model", lambda: sure((0.0, 1.0, 0.0)))
    doubting = read.classify(rect, GEOM, colours, taught)
    assert all(doubting[j].why != "some colour, the print" for j in some)
    monkeypatch.setattr(read, "square_model", lambda: sure((1.0, 0.0, 0.0)))
    agreeing = read.classify(rect, GEOM, colours, taught)
    assert {j for j in some if agreeing[j].why == "some colour, the print"} >= set(called)
    # Without the print the rule cannot act (`SOME_COLOUR_PRINTED` off).
    alone = read.classify(rect, GEOM, colours)
    assert all(c.why != "some colour, the print" for c in alone)
