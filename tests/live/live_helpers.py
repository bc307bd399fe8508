"""Helpers for the live tests: a camera that fails on purpose, one that sees nothing."""

from __future__ import annotations

import time

import numpy as np

from companion.camera import CameraError, Frame, FrameSource


class FlakySource(FrameSource):
    """The camera edge, faked: wraps a real source and fails after `fail_after` frames on its
    first connection (a USB cable pulled mid-stream); later connections work."""

    connections = 0

    def __init__(self, inner: FrameSource, fail_after: int, state: dict[str, int]) -> None:
        self.inner = inner
        self.fail_after = fail_after
        self.state = state
        self.read_count = 0

    def open(self) -> None:
        self.state["opens"] += 1
        self.inner.open()

    def read(self) -> Frame:
        if self.state["opens"] == 1 and self.read_count >= self.fail_after:
            raise CameraError("camera unplugged (test)")
        self.read_count += 1
        return self.inner.read()

    def close(self) -> None:
        self.inner.close()

    def describe(self) -> str:
        return f"flaky {self.inner.describe()}"


class BlankSource(FrameSource):
    """A camera looking at nothing (lens cap on): no markers, so no table."""

    def __init__(self, fps: float = 30.0) -> None:
        self.period = 1.0 / fps
        self.index = 0

    def open(self) -> None:
        self.index = 0

    def read(self) -> Frame:
        time.sleep(self.period)
        self.index += 1
        return Frame(np.full((120, 160, 3), 40, np.uint8), time.monotonic(), self.index)

    def close(self) -> None:
        pass

    def describe(self) -> str:
        return "blank"
