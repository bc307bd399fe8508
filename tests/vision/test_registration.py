"""Table registration on renders with known geometry: accuracy, holding, undistortion."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.config import TableSettings, load_settings
from companion.sim import effects
from companion.sim.demo_table import (
    corner_centres_mm,
    draw_marker,
    overhead_camera,
    table_canvas,
)
from companion.vision.calibration import Intrinsics, save_intrinsics, save_table
from companion.vision.markers import detect_markers
from companion.vision.registration import TableRegistrar, registrar_for

TABLE = TableSettings()
PROBES_MM = np.array([[100.0, 80.0], [300.0, 225.0], [550.0, 400.0], [20.0, 430.0], [590.0, 10.0]])
TOL_MM = 1.5


@pytest.fixture(scope="module")
def canvas():
    return table_canvas(TABLE, np.random.default_rng(3), kind="wood")


def photo(canvas, camera, seed=0):
    img, origin = canvas
    raw = camera.render_plane(img, 2.0, origin)
    return effects.photograph(raw, np.random.default_rng(seed), noise_sigma=2.0, jpeg_quality=90)


def assert_accurate(reg, camera):
    true_px = camera.project(PROBES_MM)
    err_mm = np.linalg.norm(reg.image_to_table(true_px) - PROBES_MM, axis=1)
    assert err_mm.max() < TOL_MM, err_mm
    err_px = np.linalg.norm(reg.table_to_image(PROBES_MM) - true_px, axis=1)
    assert err_px.max() < TOL_MM * camera.px_per_mm_at((300, 225)), err_px


def assert_table_image_in_mm(reg):
    """The markers in the top-down picture sit where their mm say, at px_per_mm."""
    found = detect_markers(reg.table_image)
    assert set(found) >= set(TABLE.corner_ids)
    h, w = reg.table_image.shape[:2]
    assert (w, h) == ((600 + 2 * 40) * 2, (450 + 2 * 40) * 2)
    for mid, centre in corner_centres_mm(TABLE).items():
        at_mm = reg.table_px_to_mm(found[mid].center)[0]
        assert np.linalg.norm(at_mm - centre) < TOL_MM, (mid, at_mm)
        side_px = np.linalg.norm(found[mid].corners[0] - found[mid].corners[1])
        assert side_px / reg.px_per_mm == pytest.approx(TABLE.marker_size_mm, abs=1.5)


@pytest.mark.parametrize(("tilt", "yaw"), [(0, 0), (12, 35), (25, -120), (20, 180), (25, 90)])
def test_registration_maps_mm_to_the_right_pixels(canvas, tilt, yaw):
    camera = overhead_camera(TABLE, tilt_deg=tilt, yaw_deg=yaw, fill=0.6)
    reg = TableRegistrar(TABLE).register(photo(canvas, camera))
    assert reg.ok and not reg.held and reg.markers_seen == [0, 1, 2, 3]
    assert_accurate(reg, camera)
    assert_table_image_in_mm(reg)
    assert np.allclose(reg.H_table_from_image @ reg.H_image_from_table, np.eye(3), atol=1e-9)


def test_registration_without_the_top_down_picture_maps_the_same(canvas):
    """`table_image=False` (what the live loop asks for a game that reads the camera frame):
    the same homography, no warp."""
    camera = overhead_camera(TABLE, tilt_deg=12, yaw_deg=35, fill=0.6)
    image = photo(canvas, camera)
    both = TableRegistrar(TABLE).register(image)
    bare = TableRegistrar(TABLE).register(image, table_image=False)
    assert bare.ok and bare.table_image is None and both.table_image is not None
    assert np.array_equal(bare.H_table_from_image, both.H_table_from_image)
    assert_accurate(bare, camera)


def _cover(image, camera, ids):
    """Paint a hand-coloured blob over markers, as a hand resting on them."""
    out = image.copy()
    for mid in ids:
        c = corner_centres_mm(TABLE)[mid]
        px = camera.project(np.array([c]))[0]
        cv2.circle(out, (round(px[0]), round(px[1])), 45, (120, 160, 220), -1)
    return out


def test_three_markers_are_enough_and_fewer_hold_the_last_homography(canvas):
    camera = overhead_camera(TABLE, tilt_deg=15, yaw_deg=20, fill=0.7)
    image = photo(canvas, camera)
    registrar = TableRegistrar(TABLE)
    first = registrar.register(image)
    three = registrar.register(_cover(image, camera, [2]))
    assert three.markers_seen == [0, 1, 3] and not three.held
    assert_accurate(three, camera)
    two = registrar.register(_cover(image, camera, [0, 2]))
    assert two.markers_seen == [1, 3] and two.held and two.ok
    assert np.array_equal(two.H_table_from_image, three.H_table_from_image)
    assert two.table_image is not None
    assert not np.array_equal(first.H_table_from_image, three.H_table_from_image)


def test_the_homography_follows_the_markers(canvas):
    registrar = TableRegistrar(TABLE)
    cam_a = overhead_camera(TABLE, tilt_deg=5, yaw_deg=0, fill=0.7)
    cam_b = overhead_camera(TABLE, tilt_deg=20, yaw_deg=40, fill=0.7)
    registrar.register(photo(canvas, cam_a))
    reg_b = registrar.register(photo(canvas, cam_b))
    assert not reg_b.held
    assert_accurate(reg_b, cam_b)


def test_nothing_found_is_not_ok():
    reg = TableRegistrar(TABLE).register(np.full((480, 640, 3), 128, np.uint8))
    assert not reg.ok and not reg.held and reg.markers_seen == [] and reg.table_image is None
    with pytest.raises(ValueError):
        reg.image_to_table([[1, 2]])


def test_a_sticker_turned_by_90_degrees_still_registers(canvas):
    img, origin = canvas
    turned = img.copy()
    # Marker 1's block (with its quiet zone) turned a quarter, in place.
    cx = round((TABLE.width_mm - origin[0]) * 2)
    cy = round((0 - origin[1]) * 2)
    half = 50
    block = turned[cy - half : cy + half, cx - half : cx + half]
    turned[cy - half : cy + half, cx - half : cx + half] = np.rot90(block).copy()
    camera = overhead_camera(TABLE, tilt_deg=10, yaw_deg=15, fill=0.7)
    reg = TableRegistrar(TABLE).register(photo((turned, origin), camera))
    assert reg.markers_seen == [0, 1, 2, 3]
    assert_accurate(reg, camera)


K = np.array([[985.0, 0, 640.0], [0, 985.0, 480.0], [0, 0, 1]])
DIST = np.array([-0.3, 0.12, 0.0, 0.0, 0.0])


def _distort(image):
    """The picture a lens with DIST would take of the same scene."""
    h, w = image.shape[:2]
    grid = np.stack(np.meshgrid(np.arange(w), np.arange(h)), -1).reshape(-1, 1, 2)
    ideal = cv2.undistortPoints(grid.astype(np.float32), K, DIST, P=K).reshape(h, w, 2)
    return cv2.remap(image, ideal[..., 0], ideal[..., 1], cv2.INTER_LINEAR)


@pytest.fixture(scope="module")
def distorted(canvas):
    camera = overhead_camera(TABLE, tilt_deg=10, yaw_deg=10, fill=0.85)
    img, origin = canvas
    return camera, _distort(camera.render_plane(img, 2.0, origin))


def _distorted_px(camera, pts_mm):
    norm = cv2.undistortPoints(camera.project(pts_mm).reshape(-1, 1, 2), K, None)
    obj = np.hstack([norm.reshape(-1, 2), np.ones((len(pts_mm), 1))])
    px, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), K, DIST)
    return px.reshape(-1, 2)


def test_intrinsics_undistort_the_marker_points(distorted):
    camera, image = distorted
    true_px = _distorted_px(camera, PROBES_MM)
    naive = TableRegistrar(TABLE).register(image)
    naive_err = np.linalg.norm(naive.image_to_table(true_px) - PROBES_MM, axis=1).max()
    assert naive_err > 3.0  # the test can tell a lens model from none
    reg = TableRegistrar(TABLE, K, DIST).register(image)
    err = np.linalg.norm(reg.image_to_table(true_px) - PROBES_MM, axis=1)
    assert err.max() < TOL_MM, err
    assert np.linalg.norm(reg.table_to_image(PROBES_MM) - true_px, axis=1).max() < 2.0


def test_undistorted_table_image(distorted):
    _, image = distorted
    reg = TableRegistrar(TABLE, K, DIST, undistort_image=True).register(image)
    assert_table_image_in_mm(reg)


def test_registrar_for_uses_saved_calibration(tmp_path, canvas):
    settings = load_settings(overrides={"data_dir": tmp_path}, environ={})
    assert registrar_for(settings).register(np.zeros((480, 640, 3), np.uint8)).ok is False
    camera = overhead_camera(TABLE, tilt_deg=10, yaw_deg=5, fill=0.7)
    H = np.linalg.inv(camera.plane_homography(0.0))
    save_table(tmp_path, {"H_table_from_image": (H / H[2, 2]).tolist()})
    save_intrinsics(tmp_path, Intrinsics(camera.K, np.zeros(5), 0.3, (1280, 960)))
    registrar = registrar_for(settings)
    assert np.allclose(registrar.camera_matrix, camera.K)
    reg = registrar.register(np.zeros((960, 1280, 3), np.uint8))  # no markers in sight
    assert reg.ok and reg.held
    assert_accurate(reg, camera)


def test_a_marker_printed_at_the_wrong_size_is_left_out(canvas):
    """A homography fits any four centres, but not a marker whose corners are off-scale."""
    img, origin = canvas
    wrong = img.copy()
    draw_marker(wrong, 2, (TABLE.width_mm, TABLE.height_mm), 64.0, 2.0, origin)
    camera = overhead_camera(TABLE, tilt_deg=10, yaw_deg=-20, fill=0.7)
    reg = TableRegistrar(TABLE).register(photo((wrong, origin), camera))
    assert reg.markers_seen == [0, 1, 2, 3] and reg.rejected == [2]
    assert reg.residual_mm < 1.0
    assert_accurate(reg, camera)
    assert reg.summary()["rejected"] == [2]


def test_markers_of_other_ids_are_passed_on(canvas):
    camera = overhead_camera(TABLE, fill=0.7)
    image = photo(canvas, camera)
    reg = TableRegistrar(TABLE).register(image)
    assert set(reg.markers) == {0, 1, 2, 3}
    reused = TableRegistrar(TABLE).register(image, markers=reg.markers)
    assert np.allclose(reused.H_table_from_image, reg.H_table_from_image)
    assert reg.residual_mm < 0.5


@pytest.mark.parametrize("covered", [[0, 2], [2, 3]])
def test_two_markers_fit_a_plane_for_a_caller_that_asks_for_it(canvas, covered):
    """Eight corners fix a homography: the Looking Glass reader takes two markers (and checks
    the plane against the cards); the platform's registration keeps asking for three."""
    camera = overhead_camera(TABLE, tilt_deg=15, yaw_deg=20, fill=0.7)
    found = detect_markers(_cover(photo(canvas, camera), camera, covered))
    assert len(found) == 2
    registrar = TableRegistrar(TABLE)
    assert registrar.fit(found) is None
    fit = registrar.fit(found, min_markers=2)
    assert fit is not None and sorted(fit.ids) == sorted(set(TABLE.corner_ids) - set(covered))
    err_mm = np.linalg.norm(
        cv2.perspectiveTransform(camera.project(PROBES_MM)[None], fit.H)[0] - PROBES_MM, axis=1
    )
    assert err_mm.max() < 3 * TOL_MM, err_mm
