"""The Looking Glass's own endpoints, mounted under `/api/games/looking-glass`.

Reads give a seat its own view only (its hand and hint never reach another seat); every change
goes through `runtime.correct`, so it is an event in the store before anyone sees it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from companion.web.auth import Caller, require_actor, seat_of_request
from companion.web.deps import RuntimeDep


class HandIn(BaseModel):
    cards: list[str] = Field(min_length=4, max_length=4)


def router() -> APIRouter:
    api = APIRouter()

    @api.get("/view")
    def view(runtime: RuntimeDep, seat: Annotated[int | None, Depends(seat_of_request)]
             ) -> dict[str, Any]:
        """The table as this seat may see it: glass, legal picks, piles, scores, own hand."""
        return runtime.view(seat)

    @api.post("/hint")
    def hint(runtime: RuntimeDep, who: Annotated[Caller, Depends(require_actor)]
             ) -> dict[str, Any]:
        """The engine helper's best pick for this seat, private to it."""
        runtime.correct({"hint": True}, who.seat)
        return {"hint": runtime.view(who.seat).get("my_hint")}

    @api.post("/hand")
    def hand(body: HandIn, runtime: RuntimeDep, who: Annotated[Caller, Depends(require_actor)]
             ) -> dict[str, Any]:
        """Tap in this seat's four hand cards (private until the round's end)."""
        runtime.correct({"hand": body.cards}, who.seat)
        return {"hand": runtime.view(who.seat).get("my_hand")}

    return api
