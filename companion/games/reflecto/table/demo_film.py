"""The `sim` camera's Reflecto demo played through the live table without a server: each
frame read by the real perceiver, the film's taps played by the demo's players as the live
loop plays them. For the tests and `benchmarks/reflecto_demo.py`: does the demo reach its
result, with no false event?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.reflecto.rules.state import OVER
from companion.games.reflecto.table.live import ReflectoTable, make_table_game
from companion.games.reflecto.table.messages import parse
from companion.live.film_run import FilmRun
from companion.store import Event, Session

AFTER_END_S = 10.0
"""Film seconds played after the film's last shot: the guess tap's retries."""


@dataclass
class DemoRun:
    game: ReflectoTable
    events: list[Event]
    frames: int
    played: int
    dropped: int


def play_film(film: Any, fps: float = 4.0, settings: Any = None) -> DemoRun:
    """Play `film` (`vision/scene.table_film`) at `fps` film frames a second until the game
    is over or the film (and its guess's retries) has played out. `settings` with a data
    directory keeps the screens' colours learnt from the first frames, as the server does;
    None learns them afresh from frames that show the start."""
    session = Session("demo", "reflecto", {}, ["Ann", "Bob"], 0.0)
    game = make_table_game(settings, session)
    run = FilmRun(game, session, list(film.taps), lambda p, seat: game.correct(parse(p), seat))
    while game.state.phase != OVER and run.frames / fps <= film.duration + AFTER_END_S:
        run.step(film, fps)
    return DemoRun(game, run.events, run.frames, run.players.played, run.players.dropped)
