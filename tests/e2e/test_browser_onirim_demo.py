"""A short Onirim demo in real headless Chromium against the real server on the `sim` camera:
the film's plays are booked from the camera and shown on the public panel; the hand shows on
the player's own link only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.demo_page import screenshots
from tests.e2e.e2e_helpers import free_port, run_server, serve_argv, wait_until

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
FULL_CAMERA = {"COMPANION_CAMERA__WIDTH": "1280", "COMPANION_CAMERA__HEIGHT": "960"}
"""The film's own size: the cards' corners are read at it."""


@pytest.mark.browser
def test_the_sim_camera_plays_a_game_the_panel_follows(tmp_path: Path) -> None:
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"Chromium is missing at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    port = free_port()
    argv = serve_argv(tmp_path / "data", port, "--game", "onirim", "--fps", "4")
    with run_server(argv, port, camera=FULL_CAMERA) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server.base + "/")
            page.wait_for_selector("body[data-ready='1']", timeout=40000)
            page.select_option("#game-select", "onirim")
            page.fill("#seat-names", "Ann")
            page.click("#new-game button[type=submit]")
            page.wait_for_selector("#panel .on-table", timeout=40000)
            # The first Location played in the film, booked from the camera.
            wait_until(
                page,
                "document.querySelectorAll('#panel .on-table p')[0]"
                ".querySelectorAll('.on-card').length >= 1",
                timeout=90000,
            )
            text = page.text_content("#panel")
            assert "Doors still needed" in text and "Your hand" not in text, text
            assert page.locator("#panel .on-breach").count() == 0, text
            # the log in players' words: "Ann paired the blue Sun and the green Sun under ..."
            wait_until(
                page,
                "[...document.querySelectorAll(\"#log li[data-kind='onirim.action'] .words\")]"
                ".some(w => w.textContent.startsWith('Ann '))",
                timeout=20000,
            )
            words = page.locator("#log li .words").all_text_contents()
            assert not any("{" in w or "onirim." in w for w in words), words
            plays = page.locator("#log li[data-kind='onirim.action'] .words").all_text_contents()
            assert not any("-" in w for w in plays), plays  # names, not card ids
            assert page.locator("#panel .big").count() == 1
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(server.base + "/?seat=0")
            phone.wait_for_selector("#panel .on-table", timeout=40000)
            wait_until(
                phone,
                "document.querySelector('#panel').textContent.includes('Your hand')",
                timeout=20000,
            )
            assert "Chance the next draw is a Nightmare" in phone.text_content("#panel")
            assert not errors, errors
            screenshots(browser, server.base, "onirim")
        finally:
            browser.close()
