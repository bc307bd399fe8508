"""The one homography helper maps points as the projective formula says."""

from __future__ import annotations

import numpy as np

from companion.vision.homography import apply_homography


def test_points_map_as_the_projective_formula_says() -> None:
    rng = np.random.default_rng(7)
    H = np.eye(3) + rng.normal(0, 0.1, (3, 3))
    H[2, :2] = rng.normal(0, 1e-3, 2)
    pts = rng.uniform(-500, 500, (20, 2))
    homog = np.hstack([pts, np.ones((20, 1))]) @ H.T
    want = homog[:, :2] / homog[:, 2:3]
    got = apply_homography(H, pts)
    assert got.shape == (20, 2) and got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def test_lists_one_point_and_no_points_keep_the_n_by_2_shape() -> None:
    shift = np.array([[1.0, 0, 5], [0, 1, -2], [0, 0, 1]])
    assert apply_homography(shift, [[1.0, 1.0]]).tolist() == [[6.0, -1.0]]
    assert apply_homography(shift, np.zeros((0, 2))).shape == (0, 2)
