"""Fixtures for the web app: a real runtime on the sim camera behind `create_app`.

The runtime plays the example table game (`tests/live/example_game.py`), which uses every
part of the plug-in contract: public and private events, questions, corrections.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from companion.games import GAMES, GameInfo
from companion.live.loop import Runtime
from companion.web.app import create_app
from tests.live.example_game import make_table_game
from tests.web.web_helpers import PLAIN, make_settings


@pytest.fixture(autouse=True)
def plain_game(monkeypatch) -> GameInfo:
    """A test-only game with no parts at all (no engine, no live module, no panel), so these
    platform tests run the table they were written for whatever the real games grow."""
    info = GameInfo(PLAIN, "Plain (test)", "plain_test_game", 2, 2)
    monkeypatch.setitem(GAMES, PLAIN, info)
    return info


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
