"""Photos or a video file played back as a camera, for demos, tests and debugging."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np

from companion.camera.base import CameraError, EndOfStream, Frame, FrameSource
from companion.camera.sim import Pacer
from companion.errors import UserError

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})


def image_files(folder: Path) -> list[Path]:
    """Images in a folder, sorted by name (so `frame_0001.jpg` comes before `frame_0002.jpg`)."""
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def read_image(path: str | Path) -> np.ndarray:
    """One photo as BGR, or a one-line UserError (CameraError) naming what is wrong with it."""
    from companion.vision.image_file import read_image as read_checked

    try:
        return read_checked(path)
    except CameraError:
        raise
    except UserError as exc:
        raise CameraError(str(exc)) from None


class ReplaySource(FrameSource):
    """A folder of images sorted by name, or a video file, at `fps`, looping or once."""

    def __init__(self, path: str | Path, *, fps: float = 10.0, loop: bool = True) -> None:
        self.path = Path(path)
        self.fps = float(fps)
        self.loop = loop
        self._files: list[Path] = []
        self._video: cv2.VideoCapture | None = None
        self._pos = 0
        self._index = 0
        self._pacer = Pacer(self.fps)

    def open(self) -> None:
        self.close()
        if not self.path.exists():
            raise CameraError(f"replay: {self.path} does not exist")
        self._pos = 0
        self._pacer = Pacer(self.fps)
        if self.path.is_dir():
            self._files = image_files(self.path)
            if not self._files:
                raise CameraError(f"replay: no images in {self.path}")
            return
        video = cv2.VideoCapture(str(self.path))
        if not video.isOpened():
            raise CameraError(f"replay: {self.path} is neither a folder of images nor a video")
        self._video = video

    def _next_image(self) -> np.ndarray:
        if self._video is not None:
            ok, image = self._video.read()
            if not ok and self.loop and self._pos > 0:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                self._pos = 0
                ok, image = self._video.read()
            if not ok:
                raise EndOfStream(f"replay: end of {self.path.name}")
            self._pos += 1
            return image
        if not self._files:
            raise CameraError("replay source is not open")
        for _ in range(len(self._files)):
            if self._pos >= len(self._files):
                if not self.loop:
                    raise EndOfStream(f"replay: end of {self.path}")
                self._pos = 0
            path = self._files[self._pos]
            self._pos += 1
            try:
                return read_image(path)
            except CameraError as exc:
                log.warning("replay: skipping %s: %s", path.name, exc)
        raise CameraError(f"replay: none of the images in {self.path} can be read")

    def read(self) -> Frame:
        image = self._next_image()
        stamp = self._pacer.wait()
        frame = Frame(image=image, timestamp=stamp, index=self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None
        self._files = []

    def describe(self) -> str:
        mode = "loop" if self.loop else "once"
        return f"replay:{self.path} @{self.fps:g}fps {mode}"
