"""The Raspberry Pi camera through picamera2, imported only when it is opened."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from companion.camera.base import CameraError, Frame, FrameSource
from companion.config import CameraSettings

INSTALL_HINT = (
    "picamera2 is not installed: on Raspberry Pi OS run "
    "`sudo apt install python3-picamera2` (see deploy/install.sh)"
)


class Picamera2Source(FrameSource):
    """Main stream RGB888 at the configured size for perception, a small lores stream for preview.

    picamera2's "RGB888" is laid out B, G, R in memory: exactly OpenCV's BGR.
    """

    def __init__(self, settings: CameraSettings, *, preview_size: tuple[int, int] = (640, 480)):
        self.settings = settings
        self.preview_size = preview_size
        self._cam: Any = None
        self._index = 0

    def open(self) -> None:
        self.close()
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CameraError(INSTALL_HINT) from None
        s = self.settings
        try:
            cam = Picamera2()
        except (RuntimeError, IndexError, OSError) as exc:
            raise CameraError(f"camera picamera2 not found or busy: {exc}") from None
        controls: dict[str, Any] = {"FrameRate": float(s.fps)}
        if s.exposure_us is not None:
            controls.update({"AeEnable": False, "ExposureTime": int(s.exposure_us)})
        lores_w = min(self.preview_size[0], s.width) // 2 * 2
        lores_h = min(self.preview_size[1], s.height) // 2 * 2
        config = cam.create_video_configuration(
            main={"size": (s.width, s.height), "format": "RGB888"},
            lores={"size": (lores_w, lores_h), "format": "YUV420"},
            controls=controls,
            buffer_count=2,
        )
        try:
            cam.configure(config)
            cam.start()
        except Exception as exc:  # the library raises bare RuntimeErrors and more
            cam.close()
            raise CameraError(f"camera picamera2 could not start: {exc}") from None
        self._cam = cam

    def read(self) -> Frame:
        if self._cam is None:
            raise CameraError("camera picamera2 is not open")
        try:
            image = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"camera picamera2 stopped delivering frames: {exc}") from None
        image = np.ascontiguousarray(image[:, :, :3])
        frame = Frame(image=image, timestamp=time.monotonic(), index=self._index)
        self._index += 1
        return frame

    def preview(self) -> np.ndarray | None:
        """The lores stream's luminance plane: a cheap grey preview for the dashboard."""
        if self._cam is None:
            return None
        yuv = self._cam.capture_array("lores")
        return np.ascontiguousarray(yuv[: yuv.shape[0] * 2 // 3])

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
            finally:
                self._cam.close()
                self._cam = None

    def describe(self) -> str:
        s = self.settings
        mode = f" exposure {s.exposure_us}us" if s.exposure_us else ""
        return f"picamera2 {s.width}x{s.height}@{s.fps:g}fps{mode}"
