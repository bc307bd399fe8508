"""The reader chosen from the taught library: the light-border reader for a deck whose faces
have a light border, the staged reader for any other, and either by name."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.looking_glass.vision.choose import (
    LIGHT_BORDER_MM,
    light_border_mm,
    light_border_share,
    make_reader,
    reader_kind,
)
from companion.games.looking_glass.vision.read import Reader
from companion.games.looking_glass.vision.reader import StagedReader
from companion.games.looking_glass.vision.teach import teach_cards
from companion.vision.cards.library import PATCH_H, PATCH_W, CardShape, Library, face_size
from tests.vision.cards.card_styles import face, photo


def _library(border: str, seed: int) -> Library:
    """A library of four faces cut exactly at their edges, the border as teach measures it
    (what is decided from the library, alone; teach's cut is its own tests')."""
    rng = np.random.default_rng(seed)
    shape = CardShape(88.0, 0.0 if border == "none" else 4.0)
    faces = [
        cv2.resize(face(rng, border, frame=False, radius_mm=2.0)[..., :3], face_size(shape))
        for _ in range(4)
    ]
    n = len(faces)
    return Library(
        [f"c{k}" for k in range(n)],
        np.zeros((n, PATCH_H, PATCH_W, 3), np.float32),
        np.zeros((n, PATCH_H, PATCH_W, 3), np.uint8),
        shape,
        np.array(faces, np.uint8),
    )


def test_a_deck_taught_from_photos_of_white_bordered_cards_is_the_light_border_readers():
    rng = np.random.default_rng(14)
    faces = [face(rng, "white", frame=False, radius_mm=2.0) for _ in range(4)]
    photos = {f"c{k}": photo(f, rng, table="wood")[0] for k, f in enumerate(faces)}
    assert reader_kind(teach_cards(photos).library) == "light-border"


@pytest.mark.parametrize("border", ["white", "cream"])
def test_a_light_bordered_deck_is_read_by_the_light_border_reader(border):
    lib = _library(border, 11)
    assert light_border_share(lib) > 0.9
    assert light_border_mm(lib) >= LIGHT_BORDER_MM
    assert reader_kind(lib) == "light-border"
    assert isinstance(make_reader(lib), Reader)


@pytest.mark.parametrize("border", ["black", "dark", "coloured", "none"])
def test_any_other_deck_is_read_by_the_staged_reader(border):
    lib = _library(border, 12)
    assert light_border_share(lib) < 0.1
    assert light_border_mm(lib) < LIGHT_BORDER_MM
    assert reader_kind(lib) == "staged"
    assert isinstance(make_reader(lib), StagedReader)


def test_a_reader_named_is_the_one_made_and_the_feature_index_is_made_once():
    lib = _library("black", 13)
    assert isinstance(make_reader(lib, "light-border"), Reader)
    a, b = make_reader(lib, "staged"), make_reader(lib, "staged")
    assert isinstance(a, StagedReader) and a.index is b.index
    with pytest.raises(ValueError, match="unknown reader"):
        make_reader(lib, "fast")


def test_a_thin_light_frame_inside_a_dark_border_is_no_light_border():
    """Teach finds such a card as a hole in its frame: a light border of about a mm."""
    lib = _library("white", 15)
    thin = Library(lib.ids, lib.templates, lib.patches, CardShape(88.0, 1.2), lib.faces)
    assert light_border_share(thin) > 0.9
    assert reader_kind(thin) == "staged"


def test_a_library_taught_before_faces_were_kept_keeps_the_light_border_reader():
    old = Library(
        ["x"], np.zeros((1, 30, 48, 3), np.float32), np.zeros((1, 30, 48, 3), np.uint8), CardShape()
    )
    assert light_border_share(old) == 0.0
    assert reader_kind(old) == "light-border"
