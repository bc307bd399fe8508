"""The reader chosen by a trial on the deck itself: the taught faces laid out as glasses and
read by the light-border reader; a deck it reads is its, any other the staged reader's."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.looking_glass.rules.layout import load_layouts
from companion.games.looking_glass.vision.choose import (
    TRIAL,
    glass_trial,
    make_reader,
    reader_choice,
    reader_kind,
    taught_glass,
)
from companion.games.looking_glass.vision.read import Reader
from companion.games.looking_glass.vision.reader import StagedReader
from companion.games.looking_glass.vision.render import compare
from companion.games.looking_glass.vision.teach import teach_cards
from companion.vision.cards.library import PATCH_H, PATCH_W, CardShape, Library, face_size
from tests.vision.cards.card_styles import face, photo


def _library(border: str, seed: int, n: int = 6) -> Library:
    """A library of faces cut exactly at their edges (what is decided from the library,
    alone; teach's cut is its own tests'), with the templates the light-border reader names
    cards by."""
    from companion.games.looking_glass.vision.teach import FoundCard, library_from_found

    rng = np.random.default_rng(seed)
    shape = CardShape(88.0, 0.0 if border == "none" else 4.0)
    w, h = face_size(shape)
    images, found = {}, {}
    for k in range(n):
        f = cv2.resize(face(rng, border, frame=False, radius_mm=0.0)[..., :3], (w, h))
        img = cv2.copyMakeBorder(f, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(90, 90, 90))
        outer = np.array([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]], float)
        b = shape.border_mm * w / 63.0
        inner = outer + np.array([[b, b], [-b, b], [-b, -b], [b, -b]])
        images[f"c{k}"], found[f"c{k}"] = img, FoundCard(inner, outer, shape.border_mm / 63.0)
    return library_from_found(images, found, shape)[0]


def test_a_taught_glass_holds_every_position_of_its_layout_with_its_coverage():
    lib = _library("white", 21)
    for k, layout in enumerate(load_layouts().values()):
        img, truth = taught_glass(lib, layout, k)
        assert img.shape == (960, 1280, 3)
        assert len(truth["cards"]) == len(layout.position_names)
        covered = sum(c["covered"] for c in truth["cards"])
        assert 0 < covered < len(truth["cards"])
        assert {c["card"] for c in truth["cards"]} == set(lib.ids)
        # Its truth is its own reading's: the glass read perfectly compares perfectly.
        assert compare(truth, truth).table_right


def test_a_white_bordered_deck_is_read_on_its_glasses_and_keeps_the_light_border_reader():
    lib = _library("white", 11)
    trial = glass_trial(lib)
    assert trial.cards == sum(len(lay.position_names) for lay in load_layouts().values())
    assert trial.share > 0.95 and trial.wrong == 0 and trial.extra == 0
    choice = reader_choice(lib)
    assert choice.kind == "light-border"
    assert f"{trial.right} of {trial.cards}" in choice.reason
    assert isinstance(make_reader(lib), Reader)


@pytest.mark.parametrize("border", ["black", "coloured", "none"])
def test_a_deck_the_light_border_reader_cannot_find_goes_to_the_staged_reader(border):
    lib = _library(border, 12)
    choice = reader_choice(lib)
    assert choice.kind == "staged", choice.reason
    assert "staged" in choice.reason
    assert isinstance(make_reader(lib), StagedReader)


def test_the_trial_is_kept_in_the_library_and_decides_without_reading_again(tmp_path):
    lib = _library("black", 13, n=3)
    assert "glass_trial" not in lib.notes
    assert reader_kind(lib) == "staged"
    kept = lib.notes["glass_trial"]
    assert kept["version"] == TRIAL and kept["right"] < kept["cards"]
    lib.save(tmp_path / "cards.npz")
    again = Library.load(tmp_path / "cards.npz")
    assert again.notes["glass_trial"] == kept
    # A kept trial is what decides: one that read every card gives the light-border reader,
    # whatever the faces look like.
    again.notes["glass_trial"] = {**kept, "right": kept["cards"]}
    assert reader_kind(again) == "light-border"
    # One of another version is taken again.
    again.notes["glass_trial"] = {**kept, "version": TRIAL - 1, "right": kept["cards"]}
    assert reader_kind(again) == "staged"


def test_a_deck_taught_from_photos_of_white_bordered_cards_is_the_light_border_readers():
    rng = np.random.default_rng(14)
    faces = [face(rng, "white", frame=False, radius_mm=2.0) for _ in range(4)]
    photos = {f"c{k}": photo(f, rng, table="wood")[0] for k, f in enumerate(faces)}
    assert reader_kind(teach_cards(photos).library) == "light-border"


def test_a_reader_named_is_the_one_made_and_the_feature_index_is_made_once():
    lib = _library("black", 13, n=3)
    assert isinstance(make_reader(lib, "light-border"), Reader)
    a, b = make_reader(lib, "staged"), make_reader(lib, "staged")
    assert isinstance(a, StagedReader) and a.index is b.index
    with pytest.raises(ValueError, match="unknown reader"):
        make_reader(lib, "fast")


def test_a_library_taught_before_faces_were_kept_keeps_the_light_border_reader():
    old = Library(
        ["x"],
        np.zeros((1, PATCH_H, PATCH_W, 3), np.float32),
        np.zeros((1, PATCH_H, PATCH_W, 3), np.uint8),
        CardShape(),
    )
    assert reader_choice(old).kind == "light-border"
