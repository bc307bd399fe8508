"""The `sim` camera's Reflecto demo played through the live table without a server: each
frame read by the real perceiver, the film's taps played by the demo's players as the live
loop plays them. For the tests and `benchmarks/reflecto_demo.py`: does the demo reach its
result, with no false event?"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion.camera.base import Frame
from companion.games.reflecto.rules.state import OVER
from companion.games.reflecto.table.live import ReflectoTable, make_table_game
from companion.games.reflecto.table.messages import parse
from companion.live.demo_players import DemoPlayers
from companion.store import Event, Session

AFTER_END_S = 10.0
"""Film seconds played after the film's last shot: the guess tap's retries."""


@dataclass
class DemoRun:
    game: ReflectoTable
    events: list[Event] = field(default_factory=list)
    frames: int = 0
    played: int = 0
    dropped: int = 0


def play_film(film: Any, fps: float = 4.0, settings: Any = None) -> DemoRun:
    """Play `film` (`vision/scene.table_film`) at `fps` film frames a second until the game
    is over or the film (and its guess's retries) has played out. `settings` with a data
    directory keeps the screens' colours learnt from the first frames, as the server does;
    None learns them afresh from frames that show the start."""
    session = Session("demo", "reflecto", {}, ["Ann", "Bob"], 0.0)
    run = DemoRun(make_table_game(settings, session))
    players = DemoPlayers(list(film.taps))

    def commit(drafts: list[Any]) -> None:
        for draft in drafts:
            payload = json.loads(json.dumps(draft.payload))
            event = Event(
                session.id, len(run.events) + 1, 0.0, draft.kind, payload, draft.visibility
            )
            run.events.append(event)
            run.game.apply_event(event)

    while run.game.state.phase != OVER and run.frames / fps <= film.duration + AFTER_END_S:
        t = run.frames / fps
        image, truth = film.frame(t)
        frame = Frame(image, t, run.frames, truth)
        commit(run.game.update(run.game.perceive(frame, None), t))
        players.step(t, lambda payload, seat: commit(run.game.correct(parse(payload), seat)))
        run.frames += 1
    run.played, run.dropped = players.played, players.dropped
    return run
