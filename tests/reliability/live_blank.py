"""A camera looking at nothing, for loops that must keep running without a table."""

from __future__ import annotations

import time

import numpy as np

from companion.camera import Frame, FrameSource


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
