"""Mirror Mansion in pictures (issue 30): the motifs are drawn, the set-up is tapped in by
pictures, and questions offer pictures. Real headless Chromium against the real server."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.e2e.demo_page import DEMO_PACE
from tests.e2e.e2e_helpers import SMALL_CAMERA, free_port, run_server, serve_argv, wait_until

NO_SIM_PLAYERS = {**SMALL_CAMERA, "COMPANION_CAMERA__SIM_PLAYERS": "false"}
"""The sim's players do not tap: this page does."""


@pytest.mark.browser
def test_the_set_up_is_tapped_in_by_pictures_and_the_board_shows_them(browser, tmp_path):
    port = free_port()
    argv = serve_argv(tmp_path / "data", port, "--game", "mirror-mansion")
    with run_server(argv, port, camera=NO_SIM_PLAYERS) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/")
        page.wait_for_selector("#panel .mm-setup", timeout=30000)
        view = httpx.get(f"{server.base}/api/games/mirror-mansion/view", timeout=5).json()
        motifs = view["motifs"]
        palette = page.locator(".mm-palette button[data-motif]")
        assert palette.count() == len(motifs)
        # every motif is a drawn picture (no emoji, no file, no CDN), named for screen readers
        for i, motif in enumerate(motifs):
            icon = palette.nth(i).locator("svg.mm-icon")
            assert icon.count() == 1 and icon.locator("path, rect, circle, ellipse").count() >= 1
            assert icon.get_attribute("aria-label") == motif.replace("-", " ")

        # tap a place on the box's picture, then the picture of what lies there: every place
        # but the window's, as the camera sees the box
        deadline = time.monotonic() + 30
        while not ((view.get("seen") or {}).get("window")) and time.monotonic() < deadline:
            time.sleep(0.5)
            view = httpx.get(f"{server.base}/api/games/mirror-mansion/view", timeout=5).json()
        window = view["seen"]["window"]
        places = [p for p in view["positions"] if p != window]
        for place, motif in zip(places, motifs, strict=True):
            page.click(f".mm-board .mm-place[data-position='{place}']")
            page.click(f".mm-palette button[data-motif='{motif}']")
        page.click(".mm-setup > button")  # "Save the motifs"
        wait_until(page, "!document.querySelector('#panel .mm-setup')", timeout=15000)
        saved = httpx.get(f"{server.base}/api/games/mirror-mansion/view", timeout=5).json()
        assert saved["cards_tapped"]
        # the board now draws each tapped motif as its picture (the engine's cards, once the
        # camera set the game up, are the same ones)
        wait_until(
            page,
            f"document.querySelectorAll('.mm-board .mm-place .mm-icon').length === {len(motifs)}",
            timeout=15000,
        )
        drawn = page.eval_on_selector_all(
            ".mm-board .mm-place",
            "gs => gs.map(g => [g.dataset.position,"
            " (g.querySelector('.mm-icon') || {}).tagName || null])",
        )
        assert {p for p, tag in drawn if tag} == set(saved["cards"])

        # a question's choices come with pictures: a motif, or the way a mirror faces
        kinds = page.evaluate(
            "import('/static/games/mirror-mansion.js').then(m => "
            f"[{{value: '{motifs[0]}'}}, {{value: 'NE'}}, {{value: 'N2'}}]"
            f".map(c => {{ const p = m.choicePicture(c, {{motifs: {motifs!r}}});"
            " return p ? p.tagName : null; }))"
        )
        assert kinds == ["svg", "svg", None]
        assert not errors, errors
        server.stop()


@pytest.mark.browser
@pytest.mark.timeout(600)  # the demo plays to its first window move at the machine's pace
def test_a_question_and_its_answer_read_in_players_words(browser, tmp_path):
    port = free_port()
    argv = serve_argv(tmp_path / "data", port, "--game", "mirror-mansion")
    with run_server(argv, port, camera={**SMALL_CAMERA, **DEMO_PACE}) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=30000)
        # the sim's players tap in the motifs, move the window, and answer what it asks
        page.wait_for_selector("#log li[data-kind='answer']", timeout=480_000)
        history = httpx.get(f"{server.base}/api/history", timeout=5).json()
        answer = next(e["payload"] for e in history if e["kind"] == "answer")
        question = next(
            e["payload"]
            for e in history
            if e["kind"] == "question" and e["payload"]["id"] == answer["question"]
        )
        (label,) = [c["label"] for c in question["choices"] if c["value"] == answer["answer"]]
        seats = httpx.get(f"{server.base}/api/state", timeout=5).json()["session"]["seats"]
        who = seats[answer["seat"]] if answer["seat"] is not None else None
        words = page.text_content("#log li[data-kind='answer'] .words")
        assert words == (f"{who} answered: {label}" if who else f"Answered: {label}")
        shown = page.locator("#log li[data-kind='question'] .words").all_text_contents()
        assert question["text"] in shown
        # a question names the player it is about by the name the table gave them
        assert question["text"].startswith(tuple(f"{n} " for n in seats)), question["text"]
        assert not errors, errors
        server.stop()
