"""`descriptor`: a patch in Lab, blurred, each channel zero-mean and scaled by its weight over
its spread (floored, so a flat channel's noise is not blown up)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.cards.library import CHANNEL_WEIGHTS, descriptor


def _written_out(patch: np.ndarray) -> np.ndarray:
    lab = cv2.GaussianBlur(cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7)
    flat = lab.reshape(-1, 3).astype(np.float64)
    mean = flat.mean(axis=0).astype(np.float32)
    std = flat.std(axis=0).astype(np.float32)
    return (lab - mean) * (CHANNEL_WEIGHTS / np.maximum(std, 6.0))


def test_descriptor_is_the_formula_in_float32():
    rng = np.random.default_rng(3)
    for trial in range(60):
        patch = rng.integers(0, 256, (30 + trial % 7, 48 + trial % 5, 3)).astype(np.uint8)
        if trial % 3 == 0:
            patch = cv2.GaussianBlur(patch, (7, 7), 3)  # little spread: the floor matters
        if trial % 4 == 0:
            patch[:] = patch[..., :1]  # grey: flat chroma channels
        got = descriptor(patch)
        assert got.dtype == np.float32 and got.shape == patch.shape
        assert np.allclose(got, _written_out(patch), atol=1e-4), trial


def test_each_channel_zero_mean_and_weighted_spread():
    rng = np.random.default_rng(4)
    patch = rng.integers(0, 256, (34, 52, 3)).astype(np.uint8)
    d = descriptor(patch).reshape(-1, 3)
    assert np.allclose(d.mean(axis=0), 0.0, atol=1e-4)
    assert np.allclose(d.std(axis=0), CHANNEL_WEIGHTS, rtol=1e-3)  # spreads well above 6
