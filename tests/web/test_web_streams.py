"""SSE and MJPEG through a real uvicorn server: per-seat filtering, resume, frames."""

from __future__ import annotations

import json

import cv2
import httpx
import numpy as np

from tests.web.web_helpers import served


class SSEReader:
    """Messages from one streaming response (one line iterator, so nothing is dropped)."""

    def __init__(self, response: httpx.Response) -> None:
        self.lines = response.iter_lines()

    def read(self, want: int, stop_kind: str | None = None) -> list[dict]:
        """Up to `want` messages, or until a message of event type `stop_kind`."""
        return read_sse(self.lines, want, stop_kind)


def read_sse(lines, want: int, stop_kind: str | None) -> list[dict]:
    messages, current = [], {}
    for line in lines:
        if not line:
            if current:
                messages.append(current)
                if len(messages) >= want or (stop_kind and current.get("event") == stop_kind):
                    break
            current = {}
            continue
        field, _, value = line.partition(": ")
        if field == "data":
            current["data"] = json.loads(value)
        elif field in ("event", "id", "retry"):
            current[field] = value
    return messages


def test_sse_sends_new_events_only_to_the_seats_that_may_see_them(make_app):
    app, runtime = make_app(host="0.0.0.0", camera=False)
    admin = runtime.store.admin_token()[0]
    with served(app, runtime) as base, httpx.Client(base_url=base, timeout=10) as http:
        links = http.post(
            "/api/session",
            json={"game": "plain", "seats": ["Ann", "Bob"]},
            headers={"Authorization": f"Bearer {admin}"},
        ).json()["links"]
        ann, bob = links[0]["token"], links[1]["token"]
        as_ann = {"Authorization": f"Bearer {ann}"}
        as_bob = {"Authorization": f"Bearer {bob}"}
        with (
            http.stream("GET", "/api/events", headers=as_bob) as bob_res,
            http.stream("GET", "/api/events", headers=as_ann) as ann_res,
        ):
            bob_stream, ann_stream = SSEReader(bob_res), SSEReader(ann_res)
            hello = bob_stream.read(2)  # retry, then hello
            assert hello[-1]["event"] == "hello" and hello[-1]["data"]["seat"] == 1
            ann_stream.read(2)
            http.post("/api/corrections", json={"memo": "secret"}, headers=as_ann)
            http.post("/api/corrections", json={"note": "public"}, headers=as_bob)
            got_ann = [m for m in ann_stream.read(8, "event") if m.get("event") == "event"]
            got_ann += [m for m in ann_stream.read(8, "event") if m.get("event") == "event"]
            got_bob = [m for m in bob_stream.read(8, "event") if m.get("event") == "event"]
        assert [m["data"]["kind"] for m in got_ann] == ["memo", "note"]
        assert got_ann[0]["data"]["visibility"] == "seat:0"
        assert [m["data"]["kind"] for m in got_bob] == ["note"]  # never Ann's memo
        session = runtime.session.id
        # each seat counts only what it sees: Ann's memo leaves no gap in Bob's numbers
        assert got_ann[1]["id"] == f"{session}:3" and got_bob[0]["id"] == f"{session}:2"

        # A reconnecting EventSource sends Last-Event-ID and gets what it missed, in order.
        http.post(
            "/api/corrections",
            json={"note": "while away"},
            headers={"Authorization": f"Bearer {admin}"},
        )
        with http.stream(
            "GET", "/api/events", headers={**as_bob, "Last-Event-ID": f"{session}:1"}
        ) as again:
            reader = SSEReader(again)
            missed = [m for m in reader.read(4) if m.get("event") == "event"]
        assert [m["data"]["payload"]["text"] for m in missed] == ["public", "while away"]


def test_sse_status_and_session_messages(make_app):
    app, runtime = make_app()
    with served(app, runtime) as base, httpx.Client(base_url=base, timeout=10) as http:
        with http.stream("GET", "/api/events") as res:
            stream = SSEReader(res)
            first = stream.read(3)
            status = next(m for m in first if m.get("event") == "status")
            assert status["data"]["camera"]["state"] in ("starting", "ok")
            assert status["data"]["game"]["session"] == runtime.session.id
            assert "id" not in status  # only stored events carry ids
            http.post("/api/session", json={"game": "queen-alice", "seats": ["Alice", "Bob"]})
            later = stream.read(10, "event")
        kinds = [m.get("event") for m in later]
        assert "session" in kinds
        assert later[-1]["data"]["kind"] == "session.started"
        assert later[-1]["data"]["payload"]["game"] == "queen-alice"


def test_mjpeg_stream_delivers_changing_jpeg_frames(make_app):
    app, runtime = make_app()
    with (
        served(app, runtime) as base,
        httpx.Client(base_url=base, timeout=10) as http,
        http.stream("GET", "/api/stream.mjpg") as res,
    ):
        assert res.headers["content-type"] == "multipart/x-mixed-replace; boundary=frame"
        buf, frames = b"", []
        for chunk in res.iter_bytes():
            buf += chunk
            while len(frames) < 3 and b"\r\n\r\n" in buf:
                head, _, rest = buf.partition(b"\r\n\r\n")
                assert head.startswith(b"--frame") and b"image/jpeg" in head
                length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                if len(rest) < length + 2:
                    break
                frames.append(rest[:length])
                buf = rest[length + 2 :]
            if len(frames) >= 3:
                break
    images = [cv2.imdecode(np.frombuffer(f, np.uint8), cv2.IMREAD_COLOR) for f in frames]
    assert all(img is not None and img.shape[:2] == (360, 480) for img in images)
    assert frames[0] != frames[2]  # live: the frames change


def test_a_seat_stream_ends_when_a_new_game_starts(make_app):
    """Seat 0 of the next game is someone else: the old seat link must not hear it."""
    app, runtime = make_app(host="0.0.0.0", camera=False)
    admin = {"Authorization": f"Bearer {runtime.store.admin_token()[0]}"}
    with served(app, runtime) as base, httpx.Client(base_url=base, timeout=10) as http:
        links = http.post(
            "/api/session", json={"game": "plain", "seats": ["Ann", "Bob"]}, headers=admin
        ).json()["links"]
        first = {"Authorization": f"Bearer {links[0]['token']}"}
        with http.stream("GET", "/api/events", headers=first) as res:
            stream = SSEReader(res)
            stream.read(2)
            new = http.post(
                "/api/session", json={"game": "plain", "seats": ["Cy", "Di"]}, headers=admin
            ).json()["links"]
            http.post(
                "/api/corrections",
                json={"memo": "Cy's secret"},
                headers={"Authorization": f"Bearer {new[0]['token']}"},
            )
            rest = stream.read(50)  # returns when the server ends the stream
        kinds = [m.get("event") for m in rest]
        assert "session" in kinds
        assert all(m["data"].get("kind") != "memo" for m in rest if m.get("event") == "event")
        stale = http.get("/api/events", headers=first)
        assert stale.status_code == 401
