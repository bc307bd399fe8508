"""Helpers for the web tests: small settings, a real uvicorn server in a thread, polling."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from fastapi import FastAPI

from companion.config import Settings, load_settings
from companion.live.loop import Runtime

PLAIN = "plain"
"""The game these tests play: registered by the `plain_game` fixture, it has no parts."""


def make_settings(tmp_path, host: str = "127.0.0.1") -> Settings:
    return load_settings(
        None,
        {
            "data_dir": str(tmp_path / "data"),
            "game": PLAIN,
            "web.host": host,
            "camera.width": 480,
            "camera.height": 360,
            "camera.fps": 15,
        },
        environ={},
    )


@contextmanager
def served(app: FastAPI, runtime: Runtime) -> Iterator[str]:
    """The app on a real uvicorn server in a thread (streams need a real server)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, lifespan="off")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        runtime.frames.close()
        runtime.changes.close()
        server.should_exit = True
        thread.join(10)
        sock.close()
