"""Benchmark of the live service: the store's commit cost, the loop's speed, event latency.

Measures:
- the time to commit one event with `synchronous=FULL` (what the store uses) against
  `NORMAL`, so the durability choice has a price on record;
- the live loop on the sim camera at the default 1280×960: camera fps, perception fps and
  median perception ms (registration, the demo game, overlay and one JPEG encode);
- the latency from a correction posted over HTTP to its SSE message at another client,
  through a real uvicorn server (commit, apply, broadcast, read back from the store).

Run:  .venv/bin/python benchmarks/live_service.py   (--seconds, --commits, --events)
Writes benchmarks/results/live_service.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "live"))  # the example table game

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from example_game import make_table_game  # noqa: E402

from companion.config import load_settings  # noqa: E402
from companion.live.loop import Runtime  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.web.app import create_app  # noqa: E402

RESULT = ROOT / "benchmarks" / "results" / "live_service.json"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def commit_cost(commits: int) -> dict:
    out = {}
    for mode in ("FULL", "NORMAL"):
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(Path(tmp))
            store._conn.execute(f"PRAGMA synchronous={mode}")
            session = store.create_session("reflecto", {}, ["A", "B"])
            times = []
            for i in range(commits):
                t = time.perf_counter()
                store.append(session.id, "bench", {"i": i, "cards": list(range(10))})
                times.append(1000 * (time.perf_counter() - t))
            store.close()
        out[mode] = {
            "median_ms": round(statistics.median(times), 3),
            "p95_ms": round(pct(times, 0.95), 3),
        }
        log(
            f"commit, synchronous={mode}: median {out[mode]['median_ms']} ms, "
            f"p95 {out[mode]['p95_ms']} ms over {commits}"
        )
    return out


def loop_speed(seconds: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(None, {"data_dir": tmp, "game": "reflecto"}, environ={})
        rt = Runtime(settings).start()
        time.sleep(2.0)  # warm up: first frames, the detector, the scene
        start = rt.perception.count
        t0 = time.monotonic()
        time.sleep(seconds)
        frames = rt.perception.count - start
        elapsed = time.monotonic() - t0
        health = rt.health()
        rt.stop()
    result = {
        "camera": f"{settings.camera.width}x{settings.camera.height} sim @{settings.camera.fps:g}",
        "camera_fps": health["camera"]["fps"],
        "perception_fps": round(frames / elapsed, 2),
        "perception_median_ms": health["perception"]["ms"],
        "stages_median_ms": health["perception"]["stages_ms"],
        "markers_seen": health["table"]["markers_seen"],
    }
    log(f"loop: {result}")
    return result


def sse_latency(events: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            None,
            {"data_dir": tmp, "game": "reflecto", "camera.width": 640, "camera.height": 480},
            environ={},
        )
        rt = Runtime(settings, table_game_factory=make_table_game).start()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        base = f"http://127.0.0.1:{sock.getsockname()[1]}"
        server = uvicorn.Server(
            uvicorn.Config(
                create_app(settings, rt),
                log_level="warning",
                lifespan="off",
                timeout_graceful_shutdown=1,
            )
        )
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        received: dict[str, float] = {}
        ready = threading.Event()

        def listen() -> None:
            with httpx.Client(timeout=30) as http, http.stream("GET", f"{base}/api/events") as r:
                for line in r.iter_lines():
                    if line.startswith("event: hello"):
                        ready.set()
                    if line.startswith("data: ") and '"kind":"note"' in line:
                        text = json.loads(line[6:])["payload"]["text"]
                        received[text] = time.perf_counter()
                        if len(received) >= events:
                            return

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        ready.wait(10)
        sent: dict[str, float] = {}
        with httpx.Client(base_url=base, timeout=10) as http:
            for i in range(events):
                sent[f"n{i}"] = time.perf_counter()
                http.post("/api/corrections", json={"note": f"n{i}"}).raise_for_status()
                time.sleep(0.05)
        listener.join(10)
        rt.frames.close()
        rt.changes.close()
        server.should_exit = True
        thread.join(5)
        rt.stop()
    lat = [1000 * (received[k] - sent[k]) for k in sent if k in received]
    result = {
        "events": events,
        "delivered": len(lat),
        "median_ms": round(statistics.median(lat), 1),
        "p95_ms": round(pct(lat, 0.95), 1),
    }
    log(f"correction → SSE: {result}")
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=8.0, help="loop measurement time")
    p.add_argument("--commits", type=int, default=200)
    p.add_argument("--events", type=int, default=30)
    args = p.parse_args()
    results = {
        "command": "python benchmarks/live_service.py " + " ".join(sys.argv[1:]),
        "machine": f"{platform.machine()} python {platform.python_version()} "
        f"sqlite {sqlite3.sqlite_version}",
        "store_commit": commit_cost(args.commits),
        "loop": loop_speed(args.seconds),
        "correction_to_sse": sse_latency(args.events),
    }
    RESULT.parent.mkdir(parents=True, exist_ok=True)
    RESULT.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))
    print(f"reproduce: .venv/bin/python benchmarks/live_service.py; wrote {RESULT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
