"""The Reflecto panel in real headless Chromium against the real server: the set-up on one
seat's phone, and the other seat's phone never showing that word."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.e2e_helpers import SMALL_CAMERA, free_port, run_server, serve_argv, wait_until

NOBODY_TAPS = {**SMALL_CAMERA, "COMPANION_CAMERA__SIM_PLAYERS": "false"}
"""The players set up on the page themselves: the demo's scripted players stay away."""

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


@pytest.mark.browser
def test_a_seat_sets_up_its_word_and_the_other_seat_never_sees_it(tmp_path: Path) -> None:
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"Chromium is missing at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    port = free_port()
    with (
        run_server(
            serve_argv(tmp_path / "data", port, "--game", "reflecto"), port, camera=NOBODY_TAPS
        ) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            errors: list[str] = []
            ann = browser.new_page(viewport={"width": 390, "height": 844})
            ann.on("pageerror", lambda exc: errors.append(str(exc)))
            ann.goto(server.base + "/?seat=0")
            ann.wait_for_selector("#panel .rf-board", timeout=40000)
            assert ann.locator("#panel .rf-cell").count() == 49
            assert "Set-up" in ann.text_content("#panel .rf-status")
            ann.fill("#panel .rf-setup input", "piano")
            for column in (1, 2, 3, 4, 5, 0, 6):  # the letters in word order, then mirrors
                ann.click(f"#panel .rf-setup div button:text-is('{column}')")
            ann.click("#panel .rf-setup button:has-text('Set up')")
            wait_until(
                ann,
                "document.querySelector('#panel').textContent.includes('Your word: PIANO')",
                timeout=40000,
            )
            assert ann.locator("#panel .rf-setup").count() == 0
            bob = browser.new_page(viewport={"width": 390, "height": 844})
            bob.on("pageerror", lambda exc: errors.append(str(exc)))
            bob.goto(server.base + "/?seat=1")
            bob.wait_for_selector("#panel .rf-setup", timeout=40000)
            assert "ready" in bob.text_content("#panel .rf-status")
            assert "PIANO" not in bob.content()
            assert not errors, errors
        finally:
            browser.close()
