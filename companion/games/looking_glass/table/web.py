"""The Looking Glass's own endpoints, mounted under `/api/games/looking-glass`.

Reads give a seat its own view only (its hand and hint never reach another seat); every change
to the game goes through `runtime.correct`, so it is an event in the store before anyone sees it.
Each change's body is the game's typed correction (`messages.py`), passed on unchanged.

`/teach/...` teaches the deck with the live camera (teach_live.py). Teaching sets the table up
for every game to come, so, like starting a game, it needs the admin link (or loopback); it
changes the card library, not a game, so it is no event of the session.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Annotated, Any

import numpy as np
from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from companion.games.looking_glass.table.messages import EnterHand, RequestHint
from companion.live.loop import Runtime
from companion.web.auth import Caller, require_admin
from companion.web.deps import RuntimeDep
from companion.web.game_routes import correction_route, view_route

FRAME_WAIT_S = 3.0
"""How long Capture waits for a camera frame taken after the tap."""

AdminDep = Annotated[Caller, Depends(require_admin)]
THUMB_MAX_AGE_S = 600
"""How long a phone may keep a card's picture: a deck taught again shows within minutes,
while 8 phones redrawing the glass do not ask the Pi for 20 pictures each time."""


class TeachStart(BaseModel):
    model_config = ConfigDict(extra="forbid")
    brawlers: bool
    """Teach the Lion and the Unicorn too (12 cards instead of 10); no default, so an empty
    or mistyped request starts nothing."""


class TeachCard(BaseModel):
    model_config = ConfigDict(extra="forbid")
    card: str | None = Field(None, min_length=1, max_length=64)
    """The card shown; default the next one still to teach."""


def camera_frame(runtime: Runtime) -> np.ndarray:
    """A raw frame the camera took after this call (not the annotated view the dashboard
    shows: its outlines would be learnt as card art)."""
    frame = runtime.next_frame(FRAME_WAIT_S)
    if frame is None:
        raise HTTPException(
            503,
            f"no picture from the camera ({runtime.camera_state()}): "
            "check it on the dashboard and try again",
        )
    image: np.ndarray = frame.image
    return image


def table_library(runtime: Runtime) -> Any:
    """The library the table game reads with: the `sim` camera's own deck when the game has
    one, else the deck taught on this table; None before either exists."""
    from companion.errors import UserError
    from companion.games.looking_glass.vision.library import Library, default_library_path

    # The sim deck is the game's (built with its scene), read here so the pictures are of
    # the very cards the camera's film shows.
    sim = getattr(runtime.game, "sim_library", None)
    if sim is not None:
        return sim
    try:
        return Library.load(default_library_path(runtime.settings.data_dir))
    except UserError:
        return None


def thumbnail_png(library: Any, card: str) -> bytes | None:
    """A card's taught upper half as a PNG, or None for a card the library does not hold."""
    import cv2

    if library is None or card not in library.ids:
        return None
    ok, png = cv2.imencode(".png", library.patches[library.ids.index(card)])
    return png.tobytes() if ok else None


def router() -> APIRouter:
    from companion.games.looking_glass.rules.deck import load_deck
    from companion.games.looking_glass.table.teach_live import (
        NotNow,
        TeachSession,
        idle_status,
        refusal,
    )
    from companion.games.looking_glass.vision.library import default_library_path
    from companion.games.looking_glass.vision.teach import TeachError

    api = APIRouter()
    teaching: dict[str, TeachSession] = {}
    """The app's one teach session (the table has one deck), under `guard`."""
    guard = threading.Lock()

    def session_or_409() -> TeachSession:
        with guard:
            found = teaching.get("now")
        if found is None:
            raise HTTPException(409, "no teach session: tap Teach my deck first")
        return found

    def answer(step: Callable[[], dict[str, Any]]) -> dict[str, Any] | JSONResponse:
        try:
            return step()
        except TeachError as exc:
            return JSONResponse({"detail": refusal(exc)}, status_code=409)
        except NotNow as exc:
            return JSONResponse({"detail": str(exc)}, status_code=409)

    @api.get("/teach")
    def teach_status() -> dict[str, Any]:
        """Where teaching the deck stands: cards still to show, the shot to confirm, warnings."""
        with guard:
            found = teaching.get("now")
        return found.status() if found is not None else idle_status()

    @api.post("/teach")
    def teach_start(body: TeachStart, runtime: RuntimeDep, who: AdminDep) -> dict[str, Any]:
        """Start (or start again) teaching the deck, card by card, with the live camera."""
        fresh = TeachSession(
            load_deck(), default_library_path(runtime.settings.data_dir), body.brawlers
        )
        with guard:
            teaching["now"] = fresh
        return fresh.status()

    @api.post("/teach/capture", response_model=None)
    def teach_capture(
        body: TeachCard, runtime: RuntimeDep, who: AdminDep
    ) -> dict[str, Any] | JSONResponse:
        """Take the camera's next frame and find the one card in it; 409 with the reason if it
        shows no card or several. The rectified card comes back to be confirmed or retaken."""
        current = session_or_409()

        def step() -> dict[str, Any]:
            cid = current.card_id(body.card)  # an unknown card is refused before the camera
            return current.capture(cid, camera_frame(runtime))

        return answer(step)

    @api.post("/teach/confirm", response_model=None)
    def teach_confirm(body: TeachCard, who: AdminDep) -> dict[str, Any] | JSONResponse:
        """Store the captured card in the library the table reads with (at once, no restart)."""
        current = session_or_409()
        return answer(lambda: current.confirm(body.card))

    @api.post("/teach/retake")
    def teach_retake(who: AdminDep) -> dict[str, Any]:
        """Throw the captured card away (a hand in the way, the wrong card)."""
        return session_or_409().retake()

    @api.get("/cards/{card}.png", response_class=Response)
    def card_picture(card: str, runtime: RuntimeDep) -> Response:
        """The card's upper half as the camera learnt it (what a covered card still shows).
        Public: card art is no secret, and a spectator's glass is drawn from it too."""
        png = thumbnail_png(table_library(runtime), card)
        if png is None:
            raise HTTPException(404, "this card has not been shown to the camera yet")
        return Response(
            png,
            media_type="image/png",
            headers={"Cache-Control": f"public, max-age={THUMB_MAX_AGE_S}"},
        )

    view_route(
        api, "The table as this seat may see it: glass, legal picks, piles, scores, own hand."
    )
    correction_route(api, "/hint", RequestHint, reply=lambda view: {"hint": view.get("my_hint")})
    correction_route(api, "/hand", EnterHand, reply=lambda view: {"hand": view.get("my_hand")})

    return api
