"""The table game used when the active game has no `live.py` yet: the platform's demo.

It shows that the camera, the markers and the registration work, and records nothing
beyond the session's own events, so a game can be started and resumed before its
perceiver exists.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.errors import UserError
from companion.live.table_game import Correction, EventDraft, Observation, Question, Scene
from companion.store import Event, Session


class DemoTableGame:
    """Registration status and markers; no perception, no events, no questions."""

    def __init__(self, game_id: str, session: Session) -> None:
        self.game_id = game_id
        self.session = session
        self._events = 0

    def sim_scene(self, seed: int) -> Scene | None:
        return None

    def perceive(self, frame: Any, registration: Any) -> Observation:
        ok = bool(getattr(registration, "ok", False))
        seen = sorted(int(m) for m in getattr(registration, "markers_seen", ()) or ())
        return Observation({"table_found": ok, "markers_seen": seen}, 1.0 if ok else 0.2)

    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        return []

    def apply_event(self, event: Event) -> None:
        self._events += 1

    def correct(self, payload: Correction, seat: int | None) -> list[EventDraft]:
        raise UserError(f"{self.game_id} cannot be corrected at the table yet (no live view)")

    def questions(self, seat: int | None) -> list[Question]:
        return []

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "panel": "demo",
            "message": "This game's table view is coming; the camera and markers work already.",
            "events": self._events,
        }

    def annotate(
        self, image: np.ndarray, registration: Any, observation: Observation
    ) -> np.ndarray:
        return image
