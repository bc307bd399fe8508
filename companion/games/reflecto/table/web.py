"""Reflecto's own endpoints, mounted under `/api/games/reflecto`.

Reads give a seat its own view (its word, its hint, what its mirrors show); every change
goes through `runtime.correct`, so it is an event in the store before anyone sees it, and
the rules answer (400 for bad input, 409 for what the rules forbid).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from companion.web.game_routes import correction_route, view_route


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SetupIn(_Body):
    """This seat's secret word on its first-row screens, and its mirrors."""

    word: str = Field(min_length=1, max_length=40)
    columns: list[int] = Field(min_length=1, max_length=20)
    """First-row column of each letter screen, in word order."""
    mirrors: list[int] = Field(default_factory=list, max_length=20)
    chunks: list[str] | None = Field(default=None, max_length=20)
    """The letters on each letter screen in word order (default: the rulebook's even split)."""
    hinted: list[int] = Field(default_factory=list, max_length=20)
    blank_last: bool = False


class GuessIn(_Body):
    """Instead of moving: judged against the other word, which is not shown."""

    word: str = Field(min_length=1, max_length=40)


class SightIn(_Body):
    """Young players' switch: show what this seat's mirrors show now."""

    on: bool


def _hint_only(view: dict[str, Any]) -> dict[str, Any]:
    return {"hint": view.get("hint")}


class HintIn(_Body):
    """The fewest own moves to remove every letter in order, for this seat only."""


def router() -> APIRouter:
    api = APIRouter()
    view_route(api, "The board as this seat may see it: its own screens' letters, never the "
                    "other's.")
    correction_route(api, "/setup", SetupIn,
                     as_correction=lambda b: {"setup": b.model_dump(exclude_none=True)})
    correction_route(api, "/guess", GuessIn, as_correction=lambda b: {"guess": b.word})
    correction_route(api, "/hint", HintIn, as_correction=lambda b: {"hint": True},
                     reply=_hint_only)
    correction_route(api, "/sight", SightIn, as_correction=lambda b: {"sight": b.on})
    return api
