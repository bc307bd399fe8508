"""The camera factory: a spec string (`sim`, `replay:PATH`, `opencv:N`, `picamera2`) to a
(not yet opened) `FrameSource`.

It sits apart from `base.py`, the interface every source imports, so that the interface
imports no source and no simulated scene: each source, and the demo table, is imported
here only when its spec is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.camera.base import CameraError, FrameSource, Scene

if TYPE_CHECKING:
    from companion.config import CameraSettings, TableSettings

SPEC_FORMS = "sim, replay:PATH, opencv:N, opencv:/dev/videoN, picamera2"


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

            scene = DemoTableScene(
                table or TableSettings(),
                settings.seed,
                width=settings.width,
                height=settings.height,
            )
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
