"""Frame sources: replay folders and videos, OpenCV capture, picamera2 (faked), sim, specs."""

from __future__ import annotations

import logging
import sys
import time
import types
from typing import ClassVar

import cv2
import numpy as np
import pytest

from companion.camera import CameraError, EndOfStream, open_source
from companion.camera.opencv_source import OpenCVSource
from companion.camera.picamera import Picamera2Source
from companion.config import CameraSettings, TableSettings


def _write_folder(folder, names_values):
    folder.mkdir(exist_ok=True)
    for name, value in names_values:
        cv2.imwrite(str(folder / name), np.full((24, 32, 3), value, np.uint8))


def test_replay_folder_is_read_in_name_order_and_loops(tmp_path):
    _write_folder(tmp_path / "shots", [("b.png", 20), ("c.png", 30), ("a.png", 10)])
    src = open_source("replay:" + str(tmp_path / "shots"), CameraSettings(fps=100, loop=True))
    with src:
        values = [int(src.read().image[0, 0, 0]) for _ in range(7)]
    assert values == [10, 20, 30, 10, 20, 30, 10]


def test_replay_once_ends_with_end_of_stream(tmp_path):
    _write_folder(tmp_path / "s", [("1.png", 1), ("2.png", 2)])
    src = open_source(f"replay:{tmp_path / 's'}", CameraSettings(fps=100, loop=False))
    with src:
        frames = [src.read(), src.read()]
        with pytest.raises(EndOfStream):
            src.read()
    assert [f.index for f in frames] == [0, 1]
    assert frames[1].timestamp > frames[0].timestamp


def test_replay_skips_unreadable_images_with_a_warning(tmp_path, caplog):
    _write_folder(tmp_path / "s", [("1.png", 1), ("3.png", 3)])
    (tmp_path / "s" / "2.jpg").write_bytes(b"not a jpeg at all")
    src = open_source(f"replay:{tmp_path / 's'}", CameraSettings(fps=100, loop=False))
    with caplog.at_level(logging.WARNING), src:
        values = [int(src.read().image[0, 0, 0]) for _ in range(2)]
    assert values == [1, 3]
    assert "2.jpg" in caplog.text


def test_replay_paces_at_fps(tmp_path):
    _write_folder(tmp_path / "s", [("1.png", 1)])
    src = open_source(f"replay:{tmp_path / 's'}", CameraSettings(fps=20))
    with src:
        start = time.monotonic()
        stamps = [src.read().timestamp for _ in range(7)]
    elapsed = time.monotonic() - start
    assert 0.25 <= elapsed < 1.5  # 6 periods of 50 ms, loosely
    assert np.median(np.diff(stamps)) == pytest.approx(0.05, abs=0.02)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "nowhere", "does not exist"),
        (lambda p: (p / "empty").mkdir() or p / "empty", "no images in"),
        (lambda p: (p / "x.txt").write_text("hi") and p / "x.txt", "neither a folder"),
    ],
)
def test_replay_bad_paths_are_one_line_errors(tmp_path, make, message):
    src = open_source(f"replay:{make(tmp_path)}", CameraSettings())
    with pytest.raises(CameraError, match=message) as info:
        src.open()
    assert "\n" not in str(info.value)


def _write_video(path, n=6, size=(64, 48)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, size)
    assert writer.isOpened()
    for i in range(n):
        writer.write(np.full((size[1], size[0], 3), 20 + 30 * i, np.uint8))
    writer.release()


def test_replay_video_file_once_and_looping(tmp_path):
    video = tmp_path / "clip.avi"
    _write_video(video)
    with open_source(f"replay:{video}", CameraSettings(fps=100, loop=False)) as src:
        values = []
        with pytest.raises(EndOfStream):
            while True:
                values.append(int(src.read().image.mean()))
    assert len(values) == 6 and values == sorted(values)
    with open_source(f"replay:{video}", CameraSettings(fps=100, loop=True)) as src:
        looped = [int(src.read().image.mean()) for _ in range(8)]
    assert looped[6] == pytest.approx(values[0], abs=3)


def test_opencv_source_reads_through_videocapture(tmp_path):
    """The same VideoCapture code path as a USB camera, opened on a file."""
    video = tmp_path / "clip.avi"
    _write_video(video, n=4, size=(160, 120))
    src = open_source(f"opencv:{video}", CameraSettings(width=160, height=120, exposure_us=5000))
    assert isinstance(src, OpenCVSource)
    with src:
        frames = [src.read() for _ in range(4)]
        with pytest.raises(CameraError, match="stopped delivering"):
            src.read()
    assert [f.index for f in frames] == [0, 1, 2, 3]
    assert frames[0].image.shape == (120, 160, 3) and frames[0].image.dtype == np.uint8
    assert "opencv:" in src.describe()


def test_opencv_missing_device_is_not_found_or_busy():
    for spec in ("opencv:57", "opencv:/dev/video57"):
        src = open_source(spec, CameraSettings())
        with pytest.raises(CameraError, match=r"^camera opencv:57 not found or busy$"):
            src.open()


@pytest.mark.parametrize("spec", ["webcam", "replay:", "opencv:", "picamera2:0", "sim:3"])
def test_unknown_specs_list_the_valid_forms(spec):
    with pytest.raises(CameraError, match="unknown camera") as info:
        open_source(spec, CameraSettings())
    assert "replay:PATH" in str(info.value) and "opencv:N" in str(info.value)


def test_sim_source_gives_frames_with_ground_truth():
    settings = CameraSettings(width=320, height=240, fps=50)
    with open_source("sim", settings, table=TableSettings()) as src:
        a, b = src.read(), src.read()
    assert a.image.shape == (240, 320, 3)
    assert (a.index, b.index) == (0, 1)
    assert set(a.truth["markers_px"]) == {0, 1, 2, 3}
    assert b.timestamp - a.timestamp == pytest.approx(0.02, abs=0.015)


def test_sim_uses_the_games_scene_when_given():
    class Plain:
        def frame(self, t):
            return np.full((10, 10, 3), 7, np.uint8), {"t": t}

    with open_source("sim", CameraSettings(fps=100), scene_factory=Plain) as src:
        src.read()
        f = src.read()
    assert f.truth == {"t": 0.01} and int(f.image[0, 0, 0]) == 7


# -- picamera2, faked at the hardware edge -----------------------------------------------


class _FakePicamera2:
    instances: ClassVar[list[_FakePicamera2]] = []

    def __init__(self):
        self.started = False
        self.closed = False
        self.config = None
        _FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, lores=None, controls=None, buffer_count=4):
        return {"main": main, "lores": lores, "controls": controls}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def capture_array(self, stream="main"):
        w, h = self.config[stream]["size"]
        if stream == "lores":
            return np.zeros((h * 3 // 2, w), np.uint8)
        img = np.zeros((h, w, 4), np.uint8)  # XRGB8888-like padding, as the Pi gives
        img[..., 0], img[..., 2] = 200, 10  # B, R in memory order
        return img

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    _FakePicamera2.instances.clear()
    module = types.ModuleType("picamera2")
    module.Picamera2 = _FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return _FakePicamera2


def test_picamera2_configures_main_lores_and_fixed_exposure(fake_picamera2):
    settings = CameraSettings(width=640, height=480, fps=8, exposure_us=8000)
    src = open_source("picamera2", settings)
    with src:
        frame = src.read()
        preview = src.preview()
    cam = fake_picamera2.instances[0]
    assert cam.config["main"] == {"size": (640, 480), "format": "RGB888"}
    assert cam.config["lores"]["size"][0] <= 640
    assert cam.config["controls"]["AeEnable"] is False
    assert cam.config["controls"]["ExposureTime"] == 8000
    assert frame.image.shape == (480, 640, 3) and frame.image[0, 0].tolist() == [200, 0, 10]
    assert preview is not None and preview.ndim == 2
    assert cam.closed and not cam.started
    assert "exposure 8000us" in src.describe()


def test_picamera2_auto_exposure_by_default(fake_picamera2):
    with Picamera2Source(CameraSettings()) as src:
        src.read()
    assert "AeEnable" not in fake_picamera2.instances[0].config["controls"]


def test_picamera2_missing_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as on a laptop
    src = open_source("picamera2", CameraSettings())
    with pytest.raises(CameraError, match="sudo apt install python3-picamera2"):
        src.open()


def test_a_missing_usb_camera_is_said_once_without_opencvs_own_warnings():
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "companion", "doctor", "--camera", "opencv:57"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = proc.stdout + proc.stderr
    assert "camera opencv:57 not found or busy" in out
    assert "WARN:" not in out and "cap_v4l" not in out
