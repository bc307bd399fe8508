"""Mirror Mansion's own endpoints, mounted under `/api/games/mirror-mansion`.

Reads give a seat its own view (its guess before the reveal, its hint); every change goes
through `runtime.correct`, so it is an event in the store before anyone sees it, and the
game's rules answer (400 for bad input, 409 for a move the rules forbid). Each route's body
is the game's typed correction (`messages.py`), passed on unchanged to the table game.
"""

from __future__ import annotations

from fastapi import APIRouter

from companion.games.mirror_mansion.table.messages import (
    CallGuesses,
    EnterCards,
    EnterGuess,
    EnterRoll,
    NameMotif,
    RequestHint,
    TakeLook,
)
from companion.web.game_routes import correction_route, correction_routes, hint_only, view_route


def router() -> APIRouter:
    api = APIRouter()
    view_route(api, "The box as this seat may see it: pieces read, swaps so far, breaches, looks.")
    correction_routes(api, EnterCards, EnterRoll, NameMotif, CallGuesses, EnterGuess, TakeLook)
    correction_route(api, "/hint", RequestHint, reply=hint_only)
    return api
