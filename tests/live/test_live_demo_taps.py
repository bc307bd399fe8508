"""The live loop plays a `sim` film's taps once each, in order, at their film time, however
late or out of step its frames come: a loaded machine skips frames, a frame of the previous
game's film is still in flight when "New game" restarts the camera, and the camera's thread
and the perception thread both ask for the new film at once (issue 30: a Queen Alice demo
that sometimes never started)."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from companion.camera import open_source
from companion.config import Settings, load_settings
from companion.live.loop import Runtime
from companion.live.table_game import EventDraft, Observation
from companion.sim.taps import Tap
from tests.live.conftest import PLAIN
from tests.live.example_game import ExampleTableGame

TAPS = (Tap(1.0, None, {"note": "first"}), Tap(2.0, 0, {"note": "second"}))
FILM_END = 3.0


class NoteFilm:
    """A film whose players leave notes at film times 1 and 2 (the same film for every game,
    as one seed gives one film)."""

    taps = TAPS

    def frame(self, t: float) -> tuple[np.ndarray, dict[str, Any]]:
        return np.full((120, 160, 3), 200, np.uint8), {"t": t}


class FilmGame(ExampleTableGame):
    """The example game filmed by a `NoteFilm`; it keeps the frame times its tracker saw and
    the film time each note was tapped at."""

    def __init__(self, session) -> None:
        super().__init__(session)
        self.seen: list[float] = []
        self.tapped: list[tuple[str, float]] = []

    def sim_scene(self, seed: int) -> NoteFilm:
        return NoteFilm()

    def update(self, observation: Observation, now: float) -> list[EventDraft]:
        self.seen.append(now)
        return super().update(observation, now)

    def correct(self, payload: dict[str, Any], seat: int | None) -> list[EventDraft]:
        if "note" in payload:
            self.tapped.append((payload["note"], self.seen[-1]))
        return super().correct(payload, seat)


def fast_sim(settings: Settings) -> Settings:
    """The `sim` camera at a tenth of a film second a frame, 40 frames a second."""
    return load_settings(
        None,
        {
            "data_dir": str(settings.data_dir),
            "game": PLAIN,
            "camera.fps": 40,
            "camera.sim_pace": 4,
        },
        environ={},
    )


def test_a_frame_of_the_old_film_in_flight_at_new_game_reaches_nothing_of_the_new_game(
    settings,
):
    settings = fast_sim(settings)
    rt = Runtime(settings, table_game_factory=lambda s, session: FilmGame(session))
    rt.use_registrar()
    old_film = open_source("sim", settings.camera, scene_factory=rt.sim_scene)
    old_film.open()
    frame = old_film.read()
    while frame.timestamp < 2.5:  # the first game plays its film, notes and all
        rt.process(frame)
        frame = old_film.read()
    assert [note for note, _ in rt.game.tapped] == ["first", "second"]

    rt.start_session(PLAIN, seats=["Ann", "Bob"])
    rt.process(frame)  # read by the old camera just before "New game" restarted it
    assert rt.game.seen == [] and rt.game.tapped == []

    # The new film from its start, as a loaded machine reads it: every third frame only.
    new_film = open_source("sim", settings.camera, scene_factory=rt.sim_scene)
    new_film.open()
    frame = new_film.read()
    while frame.timestamp <= FILM_END:
        if frame.index % 3 == 0:
            rt.process(frame)
        frame = new_film.read()
    assert rt.game.seen[0] == 0.0 and rt.game.seen == sorted(rt.game.seen)
    assert [note for note, _ in rt.game.tapped] == ["first", "second"]
    assert all(t >= tap.t for (_, t), tap in zip(rt.game.tapped, TAPS, strict=True))
    notes = [e.payload["text"] for e in rt.store.events(rt.session.id) if e.kind == "note"]
    assert notes == ["first", "second"]


def test_the_new_film_is_built_once_when_the_camera_and_the_players_ask_for_it_at_once(
    settings,
):
    """The camera's thread opens the new film while the perception thread wants its taps;
    built twice, the players were rebuilt for the copy the camera did not film and played
    every tap again from the start."""
    asked, release = threading.Event(), threading.Event()
    built: list[str] = []

    class SlowFilmGame(FilmGame):
        def sim_scene(self, seed: int) -> NoteFilm:
            built.append(threading.current_thread().name)
            asked.set()
            release.wait(10)  # a whole film takes seconds to build on a loaded machine
            return NoteFilm()

    rt = Runtime(settings, table_game_factory=lambda s, session: SlowFilmGame(session))
    films: list[Any] = []
    camera = threading.Thread(target=lambda: films.append(rt.sim_scene()), name="camera")
    players = threading.Thread(target=lambda: films.append(rt.sim_scene()), name="players")
    camera.start()
    assert asked.wait(10)
    players.start()
    players.join(0.5)  # it waits for the camera's film, or (wrongly) builds its own
    release.set()
    camera.join(10)
    players.join(10)
    assert built == ["camera"]
    assert len(films) == 2 and films[0] is films[1] is rt.sim_scene()
