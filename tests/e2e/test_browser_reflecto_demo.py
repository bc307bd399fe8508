"""A Reflecto demo in real headless Chromium, as a family would see it: the `sim` camera,
"New game" from the page, the film's players setting up on their phones, its moves followed
in words, then the winning guess and the result with both words, with no breach in a film
that plays by the rules. Screenshots of the page at phone and laptop size go to artifacts/."""

from __future__ import annotations

import httpx
import pytest

from tests.e2e.demo_page import (
    DEMO_CAMERA,
    SERVER_START_S,
    kinds,
    new_game,
    no_horizontal_scroll,
    open_phone,
    screenshots,
)
from tests.e2e.e2e_helpers import free_port, run_server, serve_argv, wait_until

ACTIONS = "#log li[data-kind='reflecto.action'] .words"


@pytest.mark.browser
@pytest.mark.timeout(600)  # the demo plays at perception's pace
def test_a_reflecto_demo_from_new_game_to_the_result(browser, tmp_path):
    port = free_port()
    argv = serve_argv(tmp_path / "data", port)
    with run_server(argv, port, timeout=SERVER_START_S, camera=DEMO_CAMERA) as server:
        page, errors = open_phone(browser, server.base)
        new_game(page, "reflecto", "Ann, Bob")
        page.wait_for_selector("#panel .rf-board", timeout=60000)
        # the live image's legend names the players whose screens its dots mark
        legend = page.locator("#overlay-legend li").all_text_contents()
        assert "dot: Ann's screen" in legend and "dot: Bob's screen" in legend, legend

        # both players set up on their phones, then the film's moves, booked from the camera
        wait_until(
            page,
            f'[...document.querySelectorAll("{ACTIONS}")]'
            ".some(w => / moved a screen /.test(w.textContent))",
            timeout=240000,
        )
        # the mover's guess ends the game: the result and both words, on the page
        page.wait_for_selector("#panel .rf-turn:text-is('Game over')", timeout=240000)
        view = httpx.get(f"{server.base}/api/games/reflecto/view", timeout=5).json()
        panel = page.text_content("#panel")
        assert view["result"] in panel and view["result"].startswith(("Ann wins", "Bob wins"))
        words = dict(zip(["Ann", "Bob"], view["words"], strict=True))
        assert f"Words: Ann: {words['Ann']}, Bob: {words['Bob']}" in panel, panel

        said = page.locator(ACTIONS).all_text_contents()  # newest first
        moves = [w for w in said if " moved a screen " in w]
        assert moves and all(w.startswith(("Ann moved ", "Bob moved ")) for w in moves), said
        winner = view["result"].split(" ")[0]
        loser = "Bob" if winner == "Ann" else "Ann"
        assert said[0] == f"{winner} guessed the other word: {words[loser]}", said
        log = page.locator("#log li .words").all_text_contents()
        assert not any("{" in w or "reflecto." in w for w in log), log  # words, not JSON

        assert not [k for k in kinds(server.base) if "breach" in k]
        assert page.locator("#panel .rf-breach").count() == 0
        assert no_horizontal_scroll(page)
        screenshots(browser, server.base, "reflecto")
        assert not errors, errors
        server.stop()
