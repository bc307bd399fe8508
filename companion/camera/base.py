"""One interface for every camera: a `FrameSource` that yields `Frame`s.

Hardware libraries (picamera2, a V4L2 device) are imported and opened only inside
`open()`, so the package imports on a laptop with no camera stack. `open_source` turns a
spec string (`sim`, `replay:PATH`, `opencv:N`, `picamera2`) into a source; the live
service wraps a source factory in a `CaptureThread` (see `companion.camera.capture`).
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from companion.errors import UserError

if TYPE_CHECKING:
    from types import TracebackType

    from companion.config import CameraSettings, TableSettings

SPEC_FORMS = "sim, replay:PATH, opencv:N, opencv:/dev/videoN, picamera2"


class CameraError(UserError):
    """The camera is absent, busy or stopped delivering: one line the user can act on."""


class EndOfStream(CameraError):
    """A replay that does not loop has shown its last frame: not a fault, nothing to retry."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    """BGR uint8, height × width × 3."""
    timestamp: float
    """`time.monotonic()` seconds when the frame was captured."""
    index: int
    """Counts up from 0 for one source (a CaptureThread keeps counting across reconnects)."""
    truth: dict[str, Any] | None = None
    """Ground truth of a simulated scene; None for real cameras."""


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


def open_source(
    spec: str | None,
    settings: CameraSettings,
    scene_factory: Callable[[], Scene] | None = None,
    table: TableSettings | None = None,
) -> FrameSource:
    """A (not yet opened) source for `spec`; `None` or "" means `settings.source`.

    `scene_factory` gives the `sim` source the active game's scene; without one, the sim
    shows the demo table (corner markers, sliding cards, a passing hand) laid out by
    `table` (default table settings when None).
    """
    spec = (spec or settings.source or "sim").strip()
    kind, _, arg = spec.partition(":")
    if kind == "sim" and not arg:
        from companion.camera.sim import SimSource

        if scene_factory is not None:
            scene = scene_factory()
        else:
            from companion.config import TableSettings
            from companion.sim.demo_table import DemoTableScene

            scene = DemoTableScene(table or TableSettings(), settings.seed,
                                   width=settings.width, height=settings.height)
        return SimSource(scene, settings.fps, settings.sim_pace, settings.sim_lockstep)
    if kind == "replay" and arg:
        from companion.camera.replay import ReplaySource

        return ReplaySource(arg, fps=settings.fps, loop=settings.loop)
    if kind == "opencv" and arg:
        from companion.camera.opencv_source import OpenCVSource, parse_device

        return OpenCVSource(parse_device(arg), settings)
    if kind == "picamera2" and not arg:
        from companion.camera.picamera import Picamera2Source

        return Picamera2Source(settings)
    raise CameraError(f"unknown camera {spec!r} (use one of: {SPEC_FORMS})")


def __getattr__(name: str) -> Any:
    """`CaptureThread` lives in its own module; reachable from here for one import line."""
    if name == "CaptureThread":
        from companion.camera.capture import CaptureThread

        return CaptureThread
    raise AttributeError(name)
