"""The event log: live over Server-Sent Events, the history, and each event's picture.

SSE viewers wait on the runtime's `changes` signal and then read new events from the
store, so a slow phone never misses an event and a reconnecting EventSource (which sends
`Last-Event-ID: <session>:<seq>`) gets exactly the events it missed. Private events reach
only their seat. Every `STATUS_EVERY_S` a `status` message carries the health.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse, StreamingResponse
from pydantic import BaseModel

from companion.live.loop import Runtime
from companion.web.auth import Caller, CallerDep
from companion.web.deps import RuntimeDep

router = APIRouter(prefix="/api", tags=["events"])

STATUS_EVERY_S = 1.0
RETRY_MS = 2000


class EventOut(BaseModel):
    session: str
    seq: int
    ts: float
    kind: str
    payload: dict[str, Any]
    visibility: str
    """public, or seat:N (only ever sent to seat N)."""
    snapshot: str | None
    """URL of the picture kept with the event."""


def sse(kind: str, data: Any, event_id: str | None = None) -> str:
    lines = [f"event: {kind}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def _parse_last_id(value: str | None) -> tuple[str, int] | None:
    if not value or ":" not in value:
        return None
    session, _, seq = value.rpartition(":")
    try:
        return session, int(seq)
    except ValueError:
        return None


async def event_stream(runtime: Runtime, who: Caller, last_id: str | None) -> AsyncIterator[str]:
    """The messages of one viewer. A seat's stream ends when a new game starts: its token
    belonged to the old game, and seat N of the new game is another player."""
    seat = who.seat
    version, _ = runtime.changes.get()
    session_id = runtime.session.id
    resume = _parse_last_id(last_id)
    if resume is not None and resume[0] == session_id:
        last_seq = resume[1]
    else:
        state = runtime.state(seat)
        last_seq = state["last_seq"]
    yield f"retry: {RETRY_MS}\n\n"
    yield sse("hello", {"session": runtime.session.to_json(), "seat": seat, "last_seq": last_seq})
    for event in runtime.events_for(seat, last_seq):  # missed while disconnected
        yield sse("event", event.to_json(), f"{session_id}:{event.seq}")
        last_seq = event.seq
    next_status = 0.0
    while not runtime.changes.closed:
        now = time.monotonic()
        if now >= next_status:
            yield sse("status", runtime.health())
            next_status = now + STATUS_EVERY_S
        version, changes = await runtime.changes.wait_async(version, next_status - now)
        if changes is None:
            continue
        if changes.session_id != session_id:
            session_id, last_seq = changes.session_id, 0
            yield sse("session", runtime.session.to_json())
            if who.role == "seat":
                return
        for event in runtime.store.events(session_id, last_seq):
            last_seq = event.seq
            if event.visible_to(seat):
                yield sse("event", event.to_json(), f"{session_id}:{event.seq}")


@router.get(
    "/events",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "SSE stream"}},
)
def events(request: Request, runtime: RuntimeDep, who: CallerDep) -> StreamingResponse:
    """Server-Sent Events: `hello`, `event` (with id `<session>:<seq>`), `session`, `status`."""
    last_id = request.headers.get("last-event-id") or request.query_params.get("last_event_id")
    return StreamingResponse(
        event_stream(runtime, who, last_id),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@router.get("/history", response_model=list[EventOut])
def history(
    runtime: RuntimeDep,
    who: CallerDep,
    after: int = Query(0, ge=0),
    limit: int = Query(200, ge=1, le=2000),
) -> list[EventOut]:
    """The current session's events this caller may see, oldest first."""
    return [EventOut(**e.to_json()) for e in runtime.events_for(who.seat, after, limit)]


@router.get(
    "/events/{seq}/snapshot.jpg",
    response_class=FileResponse,
    responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "no picture"}},
)
def event_snapshot(seq: int, runtime: RuntimeDep, who: CallerDep) -> FileResponse:
    event = runtime.store.event(runtime.session.id, seq)
    if event is None or not event.visible_to(who.seat):
        raise HTTPException(404, f"no event {seq} in this session")
    path = runtime.store.snapshot_file(event)
    if path is None or not path.is_file():
        raise HTTPException(404, f"event {seq} kept no picture")
    return FileResponse(path, media_type="image/jpeg")
