"""`create_app(settings, runtime=None)`: the FastAPI app of the live service.

Given a runtime, the app serves it and leaves its start and stop to the caller (tests,
`companion serve`); without one it builds a `Runtime` from the settings and runs it for the
app's lifetime. Games with a `live.router()` get it mounted under `/api/games/<game-id>`;
its endpoints answer 409 while another game is at the table, so no game acts out of turn.

Every request first passes `guard.GuardMiddleware` (Host names, same-origin changes, security
headers); tokens are scrubbed from the access log.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import swagger_ui_bundle
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from companion import __version__
from companion.config import Settings
from companion.games import GAMES
from companion.live.loop import Runtime
from companion.live.table_game import game_part
from companion.web import errors, static_files
from companion.web.auth import Auth
from companion.web.guard import GuardMiddleware, HostPolicy
from companion.web.routes import corrections, events, health, session, stream

log = logging.getLogger(__name__)


TOKEN_IN_TEXT = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)


class ScrubTokens(logging.Filter):
    """Access-log lines keep the path but never a token (links carry one as `?token=`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                TOKEN_IN_TEXT.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args
            )
        if isinstance(record.msg, str):
            record.msg = TOKEN_IN_TEXT.sub(r"\1***", record.msg)
        return True


def scrub_access_log() -> None:
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, ScrubTokens) for f in logger.filters):
            logger.addFilter(ScrubTokens())


def only_while_playing(gid: str) -> Callable[[Request], None]:
    """A game's endpoints act only while that game is at the table."""

    def check(request: Request) -> None:
        active = request.app.state.runtime.session.game
        if active != gid:
            raise HTTPException(
                409, f"the table is playing {active}, not {gid}: start a {gid} game first"
            )

    return check


def _game_routers(app: FastAPI) -> None:
    for gid in GAMES:
        live = game_part(gid, "live")
        make_router = getattr(live, "router", None) if live is not None else None
        if make_router is None:
            continue
        router = make_router()
        if router is not None:
            app.include_router(
                router,
                prefix=f"/api/games/{gid}",
                tags=[f"game {gid}"],
                dependencies=[Depends(only_while_playing(gid))],
                responses=errors.ERROR_RESPONSES,
            )


def _api_docs(app: FastAPI) -> None:
    """Swagger UI from a package's copy of its files: the table's LAN may have no internet,
    and FastAPI's default page loads them from a CDN (a blank page offline)."""
    app.mount(
        "/static/swagger", StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="swagger"
    )

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="companion - API",
            swagger_js_url="/static/swagger/swagger-ui-bundle.js",
            swagger_css_url="/static/swagger/swagger-ui.css",
            swagger_favicon_url="/static/swagger/favicon-32x32.png",
        )


def create_app(settings: Settings, runtime: Runtime | None = None) -> FastAPI:
    owned = runtime is None
    rt = runtime if runtime is not None else Runtime(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if owned and not rt.running:
            rt.start()
        try:
            yield
        finally:
            if owned:
                rt.stop()

    app = FastAPI(
        title="companion",
        version=__version__,
        description="The live service of a camera over a games table: health, the annotated "
        "camera view, sessions, events (SSE), questions and corrections.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.runtime = rt
    app.state.auth = Auth(settings, rt.store)
    errors.install(app)
    app.add_middleware(GuardMiddleware, policy=HostPolicy(settings.web.allowed_hosts))
    scrub_access_log()
    for module in (health, session, events, stream, corrections):
        app.include_router(module.router, responses=errors.ERROR_RESPONSES)
    _game_routers(app)
    app.include_router(static_files.router)
    _api_docs(app)
    app.mount("/static", StaticFiles(directory=static_files.STATIC_DIR), name="static")
    return app
