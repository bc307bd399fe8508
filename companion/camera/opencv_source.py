"""A USB camera (or anything cv2.VideoCapture opens) as a frame source."""

from __future__ import annotations

import sys
import time

import cv2

from companion.camera.base import CameraError, Frame, FrameSource
from companion.config import CameraSettings

# OpenCV prints its own "[ WARN:0@…] global cap_v4l.cpp…" lines for a missing device; the
# companion says it once, in CameraError, in the user's words.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


def parse_device(arg: str) -> int | str:
    """`0` or `/dev/video0` to what VideoCapture takes; `/dev/videoN` becomes N."""
    if arg.isdigit():
        return int(arg)
    if arg.startswith("/dev/video") and arg.removeprefix("/dev/video").isdigit():
        return int(arg.removeprefix("/dev/video"))
    return arg  # a path (a video file or a device node by another name)


class OpenCVSource(FrameSource):
    """V4L2 where it exists; fixed exposure when `exposure_us` is set, so glints don't swing it."""

    def __init__(self, device: int | str, settings: CameraSettings) -> None:
        self.device = device
        self.settings = settings
        self._cap: cv2.VideoCapture | None = None
        self._index = 0
        self._size: tuple[int, int] | None = None
        """What the device actually delivers: cameras round to the modes they have."""

    @property
    def spec(self) -> str:
        return f"opencv:{self.device}"

    def open(self) -> None:
        self.close()
        s = self.settings
        if isinstance(self.device, int) and sys.platform.startswith("linux"):
            cap = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        else:
            cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"camera {self.spec} not found or busy")
        if isinstance(self.device, int):
            # Most USB cameras reach 1280×960 at 10+ fps only as MJPG over USB 2.
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, s.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, s.height)
        cap.set(cv2.CAP_PROP_FPS, s.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a queue of old ones
        if s.exposure_us is not None:
            # V4L2: 1 = manual; exposure in units of 100 µs (exposure_time_absolute).
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
            cap.set(cv2.CAP_PROP_EXPOSURE, max(1.0, s.exposure_us / 100.0))
        self._cap = cap
        self._size = (
            int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
            int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)),
        )

    def read(self) -> Frame:
        if self._cap is None:
            raise CameraError(f"camera {self.spec} is not open")
        ok, image = self._cap.read()
        if not ok or image is None:
            raise CameraError(f"camera {self.spec} stopped delivering frames (unplugged?)")
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        frame = Frame(image=image, timestamp=time.monotonic(), index=self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def describe(self) -> str:
        s = self.settings
        w, h = self._size or (s.width, s.height)
        return f"{self.spec} {w}x{h}@{s.fps:g}fps"
