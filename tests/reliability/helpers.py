"""Helpers for the reliability tests (a module of its own: `conftest` is not importable by
name once several test folders have one)."""

from __future__ import annotations

from typing import Any

from companion.config import Settings, load_settings


def small_settings(tmp_path, **over: Any) -> Settings:
    return load_settings(
        None,
        {
            "data_dir": str(tmp_path / "data"),
            "game": "reflecto",
            "camera.width": 320,
            "camera.height": 240,
            "camera.fps": 15,
            **over,
        },
        environ={},
    )
