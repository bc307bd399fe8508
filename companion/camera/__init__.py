"""Frame sources behind one interface, and the capture thread that keeps the newest frame.

from companion.camera import CaptureThread, open_source
capture = CaptureThread(lambda: open_source("sim", settings.camera), name="table").start()
frame = capture.wait_for_frame(after_index=-1, timeout=2.0)
"""

from companion.camera.base import (
    CameraError,
    CameraStatus,
    EndOfStream,
    Frame,
    FrameSource,
    Scene,
)
from companion.camera.capture import CaptureThread
from companion.camera.factory import open_source

__all__ = [
    "CameraError",
    "CameraStatus",
    "CaptureThread",
    "EndOfStream",
    "Frame",
    "FrameSource",
    "Scene",
    "open_source",
]
