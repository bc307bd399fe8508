"""Queen Alice's own endpoints, mounted under `/api/games/queen-alice`.

Reads give a seat its own view (its hand, its choices when it is to move); every change goes
through `runtime.correct`, so it is an event in the store before anyone sees it, and the
engine answers (400 for bad input, 409 for what the rules forbid). Each route's body is the
game's typed correction (`messages.py`), passed on unchanged to the table game.
"""

from __future__ import annotations

from fastapi import APIRouter

from companion.games.queen_alice.table.messages import (
    Choose,
    DiscardCard,
    Drew,
    PlayCard,
    Revealed,
    ScoreNow,
    SetUp,
)
from companion.web.game_routes import correction_routes, view_route


def router() -> APIRouter:
    api = APIRouter()
    view_route(
        api,
        "The chessboard and the players as this seat may see them: its own "
        "hand, and its choices when it is to move.",
    )
    correction_routes(api, SetUp, Drew, Revealed, DiscardCard, PlayCard, Choose, ScoreNow)
    return api
