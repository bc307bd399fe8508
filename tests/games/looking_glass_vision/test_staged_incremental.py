"""Live play's incremental reading with the staged reader (`incremental.IncrementalReader`):
the staged reader does not look again for cards a reading lacks (`StagedReader.verifies`), so
a card whose pixels changed while the picture moves is hidden (something lies over it), and
once the picture is still the frame is read in full."""

from __future__ import annotations

import cv2
import numpy as np

from companion.games.looking_glass.vision.incremental import IncrementalReader
from companion.games.looking_glass.vision.reader import StagedReader
from companion.vision.stillness import thumbnail
from tests.games.looking_glass_vision.dark_table import dark_bordered_table


def _table() -> tuple[np.ndarray, StagedReader, list[tuple[int, int, int, int]]]:
    """Six dark-bordered cards in two facing rows, the reader taught them, and their boxes."""
    img, lib, _ids, boxes = dark_bordered_table()
    return img, StagedReader(lib), boxes


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
