"""Live play's incremental reading with the staged reader (`incremental.IncrementalReader`):
the staged reader does not look again for cards a reading lacks (`StagedReader.verifies`), so
a card whose pixels changed while the picture moves is hidden (something lies over it), and
once the picture is still the frame is read in full."""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.looking_glass.vision.incremental import IncrementalReader
from companion.games.looking_glass.vision.reader import StagedReader
from companion.games.looking_glass.vision.teach import teach_cards
from companion.vision.stillness import thumbnail
from tests.vision.cards.card_styles import face, photo


def _table() -> tuple[np.ndarray, StagedReader, list[tuple[int, int, int, int]]]:
    """Six dark-bordered cards in two facing rows, the reader taught them, and their boxes."""
    rng = np.random.default_rng(3)
    borders = ("black", "coloured", "dark", "black", "coloured", "dark")
    faces = {f"c{k}": face(rng, b, frame=True, radius_mm=0) for k, b in enumerate(borders)}
    photos = {cid: photo(f, rng, table="plain")[0] for cid, f in faces.items()}
    lib = teach_cards(photos).library
    img = np.full((960, 1280, 3), (90, 120, 80), np.uint8)
    w = 120
    h = round(w * 88 / 63)
    ids = list(faces)
    boxes = []
    for k in range(3):
        x = 250 + k * (w + 40)
        top = cv2.resize(faces[ids[k]][..., :3], (w, h))
        bottom = cv2.resize(faces[ids[k + 3]][..., :3], (w, h))
        img[480 - 10 - h : 480 - 10, x : x + w] = cv2.rotate(top, cv2.ROTATE_180)
        img[490 : 490 + h, x : x + w] = bottom
        boxes += [(x, 480 - 10 - h, w, h), (x, 490, w, h)]
    return cv2.GaussianBlur(img, (0, 0), 0.7), StagedReader(lib), boxes


def test_a_changed_card_is_hidden_while_the_picture_moves_and_read_in_full_once_still():
    img, reader, boxes = _table()
    inc = IncrementalReader(reader)
    first = inc.read(img, None, thumbnail(img), True)
    assert inc.last.how == "full" and len(first.cards) == 6
    same = inc.read(img, None, thumbnail(img), True)
    assert inc.last.how == "same" and len(same.cards) == 6 and not same.hidden
    x, y, w, h = boxes[0]
    hand = img.copy()
    cv2.ellipse(hand, (x + w // 2, y + h // 2), (w // 2, h // 3), 0, 0, 360, (60, 90, 150), -1)
    moving = inc.read(hand, None, thumbnail(hand), False)
    assert inc.last.how == "cards" and len(moving.cards) == 5 and len(moving.hidden) == 1
    (under,) = moving.hidden
    assert abs(under.center[0] - (x + w / 2)) < 10 and abs(under.center[1] - (y + h / 2)) < 10
    still = inc.read(hand, None, thumbnail(hand), True)
    assert inc.last.how == "full" and inc.last.why == "cards changed"
    assert not still.hidden
