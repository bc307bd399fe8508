"""Every error the API answers has one shape, `ErrorOut`: `{"detail": "<one line>"}`, plus
`rule` for a move the rules forbid. User mistakes are 4xx, a disk that refuses a write is
503, and none of them is ever a 500 or a traceback."""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.live.loop import StorageUnavailable
from companion.store import DamagedStore, StorageError


class ErrorOut(BaseModel):
    detail: str
    """What went wrong and what to do, in one line."""
    rule: str | None = None
    """For 409 from the rules: the rule the move breaks."""


def _doc(description: str) -> dict[str, Any]:
    return {"model": ErrorOut, "description": description}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _doc("Bad input the game or the service refuses"),
    401: _doc("No token, or an unknown or stale one"),
    403: _doc("The token may not do this, or the request came from another site"),
    404: _doc("No such thing"),
    409: _doc("The rules forbid it now, or another game is running"),
    421: _doc("The server does not answer to this Host name"),
    422: _doc("The request does not match its schema"),
    429: _doc("Too many requests or wrong tokens; see Retry-After"),
    503: _doc("Storage refused the write, or no camera frame"),
}
"""Documented on every route: each status any route can answer with."""


def json_error_responses() -> dict[int | str, dict[str, Any]]:
    """`ERROR_RESPONSES` for a route whose success is not JSON (the SSE stream): FastAPI
    documents a route's error models under the route's own media type, but the errors are
    JSON whatever the route, so these name `ErrorOut` under application/json themselves."""
    ref = {"$ref": "#/components/schemas/ErrorOut"}
    return {
        status: {
            "description": doc["description"],
            "content": {"application/json": {"schema": ref}},
        }
        for status, doc in ERROR_RESPONSES.items()
    }


def _where(loc: tuple[object, ...] | list[object]) -> str:
    parts = [str(p) for p in loc if p != "body"]
    return ".".join(parts)


def describe_validation(exc: RequestValidationError) -> str:
    """The first problem in one line: `body.seats: Input should be a valid list`."""
    errors = exc.errors()
    if not errors:
        return "invalid request"
    err = errors[0]
    if err.get("type") == "json_invalid":
        return "the request body is not valid JSON"
    where = _where(err.get("loc", ()))
    msg = str(err.get("msg", "invalid"))
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {msg}{more}" if where else f"{msg}{more}"


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """Every documented method at `path` (Starlette's 405 names only the first route's)."""
    methods: set[str] = set()
    for template, operations in app.openapi().get("paths", {}).items():
        if re.fullmatch(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)), path):
            methods |= {m.upper() for m in operations}
    return sorted(methods)


def install(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(app, request.url.path))
        return JSONResponse(
            {"detail": str(exc.detail)}, status_code=exc.status_code, headers=headers
        )

    @app.exception_handler(UserError)
    async def _user_error(request: Request, exc: UserError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(IllegalAction)
    async def _illegal(request: Request, exc: IllegalAction) -> JSONResponse:
        return JSONResponse({"detail": str(exc), "rule": exc.rule}, status_code=409)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": describe_validation(exc)}, status_code=422)

    @app.exception_handler(StorageUnavailable)
    async def _storage(request: Request, exc: StorageUnavailable) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "5"})

    @app.exception_handler(StorageError)
    async def _storage_read(request: Request, exc: StorageError) -> JSONResponse:
        return JSONResponse(
            {"detail": f"the table's storage failed: {exc}"},
            status_code=503,
            headers={"Retry-After": "5"},
        )

    @app.exception_handler(DamagedStore)
    async def _damaged(request: Request, exc: DamagedStore) -> JSONResponse:
        return JSONResponse(
            {
                "detail": f"the table's database is damaged ({exc}); restart the "
                "service to set it aside and start afresh"
            },
            status_code=503,
        )
