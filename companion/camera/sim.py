"""The simulated camera: a scene photographed at a steady frame rate, with ground truth."""

from __future__ import annotations

import time

from companion.camera.base import CameraError, Frame, FrameSource, Scene


class Pacer:
    """Sleeps so frames leave at `fps`; a slow frame does not make the next ones rush."""

    def __init__(self, fps: float) -> None:
        self.period = 1.0 / fps
        self._next: float | None = None

    def wait(self) -> float:
        now = time.monotonic()
        if self._next is None or now - self._next > self.period:
            self._next = now  # first frame, or fell behind: restart the clock
        elif self._next > now:
            time.sleep(self._next - now)
        stamp = time.monotonic()
        self._next += self.period
        return stamp


class SimSource(FrameSource):
    """Frame i shows the scene at t = i * pace / fps, so a run is reproducible from its seed.

    A frame is stamped with its film time, as a camera stamps the moment it captured: the
    trackers time stillness by frame time, so a hold lasts as long for them whatever the
    pace or however slowly the machine reads. `pace` is film seconds per real second
    (`camera.sim_pace`): above 1 the demo's holds and pauses pass faster on the wall clock;
    no game is told or changed. Its trackers still see each hold in fewer frames, so the
    pace that works is bounded by how fast perception reads frames (the browser demo tests
    use 2)."""

    def __init__(self, scene: Scene, fps: float, pace: float = 1.0, lockstep: bool = False) -> None:
        self.scene = scene
        self.fps = float(fps)
        self.pace = float(pace)
        self.waits_for_reader = lockstep
        """`camera.sim_lockstep`: the capture thread reads the next frame only once
        perception took this one, so a slow machine plays the film slower, never skipping
        a hold its trackers need to see in several frames."""
        self._pacer = Pacer(self.fps)
        self._index = 0
        self._open = False

    def open(self) -> None:
        self._open = True
        self._pacer = Pacer(self.fps)

    def read(self) -> Frame:
        if not self._open:
            raise CameraError("sim camera is not open")
        film_t = self._index * self.pace / self.fps
        image, truth = self.scene.frame(film_t)
        self._pacer.wait()
        frame = Frame(image, film_t, self._index, truth=truth, film=self.scene)
        self._index += 1
        return frame

    def close(self) -> None:
        self._open = False

    def describe(self) -> str:
        pace = "" if self.pace == 1 else f" x{self.pace:g}"
        step = " lock-step" if self.waits_for_reader else ""
        return f"sim {type(self.scene).__name__} @{self.fps:g}fps{pace}{step}"
