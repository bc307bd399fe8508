"""Reflecto's own endpoints, mounted under `/api/games/reflecto`.

Reads give a seat its own view (its word, its hint, what its mirrors show); every change
goes through `runtime.correct`, so it is an event in the store before anyone sees it, and
the rules answer (400 for bad input, 409 for what the rules forbid). Each route's body is
the game's typed correction (`messages.py`), passed on unchanged to the table game.
"""

from __future__ import annotations

from fastapi import APIRouter

from companion.games.reflecto.table.messages import (
    EnterGuess,
    EnterSetup,
    RequestHint,
    SwitchSight,
)
from companion.web.game_routes import correction_route, correction_routes, hint_only, view_route


def router() -> APIRouter:
    api = APIRouter()
    view_route(
        api, "The board as this seat may see it: its own screens' letters, never the other's."
    )
    correction_routes(api, EnterSetup, EnterGuess, SwitchSight)
    correction_route(api, "/hint", RequestHint, reply=hint_only)
    return api
