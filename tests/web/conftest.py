"""Fixtures for the web app: a real runtime on the sim camera behind `create_app`.

The runtime plays the example table game (`companion.live.example_game`), which uses every
part of the plug-in contract: public and private events, questions, corrections.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from companion.config import Settings, load_settings
from companion.live.example_game import make_table_game
from companion.live.loop import Runtime
from companion.web.app import create_app


def make_settings(tmp_path, host: str = "127.0.0.1") -> Settings:
    return load_settings(
        None,
        {
            "data_dir": str(tmp_path / "data"),
            "game": "reflecto",
            "web.host": host,
            "camera.width": 480,
            "camera.height": 360,
            "camera.fps": 15,
        },
        environ={},
    )


@pytest.fixture
def make_app(tmp_path) -> Iterator[Callable[..., tuple[FastAPI, Runtime]]]:
    """`make_app(host=..., camera=True)`: an app and its runtime (stopped at teardown)."""
    runtimes: list[Runtime] = []

    def make(host: str = "127.0.0.1", camera: bool = True) -> tuple[FastAPI, Runtime]:
        settings = make_settings(tmp_path, host)
        runtime = Runtime(settings, table_game_factory=make_table_game)
        if camera:
            runtime.start()
        runtimes.append(runtime)
        return create_app(settings, runtime), runtime

    yield make
    for rt in runtimes:
        rt.stop()


@pytest.fixture
def local(make_app) -> tuple[TestClient, Runtime]:
    app, runtime = make_app()
    return TestClient(app), runtime


@pytest.fixture
def lan(make_app) -> tuple[TestClient, Runtime, str]:
    """Bound beyond loopback (0.0.0.0): tokens needed; returns the admin token too."""
    app, runtime = make_app(host="0.0.0.0")
    return TestClient(app), runtime, runtime.store.admin_token()[0]


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


def wait_for(predicate: Callable[[], object], timeout: float = 10.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"condition not met within {timeout} s")
