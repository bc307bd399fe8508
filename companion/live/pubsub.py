"""One producer, many viewers, across threads and the web server's event loop.

`Latest` keeps only the newest value with a version number, as in picamera2's
mjpeg_server example: the producer (the perception thread) never waits for a viewer, and
a slow viewer simply skips to the newest value. Viewers wait from a thread (`wait`) or from
a coroutine (`wait_async`) without blocking the event loop or holding a pool thread.

Used twice by the runtime: for the newest annotated JPEG (MJPEG viewers) and for "the
store has new events" (SSE viewers, which then read the events from the store, so a
viewer that was slow never misses one).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Generic, TypeVar

T = TypeVar("T")


class Latest(Generic[T]):
    """The newest value and its version (0: nothing yet); `close()` wakes every waiter."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._version = 0
        self._value: T | None = None
        self._closed = False
        self._async_waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = set()

    @property
    def closed(self) -> bool:
        return self._closed

    def set(self, value: T) -> int:
        with self._cond:
            self._version += 1
            self._value = value
            version = self._version
            self._cond.notify_all()
            waiters, self._async_waiters = self._async_waiters, set()
        for loop, fut in waiters:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_resolve, fut)
        return version

    def get(self) -> tuple[int, T | None]:
        with self._cond:
            return self._version, self._value

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            waiters, self._async_waiters = self._async_waiters, set()
        for loop, fut in waiters:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_resolve, fut)

    def wait(self, after_version: int, timeout: float) -> tuple[int, T | None]:
        """Block until a version newer than `after_version`, a timeout or close."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._version <= after_version and not self._closed:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
            return self._version, self._value

    async def wait_async(self, after_version: int, timeout: float) -> tuple[int, T | None]:
        """As `wait`, from a coroutine: the event loop keeps serving other requests."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._cond:
            if self._version > after_version or self._closed:
                return self._version, self._value
            entry = (loop, fut)
            self._async_waiters.add(entry)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(fut, timeout)
        finally:
            with self._cond:
                self._async_waiters.discard(entry)
        return self.get()


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
