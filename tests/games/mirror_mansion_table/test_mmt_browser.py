"""The Mirror Mansion panel in real headless Chromium against the real server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from e2e_helpers import free_port, run_server, serve_argv

from companion.games.mirror_mansion.board import load_board

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


@pytest.mark.browser
def test_panel_shows_the_box_and_takes_the_motifs(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The sim's scripted players would tap the motifs in themselves: here a person does.
    monkeypatch.setenv("COMPANION_CAMERA__SIM_PLAYERS", "false")
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"Chromium is missing at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    board = load_board()
    port = free_port()
    with run_server(serve_argv(tmp_path / "data", port, "--game", "mirror-mansion"), port
                    ) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server.base + "/")
            page.wait_for_selector("body[data-ready='1']", timeout=40000)
            page.select_option("#game-select", "mirror-mansion")
            page.fill("#seat-names", "Ann, Ben, Cy")
            page.click("#new-game button[type=submit]")
            page.wait_for_selector("#panel .mm-box", timeout=40000)
            assert "Set-up" in page.text_content("#panel .mm-status")
            assert page.locator("#panel .mm-box > div").count() == 12 + 9
            positions = [q for q in board.positions if q != "W1"]
            for pos, motif in zip(positions, board.cards, strict=True):
                page.select_option(f"#panel select[name={pos}]", motif)
            # Choices survive the panel being mounted again by the dashboard meanwhile.
            page.click("#panel .mm-setup button")
            page.wait_for_function("!document.querySelector('#panel .mm-setup')", timeout=40000)
            # the panel re-renders from the new state: the form is gone, motifs on the rim
            assert page.locator("#panel .mm-setup").count() == 0, page.text_content("#panel")
            assert page.locator("#panel .mm-card[title^='N0:']").get_attribute("title") == (
                f"N0: {board.cards[0]}")
            assert not errors, errors
        finally:
            browser.close()
