"""The annotated camera view: an MJPEG stream and the newest single frame.

The perception thread encodes each annotated frame once; every viewer is sent those same
bytes (one producer, many viewers). A viewer that cannot keep up skips to the newest frame.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response, StreamingResponse

from companion.live.loop import Runtime
from companion.web.deps import RuntimeDep
from companion.web.errors import ErrorOut

router = APIRouter(prefix="/api", tags=["camera"])

BOUNDARY = "frame"
RESEND_AFTER_S = 5.0
"""With no new frame (camera lost), the last one is sent again so proxies keep the stream."""
STALE_AFTER_S = 3.0
"""A still older than this while the camera is not `ok` is refused (503), never shown as
if it were the table now."""
NO_STORE = {"Cache-Control": "no-store, no-cache, must-revalidate", "Pragma": "no-cache"}


async def mjpeg_parts(runtime: Runtime) -> AsyncIterator[bytes]:
    version = 0
    while not runtime.frames.closed:
        version, jpeg = await runtime.frames.wait_async(version, RESEND_AFTER_S)
        if jpeg is None:
            continue
        head = (
            f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n"
        ).encode()
        yield head + jpeg + b"\r\n"


@router.get(
    "/stream.mjpg",
    response_class=StreamingResponse,
    responses={200: {"content": {f"multipart/x-mixed-replace; boundary={BOUNDARY}": {}}}},
)
def stream(runtime: RuntimeDep) -> StreamingResponse:
    """multipart/x-mixed-replace of the annotated view, for an `<img>` tag."""
    return StreamingResponse(
        mjpeg_parts(runtime),
        media_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
        headers={**NO_STORE, "X-Accel-Buffering": "no"},
    )


@router.get(
    "/snapshot.jpg",
    response_class=Response,
    responses={
        200: {"content": {"image/jpeg": {}}},
        503: {"model": ErrorOut, "description": "no frame yet, or the camera is lost"},
    },
)
def snapshot(runtime: RuntimeDep) -> Response:
    """The newest annotated frame, for browsers that show only an MJPEG stream's first frame.
    `X-Frame-Age` says how old it is; with the camera lost for `STALE_AFTER_S`, 503."""
    version, jpeg = runtime.frames.get()
    if jpeg is None:
        raise HTTPException(503, "no camera frame yet")
    age = max(0.0, time.time() - runtime.last_frame_at)
    if runtime.camera_state() != "ok" and age > STALE_AFTER_S:
        since = time.strftime("%H:%M:%S", time.localtime(runtime.last_frame_at))
        raise HTTPException(503, f"camera lost since {since}", headers={"Retry-After": "2"})
    headers = {**NO_STORE, "X-Frame": str(version), "X-Frame-Age": f"{age:.1f}"}
    return Response(jpeg, media_type="image/jpeg", headers=headers)
