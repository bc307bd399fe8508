"""Mirror Mansion's own endpoints, mounted under `/api/games/mirror-mansion`.

Reads give a seat its own view (its guess before the reveal, its hint); every change goes
through `runtime.correct`, so it is an event in the store before anyone sees it, and the
game's rules answer (400 for bad input, 409 for a move the rules forbid).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from companion.web.auth import Caller, require_actor, seat_of_request
from companion.web.deps import RuntimeDep


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CardsIn(_Body):
    cards: dict[str, str] = Field(min_length=1, max_length=12)
    """Card position (N0..W2) -> motif, for the eleven motif cards."""


class RollIn(_Body):
    value: int = Field(ge=1, le=20)


class NameIn(_Body):
    motif: str = Field(min_length=1, max_length=40)


class GuessIn(_Body):
    jubilant: bool


class LookIn(_Body):
    pulled: str | None = Field(default=None, max_length=3)


def router() -> APIRouter:
    api = APIRouter()

    @api.get("/view")
    def view(runtime: RuntimeDep, seat: Annotated[int | None, Depends(seat_of_request)]
             ) -> dict[str, Any]:
        """The box as this seat may see it: pieces read, swaps so far, breaches, looks."""
        return runtime.view(seat)

    @api.post("/cards")
    def cards(body: CardsIn, runtime: RuntimeDep,
              who: Annotated[Caller, Depends(require_actor)]) -> dict[str, Any]:
        """The motif on each castle-card position, tapped in once before the first turn."""
        runtime.correct({"cards": body.cards}, who.seat)
        return runtime.view(who.seat)

    @api.post("/roll")
    def roll(body: RollIn, runtime: RuntimeDep,
             who: Annotated[Caller, Depends(require_actor)]) -> dict[str, Any]:
        runtime.correct({"roll": body.value}, who.seat)
        return runtime.view(who.seat)

    @api.post("/name")
    def name(body: NameIn, runtime: RuntimeDep,
             who: Annotated[Caller, Depends(require_actor)]) -> dict[str, Any]:
        """The sought motif named when Victor lands on a question mark."""
        runtime.correct({"name": body.motif}, who.seat)
        return runtime.view(who.seat)

    @api.post("/call-guesses")
    def call_guesses(runtime: RuntimeDep, who: Annotated[Caller, Depends(require_actor)]
                     ) -> dict[str, Any]:
        """"Make your guesses!": the swaps the camera counted are committed to the game."""
        runtime.correct({"call": "guesses"}, who.seat)
        return runtime.view(who.seat)

    @api.post("/guess")
    def guess(body: GuessIn, runtime: RuntimeDep,
              who: Annotated[Caller, Depends(require_actor)]) -> dict[str, Any]:
        """Jubilant or disappointed, private to this seat until everyone has guessed."""
        runtime.correct({"guess": body.jubilant}, who.seat)
        return runtime.view(who.seat)

    @api.post("/look")
    def look(body: LookIn, runtime: RuntimeDep,
             who: Annotated[Caller, Depends(require_actor)]) -> dict[str, Any]:
        runtime.correct({"look": True, "pulled": body.pulled}, who.seat)
        return runtime.view(who.seat)

    @api.post("/hint")
    def hint(runtime: RuntimeDep, who: Annotated[Caller, Depends(require_actor)]
             ) -> dict[str, Any]:
        """The fewest swaps that would show the sought motif, for the active player only."""
        runtime.correct({"hint": True}, who.seat)
        return {"hint": runtime.view(who.seat).get("hint")}

    return api
