"""Helpers for the live tests: a camera that fails on purpose, one that sees nothing."""

from __future__ import annotations

from companion.camera import CameraError, Frame, FrameSource
from tests.reliability.live_blank import BlankSource

__all__ = ["BlankSource", "FlakySource"]


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
