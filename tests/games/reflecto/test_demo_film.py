"""The `sim` camera's Reflecto demo plays itself to the result: its frames read by the real
perceiver, its players' taps (set-ups, then the winning guess) played as phones would, through
the live table, with no breach."""

from __future__ import annotations

from companion.config import Settings
from companion.games.reflecto.rules import ENGINE
from companion.games.reflecto.rules.actions import Setup, action_from_json
from companion.games.reflecto.rules.state import OVER
from companion.games.reflecto.table.demo_film import play_film
from companion.games.reflecto.table.live import (
    ACTION_KIND,
    BREACH_KIND,
    SETUP_KIND,
)
from companion.games.reflecto.vision.scene import DEMO_MOVES, scripted_game, table_film
from companion.live.table_game import QUESTION_KIND

FILM_FPS = 4.0
"""Film frames a second, as the browser demo reads them (`tests/e2e/demo_page.py`)."""


def test_the_demo_film_carries_legal_taps_that_end_the_game() -> None:
    """Set-ups and the guess replayed through the engine with the film's moves end the game
    with the guesser's win: legal by construction."""
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
    run = play_film(table_film(seed), fps=FILM_FPS)
    kinds = [e.kind for e in run.events]
    assert BREACH_KIND not in kinds and QUESTION_KIND not in kinds, kinds
    assert kinds.count(SETUP_KIND) == 2 and run.dropped == 0 and run.played == 3
    moves = [e.payload["action"] for e in run.events if e.kind == ACTION_KIND]
    script = scripted_game(seed, max_moves=DEMO_MOVES)
    assert moves[:-1] == script.actions  # every filmed move booked from the camera, in order
    assert moves[-1]["type"] == "guess"
    assert run.game.state.phase == OVER and run.game.view(None)["result"].startswith(
        ("Ann wins", "Bob wins")
    )
