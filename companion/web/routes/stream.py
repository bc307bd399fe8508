"""The annotated camera view: an MJPEG stream and the newest single frame.

The perception thread encodes each annotated frame once; every viewer is sent those same
bytes (one producer, many viewers). A viewer that cannot keep up skips to the newest frame.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response, StreamingResponse

from companion.live.loop import Runtime
from companion.web.deps import RuntimeDep

router = APIRouter(prefix="/api", tags=["camera"])

BOUNDARY = "frame"
RESEND_AFTER_S = 5.0
"""With no new frame (camera lost), the last one is sent again so proxies keep the stream."""
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
    responses={200: {"content": {"image/jpeg": {}}}, 503: {"description": "no frame yet"}},
)
def snapshot(runtime: RuntimeDep) -> Response:
    """The newest annotated frame, for browsers that show only an MJPEG stream's first frame."""
    version, jpeg = runtime.frames.get()
    if jpeg is None:
        raise HTTPException(503, "no camera frame yet")
    return Response(jpeg, media_type="image/jpeg", headers={**NO_STORE, "X-Frame": str(version)})
