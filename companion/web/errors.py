"""User mistakes become 4xx with `{"detail": "<one line>"}`, never a 500."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from companion.errors import UserError
from companion.games.base import IllegalAction


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


def install(app: FastAPI) -> None:
    @app.exception_handler(UserError)
    async def _user_error(request: Request, exc: UserError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(IllegalAction)
    async def _illegal(request: Request, exc: IllegalAction) -> JSONResponse:
        return JSONResponse({"detail": str(exc), "rule": exc.rule}, status_code=409)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": describe_validation(exc)}, status_code=422)
