"""A `sim` film played through a table game without a server, as the live loop plays it.

Each frame is read by the game's own perceiver and its drafts become events the game applies;
the film's taps are played by the demo's players through the game's correction path. The
films' tests and benchmarks ask what a demo does end to end (does it reach its result, with
no false event?) without an HTTP server or a camera thread, and this is the one loop they use.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.camera.base import Frame
from companion.live.demo_players import DemoPlayers, TapLike
from companion.store import Event, Session


@dataclass
class FilmRun:
    """The game, its events so far and the frames fed. `correct(payload, seat)` takes a tap's
    payload to the game's corrections (parsed as a phone's body is, where the game wants its
    typed message); `on_event` sees each event once the game has applied it."""

    game: Any
    session: Session
    taps: Iterable[TapLike]
    correct: Callable[[dict[str, Any], int | None], list[Any]]
    on_event: Callable[[Event], None] | None = None
    events: list[Event] = field(default_factory=list)
    frames: int = 0

    def __post_init__(self) -> None:
        self.players = DemoPlayers(self.taps)

    def commit(self, drafts: list[Any]) -> None:
        for draft in drafts:
            payload = json.loads(json.dumps(draft.payload))  # as the store hands it back
            event = Event(
                self.session.id, len(self.events) + 1, 0.0, draft.kind, payload, draft.visibility
            )
            self.events.append(event)
            self.game.apply_event(event)
            if self.on_event is not None:
                self.on_event(event)

    def feed(self, observation: Any, t: float) -> None:
        """One reading at film time `t` (from a frame, or a test's own reader), then the
        taps due by then."""
        self.commit(self.game.update(observation, t))
        self.players.step(t, lambda payload, seat: self.commit(self.correct(payload, seat)))

    def step(self, film: Any, fps: float) -> None:
        """One camera frame at film time `frames / fps`, read by the game's perceiver."""
        t = self.frames / fps
        image, truth = film.frame(t)
        self.feed(self.game.perceive(Frame(image, t, self.frames, truth), None), t)
        self.frames += 1
