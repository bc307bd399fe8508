"""The event log: live over Server-Sent Events, the history, and each event's picture.

The framing, keep-alive pings and the end of a stream when its phone goes away are
FastAPI's (`EventSourceResponse`); this module says only what a viewer is sent. SSE
viewers wait on the runtime's `changes` signal and then read new events from the
store, so a slow phone never misses an event and a reconnecting EventSource (which sends
`Last-Event-ID: <session>:<seq>`) gets exactly the events it missed. Private events reach
only their seat. Every `STATUS_EVERY_S` a `status` message carries the health.

Every `seq` a viewer sees is its audience's number (`Store.seen_by`): public events and its
own, 1, 2, 3 ... without gaps, so no seat learns when or how often another seat had a
private event. Every number from a client is bounded at the edge (`MAX_SEQ`).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import FileResponse
from fastapi.sse import EventSourceResponse, ServerSentEvent
from pydantic import BaseModel

from companion.live.loop import Runtime
from companion.store import audience_of
from companion.web.auth import Caller, CallerDep
from companion.web.deps import RuntimeDep
from companion.web.errors import ErrorOut, json_error_responses

router = APIRouter(prefix="/api", tags=["events"])

STATUS_EVERY_S = 1.0
RETRY_MS = 2000
MAX_SEQ = 2**63 - 1
"""SQLite's largest integer: a larger number from a client is refused (400/422), not
passed on to overflow in a query."""


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


def parse_last_id(value: str | None) -> tuple[str, int] | None:
    """`<session>:<seq>` as sent back by EventSource; anything else (too long, not a number,
    out of range) is None: the viewer starts from now, as a new one would."""
    if not value or ":" not in value or len(value) > 200:
        return None
    session, _, seq = value.rpartition(":")
    if not seq.isascii() or not seq.isdigit() or len(seq) > 19:
        return None
    number = int(seq)
    return (session, number) if number <= MAX_SEQ else None


async def event_stream(
    runtime: Runtime, who: Caller, last_id: str | None
) -> AsyncIterator[ServerSentEvent]:
    """The messages of one viewer. A seat's stream ends when a new game starts: its token
    belonged to the old game, and seat N of the new game is another player."""
    seat = who.seat
    audience = audience_of(seat)
    version, _ = runtime.changes.get()
    session_id = runtime.session.id
    resume = parse_last_id(last_id)
    if resume is not None and resume[0] == session_id:
        last_seq = resume[1]
    else:
        state = runtime.state(seat)
        last_seq = state["last_seq"]
    yield ServerSentEvent(retry=RETRY_MS)
    yield ServerSentEvent(
        event="hello",
        data={"session": runtime.session.to_json(), "seat": seat, "last_seq": last_seq},
    )
    for event in runtime.events_for(seat, last_seq):  # missed while disconnected
        yield ServerSentEvent(event="event", data=event.to_json(), id=f"{session_id}:{event.seq}")
        last_seq = event.seq
    next_status = 0.0
    while not runtime.changes.closed:
        now = time.monotonic()
        if now >= next_status:
            yield ServerSentEvent(event="status", data=runtime.health())
            next_status = now + STATUS_EVERY_S
        version, changes = await runtime.changes.wait_async(version, next_status - now)
        if changes is None:
            continue
        if changes.session_id != session_id:
            session_id, last_seq = changes.session_id, 0
            yield ServerSentEvent(event="session", data=runtime.session.to_json())
            if who.role == "seat":
                return
        for event in runtime.store.seen_by(session_id, audience, last_seq):
            last_seq = event.seq
            yield ServerSentEvent(
                event="event", data=event.to_json(), id=f"{session_id}:{event.seq}"
            )


@router.get("/events", response_class=EventSourceResponse, responses=json_error_responses())
async def events(
    request: Request, runtime: RuntimeDep, who: CallerDep
) -> AsyncIterator[ServerSentEvent]:
    """Server-Sent Events: `hello`, `event` (with id `<session>:<seq>`), `session`, `status`."""
    last_id = request.headers.get("last-event-id") or request.query_params.get("last_event_id")
    async for message in event_stream(runtime, who, last_id):
        yield message


@router.get("/history", response_model=list[EventOut])
def history(
    runtime: RuntimeDep,
    who: CallerDep,
    after: int = Query(0, ge=0, le=MAX_SEQ),
    limit: int = Query(200, ge=1, le=2000),
) -> list[EventOut]:
    """The current session's events this caller may see, oldest first, numbered in the
    caller's audience (`after` is such a number). Paged in SQL."""
    return [EventOut(**e.to_json()) for e in runtime.events_for(who.seat, after, limit)]


@router.get(
    "/events/{seq}/snapshot.jpg",
    response_class=FileResponse,
    responses={
        200: {"content": {"image/jpeg": {}}},
        404: {"model": ErrorOut, "description": "no picture"},
    },
)
def event_snapshot(
    seq: Annotated[int, Path(ge=1, le=MAX_SEQ)], runtime: RuntimeDep, who: CallerDep
) -> FileResponse:
    """The picture kept with event `seq` (the caller's number for it)."""
    event = runtime.store.seen_one(runtime.session.id, audience_of(who.seat), seq)
    if event is None:
        raise HTTPException(404, f"no event {seq} in this session")
    path = runtime.store.snapshot_file(event)
    if path is None or not path.is_file():
        raise HTTPException(404, f"event {seq} kept no picture (or it was pruned)")
    return FileResponse(path, media_type="image/jpeg")
