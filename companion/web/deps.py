"""Dependencies that routes (the platform's and games') use to reach the live service."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from companion.live.loop import Runtime


def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
