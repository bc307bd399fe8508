"""The dashboard as a new user meets it: how long from starting the server to the first camera
frame on the page, and how many bytes the page pulls on first load (no CDN).

    .venv/bin/python benchmarks/dashboard.py --runs 3

Per run: `companion serve --camera sim` (what `make run` starts, default settings, a fresh data
folder) is started, then once more on the same folder (every later `make run`: the Looking
Glass sim deck is kept there); each time Debian's Chromium (Playwright) opens the page as soon
as the server answers; the time is from the process start to the moment the <img> shows a
decoded camera frame (not the waiting picture). Weight: every response body of the first load
(HTML, scripts, styles, API JSON, the first snapshot; the MJPEG stream and the event stream
never end and are left out), for the default game's page and, after "New game", for the Looking
Glass and Mirror Mansion panels (their scripts, JSON and card pictures; in the first run only,
as they are the same files each time). Any request to another host fails the run. Medians over
the runs go to benchmarks/results/dashboard.json.
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ENDLESS = ("/api/stream.mjpg", "/api/events")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Weigher:
    """Sums the bodies of a page's responses; remembers any host that is not ours."""

    def __init__(self, page: Any, base: str) -> None:
        self.pending: list[Any] = []
        self.foreign: list[str] = []
        self.base = base
        page.on("requestfinished", self._finished)

    def _finished(self, request: Any) -> None:
        if not request.url.startswith(self.base):
            self.foreign.append(request.url)
        elif not any(p in request.url for p in ENDLESS):
            self.pending.append(request)

    def take(self) -> dict[str, Any]:
        """The bytes of the bodies received since the last take (read now: Playwright's own
        size counter is -1 for some)."""
        total, by_type = 0, {}
        for request in self.pending:
            response = request.response()
            if response is None:
                continue
            try:
                size = len(response.body())
            except Exception:  # a body the browser did not keep (a redirect)
                continue
            total += size
            by_type[request.resource_type] = by_type.get(request.resource_type, 0) + size
        self.pending = []
        return {"bytes": total, "by_type": by_type}


def one_run(browser: Any, panels: bool) -> dict[str, Any]:
    """A first start on a fresh data folder, then a second start on the same folder (what
    every later `make run` is: the default data dir is kept between runs)."""
    with tempfile.TemporaryDirectory() as data:
        first = one_start(browser, data, panels)
        again = one_start(browser, data, panels=False)
    return first | {"next_start_first_frame_s": again["first_frame_s"]}


def one_start(browser: Any, data: str, panels: bool) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--camera",
            "sim",
            "--port",
            str(port),
            "--data-dir",
            data,
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        weigher = Weigher(page, base)
        while True:
            try:
                page.goto(base + "/", timeout=2000)
                break
            except Exception:  # not listening yet
                if proc.poll() is not None:
                    raise SystemExit("the server exited") from None
                time.sleep(0.05)
        page.wait_for_function(
            "(() => { const i = document.getElementById('live');"
            " return !i.src.endsWith('waiting.svg') && i.naturalWidth > 0; })()",
            timeout=120000,
            polling=20,
        )
        first_frame_s = time.monotonic() - t0
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_timeout(1500)  # the rest of the first load (history, questions)
        weights = {"home": weigher.take()}
        for game in ("looking-glass", "mirror-mansion") if panels else ():
            page.select_option("#game-select", game)
            page.fill("#seat-names", "Ann, Bob")
            page.click("#new-game button[type=submit]")
            # the Looking Glass panel's piles show every character's picture
            page.wait_for_selector(
                ".lg-pile img" if game == "looking-glass" else ".mm-board", timeout=180000
            )
            page.wait_for_timeout(2000)
            weights[game] = weigher.take()
        page.close()
        if weigher.foreign:
            raise SystemExit(f"requests to other hosts: {weigher.foreign[:3]}")
        return {"first_frame_s": round(first_frame_s, 2), "weights": weights}
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    runs = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for n in range(args.runs):
                runs.append(one_run(browser, panels=n == 0))
                print(f"run {n + 1}: {json.dumps(runs[-1])}", flush=True)
        finally:
            browser.close()
    med = {
        "first_frame_s": statistics.median(r["first_frame_s"] for r in runs),
        "next_start_first_frame_s": statistics.median(r["next_start_first_frame_s"] for r in runs),
        "home_bytes": statistics.median(r["weights"]["home"]["bytes"] for r in runs),
        # the panels' weights are the same every run (their files and JSON): measured once
        **{
            f"{k}_bytes": runs[0]["weights"][k]["bytes"]
            for k in ("looking-glass", "mirror-mansion")
        },
    }
    command = f"benchmarks/dashboard.py --runs {args.runs}"
    out = {
        "command": command,
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "median": med,
        "runs": runs,
    }
    results = ROOT / "benchmarks" / "results" / "dashboard.json"
    results.write_text(json.dumps(out, indent=2) + "\n")
    print(f"$ .venv/bin/python {command}")
    print(json.dumps(med, indent=2))


if __name__ == "__main__":
    main()
