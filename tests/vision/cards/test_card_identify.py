"""Identifying a card outline against the taught deck: light-robust, both ends, and no card
named where there is none."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.looking_glass.vision.teach import teach_cards
from companion.sim import effects
from companion.vision.cards.identify import coarse_shift, identify, match_windows
from companion.vision.cards.library import PATCH_H, PATCH_W, descriptor
from companion.vision.cards.photo import find_card_outline
from tests.vision.cards.card_styles import face, photo


@pytest.fixture(scope="module")
def deck():
    rng = np.random.default_rng(41)
    faces = {
        f"card-{k}": face(rng, border, frame=True, radius_mm=0)
        for k, border in enumerate(("black", "coloured", "white", "dark", "black"))
    }
    photos = {cid: photo(f, rng, table="plain")[0] for cid, f in faces.items()}
    return faces, teach_cards(photos).library


def test_each_card_is_named_under_other_light_and_upside_down(deck):
    faces, lib = deck
    rng = np.random.default_rng(42)
    for cid, f in faces.items():
        img, truth = photo(f, rng, table="wood")
        dim = np.clip(img.astype(np.float32) * 0.6 + np.array([0, 10, 25]), 0, 255)
        ident = identify(dim.astype(np.uint8), truth, lib)
        assert ident.card == cid and not ident.flipped, (cid, ident.score, ident.margin)
        turned = identify(img, np.roll(truth, 2, axis=0), lib)
        assert turned.card == cid and turned.flipped


def test_a_card_found_by_its_outline_is_named(deck):
    faces, lib = deck
    rng = np.random.default_rng(43)
    img, _ = photo(faces["card-3"], rng, table="cloth")
    found = find_card_outline(img)
    assert found.outline is not None
    assert identify(img, found.outline, lib, top_known=True).card == "card-3"


def test_no_card_is_named_where_none_is(deck):
    _, lib = deck
    rng = np.random.default_rng(44)
    for kind in ("wood", "cloth", "pattern"):
        table = effects.table_texture(1280, 960, rng, kind)
        quad = np.array([[500, 300], [700, 300], [700, 580], [500, 580]], float)
        ident = identify(table, quad, lib)
        assert ident.card is None and ident.confidence < 0.5, (kind, ident.score)
    unknown = face(rng, "black", frame=True, radius_mm=0)
    img, truth = photo(unknown, rng, table="plain")
    assert identify(img, truth, lib).card is None


def test_windows_matched_by_spectra_score_as_the_library_matches_them(deck):
    """`match_windows` (the FFT) is `Library.match` (every shifted crop times every template)
    done faster: the same best correlations, at every search margin the readers use."""
    _, lib = deck
    rng = np.random.default_rng(45)
    for margin in (2, 4):
        size = (PATCH_H + 2 * margin, PATCH_W + 2 * margin, 3)
        patches = [rng.integers(0, 256, size, np.uint8) for _ in range(3)]
        # A window that holds a template, shifted off centre: its best shift is found.
        held = cv2.copyMakeBorder(
            lib.patches[1], margin + 1, margin - 1, margin - 2, margin + 2, cv2.BORDER_REPLICATE
        )
        windows = np.array([descriptor(p) for p in [*patches, held]])
        got = match_windows(windows, lib, margin)
        want = np.array([lib.match(w) for w in windows])
        assert np.allclose(got, want, atol=1e-5)
        assert got[-1].argmax() == 1 and got[-1, 1] > 0.9


def test_a_wide_window_tells_where_the_card_lies_in_it(deck):
    """`coarse_shift` finds a taught face anywhere in a window 8 px wider than the patch on
    every side (what a search probed ring by ring), to within the full-resolution match's
    own ±2 px slide, among other faces and the table."""
    _, lib = deck
    rng = np.random.default_rng(46)
    margin = 8
    table = effects.table_texture(PATCH_W + 2 * margin, PATCH_H + 2 * margin, rng, "wood")
    for k in range(len(lib.ids)):
        for dy, dx in ((-6, 5), (3, -8), (0, 0), (7, 7)):
            window = table.copy()
            y, x = margin + dy, margin + dx
            window[y : y + PATCH_H, x : x + PATCH_W] = lib.patches[k]
            cy, cx = coarse_shift(descriptor(window), lib, margin)
            assert abs(cy - dy) <= 2 and abs(cx - dx) <= 2, (k, (dy, dx), (cy, cx))
            assert cy % 2 == 0 and cx % 2 == 0
