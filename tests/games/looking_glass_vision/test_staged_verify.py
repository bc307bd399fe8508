"""A find is a card only if its visible part, rectified by its homography, looks like the
taught face: the same homography over the table or over another face is "not a card"."""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.looking_glass.vision.teach import teach_cards
from companion.vision.cards.features import MIN_NCC, FaceIndex, find_instances, visible_ncc
from tests.vision.cards.card_styles import face, photo


def _scene() -> tuple[np.ndarray, FaceIndex, list[str]]:
    rng = np.random.default_rng(11)
    faces = {
        f"c{k}": face(rng, b, frame=True, radius_mm=2)
        for k, b in enumerate(("black", "coloured", "white"))
    }
    lib = teach_cards({cid: photo(f, rng, table="plain")[0] for cid, f in faces.items()}).library
    img = np.full((960, 1280, 3), (90, 120, 80), np.uint8)
    w, h = 130, round(130 * 88 / 63)
    img[300 : 300 + h, 400 : 400 + w] = cv2.resize(faces["c0"][..., :3], (w, h))
    # Two card widths aside lies another card's face: what a chance find would see.
    img[300 : 300 + h, 400 + 2 * w : 400 + 3 * w] = cv2.resize(faces["c1"][..., :3], (w, h))
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    return img, FaceIndex.of(lib), list(faces)


def test_the_true_find_correlates_and_the_same_find_moved_or_renamed_does_not():
    img, index, ids = _scene()
    found = [i for i in find_instances(img, index) if i.card == ids[0]]
    assert found and found[0].ncc >= MIN_NCC
    inst = found[0]
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
    assert visible_ncc(grey, inst.H, inst.inlier_mm, index.faces_grey[0]) > 0.8
    aside = inst.H @ np.array([[1, 0, 2.0 * 63], [0, 1, 0], [0, 0, 1.0]])  # onto the other face
    assert visible_ncc(grey, aside, inst.inlier_mm, index.faces_grey[0]) < MIN_NCC
    others = [visible_ncc(grey, inst.H, inst.inlier_mm, f) for f in index.faces_grey[1:]]
    assert max(others) < visible_ncc(grey, inst.H, inst.inlier_mm, index.faces_grey[0])
