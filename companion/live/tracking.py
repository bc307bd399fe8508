"""What the table games' trackers share.

`StableReadings`: a reading (any value that compares) counts once it has stood unchanged for
a number of frames in a row (and, where asked, a time), and is reported once. A hand over the
table, a card half laid down or a misread frame breaks the run; only what the camera saw the
same way several times becomes a move for the engine to judge.

`Breach`: what the table shows that the rules refuse, as the rule and what was seen, the
shape the dashboard shows it in (the detail naming the players, `live.words`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.live.words import players_words

T = TypeVar("T")


class StableReadings(Generic[T]):
    """The current run of equal readings, when it began, and the last stable one reported.

    `seconds` asks a reading to hold for that much of the film's time as well as for
    `frames` frames: at a fast camera a quarter-second misread fills several frames."""

    def __init__(self, frames: int, seconds: float = 0.0) -> None:
        self.frames, self.seconds = frames, seconds
        self._last: T | None = None
        self._run = 0
        self._since = 0.0
        self.stable: T | None = None

    def steady(self) -> T | None:
        """The last reading if it has stood for `frames` readings, reported or not: what a
        tracker judges while its stable reading is held back (a card it cannot yet name)."""
        if self._last is None or self._run < self.frames:
            return None
        return self._last

    def update(self, reading: T | None, now: float = 0.0) -> T | None:
        """A new stable reading, once; None while unsettled or unchanged (None: nothing read).
        `now` is the frame's time in seconds (only read when `seconds` is set)."""
        if self._run == 0 or reading != self._last:
            self._last, self._run, self._since = reading, 0, now
        self._run += 1
        if reading is None or self._run < self.frames or reading == self.stable:
            return None
        if now - self._since < self.seconds - 1e-6:
            return None
        self.stable = reading
        return reading


@dataclass(frozen=True)
class Breach:
    """A rule the table breaks (the engine's rule name, or the tracker's) and the detail."""

    rule: str
    detail: str

    def to_json(self, seats: Sequence[str]) -> dict[str, Any]:
        """As the players read it: the rule as the engine names it, the detail naming the
        players (`seats`: the session's names) where the engine wrote "seat N"."""
        return {"rule": self.rule, "detail": players_words(self.detail, seats)}
