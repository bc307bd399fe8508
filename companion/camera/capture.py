"""Capture in its own thread with a one-slot buffer: one producer, many viewers.

As in picamera2's mjpeg_server example, the thread writes the newest frame and notifies a
`Condition`; each viewer waits for a frame newer than the one it has. Old frames are
dropped, so a slow viewer (perception, an MJPEG stream to a phone) never slows the camera.
A failing source is closed and re-opened with exponential backoff while `status()` says so.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections import deque
from collections.abc import Callable

from companion.camera.base import CameraState, CameraStatus, EndOfStream, Frame, FrameSource

log = logging.getLogger(__name__)

FPS_WINDOW_S = 2.0
READER_WAIT_S = 2.0
"""Longest a lock-step source waits for a reader before it reads on (below `stall_after_s`)."""


class CaptureThread:
    """Keeps the newest frame of a source; reconnects with backoff when the source fails.

    `source_factory` builds a fresh, unopened source for every (re)connection, so a
    driver's half-broken handle is never reused.
    """

    def __init__(
        self,
        source_factory: Callable[[], FrameSource],
        *,
        name: str = "camera",
        backoff_initial_s: float = 0.5,
        backoff_max_s: float = 10.0,
        stall_after_s: float = 5.0,
    ) -> None:
        self._factory = source_factory
        self.name = name
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self.stall_after_s = stall_after_s
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._frame: Frame | None = None
        self._count = 0
        self._taken = -1
        """Index of the newest frame a viewer was given (`waits_for_reader` sources)."""
        self._errors = 0
        self._last_error: str | None = None
        self._state: CameraState = "starting"
        self._since = time.monotonic()
        self._source_name = name
        self._stamps: deque[float] = deque()
        self._last_at: float | None = None
        """When the newest frame was published (`time.monotonic()`)."""
        self._thread = threading.Thread(target=self._run, name=f"capture-{name}", daemon=True)

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> CaptureThread:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the thread to end, wake every viewer, and join."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self._set_state("stopped")

    def __enter__(self) -> CaptureThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- viewers ---------------------------------------------------------------------

    def wait_for_frame(self, after_index: int = -1, timeout: float | None = None) -> Frame | None:
        """The newest frame with index > `after_index`, or None on timeout or stop."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                frame = self._frame
                if frame is not None and frame.index > after_index:
                    if frame.index > self._taken:
                        self._taken = frame.index
                        self._cond.notify_all()  # a source that waits for its reader
                    return frame
                if self._stop.is_set() or self._state == "stopped":
                    return None
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return None
                self._cond.wait(remaining)

    def latest(self) -> Frame | None:
        with self._cond:
            return self._frame

    def status(self) -> CameraStatus:
        now = time.monotonic()
        with self._cond:
            while self._stamps and now - self._stamps[0] > FPS_WINDOW_S:
                self._stamps.popleft()
            fps = 0.0
            if len(self._stamps) >= 2:
                fps = (len(self._stamps) - 1) / max(1e-6, self._stamps[-1] - self._stamps[0])
            state, since, last_error = self._state, self._since, self._last_error
            last = self._last_at
            if state == "ok" and last is not None and now - last > self.stall_after_s:
                # A read that hangs cannot be interrupted; say so instead of claiming "ok".
                state, since = "reconnecting", last
                last_error = f"no frame for {now - last:.1f} s"
            return CameraStatus(
                state=state,
                fps=round(fps, 2),
                frames=self._count,
                errors=self._errors,
                last_error=last_error,
                since=since,
                source=self._source_name,
            )

    # -- the producer ------------------------------------------------------------------

    def _set_state(self, state: CameraState) -> None:
        with self._cond:
            if state != self._state:
                self._state = state
                self._since = time.monotonic()
            self._cond.notify_all()

    def _fail(self, exc: BaseException) -> None:
        message = str(exc) or type(exc).__name__
        log.warning("camera %s: %s", self.name, message)
        with self._cond:
            self._errors += 1
            self._last_error = message
        self._set_state("reconnecting")

    def _publish(self, frame: Frame) -> None:
        with self._cond:
            # The thread's own count, so indices keep rising across reconnects.
            self._frame = dataclasses.replace(frame, index=self._count)
            self._count += 1
            # The rate and stalls go by this thread's clock, not the frame's own stamp (the
            # `sim` camera stamps film time, which runs at its pace, not the wall's).
            at = time.monotonic()
            self._last_at = at
            self._stamps.append(at)
            while self._stamps and at - self._stamps[0] > FPS_WINDOW_S:
                self._stamps.popleft()
            if self._state != "ok":
                self._state = "ok"
                self._since = time.monotonic()
            self._cond.notify_all()

    def _wait_until_taken(self) -> None:
        """A source that `waits_for_reader` (a `sim` film in lock-step) reads its next frame
        only once a viewer took this one, or after `READER_WAIT_S` without one (a camera
        nobody reads keeps running)."""
        deadline = time.monotonic() + READER_WAIT_S
        with self._cond:
            while (
                self._taken < self._count - 1
                and not self._stop.is_set()
                and (left := deadline - time.monotonic()) > 0
            ):
                self._cond.wait(left)

    def _run(self) -> None:
        backoff = self.backoff_initial_s
        while not self._stop.is_set():
            source: FrameSource | None = None
            try:
                source = self._factory()
                self._source_name = source.describe()
                source.open()
                lockstep = bool(getattr(source, "waits_for_reader", False))
                while not self._stop.is_set():
                    self._publish(source.read())
                    backoff = self.backoff_initial_s
                    if lockstep:
                        self._wait_until_taken()
            except EndOfStream as exc:
                with self._cond:
                    self._last_error = str(exc)
                self._set_state("stopped")
                return
            except Exception as exc:  # any failure of a camera is retried, never fatal
                self._fail(exc)
            finally:
                if source is not None:
                    try:
                        source.close()
                    except Exception as exc:
                        log.warning("camera %s: close failed: %s", self.name, exc)
            if self._stop.wait(backoff):
                break
            backoff = min(self.backoff_max_s, backoff * 2)
        self._set_state("stopped")
