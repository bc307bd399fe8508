"""The correlation finder: its places fix the glass's lattice where the features fix none,
and only the slot stage names what lies in each slot."""

from __future__ import annotations

import numpy as np

from companion.games.looking_glass.vision.finder import (
    affine_frame,
    by_correlation,
    fill_by_places,
    held_by_the_row_inward,
    on_the_row_inward,
)
from companion.games.looking_glass.vision.reader import StagedReader
from companion.games.looking_glass.vision.slots import fill_probed
from companion.games.looking_glass.vision.stages import (
    Glass,
    Hypothesis,
    Identified,
    Placed,
    Plane,
    fit_glass,
)
from companion.vision.cards.features import FaceIndex
from companion.vision.cards.identify import Identity
from tests.games.looking_glass_vision.dark_table import dark_bordered_table


def _features_found(img: np.ndarray, reader: StagedReader) -> dict[str | None, Identified]:
    return {k.identity.card: k for k in reader.stages(img, correlate=False).found}


def test_places_the_features_missed_are_found_at_the_named_cards_size_either_way_up():
    """Smooth art shows the features too little: the cards they do name give the size and
    pose every card lies at, and a taught face's upper half slid over the table finds the
    others, either way up, each at its place; none with no named card to size them."""
    img, lib, ids, boxes = dark_bordered_table()
    found = _features_found(img, StagedReader(lib))
    assert set(found) == set(ids)
    kept = [found[ids[0]], found[ids[5]]]  # the features named only these two
    places = by_correlation(img, kept, lib)
    assert len(places) == 4
    for k, cid in enumerate(ids[1:5], start=1):
        x, y, w, h = boxes[2 * k if k < 3 else 2 * (k - 3) + 1]
        near = [p for p in places if np.linalg.norm(p.centre - (x + w / 2, y + h / 2)) < 10]
        assert len(near) == 1, cid
        # The first three face down the image (their tops toward the line), the rest up.
        assert near[0].up[1] > 0.9 if k < 3 else near[0].up[1] < -0.9
    assert by_correlation(img, [], lib) == []


def test_the_places_fix_the_lattice_and_the_slots_name_every_card():
    """Two named cards of one half fix no lattice; with the finder's places they do, and each
    place's card is named by its slot, not by the place: places given wrong names read the
    right cards, at the places' slots."""
    img, lib, ids, _boxes = dark_bordered_table()
    found = _features_found(img, StagedReader(lib))
    kept = [found[ids[0]], found[ids[1]]]
    _glass, probes = fill_probed(img, fit_glass(kept, Plane()), lib)
    assert probes == []
    places = by_correlation(img, kept, lib)
    misnamed = []
    for p in places:
        other = next(c for c in ids if c != p.identity.card)
        misnamed.append(Identified(p.hypothesis, Identity(other, 0.99, 0.5, False, {other: 0.99})))
    filled = fill_by_places(img, kept, misnamed, Plane(), lib)
    assert filled is not None
    glass, probes = filled
    assert probes
    got = sorted(str(p.card.identity.card) for p in glass.cards)
    assert got == sorted(ids)


def test_a_place_where_no_card_lies_reads_no_card():
    """A place on the bare table (the finder's place moved off the cards) widens where the
    slots are looked at, but is never read as a card: its slot names nothing."""
    img, lib, ids, _boxes = dark_bordered_table()
    found = _features_found(img, StagedReader(lib))
    kept = [found[ids[0]], found[ids[1]]]
    places = by_correlation(img, kept, lib)
    step = places[0].hypothesis.outline[1] - places[0].hypothesis.outline[0]
    # The same places, and one more a card beyond the glass's end on its line (a column
    # pair further out: bare table).
    last = max(places + kept, key=lambda p: float(p.centre @ step))
    bare = Identified(Hypothesis(last.hypothesis.outline + step, False), last.identity)
    filled = fill_by_places(img, kept, [*places, bare], Plane(), lib)
    assert filled is not None
    glass, _probes = filled
    assert sorted(str(p.card.identity.card) for p in glass.cards) == sorted(ids)
    assert all(np.linalg.norm(p.card.centre - bare.centre) > 40 for p in glass.cards)


def _placed(cid: str, half: int, row: int, col: int) -> Placed:
    outline = np.array([[0.0, 0.0], [60.0, 0.0], [60.0, 84.0], [0.0, 84.0]]) + np.array(
        [30.0 * col, 0.0]
    )
    return Placed(
        Identified(Hypothesis(outline, False), Identity(cid, 0.9, 0.5, False, {})),
        half,
        row,
        col,
    )


def test_a_card_that_lies_on_no_card_of_the_row_inward_is_left_off():
    """Each row is dealt over the lower half of the row before: a card past the first row
    lies on a card of the row inward within a column of it, in its half or, where the halves
    agree, in the other (a reflection seen where its twin is missed). One that lies on none
    is off the glass, and so is a card that lay only on it."""
    glass = [
        _placed("a", 0, 0, 3),
        _placed("b", 1, 0, 3),
        _placed("c", 0, 1, 4),  # on a
        _placed("d", 1, 1, 2),  # on b
        _placed("e", 0, 2, 9),  # on nothing: a score pile's card
        _placed("f", 0, 3, 9),  # only on e
    ]
    kept = on_the_row_inward(glass)
    assert sorted(str(p.card.identity.card) for p in kept) == ["a", "b", "c", "d"]
    # The halves agree (both reach row 1): d's twin slot in half 0 rests on a in half 0, and
    # a card of half 1 whose support is seen only in half 0 stays.
    mirrored = [_placed("a", 0, 0, 3), _placed("c", 0, 1, 4), _placed("g", 1, 1, 4)]
    assert len(on_the_row_inward(mirrored)) == 3
    # Alone in its half, with the other half's rows numbered otherwise, it does not.
    apart = [_placed("a", 0, 0, 3), _placed("g", 1, 1, 4)]
    assert [str(p.card.identity.card) for p in on_the_row_inward(apart)] == ["a"]


def test_a_glass_keeps_only_what_the_dealing_allows_and_its_coverage_follows():
    """The glass the finder's lattice reads is held to the dealing: a card on no
    card of the row inward goes to the glass's rejected cards, with any card only it held up,
    and coverage is said again from the cards left (the cards came in unflagged); a glass
    the dealing allows whole is handed back as it is."""
    pile = _placed("e", 1, 2, 9)  # a score pile's card the lattice put at row 2 of half 1
    on_pile = _placed("f", 1, 3, 9)
    cards = [
        _placed("a", 0, 0, 3),
        _placed("b", 1, 0, 3),
        _placed("c", 1, 1, 4),
        _placed("d", 0, 1, 2),
        pile,
        on_pile,
    ]
    stray = Identified(Hypothesis(np.zeros((4, 2)), False), Identity("z", 0.9, 0.5, False, {}))
    glass = held_by_the_row_inward(Glass(cards, np.array([0.0, 1.0]), 2.0, [stray]))
    assert [str(p.card.identity.card) for p in glass.cards] == ["a", "b", "c", "d"]
    assert glass.rejected == [stray, pile.card, on_pile.card]
    assert glass.offset == 2.0
    covered = {str(p.card.identity.card): p.card.hypothesis.covered for p in glass.cards}
    assert covered == {"a": True, "b": True, "c": False, "d": False}
    whole = Glass(cards[:4])
    assert held_by_the_row_inward(whole) is whole


def test_the_reader_looks_by_correlation_only_where_the_features_fix_no_lattice():
    """A reader whose features know two faces of one half (as smooth art leaves them) fits no
    lattice from them; with the finder's places it reads the whole glass, and without the
    finder reads nothing."""
    img, lib, ids, _boxes = dark_bordered_table()
    reader = StagedReader(lib)
    reader.index = FaceIndex.of(lib.subset([lib.ids.index(ids[0]), lib.ids.index(ids[1])]))
    assert reader.stages(img, correlate=False).glass.cards == []
    st = reader.stages(img)
    assert sorted(str(p.card.identity.card) for p in st.glass.cards) == sorted(ids)
    assert st.probes


def test_one_named_card_a_little_keystoned_still_sizes_the_search():
    """One card named from a few features has an outline a few per cent off its true shape:
    its place, turn and size hold, its perspective does not, and carried across the frame it
    would stretch the search canvas out of shape. The finder searches the card's affine frame
    (`affine_frame`), so the others are found at their places all the same."""
    img, lib, ids, boxes = dark_bordered_table()
    one = _features_found(img, StagedReader(lib))[ids[0]]
    o = one.hypothesis.outline
    mid = (o[2] + o[3]) / 2
    keystoned = o.copy()
    keystoned[2:] = mid + 0.9 * (o[2:] - mid)  # the bottom edge 10 % short, as in a tilt
    frame = affine_frame(Identified(Hypothesis(keystoned, False), one.identity), 88.0)
    assert np.allclose(frame[2], [0.0, 0.0, 1.0])  # no perspective part
    places = by_correlation(img, [Identified(Hypothesis(keystoned, False), one.identity)], lib)
    for k in range(1, 6):
        x, y, w, h = boxes[2 * k if k < 3 else 2 * (k - 3) + 1]
        near = [p for p in places if np.linalg.norm(p.centre - (x + w / 2, y + h / 2)) < 15]
        assert len(near) == 1, ids[k]
