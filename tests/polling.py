"""The one poller the tests wait with: live loops, servers and cameras run on their own threads,
so a test waits for what they publish instead of sleeping a guessed time."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0, every: float = 0.05) -> Any:
    """Poll until `predicate()` is truthy and return its value; fail the test after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(every)
    raise AssertionError(f"condition not met within {timeout} s")
