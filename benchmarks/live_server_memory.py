"""Memory of the live server while a game is being played on the simulated table.

Starts the real `companion serve` (sim camera, the chosen game, its own data dir) as a
subprocess, lets it follow the simulated round for a while, reads the process's resident set
from /proc (VmRSS each second, VmHWM the peak) and checks on /api/health that perception and
the store were working all along (frames read, events written).

    .venv/bin/python benchmarks/live_server_memory.py [--game looking-glass] [--seconds 90]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results" / "live_server_memory.json"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def measure(game: str, seconds: float) -> dict:
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "serve",
                "--camera",
                "sim",
                "--game",
                game,
                "--port",
                str(port),
                "--data-dir",
                data,
            ],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                if proc.poll() is not None:
                    raise SystemExit(f"server exited: {proc.stderr.read() if proc.stderr else ''}")
                try:
                    if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("server did not answer within 60 s")
                time.sleep(0.5)
            rss = []
            t0 = time.monotonic()
            while time.monotonic() - t0 < seconds:
                rss.append(_status_kb(proc.pid, "VmRSS") / 1024)
                time.sleep(1.0)
            peak = _status_kb(proc.pid, "VmHWM") / 1024
            health = httpx.get(base + "/api/health", timeout=5).json()
            state = httpx.get(base + "/api/state", timeout=5).json()
        finally:
            proc.terminate()
            proc.wait(10)
    return {
        "game": game,
        "seconds": seconds,
        "rss_mb_median": round(statistics.median(rss), 1),
        "rss_mb_last": round(rss[-1], 1),
        "peak_rss_mb": round(peak, 1),
        "target_mb": 300,
        "health_status": health.get("status"),
        "frames_read": (health.get("perception") or {}).get("frames"),
        "events": state.get("last_seq"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="looking-glass")
    ap.add_argument("--seconds", type=float, default=90.0)
    ap.add_argument("--results", default=str(RESULTS))
    a = ap.parse_args(argv)
    command = ".venv/bin/python benchmarks/live_server_memory.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    out = {
        "command": command.strip(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        **measure(a.game, a.seconds),
    }
    print(json.dumps(out, indent=1))
    path = Path(a.results)
    results = json.loads(path.read_text()) if path.exists() else {}
    results[a.game] = out
    path.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
