"""Rates and durations over a short sliding window, for /api/health."""

from __future__ import annotations

import statistics
import threading
import time
from collections import deque


class RateMeter:
    """Events per second and durations over a short sliding window, for /api/health."""

    def __init__(self, window_s: float = 3.0, keep: int = 60) -> None:
        self.window_s = window_s
        self._stamps: deque[float] = deque()
        self._durations: deque[float] = deque(maxlen=keep)
        self._lock = threading.Lock()
        self.count = 0

    def add(self, duration_s: float, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            self.count += 1
            self._stamps.append(now)
            self._durations.append(duration_s)
            while self._stamps and now - self._stamps[0] > self.window_s:
                self._stamps.popleft()

    def fps(self) -> float:
        now = time.monotonic()
        with self._lock:
            while self._stamps and now - self._stamps[0] > self.window_s:
                self._stamps.popleft()
            if len(self._stamps) < 2:
                return 0.0
            return (len(self._stamps) - 1) / max(1e-6, self._stamps[-1] - self._stamps[0])

    def median_ms(self) -> float | None:
        with self._lock:
            return 1000 * statistics.median(self._durations) if self._durations else None
