"""Fixtures of the end-to-end tests: the real Chromium the dashboard is driven in."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser():
    """Debian's Chromium through Playwright; missing is a failure with the fix, never a skip."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: run `make browser` to install it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def sim_deck_dir(tmp_path_factory) -> Path:
    """The `sim` camera's Looking Glass deck, taught once for the whole session and kept as a
    data dir keeps it, so each Looking Glass server of the session starts the way every later
    `make run` does, instead of teaching the same deck again (~20 s a server)."""
    from companion.config import Settings
    from companion.games.looking_glass.table.live import sim_deck

    cache = tmp_path_factory.mktemp("sim-deck") / "looking-glass"
    sim_deck(Settings().camera.seed, cache)
    return cache


@pytest.fixture
def lg_data_dir(tmp_path, sim_deck_dir) -> Path:
    """A fresh data dir holding only the session's sim deck (a fresh store, no game)."""
    data = tmp_path / "data"
    shutil.copytree(sim_deck_dir, data / "looking-glass")
    return data
