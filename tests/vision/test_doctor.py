"""`companion doctor` on the sim camera and on replayed photos that are dark, glary or blurred."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main as cli_main
from companion.config import TableSettings
from companion.sim.demo_table import DemoTableScene
from companion.vision.calibration import Intrinsics, save_intrinsics


@pytest.fixture(scope="module")
def good_photo():
    image, truth = DemoTableScene(TableSettings(), seed=1, hands=False).frame(0.0)
    return image, truth


def doctor(tmp_path, capsys, camera, *extra):
    cfg = tmp_path / "fast.toml"
    cfg.write_text("[camera]\nfps = 50\n")
    code = cli_main(
        ["doctor", "--camera", camera, "--config", str(cfg), "--data-dir", str(tmp_path), *extra]
    )
    out = capsys.readouterr().out
    return code, out


def replay_of(tmp_path, image, name="shot"):
    folder = tmp_path / name
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), image)
    return f"replay:{folder}"


def levels(out):
    return {c["name"]: c for c in json.loads(out)["checks"]}


def test_sim_table_passes(tmp_path, capsys):
    code, out = doctor(tmp_path, capsys, "sim", "--json")
    checks = levels(out)
    assert code == 0 and json.loads(out)["ok"] is True
    for name in ("camera", "light", "focus", "markers", "resolution"):
        assert checks[name]["level"] == "OK", checks[name]
    assert "fps" in checks["camera"]["message"]
    assert checks["lens"]["level"] == "WARN"  # never calibrated: said, but not a failure


def test_text_output_is_one_line_per_check(tmp_path, capsys, good_photo):
    code, out = doctor(tmp_path, capsys, replay_of(tmp_path, good_photo[0]))
    lines = out.strip().splitlines()
    assert code == 0
    assert [ln.split()[0] for ln in lines] == ["OK", "OK", "OK", "OK", "OK", "WARN"]
    assert "companion calibrate intrinsics" in lines[-1]


def test_dark_picture_fails_light(tmp_path, capsys, good_photo):
    dark = (good_photo[0].astype(np.float32) * 0.25).astype(np.uint8)
    code, out = doctor(tmp_path, capsys, replay_of(tmp_path, dark))
    assert code == 1
    assert "FAIL  light: too dark" in out and "add light" in out


def test_overexposed_picture_fails_light(tmp_path, capsys, good_photo):
    bright = np.clip(good_photo[0].astype(np.float32) * 2.6, 0, 255).astype(np.uint8)
    code, out = doctor(tmp_path, capsys, replay_of(tmp_path, bright), "--json")
    light = levels(out)["light"]
    assert code == 1 and light["level"] == "FAIL" and "overexposed" in light["message"]
    assert "clipped" in light["message"]


@pytest.mark.parametrize(("sigma", "level"), [(0.0, "OK"), (2.0, "WARN"), (5.0, "FAIL")])
def test_focus_levels(tmp_path, capsys, good_photo, sigma, level):
    image = cv2.GaussianBlur(good_photo[0], (0, 0), sigma) if sigma else good_photo[0]
    code, out = doctor(tmp_path, capsys, replay_of(tmp_path, image), "--json")
    focus = levels(out)["focus"]
    assert focus["level"] == level, focus
    if level == "FAIL":
        assert code == 1 and "focus" in focus["fix"]


def test_covered_markers_are_named(tmp_path, capsys, good_photo):
    image, truth = good_photo[0].copy(), good_photo[1]
    for mid in (0, 3):
        x, y = truth["markers_px"][mid]
        cv2.circle(image, (round(x), round(y)), 50, (60, 90, 140), -1)
    code, out = doctor(tmp_path, capsys, replay_of(tmp_path, image))
    assert code == 1
    assert "FAIL  markers: corner marker(s) 0, 3 not seen" in out


def test_lens_calibration_is_checked_against_the_picture_size(tmp_path, capsys, good_photo):
    K = np.array([[980.0, 0, 640], [0, 980, 480], [0, 0, 1]])
    save_intrinsics(tmp_path, Intrinsics(K, np.zeros(5), 0.41, (1280, 960)))
    _, out = doctor(tmp_path, capsys, replay_of(tmp_path, good_photo[0], "a"), "--json")
    assert levels(out)["lens"]["level"] == "OK" and "0.41 px" in levels(out)["lens"]["message"]
    small = cv2.resize(good_photo[0], (640, 480))
    _, out = doctor(tmp_path, capsys, replay_of(tmp_path, small, "b"), "--json")
    assert levels(out)["lens"]["level"] == "WARN" and "1280x960" in levels(out)["lens"]["message"]


def test_absent_camera_fails_cleanly(tmp_path, capsys):
    code, out = doctor(tmp_path, capsys, "opencv:57")
    assert code == 1
    assert out.strip() == (
        "FAIL  camera: camera opencv:57 not found or busy -> check the cable "
        "and that no other program uses the camera"
    )


def test_unknown_camera_spec_is_a_usage_error(tmp_path, capsys):
    code = cli_main(["doctor", "--camera", "webcam", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "unknown camera 'webcam'" in err and err.count("\n") == 1
