"""Reflecto's own endpoints, mounted under `/api/games/reflecto`.

Reads give a seat its own view (its word, its hint, what its mirrors show); every change
goes through `runtime.correct`, so it is an event in the store before anyone sees it, and
the rules answer (400 for bad input, 409 for what the rules forbid).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from companion.web.auth import Caller, require_actor, seat_of_request
from companion.web.deps import RuntimeDep


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SetupIn(_Body):
    word: str = Field(min_length=1, max_length=40)
    columns: list[int] = Field(min_length=1, max_length=20)
    """First-row column of each letter screen, in word order."""
    mirrors: list[int] = Field(default_factory=list, max_length=20)
    chunks: list[str] | None = Field(default=None, max_length=20)
    """The letters on each letter screen in word order (default: the rulebook's even split)."""
    hinted: list[int] = Field(default_factory=list, max_length=20)
    blank_last: bool = False


class GuessIn(_Body):
    word: str = Field(min_length=1, max_length=40)


class SightIn(_Body):
    on: bool


def router() -> APIRouter:
    api = APIRouter()

    @api.get("/view")
    def view(runtime: RuntimeDep, seat: Annotated[int | None, Depends(seat_of_request)]
             ) -> dict[str, Any]:
        """The board as this seat may see it: its own screens' letters, never the other's."""
        return runtime.view(seat)

    @api.post("/setup")
    def setup(body: SetupIn, runtime: RuntimeDep,
              who: Annotated[Caller, Depends(require_actor)]) -> dict[str, Any]:
        """This seat's secret word on its first-row screens, and its mirrors."""
        runtime.correct({"setup": body.model_dump(exclude_none=True)}, who.seat)
        return runtime.view(who.seat)

    @api.post("/guess")
    def guess(body: GuessIn, runtime: RuntimeDep,
              who: Annotated[Caller, Depends(require_actor)]) -> dict[str, Any]:
        """Instead of moving: judged against the other word, which is not shown."""
        runtime.correct({"guess": body.word}, who.seat)
        return runtime.view(who.seat)

    @api.post("/hint")
    def hint(runtime: RuntimeDep, who: Annotated[Caller, Depends(require_actor)]
             ) -> dict[str, Any]:
        """The fewest own moves to remove every letter in order, for this seat only."""
        runtime.correct({"hint": True}, who.seat)
        return {"hint": runtime.view(who.seat).get("hint")}

    @api.post("/sight")
    def sight(body: SightIn, runtime: RuntimeDep,
              who: Annotated[Caller, Depends(require_actor)]) -> dict[str, Any]:
        """Young players' switch: show what this seat's mirrors show now."""
        runtime.correct({"sight": body.on}, who.seat)
        return runtime.view(who.seat)

    return api
