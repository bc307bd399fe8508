"""The staged reader's glass fit, alone (no images), and the whole reader on a clean table."""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.looking_glass.vision.reader import StagedReader
from companion.games.looking_glass.vision.stages import (
    Glass,
    Hypothesis,
    Identified,
    Placed,
    Plane,
    fit_glass,
)
from companion.vision.cards.identify import Identity
from tests.games.looking_glass_vision.dark_table import dark_bordered_table

W, H = 60.0, 84.0


def _card(cid: str, cx: float, cy: float, up: int) -> Identified:
    """A card centred at (cx, cy) whose top points up (-y) when `up` is 1, else down."""
    tl, tr = np.array([cx - W / 2, cy - H / 2]), np.array([cx + W / 2, cy - H / 2])
    br, bl = np.array([cx + W / 2, cy + H / 2]), np.array([cx - W / 2, cy + H / 2])
    outline = np.array([tl, tr, br, bl]) if up == 1 else np.array([br, bl, tl, tr])
    return Identified(Hypothesis(outline, False), Identity(cid, 0.9, 0.5, False, {cid: 0.9}))


def test_the_glass_is_the_cards_mirrored_across_the_line_their_tops_face():
    line_y = 400.0
    cards = []
    for k, x in enumerate((100.0, 170.0, 240.0)):  # row 0: tops face the line at y = 400
        cards.append(_card(f"a{k}", x, line_y - 5 - H / 2, up=-1))
        cards.append(_card(f"b{k}", x, line_y + 5 + H / 2, up=1))
    for k, x in enumerate((135.0, 205.0)):  # row 1, half a card further out
        cards.append(_card(f"c{k}", x, line_y - 5 - H, up=-1))
        cards.append(_card(f"d{k}", x, line_y + 5 + H, up=1))
    pile = _card("pile", 600.0, 100.0, up=1)  # a score pile's card: no reflection
    glass = fit_glass([*cards, pile], Plane())
    assert {p.card.identity.card for p in glass.cards} == {c.identity.card for c in cards}
    assert [r.identity.card for r in glass.rejected] == ["pile"]
    where = {p.card.identity.card: (p.half, p.row, p.col) for p in glass.cards}
    for k in range(3):
        ha, ra, ca = where[f"a{k}"]
        hb, rb, cb = where[f"b{k}"]
        assert ha != hb and ra == rb == 0 and ca == cb
    assert where["c0"][1] == where["d1"][1] == 1
    assert where["c1"][2] - where["c0"][2] == where["a1"][2] - where["a0"][2]


def test_no_glass_without_a_pair():
    glass = fit_glass([_card("x", 100, 100, 1), _card("y", 300, 100, 1)], Plane())
    assert glass.cards == [] and len(glass.rejected) == 2


def test_lone_pairs_on_lines_of_their_own_make_no_glass():
    """One glass card faces a score pile's card as well as its reflection would: with two
    such pairs on different lines, which is the glass the pairs do not say."""
    pair = [_card("a", 100.0, 395.0 - H / 2, up=-1), _card("b", 100.0, 405.0 + H / 2, up=1)]
    assert len(fit_glass(pair, Plane()).cards) == 2  # one pair alone: the last lone pair
    other = [_card("c", 700.0, 95.0 - H / 2, up=-1), _card("d", 700.0, 105.0 + H / 2, up=1)]
    glass = fit_glass([*pair, *other], Plane())
    assert glass.cards == []
    assert len(glass.rejected) == 4


def test_of_lone_pairs_the_one_across_the_gap_is_the_glass():
    """A glass's last pair lies across the gap, top edges a few mm apart; a glass card facing
    a score pile's card lies further off: of such lone pairs, the one across the gap is the
    glass (two across it say nothing, above)."""
    pair = [_card("a", 100.0, 395.0 - H / 2, up=-1), _card("b", 100.0, 405.0 + H / 2, up=1)]
    apart = [_card("c", 700.0, 95.0 - H / 2, up=-1), _card("d", 700.0, 105.0 + H, up=1)]
    beside = [_card("e", 400.0, 695.0 - H / 2, up=-1), _card("f", 440.0, 705.0 + H / 2, up=1)]
    glass = fit_glass([*pair, *apart, *beside], Plane())
    assert sorted(str(p.card.identity.card) for p in glass.cards) == ["a", "b"]


def test_a_clean_table_of_dark_bordered_cards_is_read():
    img, lib, ids, boxes = dark_bordered_table()
    reading = StagedReader(lib).read(img)
    got = {c.card: c for c in reading.cards}
    assert set(got) == set(ids)
    for k in range(3):
        a, b = got[ids[k]], got[ids[k + 3]]
        assert (a.row, a.col) == (b.row, b.col) and a.half != b.half
        x, _y, w, _h = boxes[2 * k]
        assert abs(a.center[0] - (x + w / 2)) < 10


def test_a_symmetric_layout_is_named_though_it_fits_both_ways_along_the_line():
    from companion.games.looking_glass.rules.layout import load_layouts
    from companion.games.looking_glass.vision.read import SeenCard

    cells = sorted((c.row, c.col) for c in load_layouts()["wall"].cells)
    seen = [
        SeenCard("x", 1.0, np.zeros(2), np.zeros((4, 2)), False, half, r, c + 3, np.zeros(2))
        for r, c in cells
        for half in (0, 1)
    ]
    reader = StagedReader.__new__(StagedReader)
    reader.layouts = load_layouts()
    assert reader.layout(seen) == "wall"
    assert sorted({(c.row, c.col) for c in seen}) == cells  # renumbered as the layout does
    partial = [c for c in seen if c.row == 0 and c.col in (0, 2)]
    assert reader.layout(partial) is None  # several layouts hold two cards of a row


def test_a_library_taught_before_faces_were_kept_asks_to_teach_again():
    import pytest

    from companion.errors import UserError
    from companion.vision.cards.library import CardShape, Library

    old = Library(
        ["x"], np.zeros((1, 30, 48, 3), np.float32), np.zeros((1, 30, 48, 3), np.uint8), CardShape()
    )
    with pytest.raises(UserError, match="teach the deck again"):
        StagedReader(old)


def test_a_glass_seen_at_a_slant_is_fitted_without_a_registration():
    """Without the registration's plane the cards' own outlines give it: at a steep tilt a
    card's mirror image in image px lies a card height from its reflection."""
    cards, line_y = [], 400.0
    for row in range(3):
        for k in range(5 - row % 2):
            x = 100.0 + 35.0 * (row % 2) + 70.0 * k
            d = 5 + H / 2 + row * H / 2
            cards.append(_card(f"a{row}{k}", x, line_y - d, up=-1))
            cards.append(_card(f"b{row}{k}", x, line_y + d, up=1))
    pile = _card("pile", 700.0, 120.0, up=1)
    tilt = np.array([[1.4, 0.2, 300.0], [-0.1, 1.2, 100.0], [0.0011, 0.0007, 1.0]])
    slanted = [
        Identified(
            Hypothesis(
                cv2.perspectiveTransform(c.hypothesis.outline.reshape(-1, 1, 2), tilt).reshape(
                    4, 2
                ),
                False,
            ),
            c.identity,
        )
        for c in [*cards, pile]
    ]
    glass = fit_glass(slanted, Plane())
    assert {p.card.identity.card for p in glass.cards} == {c.identity.card for c in cards}
    where = {p.card.identity.card: (p.half, p.row) for p in glass.cards}
    for c in cards:
        row = int(c.identity.card[1])
        assert where[c.identity.card][1] == row


def test_no_slot_is_looked_at_about_a_lone_pair_beside_another():
    """A lattice resting on one pair, with two other named cards that lie as a pair across a
    gap too, is a guess at where the glass lies: its slots are not looked at, so nothing of
    the cloth or of a pile is named there. With one other named card, or none, the pair
    across the gap is the last lone pair, and the slots beside it are looked at."""
    from companion.games.looking_glass.vision.slots import fill_probed

    img, lib, ids, _boxes = dark_bordered_table()
    found = {k.identity.card: k for k in StagedReader(lib).stages(img).found}
    pair = [Placed(found[ids[0]], 0, 0, 0), Placed(found[ids[3]], 1, 0, 0)]
    off = found[ids[3]].hypothesis.outline + np.array([700.0, 0.0])
    pile = Identified(Hypothesis(off, False), Identity(ids[1], 0.9, 0.5, False, {ids[1]: 0.9}))
    piles = [
        pile,
        Identified(
            Hypothesis(found[ids[0]].hypothesis.outline + np.array([700.0, 0.0]), False),
            Identity(ids[2], 0.9, 0.5, False, {ids[2]: 0.9}),
        ),
    ]
    glass, probes = fill_probed(img, Glass(pair, rejected=piles), lib)
    assert glass.cards == [] and probes == []
    for rejected in ([pile], []):
        alone, probes = fill_probed(img, Glass(pair, rejected=rejected), lib)
        assert probes
        assert {p.card.identity.card for p in alone.cards} >= {ids[0], ids[3]}


def test_a_card_that_votes_itself_onto_the_glass_without_a_reflection_is_left_off():
    """No pair found (smooth art): every named card votes for the lattice, a score pile's
    too. A card whose reflection's slot shows empty table is off the glass, however well it
    lies on the lattice; the cards whose reflections are there stay."""
    from companion.games.looking_glass.rules.layout import load_layouts
    from companion.games.looking_glass.vision.slots import (
        REFLECTION_SHOWN,
        fill_probed,
        fit_lattice,
        layout_span,
        reflection_evidence,
    )

    img, lib, ids, _boxes = dark_bordered_table()
    found = {k.identity.card: k for k in StagedReader(lib).stages(img).found}
    assert set(found) == set(ids)
    # A card of the first half's row, one column step further along (160 px), where the
    # table is empty in both halves.
    outline = found[ids[2]].hypothesis.outline + np.array([160.0, 0.0])
    stray = Identified(Hypothesis(outline, False), Identity(ids[1], 0.9, 0.5, False, {}))
    voters = [found[c] for c in ids] + [stray]
    span = layout_span(load_layouts().values())
    fitted = fit_lattice(Glass([]), lib.shape.height_mm, voters, span)
    assert fitted is not None and any(p.card is stray for p in fitted[1].cards)
    evidence = {id(p.card): s for p, s in reflection_evidence(img, *fitted, voters, lib)}
    assert evidence[id(stray)] < REFLECTION_SHOWN
    assert all(evidence[id(found[c])] >= REFLECTION_SHOWN for c in ids)
    glass, _probes = fill_probed(img, Glass([], rejected=voters), lib, span)
    assert sorted(str(p.card.identity.card) for p in glass.cards) == sorted(ids)
