"""The dashboard's files: the shell at `/`, its modules under `/static`, games' panels.

No CDN and no build step: plain HTML, CSS and ES modules shipped in the package.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse

from companion.games import GAMES
from companion.live.table_game import game_part, panel_path
from companion.web.auth import COOKIE

STATIC_DIR = Path(__file__).resolve().parent / "static"

router = APIRouter(tags=["dashboard"])


def panel_for(game_id: str) -> Path | None:
    """A game's panel module, the one its live.py declares: the panel lives in the game's own
    folder (`games/<game>/table/panel.js`), so the dashboard's files name no game."""
    if game_id not in GAMES:
        return None
    live = game_part(game_id, "live")
    declared = panel_path(live) if live is not None else None
    return declared if declared is not None and declared.is_file() else None


def panel_style_of(panel: Path | None) -> Path | None:
    """A panel's own stylesheet, `panel.css` beside its panel.js, if it has one."""
    style = panel.with_suffix(".css") if panel is not None else None
    return style if style is not None and style.is_file() else None


@router.get("/", include_in_schema=False)
def index(request: Request) -> FileResponse:
    """The dashboard; opened from a link with `?token=`, it keeps the token in a cookie."""
    response = FileResponse(STATIC_DIR / "index.html", media_type="text/html")
    response.headers["Cache-Control"] = "no-cache"
    token = request.query_params.get("token")
    if token and len(token) <= 200:
        caller = request.app.state.auth.store.token(token)
        if caller is not None:
            response.set_cookie(COOKIE, token, httponly=True, samesite="lax", max_age=86400 * 30)
    return response


@router.get("/static/games/{game_id}.js", include_in_schema=False)
def game_panel(game_id: str) -> FileResponse:
    path = panel_for(game_id)
    if path is None:
        raise HTTPException(404, f"no dashboard panel for {game_id!r} yet")
    return FileResponse(path, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/static/games/{game_id}.css", include_in_schema=False)
def game_panel_style(game_id: str) -> FileResponse:
    path = panel_style_of(panel_for(game_id))
    if path is None:
        raise HTTPException(404, f"no panel stylesheet for {game_id!r}")
    return FileResponse(path, media_type="text/css", headers={"Cache-Control": "no-cache"})
