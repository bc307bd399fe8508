"""One interface for every camera: a `FrameSource` that yields `Frame`s.

Hardware libraries (picamera2, a V4L2 device) are imported and opened only inside
`open()`, so the package imports on a laptop with no camera stack. This module is the
interface only and imports no source: `companion.camera.factory.open_source` turns a spec
string into a source, and the live service wraps a source factory in a `CaptureThread`
(`companion.camera.capture`).
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from companion.errors import UserError

if TYPE_CHECKING:
    from types import TracebackType


class CameraError(UserError):
    """The camera is absent, busy or stopped delivering: one line the user can act on."""


class EndOfStream(CameraError):
    """A replay that does not loop has shown its last frame: not a fault, nothing to retry."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    """BGR uint8, height × width × 3."""
    timestamp: float
    """Seconds when the frame was captured, on the source's clock: `time.monotonic()` for
    cameras and replays, film time for the `sim` camera. Trackers time stillness by it, so
    only differences between frames of one source mean anything."""
    index: int
    """Counts up from 0 for one source (a CaptureThread keeps counting across reconnects)."""
    truth: dict[str, Any] | None = None
    """Ground truth of a simulated scene; None for real cameras."""
    film: Any = None
    """The simulated scene that filmed it (None: a real camera, or a frame built by hand).
    "New game" films another scene, and a frame of the old one can still be in flight: its
    picture and its film time belong to the old game, not to the new one."""


class FrameSource(abc.ABC):
    """A camera, a folder of photos or a simulated table: open, read frames, close."""

    @abc.abstractmethod
    def open(self) -> None:
        """Acquire the device or files; raises CameraError if that is not possible."""

    @abc.abstractmethod
    def read(self) -> Frame:
        """Block until the next frame; raises CameraError on failure."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release the device. Safe to call twice or without open()."""

    @abc.abstractmethod
    def describe(self) -> str:
        """A short human name, e.g. `opencv:0 1280x960@10fps`."""

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Scene(Protocol):
    """What `SimSource` photographs: an image and its ground truth at time t seconds."""

    def frame(self, t: float) -> tuple[np.ndarray, dict[str, Any]]: ...


CameraState = Literal["starting", "ok", "reconnecting", "stopped"]


@dataclass(frozen=True)
class CameraStatus:
    state: CameraState
    fps: float
    """Frames per second measured over the last ~2 s."""
    frames: int
    """Frames delivered since the thread started."""
    errors: int
    """Failures (open or read) since the thread started."""
    last_error: str | None
    since: float
    """`time.monotonic()` when `state` last changed."""
    source: str
