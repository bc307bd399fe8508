"""The Queen Alice panel in real headless Chromium against the real server: the admin enters
the set-up, a seat taps in the card it drew on its own phone, and the other seat's phone
never shows that card."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.e2e.e2e_helpers import SMALL_CAMERA, free_port, run_server, serve_argv, wait_until

PANEL = "document.querySelector('#panel').textContent"
NOBODY_TAPS = {**SMALL_CAMERA, "COMPANION_CAMERA__SIM_PLAYERS": "false"}
"""The `sim` film's scripted players would enter the set-up themselves: here people do."""


@pytest.mark.browser
def test_the_set_up_and_a_card_drawn_stay_where_they_belong(browser, tmp_path: Path) -> None:
    port = free_port()
    with run_server(
        serve_argv(tmp_path / "data", port, "--fps", "4"), port, camera=NOBODY_TAPS
    ) as server:
        res = httpx.post(
            f"{server.base}/api/session",
            json={"game": "queen-alice", "seats": ["Ann", "Bob"]},
            timeout=10,
        )
        assert res.status_code == 201, res.text
        errors: list[str] = []
        admin = browser.new_page(viewport={"width": 390, "height": 844})
        admin.on("pageerror", lambda exc: errors.append(str(exc)))
        admin.goto(server.base + "/")
        admin.wait_for_selector("#panel .qa-board", timeout=30000)
        assert admin.locator("#panel .qa-cell").count() == 8 * 9
        admin.click("#panel button:has-text('Start')")
        wait_until(admin, f"{PANEL}.includes('Ann: tap the card you drew')", timeout=20000)

        ann = browser.new_page(viewport={"width": 390, "height": 844})
        ann.on("pageerror", lambda exc: errors.append(str(exc)))
        ann.goto(server.base + "/?seat=0")
        ann.wait_for_selector("#panel input[placeholder='card drawn (id)']", timeout=30000)
        ann.fill("#panel input[placeholder='card drawn (id)']", "basic-3")
        ann.click("#panel button:has-text('I drew it')")
        wait_until(ann, f"{PANEL}.includes('Your hand: basic-3 (white knight)')", timeout=20000)

        bob = browser.new_page(viewport={"width": 390, "height": 844})
        bob.on("pageerror", lambda exc: errors.append(str(exc)))
        bob.goto(server.base + "/?seat=1")
        wait_until(bob, f"{PANEL}.includes('Your hand: —')", timeout=30000)
        assert "basic-3" not in bob.content() and "basic-3" not in admin.content()
        assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert not errors, errors
        server.stop()
