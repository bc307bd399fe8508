"""The glass lattice alone (no images): the cards found fix every slot, wherever the camera is."""

from __future__ import annotations

import numpy as np

from companion.games.looking_glass.rules.layout import load_layouts
from companion.games.looking_glass.vision.slots import (
    MIN_SCORE,
    REFLECTED_MIN_SCORE,
    REFLECTED_SHARE,
    REFLECTED_WIDE_MARGIN,
    REFLECTED_WIDE_MIN_SCORE,
    UNTAUGHT_MIN_SCORE,
    Lattice,
    Probe,
    fit_lattice,
    halves_disagree,
    layout_span,
    name_slots,
    reflection_pairs,
    reflections_too_few,
    shift_pairs,
    with_coverage,
    with_pairs_on,
    without_lone_pair,
)
from companion.games.looking_glass.vision.stages import Glass, Hypothesis, Identified, Placed
from companion.vision.cards.identify import Identity

CARD_H = 88.0


def _camera(angle_deg: float, mirrored: bool) -> np.ndarray:
    """Glass units -> image px: turned, scaled, shifted and seen at a slant."""
    a = np.radians(angle_deg)
    R = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    M = np.diag([1.0, -1.0, 1.0]) if mirrored else np.eye(3)
    S = np.array([[1.6, 0, 640], [0, 1.6, 480], [0, 0, 1]])
    P = np.array([[1, 0, 0], [0, 1, 0], [0.0004, 0.0002, 1]])  # perspective of a tilt
    return P @ S @ R @ M


def _card(outline: np.ndarray, cid: str = "x") -> Identified:
    return Identified(Hypothesis(outline, False), Identity(cid, 0.9, 0.5, False, {cid: 0.9}))


def _wall(truth: Lattice) -> list[tuple[int, int, int, np.ndarray]]:
    cells = [(c.row, c.col) for c in load_layouts()["wall"].cells]
    return [(half, r, c, truth.outline(half, r, c)) for r, c in cells for half in (0, 1)]


def _check(angle: float, mirrored: bool) -> None:
    truth = Lattice(_camera(angle, mirrored), CARD_H, 12.0)
    slots = _wall(truth)
    hidden = {3, 10, 17, 20}  # cards the features did not find
    found = [Placed(_card(o), 0, 0, 0) for k, (_, _, _, o) in enumerate(slots) if k not in hidden]
    pile = Placed(_card(truth.outline(0, 0, 40)), 0, 0, 0)  # far off the glass
    fitted = fit_lattice(Glass([*found, pile]), CARD_H)
    assert fitted is not None
    lattice, glass = fitted
    assert abs(lattice.gap - 12.0) < 0.5
    for k in hidden:
        _, row, _, outline = slots[k]
        slot = lattice.nearest(_card(outline))
        assert slot.row == row
        assert np.abs(lattice.outline(slot.half, slot.row, slot.col) - outline).max() < 1.0
    # Rows are counted from the centre line in both halves; columns keep their spacing.
    seen = {(p.half, p.row, p.col) for p in glass.cards}
    assert len(seen) == len(glass.cards)
    rows = sorted({r for _, r, _ in seen})
    assert rows[:3] == [0, 1, 2]


def test_hidden_slots_are_where_the_lattice_of_the_found_cards_puts_them():
    for angle in (0.0, 37.0, 200.0):
        _check(angle, mirrored=False)


def test_a_glass_seen_mirrored_is_fitted_too():
    _check(123.0, mirrored=True)


def test_a_glass_dealt_at_other_steps_across_and_along_the_line_is_fitted():
    """The taught face is the art inside a border (steps larger than it, by more along the
    card's short side) or a sleeve's outline (steps smaller): one scale of both does not fit."""
    for sx, sy in ((1.18, 1.1), (0.84, 0.88)):
        truth = Lattice(_camera(30.0, False), CARD_H, 10.0, sx, sy)
        slots = _wall(truth)
        found = [Placed(_card(o), 0, 0, 0) for k, (_, _, _, o) in enumerate(slots) if k % 3]
        fitted = fit_lattice(Glass(found), CARD_H)
        assert fitted is not None
        lattice, glass = fitted
        assert len(glass.cards) == len(found)
        width = np.linalg.norm(slots[0][3][1] - slots[0][3][0])
        for _, r, _, outline in slots:  # which half is 0 is the fit's choice
            slot = lattice.nearest(_card(outline))
            assert slot.row == r
            # Within a slot's search (the scales are found to a step's tolerance, not refitted).
            err = np.abs(lattice.outline(slot.half, slot.row, slot.col) - outline).max()
            assert err < 0.08 * width


def test_two_cards_are_the_least_that_fix_a_lattice():
    truth = Lattice(_camera(10.0, False), CARD_H, 10.0)
    one = Glass([Placed(_card(truth.outline(0, 0, 2)), 0, 0, 0)])
    assert fit_lattice(one, CARD_H) is None


def test_cards_without_their_reflections_vote_for_the_lattice():
    """Smooth art: the features named a few cards and no reflection of any (the glass fit
    holds none). Cards of both halves fix the lattice; the unseen slots lie where it says."""
    truth = Lattice(_camera(61.0, False), CARD_H, 11.0)
    slots = _wall(truth)
    seen = [(0, 0, 0), (0, 1, 4), (1, 0, 6), (1, 2, 3)]
    voters = [_card(o) for h, r, c, o in slots if (h, r, c) in seen]
    assert len(voters) == len(seen)
    assert fit_lattice(Glass([]), CARD_H) is None
    fitted = fit_lattice(Glass([]), CARD_H, voters, layout_span(load_layouts().values()))
    assert fitted is not None
    lattice, glass = fitted
    assert len(glass.cards) == len(seen)
    for h, r, _, outline in slots:
        slot = lattice.nearest(_card(outline))
        assert (slot.half, slot.row) == (h, r)
        assert np.abs(lattice.outline(slot.half, slot.row, slot.col) - outline).max() < 1.0


def test_a_lattice_only_voted_for_by_one_half_or_wider_than_any_layout_is_none():
    """A score pile's cascade lies on a lattice of its own, every card facing one way; a card
    beside the glass fits its lattice far out. Neither may make the glass."""
    truth = Lattice(_camera(-20.0, False), CARD_H, 11.0)
    span = layout_span(load_layouts().values())
    one_half = [_card(truth.outline(0, r, c)) for r, c in ((0, 0), (1, 1), (2, 2), (0, 4))]
    assert fit_lattice(Glass([]), CARD_H, one_half, span) is None
    wide = [_card(truth.outline(h, 0, c)) for h, c in ((0, 0), (1, 0), (0, span + 2))]
    assert fit_lattice(Glass([]), CARD_H, wide, span) is None
    assert fit_lattice(Glass([]), CARD_H, wide[:2], span) is not None


def test_no_layout_is_wider_than_the_span():
    layouts = load_layouts().values()
    cols = [[c.col for c in lay.cells] for lay in layouts]
    assert max(max(c) - min(c) for c in cols) == layout_span(layouts)


def test_a_glass_resting_on_one_pair_beside_other_named_cards_is_known_only_across_the_gap():
    """A glass card and a score pile's card facing it pair as well as a real pair does, but
    a glass's last pair lies across the gap, its top edges a few mm apart: such a pair beside
    other named cards is the glass, unless two other named cards lie so too. A pair further
    apart beside other named cards does not say which is the glass."""
    truth = Lattice(_camera(15.0, False), CARD_H, 10.0)
    pair = [Placed(_card(truth.outline(h, 0, 2)), h, 0, 2) for h in (0, 1)]
    far = [Placed(_card(truth.outline(h, 1, 2)), h, 1, 2) for h in (0, 1)]
    pile = _card(truth.outline(0, 0, 40))
    assert without_lone_pair(Glass(pair, rejected=[pile])).cards == pair
    assert without_lone_pair(Glass(far, rejected=[pile])).cards == []
    assert without_lone_pair(Glass(far)).cards == far  # nothing else named: the last pair
    piles = [_card(truth.outline(h, 0, 40)) for h in (0, 1)]  # two named cards across a gap
    assert without_lone_pair(Glass(pair, rejected=piles)).cards == []
    third = Placed(_card(truth.outline(0, 2, 3)), 0, 2, 3)
    assert len(without_lone_pair(Glass([*far, third], rejected=piles)).cards) == 3


def _probe(truth: Lattice, half: int, row: int, col: int, best: str, score: float) -> Probe:
    scores = {best: score, "other": score - 0.2}
    return Probe(
        half,
        row,
        col,
        truth.outline(half, row, col),
        Identity(best if score >= 0.5 else None, score, 0.2, False, scores),
    )


def test_a_slot_whose_reflection_holds_a_named_card_is_named_by_a_weaker_best():
    """A pick takes a card and its reflection together: where the reflection is named, a card
    lies, and only which one is asked of the slot; elsewhere a slot must name a card clearly."""
    truth = Lattice(_camera(25.0, False), CARD_H, 10.0)
    cards = [
        Placed(_card(truth.outline(h, r, c), k), h, r, c)
        for k, h, r, c in (("a", 0, 0, 2), ("g", 0, 2, 4), ("h", 1, 2, 8))
    ]
    weak = (REFLECTED_MIN_SCORE + MIN_SCORE) / 2
    mirror = _probe(truth, 1, 0, 2, "b", weak)
    lone = _probe(truth, 1, 0, 6, "c", weak)
    faint = _probe(truth, 1, 2, 4, "d", REFLECTED_MIN_SCORE - 0.05)
    strong = _probe(truth, 0, 1, 5, "e", MIN_SCORE + 0.05)
    got = {
        (p.half, p.row, p.col): p.card.identity.card
        for p in name_slots(cards, [mirror, lone, faint, strong])
    }
    assert got == {(0, 0, 2): "a", (0, 2, 4): "g", (1, 2, 8): "h", (1, 0, 2): "b", (0, 1, 5): "e"}
    # A card of the deck untaught may lie in the slot: its weaker best is then no name.
    partial = name_slots(cards, [mirror, lone, faint, strong], every_card_taught=False)
    assert {(p.half, p.row, p.col) for p in partial} == {k for k in got if k != (1, 0, 2)}


def test_a_slot_beside_a_named_reflection_is_named_lower_when_its_best_stands_far_clear():
    """Beside a named reflection, a best card below `REFLECTED_MIN_SCORE` names the slot when
    it beats the runner-up by `REFLECTED_WIDE_MARGIN` (a covered card's cut face scores low
    against every card, its own still far above the rest); by less, it is no name."""
    truth = Lattice(_camera(15.0, False), CARD_H, 10.0)
    cards = [
        Placed(_card(truth.outline(h, r, c), k), h, r, c)
        for k, h, r, c in (("a", 0, 0, 2), ("g", 0, 2, 4), ("h", 1, 2, 8))
    ]
    score = (REFLECTED_WIDE_MIN_SCORE + REFLECTED_MIN_SCORE) / 2
    assert REFLECTED_WIDE_MIN_SCORE < REFLECTED_MIN_SCORE

    def probe(margin: float) -> Probe:
        scores = {"b": score, "other": score - margin}
        return Probe(1, 0, 2, truth.outline(1, 0, 2), Identity(None, score, margin, False, scores))

    def named(margin: float) -> dict[tuple[int, int, int], str | None]:
        return {
            (p.half, p.row, p.col): p.card.identity.card for p in name_slots(cards, [probe(margin)])
        }

    alone = {(0, 0, 2): "a", (0, 2, 4): "g", (1, 2, 8): "h"}
    assert named(REFLECTED_WIDE_MARGIN + 0.02) == {**alone, (1, 0, 2): "b"}
    assert named(REFLECTED_WIDE_MARGIN - 0.05) == alone
    below = (REFLECTED_WIDE_MIN_SCORE - 0.05, REFLECTED_WIDE_MARGIN + 0.02)
    scores = {"b": below[0], "other": below[0] - below[1]}
    faint = Probe(1, 0, 2, truth.outline(1, 0, 2), Identity(None, *below, False, scores))
    assert {(p.half, p.row, p.col) for p in name_slots(cards, [faint])} == set(alone)


def test_a_slot_of_a_deck_with_an_untaught_card_must_name_its_card_more_clearly():
    """An untaught card lying in a slot correlates best with its nearest taught look-alike,
    and its own look, which would have been the runner-up, is missing: the same score that
    names a card of a fully taught deck is no name then, a clearer one still is."""
    truth = Lattice(_camera(10.0, False), CARD_H, 10.0)
    cards = [Placed(_card(truth.outline(0, 0, 2), "a"), 0, 0, 2)]
    assert MIN_SCORE < UNTAUGHT_MIN_SCORE
    plain = _probe(truth, 0, 1, 5, "e", (MIN_SCORE + UNTAUGHT_MIN_SCORE) / 2)
    clear = _probe(truth, 1, 1, 9, "f", UNTAUGHT_MIN_SCORE + 0.02)

    def slots(every_card_taught: bool) -> set[tuple[int, int, int]]:
        got = name_slots(cards, [plain, clear], every_card_taught=every_card_taught)
        return {(p.half, p.row, p.col) for p in got}

    assert slots(True) == {(0, 0, 2), (0, 1, 5), (1, 1, 9)}
    assert slots(False) == {(0, 0, 2), (1, 1, 9)}


def test_a_card_is_covered_when_its_reflection_is():
    """The covering card seen in one half only (missed or under an arm in the other); not
    when the lattice numbers the halves' rows differently (their outermost rows differ)."""
    truth = Lattice(_camera(-40.0, False), CARD_H, 10.0)
    at = [(0, 0, 2), (1, 0, 2), (1, 1, 3), (0, 0, 6), (1, 0, 6), (0, 1, 9), (1, 1, 9)]
    cards = [Placed(_card(truth.outline(h, r, c)), h, r, c) for h, r, c in at]
    covered = {(p.half, p.row, p.col): p.card.hypothesis.covered for p in with_coverage(cards)}
    assert [k for k in at if covered[k]] == [(0, 0, 2), (1, 0, 2)]
    apart = [c for c in cards if (c.half, c.row, c.col) != (0, 1, 9)]
    covered = {(p.half, p.row, p.col): p.card.hypothesis.covered for p in with_coverage(apart)}
    assert [k for k, v in covered.items() if v] == [(1, 0, 2)]


def test_a_pair_left_out_far_along_the_line_joins_the_glass_and_no_lone_or_pile_card_does():
    """The lattice fitted to a few columns is off far from them, by as much for a card as for
    its reflection beside it; a lone card or two score piles' cards (point-symmetric, not
    mirrored) never join."""
    truth = Lattice(_camera(-65.0, False), CARD_H, 10.0)
    glass = Glass([Placed(_card(truth.outline(h, 0, c)), h, 0, c) for h in (0, 1) for c in (0, 2)])
    far = [_card(truth.outline(h, 0, 10.45), "far") for h in (0, 1)]  # a fifth of a width off
    lone = _card(truth.outline(0, 1, 6.45), "lone")
    piles = [_card(truth.outline(0, 3, 14)), _card(np.roll(truth.outline(1, 3, -14), 2, axis=0))]
    got = with_pairs_on(Glass(glass.cards, rejected=[lone, *piles, *far]), truth)
    assert {(p.half, p.row, p.col) for p in got.cards if p.card.identity.card == "far"} == {
        (0, 0, 10),
        (1, 0, 10),
    }
    assert len(got.cards) == 6 and len(got.rejected) == 3
    assert with_pairs_on(Glass(glass.cards, rejected=far), truth, max_cols=8).cards == glass.cards


def test_rows_are_counted_from_the_line_the_reflections_fix_when_a_half_shows_no_first_row():
    """Every first-row card of one half missed (covered and featureless, or under an arm): the
    line midway between each half's innermost cards lies a quarter card off, and the lattice
    numbered that half's rows one out (and the other's the other way) and never looked at its
    first row. The cards that are each other's reflection fix the line."""
    a = [(0, 0), (0, 4), (1, 7), (2, 2), (2, 4)]
    b = [(1, 1), (1, 3), (1, 5), (1, 7), (2, 2), (2, 4)]  # a pyramid's half, no first row
    seen = [(0, r, c) for r, c in a] + [(1, r, c) for r, c in b]
    for angle, mirrored in ((0.0, False), (70.0, True), (200.0, False)):
        truth = Lattice(_camera(angle, mirrored), CARD_H, 10.0)
        cards = [_card(truth.outline(h, r, c)) for h, r, c in seen]
        fitted = fit_lattice(Glass([Placed(k, 0, 0, 0) for k in cards]), CARD_H)
        assert fitted is not None
        where = {id(p.card): (p.half, p.row) for p in fitted[1].cards}
        halves = {where[id(k)][0] for k, (h, _, _) in zip(cards, seen, strict=True) if h == 0}
        assert len(halves) == 1
        flip = halves.pop()
        assert [where[id(k)] for k in cards] == [(h ^ flip, r) for h, r, _ in seen]


def test_the_dealt_steps_are_measured_against_the_faces_found():
    """Steps of 1.07 and 1.13 faces (the face taught as the art inside a border): the lattice's
    scales come from every card's outline and place at once, to a hundredth, not from the
    whole-step vote alone (a tenth of a step either way)."""
    truth = Lattice(_camera(-25.0, False), CARD_H, 9.0, 1.07, 1.13)
    cells = [(c.row, c.col) for c in load_layouts()["terrace"].cells]
    cards = [Placed(_card(truth.outline(h, r, c)), 0, 0, 0) for r, c in cells for h in (0, 1)]
    fitted = fit_lattice(Glass(cards), CARD_H)
    assert fitted is not None
    lattice = fitted[0]
    assert abs(lattice.scale - 1.07) < 0.01 and abs(lattice.sy - 1.13) < 0.01
    assert abs(lattice.gap - 9.0) < 0.5


def _widened(outline: np.ndarray, by: float) -> np.ndarray:
    """An outline stretched along its width: a face outlined from a few features, its width a
    share off and its height right."""
    c = outline.mean(axis=0)
    v = (outline[1] - outline[0]) / np.linalg.norm(outline[1] - outline[0])
    return outline + np.outer(((outline - c) @ v) * (by - 1), v)


def test_few_cards_one_outlined_a_share_too_wide_fix_the_lattice():
    """Smooth photographic art: three cards named far out from the line, two in one half and
    the reflection of one in the other, the strongest (the anchor) outlined 15 % too wide by
    its few features. The steps are measured against the cards' median face, not the
    anchor's own, so the innermost slots, three rows from any card found, are where the
    truth has them."""
    truth = Lattice(_camera(60.0, False), CARD_H, 10.0)
    seen = [(0, 3, 6), (0, 3, 2), (1, 3, 2)]
    outlines = [truth.outline(h, r, c) for h, r, c in seen]
    cards = [
        Identified(Hypothesis(o, False), Identity("x", s, 0.5, False, {"x": s}))
        for o, s in zip([_widened(outlines[0], 1.15), *outlines[1:]], (1.0, 0.9, 0.8), strict=True)
    ]
    fitted = fit_lattice(Glass([]), CARD_H, cards, layout_span(load_layouts().values()))
    assert fitted is not None
    lattice, glass = fitted
    assert len(glass.cards) == 3
    width = np.linalg.norm(outlines[1][1] - outlines[1][0])
    for h, r, c in ((0, 0, 4), (1, 0, 4), (0, 2, 5)):
        outline = truth.outline(h, r, c)
        slot = lattice.nearest(_card(outline))
        assert slot.row == r
        err = np.abs(lattice.outline(slot.half, slot.row, slot.col) - outline).max()
        assert err < 0.08 * width


def test_a_slot_over_a_card_whose_lower_half_shows_is_no_card():
    """A card of the next row outward hides the lower half of the card it lies on: where that
    lower half is in view and matches its own face, a slot named there by chance (its window
    straddling the lower halves of the row inward) is dropped; a card really lying there
    hides it and stays. Cards the features found are never dropped."""
    import cv2

    from companion.games.looking_glass.vision.slots import without_shown_lower_halves
    from tests.games.looking_glass_vision.dark_table import dark_bordered_table

    img, lib, ids, boxes = dark_bordered_table()
    x, y, w, h = boxes[1]  # the first card facing up the image, its top toward the line
    under = Placed(
        _card(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], float), ids[3]), 1, 0, 0
    )
    ox, oy = x + w / 2, y + h / 2  # the next row outward, a column along
    over_outline = np.array([[ox, oy], [ox + w, oy], [ox + w, oy + h], [ox, oy + h]], float)
    over = Placed(_card(over_outline, ids[4]), 1, 1, 1)
    cards = [under, over]
    kept = without_shown_lower_halves(img, cards, {id(under)}, lib)
    assert [p.card.identity.card for p in kept] == [ids[3]]
    # The same card found by its features stays: its own evidence outweighs the slot's.
    assert len(without_shown_lower_halves(img, cards, {id(under), id(over)}, lib)) == 2
    # A card really lying there: its face pasted over the lower half.
    dealt = img.copy()
    face = cv2.resize(lib.faces[lib.ids.index(ids[0])], (w, h))
    dealt[round(oy) : round(oy) + h, round(ox) : round(ox) + w] = face[: dealt.shape[0] - round(oy)]
    kept = without_shown_lower_halves(dealt, cards, {id(under)}, lib)
    assert [p.card.identity.card for p in kept] == [ids[3], ids[4]]


def test_slots_named_at_the_glass_s_edge_lead_the_look_further_out():
    """The features found only the middle pair of a glass five cards wide: the slots a
    column past it name the next cards, and the slots past those the outermost ones. A
    single look a couple of columns past the cards found would miss the outer two pairs."""
    import cv2

    from companion.games.looking_glass.vision.slots import fill_probed
    from companion.games.looking_glass.vision.teach import teach_cards
    from tests.vision.cards.card_styles import face, photo

    rng = np.random.default_rng(11)
    borders = ("black", "coloured", "dark") * 4
    faces = {f"c{k}": face(rng, b, frame=True, radius_mm=0) for k, b in enumerate(borders[:10])}
    lib = teach_cards({cid: photo(f, rng, table="plain")[0] for cid, f in faces.items()}).library
    truth = Lattice(np.array([[1.6, 0, 640], [0, 1.6, 480], [0, 0, 1.0]]), lib.shape.height_mm, 12)
    img = np.full((960, 1280, 3), (90, 120, 80), np.uint8)
    ids = list(faces)
    where = {}
    for k, (half, col) in enumerate((h, c) for h in (0, 1) for c in (-4, -2, 0, 2, 4)):
        f = faces[ids[k]][..., :3]
        fh, fw = f.shape[:2]
        corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        outline = truth.outline(half, 0, col)
        M = cv2.getPerspectiveTransform(corners, outline.astype(np.float32))
        warped = cv2.warpPerspective(f, M, (1280, 960), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), M, (1280, 960))
        img[mask > 127] = warped[mask > 127]
        where[ids[k]] = outline
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    middle = [Placed(_card(where[ids[k]], ids[k]), k // 5, 0, 0) for k in (2, 7)]
    glass, _ = fill_probed(img, Glass(middle), lib)
    named = {p.card.identity.card: p.card.centre for p in glass.cards}
    assert set(named) == set(ids)
    for cid, centre in named.items():
        assert np.abs(centre - where[cid].mean(axis=0)).max() < 10


def test_a_face_s_lightness_is_made_alone_as_the_features_index_makes_it():
    """A reader that never builds the features' index (the light-border one) gets each taught
    face's lightness made alone, the same as the index's, once per library; an id the library
    does not hold has none."""
    from companion.games.looking_glass.vision.slots import face_lightness
    from companion.vision.cards.features import FaceIndex
    from tests.games.looking_glass_vision.dark_table import dark_bordered_table

    _, lib, ids, _ = dark_bordered_table()
    lib.derived.clear()
    alone = face_lightness(lib, ids[2])
    assert alone is not None and "face_index" not in lib.derived
    assert face_lightness(lib, ids[2]) is alone
    indexed = FaceIndex.of(lib).faces_grey[lib.ids.index(ids[2])]
    assert alone.shape == indexed.shape and alone.dtype == indexed.dtype
    assert np.array_equal(alone, indexed)
    assert face_lightness(lib, "no-such-card") is None


def _at(cid: str | None, half: int, row: int, col: int) -> Placed:
    """A card (None: unnamed) in a slot; its outline does not matter here."""
    corners = np.array([[0.0, 0.0], [60.0, 0.0], [60.0, 84.0], [0.0, 84.0]])
    outline = corners + np.array([30.0 * col, 0.0])
    ident = Identity(cid, 0.9, 0.5, False, {} if cid is None else {cid: 0.9})
    return Placed(Identified(Hypothesis(outline, False), ident), half, row, col)


def test_a_glass_shows_its_cards_in_pairs_and_a_pile_of_one_half_shows_none():
    """A pick takes a card and its reflection together: the named cards whose reflection's
    slot (other half, same row and column) is named too are counted once a pair; a column of
    one half's rows (a score pile's cards, each half a card along the one before) and
    reflections a column or a row apart count none, and an unnamed slot pairs nothing."""
    pile = [_at(c, 1, r, 7) for r, c in enumerate("abcd")] + [_at("e", 1, 0, 5)]
    assert reflection_pairs(pile) == 0
    glass = [_at("a", 0, 0, 3), _at("a", 1, 0, 3), _at("b", 0, 1, 4)]
    glass += [_at("b", 1, 1, 4), _at("c", 0, 1, 2), _at("c", 1, 2, 2)]
    assert reflection_pairs(glass) == 2
    assert reflection_pairs(glass, 1) == 1  # c: a row further out in half 1
    assert reflection_pairs(glass, 0, 2) == 1  # c (0, 1, 2) and b (1, 1, 4): two columns on
    assert reflection_pairs([*glass, _at(None, 1, 1, 2)]) == 2
    assert reflection_pairs([*glass, _at("x", 1, 1, 2)]) == 3


def test_halves_that_pair_best_a_row_apart_disagree_about_the_line():
    """A diamond glass numbered alike in both halves pairs every card with its reflection;
    the same glass with one half numbered a row out (its line where a score pile put it)
    pairs its cards best a row apart, and so does one whose other half lost a row to a hand;
    a glass of one half, or whose reflections are missing, says nothing either way."""
    cells = [(c.row, c.col) for c in load_layouts()["diamond"].cells]
    alike = [_at(f"{r}-{c}", h, r, c) for r, c in cells for h in (0, 1)]
    assert reflection_pairs(alike) == len(cells)
    assert not halves_disagree(alike)
    one_out = [_at(p.card.identity.card, p.half, p.row + p.half, p.col) for p in alike]
    assert halves_disagree(one_out)
    two_out = [_at(p.card.identity.card, p.half, p.row + 2 * p.half, p.col) for p in alike]
    assert halves_disagree(two_out)
    # Half 0's first row under an arm, its other rows numbered one in: still a row apart.
    hidden = [_at(p.card.identity.card, 0, p.row - 1, p.col) for p in alike if p.half == 0]
    hidden = [p for p in hidden if p.row >= 0]
    assert halves_disagree(hidden + [p for p in alike if p.half == 1])
    # One half's cards and a score pile taken for the other half, columns off the glass.
    pile = [_at(c, 0, r, 0) for r, c in enumerate("abcd")] + [_at("e", 0, 0, 2)]
    assert halves_disagree(pile + [p for p in alike if p.half == 1])
    # Half 0's first row under an arm, the rest numbered right: the reflections still agree.
    arm = [p for p in alike if p.half == 1 or p.row > 0]
    assert not halves_disagree(arm)
    assert not halves_disagree([p for p in alike if p.half == 0])


def test_the_shifts_weighed_count_the_pairs_each_numbering_of_the_halves_makes():
    """Every shift of half 1 against half 0 is counted: a glass numbered alike pairs all its
    cards at (0, 0) and fewer at any other shift; numbered a row out, all at (1, 0); cards
    with no name count at none."""
    cells = [(c.row, c.col) for c in load_layouts()["diamond"].cells]
    alike = [_at(f"{r}-{c}", h, r, c) for r, c in cells for h in (0, 1)]
    pairs = shift_pairs(alike)
    assert pairs[(0, 0)] == len(cells)
    assert all(n < len(cells) for k, n in pairs.items() if k != (0, 0))
    one_out = shift_pairs([_at(p.card.identity.card, p.half, p.row + p.half, p.col) for p in alike])
    assert one_out[(1, 0)] == len(cells) > one_out[(0, 0)]
    assert shift_pairs([_at(None, h, 0, 3) for h in (0, 1)]) == {}


def test_a_glass_whose_cards_show_too_few_reflections_is_no_glass():
    """A diamond glass read whole, or with a few reflections hidden, shows its cards in
    pairs and stands; a score pile's stacks (one half's rows, no reflections) with the one
    real pair of a small glass, or one half alone, do not; two named cards are
    `without_lone_pair`'s to judge, and unnamed cards count for neither."""
    cells = [(c.row, c.col) for c in load_layouts()["diamond"].cells]
    alike = [_at(f"{r}-{c}", h, r, c) for r, c in cells for h in (0, 1)]
    assert not reflections_too_few(alike)
    some_hidden = [p for p in alike if not (p.half == 0 and p.row == 0)]
    assert not reflections_too_few(some_hidden)
    pair = [_at("a", 0, 0, 3), _at("b", 1, 0, 3)]
    pile = [_at(c, 0, r + 1, 5) for r, c in enumerate("cdefgh")]
    named, pairs = len(pair + pile), reflection_pairs(pair + pile)
    assert 2 * pairs < REFLECTED_SHARE * named
    assert reflections_too_few(pair + pile)
    assert reflections_too_few([p for p in alike if p.half == 0])
    assert not reflections_too_few([_at("a", 0, 0, 3), _at("c", 0, 1, 5)])
    assert not reflections_too_few(pair + [_at(None, 0, r + 1, 5) for r in range(6)])
