"""The card finder by outline: any border colour, any table, scans; and teach keeping every
usable photo when one is not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.looking_glass.vision.teach import (
    UNLIKE_FILL,
    UNLIKE_STEP_GAP,
    TeachError,
    find_unlike_table,
    teach_cards,
    unlike_step_gap,
)
from companion.sim import effects
from companion.vision.cards.photo import (
    border_width,
    card_like,
    find_card_outline,
    find_card_unlike_table,
    nearest_distance,
)
from companion.vision.cards.quads import find_quads
from tests.vision.cards.card_styles import face, photo, scan


def _error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner error, as a share of the card's width."""
    return float(np.linalg.norm(found - truth, axis=1).max() / np.linalg.norm(truth[1] - truth[0]))


@pytest.mark.parametrize(
    ("border", "table"),
    [
        ("white", "pattern"),
        ("cream", "wood"),
        ("black", "cloth"),
        ("dark", "plain"),
        ("coloured", "cloth"),
        ("none", "plain"),
    ],
)
def test_the_card_in_a_photo_is_found_by_its_outline_whatever_its_border(border, table):
    rng = np.random.default_rng([37, len(border), len(table)])
    card = face(rng, border, frame=border in ("black", "dark"), radius_mm=0)
    img, truth = photo(card, rng, table=table)
    found = find_card_outline(img)
    assert found.outline is not None and found.cards_seen == 1
    assert _error(found.outline, truth) < 0.03


def test_a_round_cornered_card_is_its_sides_where_they_would_meet():
    rng = np.random.default_rng(11)
    card = face(rng, "coloured", frame=True, radius_mm=3)
    img, truth = photo(card, rng, table="plain")
    found = find_card_outline(img)
    assert found.outline is not None
    assert _error(found.outline, truth) < 0.03


@pytest.mark.parametrize("border", ["black", "coloured", "white"])
def test_a_tight_scan_is_the_card(border):
    rng = np.random.default_rng([38, len(border)])
    card = face(rng, border, frame=True, radius_mm=0)
    img = scan(card, rng, margin_px=2)
    found = find_card_outline(img)
    h, w = img.shape[:2]
    assert found.outline is not None
    assert _error(found.outline, np.array([[0, 0], [w, 0], [w, h], [0, h]], float)) < 0.03


@pytest.mark.parametrize("border", ["black", "none"])
def test_a_card_laid_askew_on_a_scanner_with_an_even_margin_is_the_card_not_the_scan(border):
    """An even margin round a card looks like a printed border round art, but a card laid on
    a scanner lies a degree or two askew, and a print's lines are square to its card."""
    rng = np.random.default_rng([39, len(border)])
    card = face(rng, border, frame=False, radius_mm=0)[..., :3]
    h, w = card.shape[:2]
    m = 40
    R = cv2.getRotationMatrix2D(((w + 2 * m) / 2, (h + 2 * m) / 2), 1.5, 1.0)
    R[:, 2] += m
    img = cv2.warpAffine(
        card, R, (w + 2 * m, h + 2 * m), borderMode=cv2.BORDER_CONSTANT, borderValue=(250,) * 3
    )
    truth = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) @ R[:, :2].T + R[:, 2]
    found = find_card_outline(img)
    assert found.outline is not None
    assert _error(found.outline, truth) < 0.03


def test_no_card_and_two_cards_are_told_apart():
    rng = np.random.default_rng(5)
    table = effects.table_texture(1280, 960, rng, "wood")
    assert find_card_outline(table).outline is None
    assert find_card_outline(table).cards_seen == 0
    one, _ = photo(face(rng, "black", frame=True, radius_mm=0), rng, table="plain", width_px=200)
    card = face(rng, "black", frame=True, radius_mm=0)
    two = one.copy()
    small = cv2.resize(card[..., :3], (200, 280), interpolation=cv2.INTER_AREA)
    two[40 : 40 + small.shape[0], 60 : 60 + small.shape[1]] = small
    found = find_card_outline(two)
    assert found.outline is None and found.cards_seen == 2


@pytest.mark.parametrize(("border", "mm"), [("black", 4.0), ("coloured", 4.0), ("none", 0.0)])
def test_the_border_is_measured_from_the_outline_inward(border, mm):
    rng = np.random.default_rng([39, len(border)])
    card = face(rng, border, frame=False, radius_mm=0, border_mm=4.0)
    img, truth = photo(card, rng, table="plain", width_px=260)
    px_per_mm = np.linalg.norm(truth[1] - truth[0]) / 63.0
    assert border_width(img, truth) / px_per_mm == pytest.approx(mm, abs=0.8)


def test_quads_are_found_for_each_of_several_cards():
    rng = np.random.default_rng(12)
    img = effects.table_texture(1280, 960, rng, "cloth")
    truths = []
    for k, border in enumerate(("black", "white", "none")):
        card = face(rng, border, frame=False, radius_mm=0)[..., :3]
        small = card[::2, ::2]
        y, x = 200, 150 + 350 * k
        img[y : y + small.shape[0], x : x + small.shape[1]] = small
        h, w = small.shape[:2]
        truths.append(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], float))
    quads = find_quads(img, min_side_px=40)
    for t in truths:
        assert min(_error(q.corners, t) for q in quads) < 0.04


def test_teach_keeps_every_usable_photo_and_names_the_one_it_refuses():
    rng = np.random.default_rng(21)
    images = {}
    for cid, border in (("a", "black"), ("b", "coloured"), ("c", "white")):
        images[cid], _ = photo(face(rng, border, frame=True, radius_mm=0), rng, table="plain")
    images["d"] = effects.table_texture(1280, 960, rng, "wood")
    taught = teach_cards(images, {"d": "d.png"})
    assert taught.library.ids == ["a", "b", "c"]
    assert list(taught.refused) == ["d"]
    assert taught.refused["d"].startswith("d.png: no card found")
    with pytest.raises(TeachError, match="no card could be taught"):
        teach_cards({"d": images["d"]})


def _sliver_photo() -> tuple[np.ndarray, np.ndarray]:
    """A plain table with one light quad of a card's aspect sheared far past any tilt a card
    is photographed at, as a pattern's lines can close one: (the photo, the quad)."""
    sliver = np.array([[353.0, 457.2], [406.0, 425.4], [406.0, 452.8], [354.6, 543.0]])
    img = np.full((654, 482, 3), 120, np.uint8)
    cv2.fillPoly(img, [np.round(sliver).astype(np.int32)], (230, 230, 230))
    return img, sliver


def test_a_quad_sheared_past_any_card_is_no_card_not_a_cut_of_no_width():
    img, sliver = _sliver_photo()
    # The quad finder does close it, with a card's aspect ...
    assert any(np.abs(q.corners - sliver).max() < 6 for q in find_quads(img, min_side_px=20))
    # ... but its corners cannot be told apart as a card's, so there is no card in the photo
    # (it was once taken for one, cut to a line, and teach failed on the NaN width).
    assert not card_like(sliver)
    assert find_card_outline(img).outline is None
    tilted = np.array([[100.0, 80.0], [300.0, 120.0], [240.0, 420.0], [40.0, 380.0]])
    assert card_like(tilted)


def test_teach_names_and_refuses_a_photo_whose_only_quad_is_a_sheared_sliver():
    rng = np.random.default_rng(23)
    images = {"a": photo(face(rng, "black", frame=True, radius_mm=0), rng, table="plain")[0]}
    images["s"] = _sliver_photo()[0]
    taught = teach_cards(images, {"s": "s.png"})
    assert taught.library.ids == ["a"]
    assert taught.refused["s"].startswith("s.png: no card found")


def test_a_card_whose_edge_the_tables_texture_breaks_is_found_in_the_photo_blurred():
    # On a large photo of a fine chequered cloth, the texture filter breaks the card's edge
    # into pieces where the squares meet it and no outline closes; blurred, it closes.
    rng = np.random.default_rng([71, 5])
    card = face(rng, "black", frame=True, radius_mm=1.0)
    img, truth = photo(
        card, rng, table="pattern", size=(1920, 1440), width_px=rng.uniform(250, 420)
    )
    found = find_card_outline(img)
    assert found.outline is not None and found.cards_seen == 1
    assert _error(found.outline, truth) < 0.04


def test_nearest_distance_is_the_distance_to_the_nearest_colour_bit_for_bit():
    rng = np.random.default_rng(0)
    samples = rng.uniform(0, 255, (5, 40, 3)).astype(np.float32)
    colours = rng.uniform(0, 255, (30, 3)).astype(np.float32)
    brute = np.min(np.linalg.norm(samples[:, :, None, :] - colours[None, None], axis=3), axis=2)
    got = nearest_distance(samples, colours)
    assert got.shape == (5, 40) and got.dtype == np.float32
    assert np.array_equal(got, brute)  # the edges found on it must not move by a rounding
    assert nearest_distance(colours[None, :4], colours)[0].max() == 0.0


def _card_on_chequered_cloth() -> tuple[np.ndarray, np.ndarray]:
    """A card with a coloured border round art in its cloth's own two colours, tilted on a
    chequered cloth of those colours: (the photo, the card's corners TL TR BR BL)."""
    h, w = 900, 1200
    yy, xx = np.mgrid[0:h, 0:w]
    cloth = np.where(((yy // 24 + xx // 24) % 2 == 0)[..., None], (60, 140, 120), (120, 70, 110))
    img = cv2.GaussianBlur(cloth.astype(np.uint8), (0, 0), 1.2)
    truth = np.array([[480.0, 230.0], [740.0, 175.0], [815.0, 545.0], [555.0, 600.0]])
    cv2.fillPoly(img, [np.round(truth).astype(np.int32)], (30, 110, 200))
    art = truth + (truth.mean(axis=0) - truth) * 0.12
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(art).astype(np.int32)], 255)
    stripes = np.where(((xx + 2 * yy) // 30 % 2 == 0)[..., None], (60, 140, 120), (120, 70, 110))
    img[mask > 0] = stripes.astype(np.uint8)[mask > 0]
    return img, truth


def test_a_card_unlike_its_cloth_all_round_is_the_region_unlike_the_table():
    img, truth = _card_on_chequered_cloth()
    quad, fill = find_card_unlike_table(img)
    assert quad is not None and fill >= UNLIKE_FILL
    assert _error(quad, truth) < 0.02
    found = find_unlike_table(img)
    assert found is not None and found.outlined and found.unlike_table
    assert _error(found.outer, truth) < 0.02


def test_the_step_from_the_table_lies_on_a_card_region_and_off_a_bad_one():
    img, truth = _card_on_chequered_cloth()
    assert unlike_step_gap(img, truth) <= UNLIKE_STEP_GAP
    centre = truth.mean(axis=0)
    # A region that took in the table beyond one side, and one that is a piece of the card.
    wide = truth.copy()
    wide[[1, 2]] += 0.25 * (truth[[1, 2]] - truth[[0, 3]])
    inside = centre + 0.8 * (truth - centre)
    for bad in (wide, inside):
        gap = unlike_step_gap(img, bad)
        assert np.isnan(gap) or gap > UNLIKE_STEP_GAP
    # The gate keeps the card's region itself.
    found = find_unlike_table(img)
    assert found is not None and _error(found.outer, truth) < 0.02


def test_a_bare_cloth_has_no_region_unlike_the_table():
    img, _ = _card_on_chequered_cloth()
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    cloth = np.where(((yy // 24 + xx // 24) % 2 == 0)[..., None], (60, 140, 120), (120, 70, 110))
    bare = cv2.GaussianBlur(cloth.astype(np.uint8), (0, 0), 1.2)
    assert find_card_unlike_table(bare)[0] is None
    assert find_unlike_table(bare) is None
