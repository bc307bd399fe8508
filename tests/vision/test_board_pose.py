"""The camera pose from the board's corner markers, with the focal length estimated."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.games.mirror_mansion.rules.board import load_board
from companion.sim.camera import VirtualCamera
from companion.vision.board_pose import (
    Calibration,
    estimate_pose,
    marker_object_points,
)
from companion.vision.markers import Marker

BOARD = load_board()


def _markers(cam: VirtualCamera, ids: list[int], noise: float, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    out = {}
    for i in ids:
        pix = cam.project(marker_object_points(BOARD, i)) + rng.normal(0, noise, (4, 2))
        out[i] = Marker(i, pix.astype(np.float32))
    return out


@pytest.mark.parametrize("hfov", [58.0, 66.0, 72.0])
@pytest.mark.parametrize("ids", [[10, 11, 12, 13], [10, 12, 13]])
def test_tilted_camera_focal_length_and_tops_are_recovered(hfov: float, ids: list[int]) -> None:
    cam = VirtualCamera.looking_at((150, 150), 600, tilt_deg=22, yaw_deg=40, hfov_deg=hfov)
    pose = estimate_pose(_markers(cam, ids, 0.3), BOARD, (cam.width, cam.height))
    assert pose is not None and pose.focal_estimated
    assert pose.K[0, 0] == pytest.approx(cam.K[0, 0], rel=0.06)
    assert pose.tilt_deg == pytest.approx(22, abs=1.5)
    tops = np.array([[x, y, -20.0] for x in (60, 150, 240) for y in (60, 150, 240)])
    err_px = np.linalg.norm(pose.project(tops) - cam.project(tops), axis=1)
    assert err_px.max() / cam.px_per_mm_at((150, 150)) < 1.0  # under a millimetre


def test_overhead_keeps_the_prior_and_still_places_tops_within_a_dot_radius() -> None:
    """Straight down, f cannot be measured; a field of view 6° off the prior moves the card
    tops at the board's edge by about a millimetre, well inside the dot spacing (5.7 mm)."""
    cam = VirtualCamera.looking_at((150, 150), 600, tilt_deg=0, yaw_deg=10, hfov_deg=60)
    pose = estimate_pose(_markers(cam, [10, 11, 12, 13], 0.3), BOARD, (cam.width, cam.height))
    assert pose is not None
    assert pose.K[0, 0] != pytest.approx(cam.K[0, 0], rel=0.05)  # the prior, not the truth
    tops = np.array([[x, y, -25.0] for x in (30, 150, 270) for y in (30, 150, 270)])
    err_px = np.linalg.norm(pose.project(tops) - cam.project(tops), axis=1)
    assert err_px.max() / cam.px_per_mm_at((150, 150)) < 1.5


def test_a_calibration_is_used_as_given() -> None:
    cam = VirtualCamera.looking_at((150, 150), 600, tilt_deg=15, yaw_deg=0)
    cal = Calibration(cam.K, np.zeros(5))
    pose = estimate_pose(_markers(cam, [10, 11, 12, 13], 0.2), BOARD, (cam.width, cam.height), cal)
    assert pose is not None and not pose.focal_estimated
    assert np.allclose(pose.K, cam.K)
    assert np.allclose(pose.camera_centre, cam.C, atol=3.0)


def test_two_markers_are_not_enough() -> None:
    cam = VirtualCamera.looking_at((150, 150), 600, tilt_deg=15)
    assert estimate_pose(_markers(cam, [10, 11], 0.2), BOARD, (cam.width, cam.height)) is None


@pytest.mark.parametrize("tilt", [0.0, 8.0, 22.0])
def test_the_homography_floor_bounds_every_focal_lengths_fit(tilt: float) -> None:
    """The focal search is skipped when the best homography's error cannot beat the prior's
    clearly; that is exact only if no pose at any focal length reprojects better than it."""
    from companion.vision.board_pose import fit_at_focal, homography_rms

    cam = VirtualCamera.looking_at((150, 150), 600, tilt_deg=tilt, yaw_deg=25, hfov_deg=62)
    found = _markers(cam, [10, 11, 13], 0.4, seed=3)
    obj = np.vstack([marker_object_points(BOARD, i) for i in found])
    img = np.vstack([found[i].corners.reshape(4, 2) for i in found]).astype(np.float64)
    floor = homography_rms(obj, img)
    assert floor > 0.05  # noisy corners: the bound is not trivially zero
    size = (cam.width, cam.height)
    fits = [
        fit_at_focal(obj, img, f, size, refine=True).rms
        for f in np.linspace(0.5, 2.5, 9) * cam.width
    ]
    assert min(fits) >= floor - 1e-9
    at_truth = fit_at_focal(obj, img, float(cam.K[0, 0]), size, refine=True).rms
    assert floor <= at_truth < 1.2 * floor  # and tight at the true focal length


def test_the_calibration_a_registration_carries_or_none() -> None:
    """The live registration's intrinsics become the pose's calibration; without a camera
    matrix there is none (the focal length is then estimated), without distortion it is nil."""
    K = [[900.0, 0.0, 640.0], [0.0, 900.0, 480.0], [0.0, 0.0, 1.0]]
    assert Calibration.of(SimpleNamespace(camera_matrix=None, dist_coeffs=[0.1] * 5)) is None
    assert Calibration.of(object()) is None
    cal = Calibration.of(SimpleNamespace(camera_matrix=K, dist_coeffs=None))
    assert cal is not None
    assert np.array_equal(cal.K, np.array(K)) and np.array_equal(cal.dist, np.zeros(5))
    cal = Calibration.of(SimpleNamespace(camera_matrix=K, dist_coeffs=[[0.1, 0, 0, 0, 0]]))
    assert cal is not None and cal.dist.tolist() == [[0.1, 0, 0, 0, 0]]
