"""The shape every game's router repeats, written once: a seat's view, and a POST whose body
is a correction, sent through `runtime.correct` and answered with the caller's view.

A game's `router()` calls `view_route(api)` and `correction_routes(api, ...)` with its
buttons' bodies (or one `correction_route(...)` for a button whose reply differs); the
handler is built here with a real signature, so FastAPI validates the body, checks the
caller (`require_actor`) and documents the route like any hand-written one.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import Parameter, Signature
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel

from companion.live.table_game import Correction
from companion.web.auth import Caller, require_actor, seat_of_request
from companion.web.deps import RuntimeDep

View = dict[str, Any]
_ACTOR = Annotated[Caller, Depends(require_actor)]


def hint_only(view: View) -> View:
    """The reply to a hint request: the hint alone, which is all the panel asked for."""
    return {"hint": view.get("hint")}


def view_route(api: APIRouter, doc: str) -> None:
    """`GET /view`: the game as the caller's seat may see it (`doc` says what that holds)."""

    def view(runtime: RuntimeDep, seat: Annotated[int | None, Depends(seat_of_request)]) -> View:
        return runtime.view(seat)

    api.get("/view", description=doc)(view)


def correction_route(
    api: APIRouter,
    path: str,
    body: type[BaseModel],
    *,
    as_correction: Callable[[Any], Correction] | None = None,
    reply: Callable[[View], View] | None = None,
) -> None:
    """`POST path` with a `body` model: the correction goes to `runtime.correct` from the
    caller's seat, and the answer is the caller's view (or `reply(view)`).

    `as_correction` turns the body into what the game's `correct` takes; by default the
    body is itself the game's typed correction, passed on unchanged. A body model with no
    fields of its own (only a `kind` with a default) makes a route without a request body.
    """

    def handler(runtime: RuntimeDep, who: _ACTOR, payload: BaseModel | None = None) -> View:
        sent = payload if payload is not None else body()
        runtime.correct(sent if as_correction is None else as_correction(sent), who.seat)
        view = runtime.view(who.seat)
        return view if reply is None else reply(view)

    params = [
        Parameter("runtime", Parameter.KEYWORD_ONLY, annotation=RuntimeDep),
        Parameter("who", Parameter.KEYWORD_ONLY, annotation=_ACTOR),
    ]
    if _takes_input(body):
        params.insert(0, Parameter("payload", Parameter.KEYWORD_ONLY, annotation=body))
    handler.__signature__ = Signature(params, return_annotation=View)  # type: ignore[attr-defined]
    handler.__name__ = path.strip("/").replace("-", "_") or "root"
    api.post(path, description=body.__doc__)(handler)


def correction_routes(api: APIRouter, *bodies: type[BaseModel]) -> None:
    """One `correction_route` per body, each at its `kind`'s path (`call_guesses` ->
    `/call-guesses`), so the path a panel posts to names the correction it sends."""
    for body in bodies:
        kind = str(body.model_fields["kind"].default)
        correction_route(api, "/" + kind.replace("_", "-"), body)


def _takes_input(body: type[BaseModel]) -> bool:
    """Whether the body has a field a caller must or may fill (a `kind` tag does not count)."""
    return any(name != "kind" for name in body.model_fields)
