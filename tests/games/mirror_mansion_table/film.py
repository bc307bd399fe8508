"""Replaying a scripted film through the Mirror Mansion table game, as the live loop does:
a reading per frame (4 fps), the film's players tapping through `correct` like phones."""

from __future__ import annotations

from typing import Any

from companion.games.mirror_mansion.table.live import make_table_game
from companion.games.mirror_mansion.table.messages import (
    BoxObservation,
)
from companion.games.mirror_mansion.vision.film_script import Beat, FilmScript
from companion.games.mirror_mansion.vision.scene import BoxState
from companion.live.demo_players import DemoPlayers
from companion.live.film_run import FilmRun
from companion.live.table_game import EventDraft, Observation
from companion.store import Event, Session

FPS = 4.0


def beat_at(script: FilmScript, t: float) -> Beat:
    for beat in script.beats:
        if t < beat.seconds:
            return beat
        t -= beat.seconds
    return script.beats[-1]


def truth_reading(beat: Beat) -> Observation:
    """What a reader that never errs would report: nothing while a piece is being carried
    (blur, a hand in the way), else the pieces, hands or not."""
    if beat.moving:
        return Observation(BoxObservation(box=BoxState(seen=False)), 0.0)
    return Observation(BoxObservation(box=beat.box), 0.95)


class Replay:
    """A table game fed a film, with its events committed as the runtime commits them
    (the films' one loop, `FilmRun`, fed this test's readings instead of frames)."""

    def __init__(self, script: FilmScript, seats: int | None = None) -> None:
        players = seats or script.players
        self.session = Session(
            "film", "mirror-mansion", dict(script.options), [f"p{i}" for i in range(players)], 0.0
        )
        self.game = make_table_game(None, self.session)
        self.film = FilmRun(self.game, self.session, script.taps, self.game.correct)
        self.script = script
        self.commit([EventDraft("session.started", self.session.to_json())])

    @property
    def events(self) -> list[Event]:
        return self.film.events

    @property
    def players(self) -> DemoPlayers:
        return self.film.players

    def commit(self, drafts: list[EventDraft]) -> None:
        self.film.commit(drafts)

    def correct(self, payload: dict[str, Any], seat: int | None) -> None:
        self.commit(self.game.correct(payload, seat))

    def run(self, until: float | None = None, reading=truth_reading) -> Replay:
        end = self.script.duration if until is None else until
        for k in range(int(end * FPS) + 1):
            t = k / FPS
            self.film.feed(reading(beat_at(self.script, t)), t)
        return self

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        return [e.payload for e in self.events if e.kind == kind]
