"""Start the real `companion serve` (or a real server process) and stop it afterwards."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
SMALL_CAMERA = {"COMPANION_CAMERA__WIDTH": "640", "COMPANION_CAMERA__HEIGHT": "480"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ServerProcess:
    proc: subprocess.Popen
    base: str

    def stop(self, sig: int = signal.SIGINT, timeout: float = 10) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError(f"server did not stop within {timeout} s of {sig!r}") from None
        return self.proc.returncode

    def output(self) -> tuple[str, str]:
        out, err = self.proc.communicate(timeout=5)
        return out, err


@contextmanager
def run_server(
    argv: list[str], port: int, timeout: float = 30, camera: dict[str, str] | None = None
) -> Iterator[ServerProcess]:
    """Run `python <argv>` and wait until /api/health answers on `port`; `camera`: the
    camera's size as environment settings (default a small one, `SMALL_CAMERA`)."""
    env = {**os.environ, **(SMALL_CAMERA if camera is None else camera), "PYTHONUNBUFFERED": "1"}
    env.pop("COMPANION_DATA_DIR", None)
    proc = subprocess.Popen(
        [sys.executable, *argv],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    server = ServerProcess(proc, f"http://127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                out, err = proc.communicate()
                raise AssertionError(f"server exited with {proc.returncode}: {err or out}")
            try:
                if httpx.get(f"{server.base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("server did not answer /api/health in time")
            time.sleep(0.1)
        yield server
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def serve_argv(data_dir: Path, port: int, *extra: str) -> list[str]:
    """`companion serve` on a game with no live module (the platform's demo table)."""
    return [
        "-m",
        "companion",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--game",
        "queen-alice",
        "--fps",
        "8",
        *extra,
    ]


# A real server process whose table plays the example game (registered as "example" the way
# a game package's live.py is found), so it writes events all the time and has a panel.
EXAMPLE_SERVER = textwrap.dedent("""
    import sys
    from dataclasses import dataclass
    import uvicorn
    from companion.config import load_settings
    from companion.games import GAMES, GameInfo
    sys.path.insert(0, sys.argv[4])  # tests/live, where the example game lives
    import example_game
    from companion.live.loop import Runtime
    from companion.web.app import create_app

    @dataclass(frozen=True)
    class Plugged(GameInfo):
        def module(self, part):
            return example_game if part == "live" else None

    GAMES["example"] = Plugged("example", "Example", "example", 1, 4)
    data_dir, port, host = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    settings = load_settings(None, {"data_dir": data_dir, "game": "example",
                                    "camera.fps": 8, "web.host": host})
    runtime = Runtime(settings).start()
    # Always listen on loopback in tests; `host` only decides whether tokens are needed.
    uvicorn.run(create_app(settings, runtime), host="127.0.0.1", port=port,
                log_level="warning", timeout_graceful_shutdown=1)
""")


def example_server_argv(data_dir: Path, port: int, host: str = "127.0.0.1") -> list[str]:
    live_tests = Path(__file__).resolve().parents[1] / "live"
    return ["-c", EXAMPLE_SERVER, str(data_dir), str(port), host, str(live_tests)]


def wait_until(page, expression: str, timeout: float = 10000) -> object:
    """Playwright's `wait_for_function` for pages with a Content-Security-Policy: its polling
    evaluates the expression with `eval` inside the page, which the dashboard's CSP (rightly)
    forbids; `page.evaluate` runs it from outside the page's script. `timeout` in ms."""
    from playwright.sync_api import Error as PageError

    deadline = time.monotonic() + timeout / 1000
    last_error = ""
    while True:
        try:  # an element not there yet (null.naturalWidth) is "not yet", as in Playwright
            value = page.evaluate(expression)
        except PageError as exc:
            value, last_error = None, str(exc).splitlines()[0]
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(
                f"not true within {timeout / 1000:g} s: {expression} {last_error}".strip()
            )
        time.sleep(0.1)
