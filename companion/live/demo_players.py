"""The `sim` scene's scripted players, tapping as phones do.

A simulated film moves the pieces, but the die, the guesses and the look are tapped on
phones; without anyone tapping, the game waits while the film plays on, and the two drift
apart. A scene may therefore carry `taps` (each with `t`, `seat`, `payload`); this plays
them, in order, through the same `correct` path a phone's correction takes. A tap the game
refuses (the camera has not settled on the move it follows yet) is tried again on the next
frames, and dropped, with a log line, once it has been refused for `GIVE_UP_S` film seconds.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from companion.errors import UserError
from companion.games.base import IllegalAction

log = logging.getLogger(__name__)

GIVE_UP_S = 30.0
"""Film seconds a refused tap is retried: longer than any pause in a scripted turn."""


class TapLike(Protocol):
    t: float
    seat: int | None
    payload: dict[str, Any]


Correct = Callable[[dict[str, Any], "int | None"], Any]


class DemoPlayers:
    """Due taps, played in order; the first refused one waits for the next frame."""

    def __init__(self, taps: Iterable[TapLike]) -> None:
        self._pending: deque[TapLike] = deque(sorted(taps, key=lambda tap: tap.t))
        self.played = 0
        self.dropped = 0

    def step(self, t: float, correct: Correct) -> int:
        """Play every tap due by film time `t`; returns how many the game took."""
        took = 0
        while self._pending and self._pending[0].t <= t:
            tap = self._pending[0]
            try:
                correct(dict(tap.payload), tap.seat)
            except (UserError, IllegalAction) as exc:
                if t - tap.t < GIVE_UP_S:
                    break
                log.info("demo tap %s by seat %s dropped: %s", tap.payload, tap.seat, exc)
                self.dropped += 1
            else:
                log.debug(
                    "demo tap %s by seat %s played at film time %.2f", tap.payload, tap.seat, t
                )
                self.played += 1
                took += 1
            self._pending.popleft()
        return took

    def __len__(self) -> int:
        return len(self._pending)
