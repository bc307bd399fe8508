"""`StillnessMeter`: a moving hand moves the picture; sensor noise and JPEG do not."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.stillness import StillnessMeter


def _table(rng: np.random.Generator) -> np.ndarray:
    img = np.full((960, 1280, 3), (60, 110, 160), np.uint8)
    for k in range(6):
        cv2.rectangle(img, (200 + 150 * k, 400), (320 + 150 * k, 560), (235, 235, 235), -1)
    noise = rng.normal(0, 6, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _jpeg(img: np.ndarray) -> np.ndarray:
    return cv2.imdecode(
        cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 70])[1], cv2.IMREAD_COLOR
    )


def test_the_first_frame_is_not_still_and_a_noisy_unchanged_table_is():
    rng = np.random.default_rng(3)
    meter = StillnessMeter()
    assert meter.still(_jpeg(_table(rng))) is False
    assert all(meter.still(_jpeg(_table(rng))) for _ in range(5))


def test_a_hand_coming_in_going_and_coming_back_moves_the_picture_each_time():
    rng = np.random.default_rng(4)
    meter = StillnessMeter()
    meter.still(_table(rng))
    seen = []
    for hand_at in (500, None, 520, 520):
        img = _table(rng)
        if hand_at is not None:
            cv2.line(img, (hand_at, 480), (hand_at + 300, 960), (120, 150, 205), 70)
        seen.append(meter.still(img))
    assert seen == [False, False, False, True]  # in, out, in again, then resting


def test_a_card_nudged_a_few_pixels_leaves_the_picture_still():
    rng = np.random.default_rng(5)
    meter = StillnessMeter()
    before = _table(rng)
    after = before.copy()
    after[400:561, 200:321] = before[400:561, 197:318]  # the first card 3 px to the right
    meter.still(before)
    assert meter.still(after) is True
