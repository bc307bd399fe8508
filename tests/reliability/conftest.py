"""Fixtures for the reliability tests: small settings, an app on the example game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI

from companion.live.loop import Runtime
from companion.web.app import create_app
from tests.live.example_game import make_table_game
from tests.reliability.helpers import small_settings


@pytest.fixture
def make_app(tmp_path) -> Iterator[Callable[..., tuple[FastAPI, Runtime]]]:
    """`make_app(host=..., **settings)`: an app on the example game, camera off."""
    runtimes: list[Runtime] = []

    def make(host: str = "127.0.0.1", **over: Any) -> tuple[FastAPI, Runtime]:
        settings = small_settings(tmp_path, **{"web.host": host, **over})
        runtime = Runtime(settings, table_game_factory=make_table_game)
        runtimes.append(runtime)
        return create_app(settings, runtime), runtime

    yield make
    for rt in runtimes:
        rt.stop()
