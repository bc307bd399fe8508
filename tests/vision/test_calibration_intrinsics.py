"""Lens calibration from synthetic ChArUco views with a known camera, and its refusals."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main as cli_main
from companion.sim.camera import VirtualCamera
from companion.vision.calibration import (
    BOARD_SQUARE_MM,
    BOARD_SQUARES,
    CalibrationLimits,
    CalibrationRefused,
    calibrate_intrinsics,
    charuco_board,
    coverage,
    detect_board,
    load_intrinsics,
)

SIZE = (640, 480)
HFOV = 60.0
BOARD_W, BOARD_H = BOARD_SQUARES[0] * BOARD_SQUARE_MM, BOARD_SQUARES[1] * BOARD_SQUARE_MM
PX_PER_MM = 5.0
MARGIN_MM = 15.0


@pytest.fixture(scope="module")
def board_canvas():
    art = charuco_board().generateImage(
        (round(BOARD_W * PX_PER_MM), round(BOARD_H * PX_PER_MM)), marginSize=0, borderBits=1
    )
    pad = round(MARGIN_MM * PX_PER_MM)
    canvas = cv2.copyMakeBorder(art, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    return cv2.cvtColor(canvas, cv2.COLOR_GRAY2BGR)


def render(canvas, target, distance, tilt, yaw):
    cam = VirtualCamera.looking_at(
        target, distance, tilt_deg=tilt, yaw_deg=yaw, width=SIZE[0], height=SIZE[1], hfov_deg=HFOV
    )
    img = cam.render_plane(canvas, PX_PER_MM, (-MARGIN_MM, -MARGIN_MM))
    # A grey table around the board, so the board's edge is where the paper ends.
    return cv2.GaussianBlur(img, (0, 0), 0.6), cam


def spread_views(canvas, n=20):
    """Tilted views with the board in different parts of the picture."""
    rng = np.random.default_rng(1)
    out = []
    for i in range(n):
        target = (BOARD_W / 2 + rng.uniform(-70, 70), BOARD_H / 2 + rng.uniform(-50, 50))
        out.append(
            render(
                canvas,
                target,
                rng.uniform(260, 330),
                rng.uniform(15, 38),
                i * 360 / n + rng.uniform(-10, 10),
            )
        )
    return out


@pytest.fixture(scope="module")
def good_views(board_canvas):
    return spread_views(board_canvas)


def test_recovers_the_known_focal_length(good_views):
    views = [v for v in (detect_board(img) for img, _ in good_views) if v is not None]
    assert len(views) >= 18
    intr = calibrate_intrinsics(views, SIZE)
    K_true = good_views[0][1].K
    assert intr.camera_matrix[0, 0] == pytest.approx(K_true[0, 0], rel=0.03)
    assert intr.camera_matrix[1, 1] == pytest.approx(K_true[1, 1], rel=0.03)
    assert intr.camera_matrix[0, 2] == pytest.approx(SIZE[0] / 2, abs=15)
    assert intr.rms_px < 1.0 and intr.coverage >= 0.5


def test_cli_calibrates_from_a_folder_and_saves_json(tmp_path, good_views, capsys):
    folder = tmp_path / "views"
    folder.mkdir()
    for i, (img, _) in enumerate(good_views):
        cv2.imwrite(str(folder / f"view_{i:02d}.png"), img)
    data_dir = tmp_path / "data"
    code = cli_main(
        ["calibrate", "intrinsics", "--images", str(folder), "--data-dir", str(data_dir), "--json"]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    saved = load_intrinsics(data_dir)
    assert saved is not None and printed["saved"].endswith("calibration/intrinsics.json")
    assert saved.image_size == SIZE
    assert saved.camera_matrix[0, 0] == pytest.approx(good_views[0][1].K[0, 0], rel=0.03)
    # The same folder through the camera path: a replay source that plays it once.
    code = cli_main(
        [
            "calibrate",
            "intrinsics",
            "--camera",
            f"replay:{folder}",
            "--data-dir",
            str(data_dir),
            "--out",
            str(tmp_path / "cam.json"),
        ]
    )
    assert code == 0
    assert "lens calibrated" in capsys.readouterr().out
    assert json.loads((tmp_path / "cam.json").read_text())["rms_px"] < 1.0


def test_refuses_too_few_views(good_views):
    views = [detect_board(img) for img, _ in good_views[:3]]
    with pytest.raises(CalibrationRefused, match="only 3 usable board view"):
        calibrate_intrinsics(views, SIZE)


def test_refuses_views_that_all_sit_in_the_middle(board_canvas):
    centre = (BOARD_W / 2, BOARD_H / 2)
    views = [
        detect_board(render(board_canvas, centre, 560, tilt, yaw)[0])
        for tilt, yaw in [
            (20, 0),
            (25, 60),
            (30, 120),
            (20, 180),
            (25, 240),
            (30, 300),
            (15, 30),
            (35, 90),
            (20, 150),
        ]
    ]
    views = [v for v in views if v is not None]
    assert len(views) >= 8
    assert coverage(views, SIZE) < 0.5
    with pytest.raises(CalibrationRefused, match=r"cover \d+% of the image, need 50%"):
        calibrate_intrinsics(views, SIZE)


def test_refuses_a_high_reprojection_error(good_views):
    views = [v for v in (detect_board(img) for img, _ in good_views) if v is not None]
    with pytest.raises(CalibrationRefused, match=r"reprojection error .* above 0\.01 px"):
        calibrate_intrinsics(views, SIZE, CalibrationLimits(max_rms_px=0.01))


def test_cli_refusal_and_bad_input_are_one_line_exit_2(tmp_path, capsys):
    empty = tmp_path / "nothing"
    empty.mkdir()
    cv2.imwrite(str(empty / "a.png"), np.full((480, 640, 3), 128, np.uint8))
    for argv, message in [
        (["--images", str(empty)], "only 0 usable board view"),
        (["--images", str(tmp_path / "missing")], "not a folder"),
        (["--camera", "webcam"], "unknown camera"),
    ]:
        code = cli_main(["calibrate", "intrinsics", *argv, "--data-dir", str(tmp_path)])
        err = capsys.readouterr().err
        assert code == 2, argv
        assert message in err and err.count("\n") == 1, err
    assert load_intrinsics(tmp_path) is None  # nothing saved on refusal
