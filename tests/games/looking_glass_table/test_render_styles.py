"""The renderer's randomised deck styles: every design choice is drawn, and drawn as said."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from companion.games.looking_glass.rules.deck import load_deck
from companion.games.looking_glass.vision.art import (
    ART_KINDS,
    BORDERS,
    CARD_SIZES,
    FACE_PX_PER_MM,
    SLEEVES,
    DeckStyle,
    draw_deck,
)
from companion.games.looking_glass.vision.render import (
    card_object,
    render_scene,
    sample_style,
    world_teach_photo,
)

IDS = load_deck().ids
REPO = Path(__file__).resolve().parents[3]


def _style(**want) -> tuple[int, DeckStyle]:
    """The first development seed whose style has the wanted choices."""
    for seed in range(2000):
        st = sample_style(seed)
        if all(getattr(st, k) == v for k, v in want.items()):
            return seed, st
    raise AssertionError(f"no style with {want}")


def test_every_design_choice_is_drawn():
    styles = [DeckStyle.sample(np.random.default_rng(k)) for k in range(300)]
    assert {s.border for s in styles} == set(BORDERS)
    assert {s.art for s in styles} == set(ART_KINDS)
    assert {s.sleeve for s in styles} == set(SLEEVES)
    assert {s.size for s in styles} == set(CARD_SIZES)
    assert {s.finish for s in styles} == {"matte", "glossy"}
    assert {s.title for s in styles} == {"top", "bottom", "none"}
    assert any(s.frame_mm > 0 for s in styles) and any(s.frame_mm == 0 for s in styles)
    assert any(s.corner_mm == 0 for s in styles) and any(s.corner_mm > 2 for s in styles)


def test_faces_have_the_styles_size_and_differ_in_their_upper_half():
    seed, st = _style(size="tarot")
    art = draw_deck(IDS, seed, st)
    face = art[IDS[0]].face
    assert face.shape[:2] == (round(120 * FACE_PX_PER_MM), round(70 * FACE_PX_PER_MM))
    uppers = [art[c].face[: face.shape[0] // 2].astype(np.float32) for c in IDS]
    diffs = [
        np.abs(uppers[i] - uppers[j]).mean()
        for i in range(len(IDS))
        for j in range(i + 1, len(IDS))
    ]
    assert min(diffs) > 8  # no two cards' visible halves alike


@pytest.mark.parametrize("border", ["black", "none"])
def test_dark_and_full_bleed_borders(border):
    seed, st = _style(border=border)
    face = draw_deck(IDS, seed, st)[IDS[0]].face
    edge = np.concatenate([face[1, 20:-20], face[-2, 20:-20], face[20:-20, 1], face[20:-20, -2]])
    if border == "black":
        assert edge.mean() < 45  # a dark card edge: no light frame to find
    else:
        assert edge.std() > 8  # the art runs to the edge: no uniform border at all


def test_rounded_corners_and_sleeves_show_the_table():
    seed, st = _style(sleeve="none")
    st = DeckStyle(**{**st.to_json(), "corner_mm": 4.0})
    art = draw_deck(IDS, seed, st)[IDS[0]]
    obj, cover, pad = card_object(art, FACE_PX_PER_MM)
    h, w = cover.shape
    assert pad == 0 and cover[0, 0] < 0.05 and cover[h // 2, w // 2] > 0.99
    coloured = DeckStyle(**{**st.to_json(), "sleeve": "coloured", "sleeve_bgr": (200, 40, 40)})
    obj, cover, pad = card_object(draw_deck(IDS, seed, coloured)[IDS[0]], FACE_PX_PER_MM)
    assert pad > 0 and tuple(obj[pad // 2, obj.shape[1] // 2]) == (200, 40, 40)


def test_a_randomised_scene_deals_the_decks_own_card_size():
    seed, st = _style(size="tarot")
    img, truth = render_scene(seed, 0, draw_deck(IDS, seed, st))
    assert truth["truth"]["style"]["size"] == "tarot"
    assert img.shape[1] >= 1280
    ratios = []
    for c in truth["cards"]:
        q = np.array(c["quad"])
        ratios.append(np.linalg.norm(q[1] - q[0]) / np.linalg.norm(q[3] - q[0]))
    # 70 / 120 = 0.58 seen from up to 25°: far from a poker card's 0.72 on average.
    assert 0.5 < float(np.median(ratios)) < 0.66


def test_the_house_style_is_the_default():
    a = draw_deck(IDS[:2], 5)
    b = draw_deck(IDS[:2], 5, DeckStyle.house())
    assert all(np.array_equal(a[c].face, b[c].face) for c in IDS[:2])
    assert a[IDS[0]].style.is_house and a[IDS[0]].mask is None


def test_a_teach_photo_is_a_photo_or_a_scan_with_a_margin():
    seed, st = _style(border="white")
    art = draw_deck(IDS, seed, st)[IDS[0]]
    rng = np.random.default_rng(1)
    photo = scan = False
    for _ in range(12):  # a quarter are scans: both kinds within a few photos
        h = world_teach_photo(art, rng).shape[0]
        photo |= h >= 960  # a photo of a table
        # A scan at 3..4 px/mm: the card and a margin of the lid round it.
        scan |= st.height_mm * 3 + 20 <= h <= st.height_mm * 4 + 120
        if photo and scan:
            break
    assert photo and scan


def test_the_heldout_painter_shares_no_drawing_code():
    """benchmarks/heldout may take data types and the scene geometry, never a painting function."""
    tree = ast.parse((REPO / "benchmarks" / "heldout" / "looking_glass.py").read_text())
    imported = {
        (n.module, a.name)
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom)
        for a in n.names
        if n.module and n.module.startswith("companion")
    }
    allowed = {
        ("companion.games.looking_glass.vision.art", "FACE_PX_PER_MM"),
        ("companion.games.looking_glass.vision.art", "CardArt"),
        ("companion.games.looking_glass.vision.art", "DeckStyle"),
        ("companion.games.looking_glass.vision.render", "render_scene"),
    }
    assert imported <= allowed, imported - allowed
