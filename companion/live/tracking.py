"""What the table games' trackers share.

`StableReadings`: a reading (any value that compares) counts once it has stood unchanged for
a number of frames in a row, and is reported once. A hand over the table, a card half laid
down or a misread frame breaks the run; only what the camera saw the same way several times
becomes a move for the engine to judge.

`Breach`: what the table shows that the rules refuse, as the rule and what was seen, the
shape the dashboard shows it in.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class StableReadings(Generic[T]):
    """The last `frames` readings, and the last stable one reported."""

    def __init__(self, frames: int) -> None:
        self.frames = frames
        self._recent: deque[T | None] = deque(maxlen=frames)
        self.stable: T | None = None

    def update(self, reading: T | None) -> T | None:
        """A new stable reading, once; None while unsettled or unchanged (None: nothing read)."""
        self._recent.append(reading)
        if reading is None or len(self._recent) < self.frames:
            return None
        if any(r != reading for r in self._recent) or reading == self.stable:
            return None
        self.stable = reading
        return reading


@dataclass(frozen=True)
class Breach:
    """A rule the table breaks (the engine's rule name, or the tracker's) and the detail."""

    rule: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "detail": self.detail}
