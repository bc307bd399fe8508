"""Live play's incremental reading with the staged reader (`incremental.IncrementalReader`):
a card whose pixels changed while the picture moves is hidden (something lies over it); once
the picture is still it is gone, and no full read is made (SIFT costs a second): the slots
where the picture changed are named again by their upper half, so the card is back as soon as
nothing lies over it."""

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


def test_a_changed_card_is_hidden_while_the_picture_moves_and_looked_at_again_once_still():
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
    assert inc.last.how == "local" and inc.last.changed == 1
    assert len(still.cards) == 5 and not still.hidden
    assert all(np.hypot(*(c.center - under.center)) > w / 2 for c in still.cards)
    rested = inc.read(hand, None, thumbnail(hand), True)
    assert inc.last.how == "same" and len(rested.cards) == 5
    back = inc.read(img, None, thumbnail(img), True)
    assert inc.last.how == "local" and len(back.cards) == 6
    assert {c.card for c in back.cards} == {c.card for c in first.cards}
    # The card back under its own coverage: the same covered flags as the first full read.
    assert sorted((c.card, c.covered) for c in back.cards) == sorted(
        (c.card, c.covered) for c in first.cards
    )


def test_a_card_taken_from_a_still_table_is_gone_without_a_full_read():
    img, reader, boxes = _table()
    inc = IncrementalReader(reader)
    first = inc.read(img, None, thumbnail(img), True)
    x, y, w, h = boxes[0]
    taken = img.copy()
    taken[y : y + h, x : x + w] = (90, 120, 80)  # the table's cloth
    after = inc.read(taken, None, thumbnail(taken), True)
    assert inc.last.how == "local" and inc.last.changed == 1
    gone = [
        c
        for c in first.cards
        if np.hypot(c.center[0] - (x + w / 2), c.center[1] - (y + h / 2)) < w / 3
    ]
    assert len(gone) == 1
    assert sorted(c.card for c in after.cards) == sorted(
        c.card for c in first.cards if c is not gone[0]
    )


def test_a_card_taken_while_the_picture_moves_is_gone_not_hidden():
    """No part of a taken card looks as it did: the frames after the hand, still or not,
    read it gone alike (the tracker needs them to agree to believe a pick)."""
    img, reader, boxes = _table()
    inc = IncrementalReader(reader)
    first = inc.read(img, None, thumbnail(img), True)
    x, y, w, h = boxes[0]
    taken = img.copy()
    taken[y : y + h, x : x + w] = (90, 120, 80)
    moving = inc.read(taken, None, thumbnail(taken), False)
    assert inc.last.how == "cards" and inc.last.changed == 1
    assert len(moving.cards) == len(first.cards) - 1 and not moving.hidden


def _upper_half_of_lower(faces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A taught card whose upper half is the fourth card's lower half (its border on top): a
    slot of the next row outward over that card, straddling its lower half, names it."""
    under = faces["c3"][..., :3]
    h = under.shape[0]
    twin = under.copy()
    twin[: h // 2] = under[h - h // 2 :]
    twin[: h // 16] = under[-(h // 16) :]
    return {"twin": twin}


def test_a_slot_over_a_card_whose_lower_half_shows_is_no_card_when_read_incrementally():
    """Live play names the free slots where the picture changed as a full read does: a card
    back from under a hand is named, and the slot of the next row outward over it, which
    names a look-alike of its lower half, is no card while that lower half shows (a phantom,
    and it would call the card under it covered)."""
    img, lib, ids, boxes = dark_bordered_table(_upper_half_of_lower)
    inc = IncrementalReader(StagedReader(lib))
    first = inc.read(img, None, thumbnail(img), True)
    assert sorted(c.card for c in first.cards) == sorted(ids)
    x, y, w, h = boxes[1]  # the fourth card
    hand = img.copy()
    cv2.ellipse(hand, (x + w // 2, y + h // 2), (w // 2, h // 3), 0, 0, 360, (60, 90, 150), -1)
    inc.read(hand, None, thumbnail(hand), False)
    rested = inc.read(hand, None, thumbnail(hand), True)
    assert inc.last.how == "local" and ids[3] not in {c.card for c in rested.cards}
    back = inc.read(img, None, thumbnail(img), True)
    assert inc.last.how == "local"
    assert sorted((c.card, c.covered) for c in back.cards) == sorted(
        (c.card, c.covered) for c in first.cards
    )
