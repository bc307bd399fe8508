"""The `sim` camera's Reflecto demo plays itself to the result: its frames read by the real
perceiver, its players' taps (set-ups, then the winning guess) played as phones would, through
the live table, with no breach."""

from __future__ import annotations

import json
from typing import Any

from companion.camera.base import Frame
from companion.config import Settings
from companion.games.reflecto.rules import ENGINE
from companion.games.reflecto.rules.actions import Setup, action_from_json
from companion.games.reflecto.rules.state import OVER
from companion.games.reflecto.table.live import (
    ACTION_KIND,
    BREACH_KIND,
    SETUP_KIND,
    make_table_game,
)
from companion.games.reflecto.vision.scene import DEMO_MOVES, scripted_game, table_film
from companion.live.demo_players import DemoPlayers
from companion.live.table_game import QUESTION_KIND
from companion.store import Event, Session

FILM_FPS = 4.0
"""Film frames a second, as the browser demo reads them (`tests/e2e/demo_page.py`)."""


def test_the_demo_film_carries_legal_taps_that_end_the_game() -> None:
    """Set-ups and the guess replayed through the engine with the film's moves end the game
    with the guesser's win: legal by construction, whatever the seed."""
    seed = Settings().camera.seed
    film = table_film(seed)
    script = scripted_game(seed, max_moves=DEMO_MOVES)
    setups, guess = film.taps[:2], film.taps[2:]
    assert [t.seat for t in setups] == [0, 1] and len(guess) == 1
    assert guess[0].t >= film.duration  # after the last change has rested
    state = ENGINE.new_game(2)
    for tap in setups:
        p = tap.payload
        state = ENGINE.apply(
            state, Setup(tap.seat, tuple(p["chunks"]), tuple(p["columns"]), tuple(p["mirrors"]))
        )
    for action in script.actions:
        state = ENGINE.apply(state, action_from_json(action))
    state = ENGINE.apply(state, action_from_json({"type": "guess", **guess[0].payload}))
    assert state.phase == OVER and state.winner == guess[0].seat


def test_the_sim_demo_plays_through_the_live_table_to_the_result() -> None:
    seed = Settings().camera.seed
    film = table_film(seed)
    session = Session("s1", "reflecto", {}, ["Ann", "Bob"], 0.0)
    game = make_table_game(None, session)
    taps: list[Any] = list(film.taps)
    players = DemoPlayers(taps)
    events: list[Event] = []

    def commit(drafts: list[Any]) -> None:
        for draft in drafts:
            payload = json.loads(json.dumps(draft.payload))
            event = Event(session.id, len(events) + 1, 0.0, draft.kind, payload, draft.visibility)
            events.append(event)
            game.apply_event(event)

    i = 0
    while game.state.phase != OVER and i / FILM_FPS <= film.duration + 10.0:
        t = i / FILM_FPS
        image, truth = film.frame(t)
        commit(game.update(game.perceive(Frame(image, t, i, truth), None), t))
        players.step(t, lambda payload, seat: commit(game.correct(payload, seat)))
        i += 1
    kinds = [e.kind for e in events]
    assert BREACH_KIND not in kinds and QUESTION_KIND not in kinds, kinds
    assert kinds.count(SETUP_KIND) == 2 and players.dropped == 0
    moves = [e.payload["action"] for e in events if e.kind == ACTION_KIND]
    script = scripted_game(seed, max_moves=DEMO_MOVES)
    assert moves[:-1] == script.actions  # every filmed move booked from the camera, in order
    assert moves[-1]["type"] == "guess"
    assert game.state.phase == OVER and game.view(None)["result"].startswith(
        ("Ann wins", "Bob wins")
    )
