"""Shared helpers of the Onirim table tests: a live runtime behind the real app, and the
film's tables as a perfect camera would read them."""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from companion.config import load_settings
from companion.games.onirim.table.track import table_of
from companion.games.onirim.vision.film import Script
from companion.games.onirim.vision.layout import load_layout
from companion.live.loop import Runtime
from companion.live.table_game import Observation
from companion.web.app import create_app

API = "/api/games/onirim"
WINDOW = len(load_layout().labyrinth_places)
HANDS = Observation(
    {"located": True, "labyrinth": [None] * 3, "doors": [], "mirrors": [], "discard_top": None}, 0.1
)
"""A frame with a hand over the table: new cards the camera cannot name."""


@contextmanager
def live_table(tmp: Path, options: dict[str, Any]) -> Iterator[tuple[TestClient, Runtime]]:
    """The real app over a real SQLite store, an Onirim session, no camera started."""
    settings = load_settings(
        None,
        {"data_dir": str(tmp / "data"), "game": "onirim", "web.actions_per_s": 1000.0},
        environ={},
    )
    runtime = Runtime(settings)
    runtime.start_session("onirim", options, ["player"])
    try:
        yield TestClient(create_app(settings, runtime)), runtime
    finally:
        runtime.stop()


def seen(state: Any) -> Observation:
    """What a perfect camera reads of the table a state lays out."""
    return Observation(table_of(state, WINDOW).to_json() | {"located": True}, 1.0)


def film_observer(script: Script) -> Any:
    """Frame i of the script's film as a perfect camera reads it (hands: nothing settled)."""
    starts, n = [], 0
    for shot in script.shots:
        starts.append(n)
        n += shot.frames

    def observe(_game: Any, i: int) -> Observation:
        shot = script.shots[bisect.bisect_right(starts, i) - 1]
        return HANDS if shot.hand else seen(shot.table)

    return observe, n
