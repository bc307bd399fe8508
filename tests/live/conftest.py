"""Fixtures for the live loop: small sim settings, and cameras that misbehave on purpose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from live_helpers import BlankSource, FlakySource

from companion.camera import FrameSource
from companion.config import Settings, load_settings


@pytest.fixture
def settings(tmp_path) -> Settings:
    return load_settings(
        None,
        {
            "data_dir": str(tmp_path / "data"),
            "game": "reflecto",
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
            return FlakySource(open_source("sim", settings.camera, table=settings.table),
                               fail_after, state)

        factory.state = state  # type: ignore[attr-defined]
        return factory

    return make


@pytest.fixture
def blank_source() -> Callable[[], Any]:
    return BlankSource
