"""The dashboard in WebKit, Safari's engine (issue 30: "works in Safari").

Debian's WebKitGTK is the nearest thing to Safari this machine runs: the same engine, its
JavaScript (JavaScriptCore), its image decoders and its EventSource. The test plays the part a
phone plays: status bar, live image, a new Looking Glass game dealt and drawn from the sim
deck's pictures, a tap on a card, the event log filled over SSE, nothing wider than the phone.
"""

from __future__ import annotations

import httpx
import pytest

from tests.e2e.e2e_helpers import REPO, free_port, run_server, serve_argv
from tests.e2e.webkit import missing, wait_for, webkit_driver

DEMO_CAMERA = {
    "COMPANION_CAMERA__WIDTH": "1280",
    "COMPANION_CAMERA__HEIGHT": "960",
    "COMPANION_CAMERA__SIM_LOCKSTEP": "true",
}


@pytest.mark.browser
@pytest.mark.timeout(400)
def test_the_dashboard_works_in_webkit(lg_data_dir):
    if missing():
        pytest.fail(f"WebKit is missing ({', '.join(missing())}): run `make browser`")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    port = free_port()
    argv = serve_argv(lg_data_dir, port, "--game", "looking-glass")
    with run_server(argv, port, timeout=180, camera=DEMO_CAMERA) as server, webkit_driver() as page:
        page.get(server.base + "/")
        wait_for(page, "document.body.dataset.ready === '1'")
        page.execute_script(
            "window.__errors = []; window.addEventListener('error', e => "
            "window.__errors.push(String(e.message)));"
        )
        assert "Safari" in page.execute_script("return navigator.userAgent")

        # the status bar is filled from /api/health and the SSE stream
        wait_for(page, "document.getElementById('st-camera').textContent === 'ok'", 60)
        # the live image decodes and moves: MJPEG, or the stills the page falls back to
        wait_for(page, "document.getElementById('live').naturalWidth > 0", 60)
        mode = page.find_element(By.ID, "view-mode").text
        assert mode in ("live (MJPEG)", "stills")

        # a new game from the admin card: dealt, drawn from the deck's own pictures
        Select(page.find_element(By.ID, "game-select")).select_by_value("looking-glass")
        seats = page.find_element(By.ID, "seat-names")
        seats.clear()
        seats.send_keys("Ann, Bob")
        page.find_element(By.CSS_SELECTOR, "#new-game button[type=submit]").click()
        wait_for(
            page,
            "document.querySelector('.lg-wins') && "
            "document.querySelector('.lg-wins').textContent.includes('Ann')",
            180,
        )
        wait_for(
            page,
            "[...document.querySelectorAll('.lg-glass .lg-card img')]"
            ".some(i => i.naturalWidth > 0)",
            180,
        )
        assert (
            page.execute_script("return document.querySelectorAll('.lg-glass .lg-legal').length")
            >= 1
        )

        # a tap on a free card names it in full, as the view names it
        tile = page.find_element(
            By.CSS_SELECTOR, ".lg-glass .lg-card.lg-legal[data-card]:not([data-card=''])"
        )
        card = tile.get_attribute("data-card")
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", tile)
        tile.click()
        view = httpx.get(f"{server.base}/api/games/looking-glass/view", timeout=5).json()
        names = {
            c["card"]: c["name"] for t in ("sun", "moon", "brawlers") for c in view["piles"][0][t]
        }
        told = wait_for(
            page,
            "document.querySelector('.lg-told') && document.querySelector('.lg-told').textContent",
        )
        assert str(told).startswith(f"{names[card]}: ")

        # the event log came over EventSource: the new game is there, in words
        wait_for(
            page,
            "[...document.querySelectorAll('#log li')].some(li => li.textContent.includes('Ann'))",
            30,
        )
        assert page.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth"
        )
        assert page.execute_script("return window.__errors") == []
        artifacts = REPO / "artifacts"
        artifacts.mkdir(exist_ok=True)
        page.save_screenshot(str(artifacts / "webkit-looking-glass.png"))
        server.stop()


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_mirror_mansion_pictures_are_tapped_in_webkit(tmp_path):
    """The panel that leans most on newer features: SVG built with `createElementNS`, its
    `dataset`, taps on SVG groups."""
    if missing():
        pytest.fail(f"WebKit is missing ({', '.join(missing())}): run `make browser`")
    import time

    from selenium.webdriver.common.by import By

    port = free_port()
    argv = serve_argv(tmp_path / "data", port, "--game", "mirror-mansion")
    camera = {
        "COMPANION_CAMERA__WIDTH": "640",
        "COMPANION_CAMERA__HEIGHT": "480",
        "COMPANION_CAMERA__SIM_PLAYERS": "false",
    }
    with run_server(argv, port, camera=camera) as server, webkit_driver() as page:
        page.get(server.base + "/")
        wait_for(page, "document.querySelector('#panel .mm-setup')", 60)
        view = httpx.get(f"{server.base}/api/games/mirror-mansion/view", timeout=5).json()
        motifs = view["motifs"]
        labels = page.execute_script(
            "return [...document.querySelectorAll('.mm-palette button[data-motif] svg.mm-icon')]"
            ".map(s => s.getAttribute('aria-label'))"
        )
        assert labels == [m.replace("-", " ") for m in motifs]
        deadline = time.monotonic() + 30
        while not (view.get("seen") or {}).get("window") and time.monotonic() < deadline:
            time.sleep(0.5)
            view = httpx.get(f"{server.base}/api/games/mirror-mansion/view", timeout=5).json()
        window = view["seen"]["window"]
        places = [p for p in view["positions"] if p != window]
        for place, motif in zip(places, motifs, strict=True):
            _tap(
                page,
                page.find_element(By.CSS_SELECTOR, f".mm-board .mm-place[data-position='{place}']"),
            )
            _tap(
                page,
                page.find_element(By.CSS_SELECTOR, f".mm-palette button[data-motif='{motif}']"),
            )
        page.find_element(By.CSS_SELECTOR, ".mm-setup > button").click()
        wait_for(page, "!document.querySelector('#panel .mm-setup')")
        saved = httpx.get(f"{server.base}/api/games/mirror-mansion/view", timeout=5).json()
        assert saved["cards_tapped"]
        # every tapped place draws its motif, but the one the camera now sees as the window
        # (the sim's film plays on: its next turn shows another window card)
        window_now = "document.querySelector('.mm-board .mm-window').dataset.position"
        wait_for(
            page,
            "document.querySelectorAll('.mm-board .mm-place .mm-icon').length"
            f" >= {len(motifs) - 1}",
        )
        now = page.execute_script(f"return {window_now}")
        drawn = page.execute_script(
            "return [...document.querySelectorAll('.mm-board .mm-place')]"
            ".filter(g => g.querySelector('.mm-icon')).map(g => g.dataset.position)"
        )
        assert set(drawn) == set(saved["cards"]) - {now}
        server.stop()


def _tap(page, element) -> None:
    """A pointer press at the element's centre on the screen, as a finger gives: WebDriver's
    element click and element-origin moves refuse SVG groups in WebKitGTK ("not
    interactable"); a press at viewport coordinates does not."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    x, y = page.execute_script(
        "const e = arguments[0]; e.scrollIntoView({block: 'center'});"
        "const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];",
        element,
    )
    actions = ActionBuilder(page)
    actions.pointer_action.move_to_location(int(x), int(y)).click()
    actions.perform()
