"""The real `companion serve` in its own process: health, SSE, MJPEG, Ctrl-C, kill -9."""

from __future__ import annotations

import json
import signal
import time

import cv2
import httpx
import numpy as np

from tests.e2e.e2e_helpers import (
    SMALL_CAMERA,
    example_server_argv,
    free_port,
    run_server,
    serve_argv,
)


def sse_messages(lines, want: int, stop_event: str | None = None) -> list[dict]:
    out, cur = [], {}
    for line in lines:
        if not line:
            if cur:
                out.append(cur)
                if len(out) >= want or (stop_event and cur.get("event") == stop_event):
                    return out
            cur = {}
            continue
        key, _, value = line.partition(": ")
        cur[key] = json.loads(value) if key == "data" else value
    return out


def mjpeg_frames(response: httpx.Response, want: int) -> list[bytes]:
    buf, frames = b"", []
    for chunk in response.iter_bytes():
        buf += chunk
        while b"\r\n\r\n" in buf:
            head, _, rest = buf.partition(b"\r\n\r\n")
            length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
            if len(rest) < length + 2:
                break
            frames.append(rest[:length])
            buf = rest[length + 2 :]
            if len(frames) >= want:
                return frames
    return frames


def test_serve_health_sse_mjpeg_then_kill_resume_and_ctrl_c(tmp_path):
    data, port = tmp_path / "data", free_port()
    # Nobody plays the sim film's taps: the only event is the new session's start.
    quiet = {**SMALL_CAMERA, "COMPANION_CAMERA__SIM_PLAYERS": "false"}
    with (
        run_server(serve_argv(data, port), port, camera=quiet) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        health = http.get("/api/health").json()
        assert health["version"] and health["game"]["id"] == "queen-alice"

        with http.stream("GET", "/api/events") as res:
            assert res.headers["content-type"].startswith("text/event-stream")
            lines = res.iter_lines()
            first = sse_messages(lines, 4)
            assert [m.get("event") for m in first[1:3]] == ["hello", "status"]
            created = http.post(
                "/api/session", json={"game": "queen-alice", "seats": ["Ann", "Bob", "Cy"]}
            )
            assert created.status_code == 201
            later = sse_messages(lines, 20, stop_event="event")
        session_id = created.json()["session"]["id"]
        started = later[-1]
        assert started["event"] == "event"
        assert started["data"]["kind"] == "session.started"
        assert started["id"] == f"{session_id}:1"
        statuses = [m for m in first + later if m.get("event") == "status"]
        assert statuses and all("perception" in m["data"] for m in statuses)

        # 24 frames, 3 s at 8 fps: the demo film moves within that (a still table between
        # its moves gives equal frames: this film is drawn without sensor noise)
        with http.stream("GET", "/api/stream.mjpg") as res:
            frames = mjpeg_frames(res, 24)
        images = [cv2.imdecode(np.frombuffer(f, np.uint8), cv2.IMREAD_COLOR) for f in frames]
        assert len(images) == 24 and all(i is not None and i.shape[1] == 640 for i in images)
        assert len(set(frames)) > 1
        # all four corner markers, at some moment (a demo hand may pass over one)
        deadline = time.monotonic() + 10
        while http.get("/api/health").json()["table"]["markers_seen"] != [0, 1, 2, 3]:
            assert time.monotonic() < deadline, "the corner markers were never all seen"
            time.sleep(0.1)
        history = http.get("/api/history").json()
        server.stop(signal.SIGKILL)  # mid-session, no chance to clean up

    with (
        run_server(serve_argv(data, port), port) as server,
        httpx.Client(base_url=server.base, timeout=10) as http,
    ):
        state = http.get("/api/state").json()
        assert state["session"]["id"] == session_id
        assert state["session"]["seats"] == ["Ann", "Bob", "Cy"]
        assert http.get("/api/history").json()[: len(history)] == history
        code = server.stop(signal.SIGINT, timeout=10)  # Ctrl-C
        out, err = server.output()
    assert code in (0, 130), err
    assert out.startswith(f"companion: serving queen-alice on http://127.0.0.1:{port}/")
    assert "Traceback" not in err


def test_sigkill_loses_no_acknowledged_event(tmp_path):
    data, port = tmp_path / "data", free_port()
    argv = example_server_argv(data, port)
    acknowledged = []
    with run_server(argv, port) as server:
        http = httpx.Client(base_url=server.base, timeout=5)
        http.post("/api/session", json={"game": "example", "seats": ["Ann", "Bob"]})
        for i in range(15):
            seat = i % 2
            res = http.post(f"/api/corrections?seat={seat}", json={"memo": f"m{i}"})
            assert res.status_code == 200
            acknowledged.extend(res.json()["events"])
        before = {s: http.get(f"/api/state?seat={s}").json()["view"] for s in (0, 1)}
        server.stop(signal.SIGKILL)
    with run_server(argv, port) as server:
        http = httpx.Client(base_url=server.base, timeout=5)
        stored = http.get("/api/history?seat=0").json() + http.get("/api/history?seat=1").json()
        for event in acknowledged:
            assert event in stored, event
        after = {s: http.get(f"/api/state?seat={s}").json()["view"] for s in (0, 1)}
        assert after[0]["memos"] == before[0]["memos"] == [f"m{i}" for i in range(0, 15, 2)]
        assert after[1]["memos"] == before[1]["memos"]
        server.stop()
