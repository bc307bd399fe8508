"""Onirim's own endpoints, mounted under `/api/games/onirim`.

Each button of the player's phone posts one typed correction (`messages.py`), which is the
route's body and reaches the game unchanged through `runtime.correct`: an event in the store
before anyone sees it, 400 for a malformed tap, 409 for what the rules refuse.
"""

from __future__ import annotations

from fastapi import APIRouter

from companion.games.onirim.table.messages import (
    Discarded,
    DoorChoice,
    Drew,
    HintRequest,
    Looked,
    NightmareResolved,
    Paired,
    Picked,
    Prophesied,
)
from companion.web.game_routes import correction_route, correction_routes, hint_only, view_route


def router() -> APIRouter:
    api = APIRouter()
    view_route(
        api,
        "The table as this seat may see it: the player's own phone adds the hand, "
        "the deck by kind and the chance of a Nightmare next; the public view "
        "never holds the hand.",
    )
    correction_routes(
        api, Drew, Looked, Prophesied, NightmareResolved, DoorChoice, Picked, Discarded, Paired
    )
    correction_route(api, "/hint", HintRequest, reply=hint_only)
    return api
