"""The Mirror Mansion panel in real headless Chromium against the real server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.games.mirror_mansion.rules.board import load_board
from companion.games.mirror_mansion.table.live import place_words
from tests.e2e.e2e_helpers import free_port, run_server, serve_argv, wait_until

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


@pytest.mark.browser
def test_panel_shows_the_box_and_takes_the_motifs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sim's scripted players would tap the motifs in themselves: here a person does.
    monkeypatch.setenv("COMPANION_CAMERA__SIM_PLAYERS", "false")
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"Chromium is missing at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    board = load_board()
    port = free_port()
    with (
        run_server(serve_argv(tmp_path / "data", port, "--game", "mirror-mansion"), port) as server,
        sync_playwright() as p,
    ):
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
            page.wait_for_selector("#panel .mm-setup", timeout=40000)
            assert "Set-up" in page.text_content("#panel .mm-turn")
            assert page.locator("#panel .mm-setup .mm-place").count() == 12
            positions = [q for q in board.positions if q != "W1"]
            for pos, motif in zip(positions, board.cards, strict=True):
                # tap the place on the picture of the box, then the motif lying there
                page.click(f"#panel .mm-setup .mm-place[data-position='{pos}']")
                page.click(f"#panel .mm-setup button[data-motif='{motif}']")
            page.click("#panel .mm-setup button:has-text('Save the motifs')")
            wait_until(page, "!document.querySelector('#panel .mm-setup')", timeout=40000)
            # the panel re-renders from the new state: the motifs are on the box's picture
            assert page.locator("#panel .mm-setup").count() == 0, page.text_content("#panel")
            n0 = page.text_content("#panel .mm-board .mm-place[data-position='N0']")
            # the place's title names it in words and its motif, not its code ("N0")
            assert f"{place_words(board, 'N0')}: {board.cards[0]}" in n0, n0
            assert "N0" not in n0, n0
            assert not errors, errors
        finally:
            browser.close()
