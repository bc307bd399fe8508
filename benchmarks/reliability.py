"""Benchmark of the service under full disks, kills, hostile requests, big stores and viewers.

Measures (issue 31):
- full disk: a real 2 MB tmpfs data dir filled to ~200 KB free while a client posts
  corrections: acknowledged corrections lost (0), the answers while full (503), health,
  seconds from freeing space to the first accepted correction, no empty picture left;
- kill -9 at random moments under corrections, N times: acknowledged corrections lost (0)
  and SQLite's integrity_check after each kill;
- schemathesis against the real server: cases run, 5xx (0);
- history at 100k events: p50 of an anonymous page of 50 (target <= 20 ms);
- restart at 100k events: the first start (full replay, keeps a checkpoint) and the next
  (from the checkpoint; target <= 2 s);
- 20 MJPEG + 20 SSE viewers: camera fps loaded over solo (target >= 0.9);
- peak RSS of `companion read` on a real 20000 x 20000 PNG (target <= 400 MB).

Run:  .venv/bin/python benchmarks/reliability.py   (--kills, --events, --seconds; the
full-disk part needs root for its tmpfs and is recorded as skipped otherwise)
Writes benchmarks/results/reliability.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from companion.store import DB_NAME, Draft, Store  # noqa: E402
from tests.e2e.e2e_helpers import (  # noqa: E402
    example_server_argv,
    free_port,
    run_server,
    serve_argv,
)

RESULT = ROOT / "benchmarks" / "results" / "reliability.json"
FAST_ACTIONS = {"COMPANION_WEB__ACTIONS_PER_S": "10000"}
"""The load clients below post as fast as they can; the per-seat limit is not under test."""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Poster:
    """Posts public notes with unique texts as fast as the server answers; keeps the texts
    of the acknowledged ones (200) and counts every answer by status."""

    def __init__(self, base: str, prefix: str, clients: int = 1) -> None:
        self.base, self.prefix = base, prefix
        self.acknowledged: list[str] = []
        self.statuses: dict[int, int] = {}
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self.run, args=(c,), daemon=True) for c in range(clients)
        ]

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def join(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(10)

    def post(self, http: httpx.Client, i: int | str) -> int:
        text = f"{self.prefix}-{i}"
        try:
            res = http.post("/api/corrections", json={"note": text})
        except httpx.HTTPError:
            return 0
        self.statuses[res.status_code] = self.statuses.get(res.status_code, 0) + 1
        if res.status_code == 200:
            self.acknowledged.append(text)
        return res.status_code

    def run(self, client: int = 0) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as http:
            i = 0
            while not self.stop.is_set():
                self.post(http, f"{client}-{i}")
                i += 1


def history_texts(base: str) -> set[str]:
    texts: set[str] = set()
    after = 0
    with httpx.Client(base_url=base, timeout=10) as http:
        while True:
            page = http.get("/api/history", params={"after": after, "limit": 2000}).json()
            if not page:
                return texts
            texts |= {e["payload"].get("text") for e in page if e["kind"] == "note"}
            after = page[-1]["seq"]


def with_env(extra: dict[str, str]) -> Any:
    class Env:
        def __enter__(self) -> None:
            self.old = {k: os.environ.get(k) for k in extra}
            os.environ.update(extra)

        def __exit__(self, *exc: object) -> None:
            for k, v in self.old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    return Env()


# -- full disk ------------------------------------------------------------------------------


def full_disk(corrections: int = 100) -> dict[str, Any]:
    if os.geteuid() != 0:
        return {"skipped": "needs root to mount a 2 MB tmpfs"}
    mount = Path(tempfile.mkdtemp(prefix="rel-tmpfs-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], check=True)
    try:
        data, port = mount / "data", free_port()
        argv = example_server_argv(data, port)
        with with_env(FAST_ACTIONS), run_server(argv, port) as server:
            http = httpx.Client(base_url=server.base, timeout=5)
            time.sleep(2)  # let the table's first events (and pictures) land
            filler = mount / "filler"
            with filler.open("wb") as out:
                try:
                    while shutil.disk_usage(mount).free > 200 * 1024:
                        out.write(b"\0" * 16384)
                        out.flush()
                except OSError:
                    pass
            free_kb = shutil.disk_usage(mount).free // 1024
            poster = Poster(server.base, "disk")
            statuses = [poster.post(http, i) for i in range(corrections)]  # one by one
            health = http.get("/api/health").json()
            filler.unlink()
            freed = time.monotonic()
            i = corrections
            while poster.post(http, i) != 200:
                i += 1
                time.sleep(0.05)
                if time.monotonic() - freed > 60:
                    raise AssertionError("no recovery within 60 s of freeing space")
            recovery_s = time.monotonic() - freed
            health_after = http.get("/api/health").json()["status"]
            server.stop(signal.SIGKILL)
        with with_env(FAST_ACTIONS), run_server(argv, port) as server:
            stored = history_texts(server.base)
            server.stop()
        empty = (
            [
                p.name
                for p in (data / "snapshots").rglob("*")
                if p.is_file() and p.stat().st_size == 0
            ]
            if (data / "snapshots").is_dir()
            else []
        )
        lost = [t for t in poster.acknowledged if t not in stored]
        return {
            "tmpfs_mb": 2,
            "free_kb_when_full": free_kb,
            "corrections_while_full": corrections,
            "answers_while_full": {str(s): statuses.count(s) for s in sorted(set(statuses))},
            "health_while_full": health["status"],
            "health_reason": health["storage"]["reason"],
            "acknowledged": len(poster.acknowledged),
            "acknowledged_lost": len(lost),
            "recovery_s": round(recovery_s, 2),
            "health_after": health_after,
            "empty_pictures": len(empty),
        }
    finally:
        subprocess.run(["umount", str(mount)], check=False)
        mount.rmdir()


# -- kill -9 --------------------------------------------------------------------------------


def kills(n: int, seed: int = 31) -> dict[str, Any]:
    rng = random.Random(seed)
    out = {"kills": n, "acknowledged": 0, "acknowledged_lost": 0, "integrity_ok": 0}
    with tempfile.TemporaryDirectory() as tmp:
        data, port = Path(tmp) / "data", free_port()
        argv = example_server_argv(data, port)
        acknowledged: list[str] = []
        for k in range(n):
            with with_env(FAST_ACTIONS), run_server(argv, port) as server:
                poster = Poster(server.base, f"k{k}", clients=4)
                poster.start()
                # some acknowledged first (however slow the machine), then a random moment
                wanted, deadline = rng.randint(5, 40), time.monotonic() + 60
                while len(poster.acknowledged) < wanted and time.monotonic() < deadline:
                    time.sleep(0.01)
                time.sleep(rng.uniform(0.0, 0.5))
                server.proc.kill()  # kill -9 while corrections are in flight
                server.proc.wait()
                poster.join()
                acknowledged += poster.acknowledged
            conn = sqlite3.connect(data / DB_NAME)
            out["integrity_ok"] += conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            conn.close()
            log(f"  kill {k + 1}/{n}: {len(poster.acknowledged)} acknowledged")
        with with_env(FAST_ACTIONS), run_server(argv, port) as server:
            stored = history_texts(server.base)
            server.stop()
    out["acknowledged"] = len(acknowledged)
    out["acknowledged_lost"] = sum(t not in stored for t in acknowledged)
    return out


# -- schemathesis ---------------------------------------------------------------------------


def schemathesis(max_time: int) -> dict[str, Any]:
    from tests.reliability.test_schemathesis import schemathesis_argv

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        with run_server(serve_argv(Path(tmp) / "data", port, "--fps", "4"), port) as server:
            argv = schemathesis_argv(server.base)
            argv[argv.index("--max-time") + 1] = str(max_time)
            argv[argv.index("--max-examples") + 1] = "20"
            done = subprocess.run(
                argv, capture_output=True, text=True, timeout=max_time + 300, cwd=tmp
            )
            server.stop()
    text = done.stdout + done.stderr
    cases = re.search(r"(\d+) generated", text)
    return {
        "exit_code": done.returncode,
        "cases": int(cases.group(1)) if cases else None,
        "server_errors_5xx": len(re.findall(r"\[5\d\d\]", text)),
        "failures": len(re.findall(r"Test Case ID", text)),
        "max_time_s": max_time,
    }


# -- a big store ----------------------------------------------------------------------------


def big_store(data_dir: Path, events: int) -> str:
    store = Store(data_dir)
    session = store.create_session("reflecto", {}, ["A", "B"])
    store.append(session.id, "session.started", session.to_json())
    batch = []
    for i in range(events - 1):
        if i % 4 == 3:
            batch.append(Draft("memo", {"seat": i % 2, "text": f"m{i}"}, f"seat:{i % 2}"))
        else:
            batch.append(Draft("note", {"seat": None, "text": f"n{i}"}))
        if len(batch) == 2000:
            store.append_many(session.id, batch)
            batch = []
    if batch:
        store.append_many(session.id, batch)
    store.close()
    return session.id


def history_and_restart(events: int, pages: int = 200) -> dict[str, Any]:
    from fastapi.testclient import TestClient

    from companion.config import load_settings
    from companion.live.loop import Runtime
    from companion.web.app import create_app
    from tests.live.example_game import make_table_game

    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            None, {"data_dir": str(Path(tmp) / "data"), "game": "reflecto"}, environ={}
        )
        t = time.perf_counter()
        big_store(settings.data_dir, events)
        log(f"  {events} events written in {time.perf_counter() - t:.1f} s")
        starts = []
        for _ in range(3):
            t = time.perf_counter()
            runtime = Runtime(settings, table_game_factory=make_table_game)
            starts.append(time.perf_counter() - t)
            runtime.store.close()
        runtime = Runtime(settings, table_game_factory=make_table_game)
        client = TestClient(create_app(settings, runtime))
        last = client.get("/api/state").json()["last_seq"]
        rng = random.Random(7)
        times = []
        for _ in range(pages):
            after = rng.randrange(0, last)
            t = time.perf_counter()
            res = client.get("/api/history", params={"after": after, "limit": 50})
            times.append(time.perf_counter() - t)
            assert res.status_code == 200 and len(res.json()) == min(50, last - after)
        t = time.perf_counter()
        client.get("/api/history", params={"limit": 1})
        first_page = time.perf_counter() - t
        in_store, baseline = [], []
        for _ in range(pages):
            after = rng.randrange(0, last)
            t = time.perf_counter()
            runtime.events_for(None, after, 50)
            in_store.append(time.perf_counter() - t)
            t = time.perf_counter()
            client.get("/api/session")  # the same HTTP path with no store behind it
            baseline.append(time.perf_counter() - t)
    return {
        "history": {
            "events": events,
            "public_events": last,
            "pages": pages,
            "anonymous_page_of_50_p50_ms": round(statistics.median(times) * 1e3, 2),
            "p95_ms": round(pct(times, 0.95) * 1e3, 2),
            "limit_1_ms": round(first_page * 1e3, 2),
            "store_query_p50_ms": round(statistics.median(in_store) * 1e3, 3),
            "bare_request_p50_ms": round(statistics.median(baseline) * 1e3, 2),
        },
        "restart": {
            "events": events,
            "first_start_full_replay_s": round(starts[0], 2),
            "next_starts_from_checkpoint_s": [round(s, 2) for s in starts[1:]],
        },
    }


# -- viewers --------------------------------------------------------------------------------


def viewers(seconds: float, n_mjpeg: int = 20, n_sse: int = 20) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        with run_server(serve_argv(Path(tmp) / "data", port, "--fps", "10"), port) as server:
            http = httpx.Client(base_url=server.base, timeout=10)

            def fps_over(s: float) -> float:
                a = http.get("/api/health").json()["camera"]["frames"]
                time.sleep(s)
                b = http.get("/api/health").json()["camera"]["frames"]
                return (b - a) / s

            time.sleep(2)
            solo = fps_over(seconds)
            stop = threading.Event()
            got = {"mjpeg": 0, "sse": 0}

            def view(path: str, kind: str) -> None:
                with (
                    httpx.Client(base_url=server.base, timeout=None) as c,
                    c.stream("GET", path) as res,
                ):
                    for chunk in res.iter_bytes():
                        got[kind] += len(chunk)
                        if stop.is_set():
                            return

            threads = [
                threading.Thread(target=view, args=("/api/stream.mjpg", "mjpeg"), daemon=True)
                for _ in range(n_mjpeg)
            ]
            threads += [
                threading.Thread(target=view, args=("/api/events", "sse"), daemon=True)
                for _ in range(n_sse)
            ]
            for th in threads:
                th.start()
            time.sleep(2)
            loaded = fps_over(seconds)
            stop.set()
            server.stop()
    return {
        "mjpeg": n_mjpeg,
        "sse": n_sse,
        "camera_fps_solo": round(solo, 2),
        "camera_fps_loaded": round(loaded, 2),
        "loaded_over_solo": round(loaded / solo, 3),
        "bytes_to_viewers": got,
    }


# -- a 20000 x 20000 image ------------------------------------------------------------------


def write_big_png(path: Path, side: int) -> None:
    """A real RGB PNG of side x side, streamed row by row (never whole in memory)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            len(data).to_bytes(4, "big")
            + kind
            + data
            + (zlib.crc32(kind + data) & 0xFFFFFFFF).to_bytes(4, "big")
        )

    with path.open("wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(chunk(b"IHDR", side.to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])))
        comp = zlib.compressobj(1)
        row = b"\0" + bytes(range(256)) * (side * 3 // 256) + b"\0" * (side * 3 % 256)
        for _ in range(side):
            data = comp.compress(row)
            if data:
                out.write(chunk(b"IDAT", data))
        out.write(chunk(b"IDAT", comp.flush()))
        out.write(chunk(b"IEND", b""))


def read_rss(side: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.png"
        write_big_png(path, side)
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "read", "mirror-mansion", str(path)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        err = proc.stderr.read() if proc.stderr else ""
    return {
        "image": f"{side}x{side} PNG",
        "exit_code": os.waitstatus_to_exitcode(status),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "message": err.strip()[:200],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kills", type=int, default=20)
    p.add_argument("--events", type=int, default=100_000)
    p.add_argument("--seconds", type=float, default=10.0, help="per viewer measurement")
    p.add_argument("--schemathesis-s", type=int, default=60)
    p.add_argument("--side", type=int, default=20_000)
    p.add_argument(
        "--only",
        help="comma-separated parts to run again, merged into the "
        "existing results (read_rss, store, full_disk, kill9, "
        "schemathesis, viewers)",
    )
    args = p.parse_args()
    command = "python benchmarks/reliability.py " + " ".join(sys.argv[1:])
    print(command, flush=True)
    out: dict[str, Any] = {}
    if args.only and RESULT.exists():
        out = json.loads(RESULT.read_text())
        out.setdefault("commands", [out.get("command")])
        out["commands"].append(command)
    else:
        out["command"] = command
    out["machine"] = (
        f"{platform.machine()} python {platform.python_version()} "
        f"sqlite {sqlite3.sqlite_version} cpus {os.cpu_count()}"
    )
    only = set(args.only.split(",")) if args.only else None
    for name, run in (
        ("read_rss", lambda: read_rss(args.side)),
        ("store", lambda: history_and_restart(args.events)),
        ("full_disk", full_disk),
        ("kill9", lambda: kills(args.kills)),
        ("schemathesis", lambda: schemathesis(args.schemathesis_s)),
        ("viewers", lambda: viewers(args.seconds)),
    ):
        if only is not None and name not in only:
            continue
        log(f"== {name}")
        t = time.perf_counter()
        result = run()
        if name == "store":
            out.update(result)
        else:
            out[name] = result
        log(f"   {json.dumps(result)} ({time.perf_counter() - t:.0f} s)")
        RESULT.parent.mkdir(parents=True, exist_ok=True)
        RESULT.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
