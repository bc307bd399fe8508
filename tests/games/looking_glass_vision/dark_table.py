"""A clean table of six dark-bordered cards in two facing rows, and the library taught them:
the staged reader's smallest whole scene, shared by the tests that read it."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from companion.games.looking_glass.vision.teach import teach_cards
from companion.vision.cards.library import Library
from tests.vision.cards.card_styles import face, photo

Box = tuple[int, int, int, int]


def dark_bordered_table(
    also_taught: Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]] | None = None,
) -> tuple[np.ndarray, Library, list[str], list[Box]]:
    """The image, the library, the card ids (the first three face down the image, top to the
    line; the last three face up) and each card's box (x, y, w, h), the upper card of each
    column first. `also_taught`: more faces (made from the six) taught but not laid out."""
    rng = np.random.default_rng(3)
    borders = ("black", "coloured", "dark", "black", "coloured", "dark")
    faces = {f"c{k}": face(rng, b, frame=True, radius_mm=0) for k, b in enumerate(borders)}
    taught = {**faces, **(also_taught(faces) if also_taught else {})}
    photos = {cid: photo(f, rng, table="plain")[0] for cid, f in taught.items()}
    lib = teach_cards(photos).library
    img = np.full((960, 1280, 3), (90, 120, 80), np.uint8)
    w = 120
    h = round(w * 88 / 63)
    ids = list(faces)
    boxes: list[Box] = []
    for k in range(3):
        x = 250 + k * (w + 40)
        top = cv2.resize(faces[ids[k]][..., :3], (w, h))
        bottom = cv2.resize(faces[ids[k + 3]][..., :3], (w, h))
        img[480 - 10 - h : 480 - 10, x : x + w] = cv2.rotate(top, cv2.ROTATE_180)
        img[490 : 490 + h, x : x + w] = bottom
        boxes += [(x, 480 - 10 - h, w, h), (x, 490, w, h)]
    return cv2.GaussianBlur(img, (0, 0), 0.7), lib, ids, boxes
