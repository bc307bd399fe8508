"""The `sim` film of Queen Alice: its frames and taps, played through the table game as the
live loop plays them, make legal turns with no breach, and it frames the table's markers."""

from __future__ import annotations

import json

from companion.camera.base import Frame
from companion.games.queen_alice.table.film import FRAME_S, ChessboardFilm
from companion.games.queen_alice.table.live import make_table_game
from companion.live.demo_players import DemoPlayers
from companion.store import Event

from .helpers import session


def test_the_film_plays_legal_turns_through_the_table_game() -> None:
    film = ChessboardFilm(seed=11, players=2, size=(1280, 960), turns=6)
    game = make_table_game(None, session())
    players = DemoPlayers(film.taps)
    kinds: list[str] = []

    def commit(drafts: list) -> None:
        for draft in drafts:
            kinds.append(draft.kind)
            game.apply_event(
                Event(
                    "s1",
                    len(kinds),
                    0.0,
                    draft.kind,
                    json.loads(json.dumps(draft.payload)),
                    draft.visibility,
                )
            )

    for i in range(len(film.readings) + 20):
        t = i * FRAME_S
        image, truth = film.frame(t)
        assert image.shape == (960, 1280, 3)
        commit(game.update(game.perceive(Frame(image, t, i, truth), None), t))
        players.step(t, lambda payload, seat: commit(game.correct(payload, seat)))
    assert game.state.turns == 6 and len(players) == 0 and players.dropped == 0
    assert "qa.breach" not in kinds and "question" not in kinds
    assert sum(1 for e in game.log if e["play"]["type"] == "move") >= 3
