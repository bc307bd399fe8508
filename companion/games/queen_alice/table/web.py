"""Queen Alice's own endpoints, mounted under `/api/games/queen-alice`.

Reads give a seat its own view (its hand, its choices when it is to move); every change goes
through `runtime.correct`, so it is an event in the store before anyone sees it, and the
engine answers (400 for bad input, 409 for what the rules forbid). Each route's body is the
game's typed correction (`messages.py`), passed on unchanged to the table game.
"""

from __future__ import annotations

from fastapi import APIRouter

from companion.games.queen_alice.table.live import train_catalogue
from companion.games.queen_alice.table.messages import (
    Choose,
    DiscardCard,
    Drew,
    PlayCard,
    Revealed,
    ScoreNow,
    SetUp,
    TrainChosen,
    TrainDealt,
)
from companion.web.game_routes import correction_routes, view_route


def router() -> APIRouter:
    api = APIRouter()
    view_route(
        api,
        "The chessboard and the players as this seat may see them: its own "
        "hand, and its choices when it is to move.",
    )
    correction_routes(
        api, SetUp, TrainDealt, TrainChosen, Drew, Revealed, DiscardCard, PlayCard, Choose, ScoreNow
    )
    api.get(
        "/train-cards",
        description="Every Train card of the box, each side in words, for a player to find "
        "the two dealt to them (the box's list, the same for everyone: no seat's cards).",
    )(train_catalogue)
    return api
