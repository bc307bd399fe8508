"""Fixtures for the live loop: small sim settings, and cameras that misbehave on purpose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.camera import FrameSource
from companion.config import Settings, load_settings
from companion.games import GAMES, GameInfo
from tests.live.live_helpers import BlankSource, FlakySource

PLAIN = "plain"
"""The game these tests play: registered by the `plain_game` fixture, it has no parts."""


@pytest.fixture(autouse=True)
def plain_game(monkeypatch) -> GameInfo:
    """A test-only game with no parts at all (no engine, no live module, no panel), so these
    platform tests run the table they were written for whatever the real games grow."""
    info = GameInfo(PLAIN, "Plain (test)", "plain_test_game", 2, 2)
    monkeypatch.setitem(GAMES, PLAIN, info)
    return info


@pytest.fixture
def settings(tmp_path) -> Settings:
    return load_settings(
        None,
        {
            "data_dir": str(tmp_path / "data"),
            "game": PLAIN,
            "camera.width": 480,
            "camera.height": 360,
            "camera.fps": 15,
        },
        environ={},
    )


@pytest.fixture
def flaky_factory(settings) -> Callable[[int], Callable[[], FrameSource]]:
    def make(fail_after: int) -> Callable[[], FrameSource]:
        from companion.camera import open_source

        state = {"opens": 0}

        def factory() -> FrameSource:
            return FlakySource(
                open_source("sim", settings.camera, table=settings.table), fail_after, state
            )

        factory.state = state  # type: ignore[attr-defined]
        return factory

    return make


@pytest.fixture
def blank_source() -> Callable[[], Any]:
    return BlankSource
