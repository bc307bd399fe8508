"""Mirror Mansion's hidden guesses are one tap each on the guesser's own phone (issue 30), and
no other phone learns them, not even in the JSON. Real headless Chromium against the real
server on the `sim` camera: the film moves the box's pieces, and these pages tap the rest
(the motifs, the die, the named motif, the call, the guesses)."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.e2e.demo_page import DEMO_PACE, PHONE, new_game
from tests.e2e.e2e_helpers import SMALL_CAMERA, free_port, run_server, serve_argv, wait_until

VIEW = "/api/games/mirror-mansion/view"
FILM_ALONE = {**SMALL_CAMERA, **DEMO_PACE, "COMPANION_CAMERA__SIM_PLAYERS": "false"}
"""The demo film moves the box's pieces; its scripted players do not tap: these pages do."""


def _view(base: str, seat: int | None = None) -> dict:
    query = "" if seat is None else f"?seat={seat}"
    return httpx.get(f"{base}{VIEW}{query}", timeout=5).json()


def _until_phase(base: str, phase: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while (view := _view(base))["phase"] != phase:
        assert time.monotonic() < deadline, f"still {view['phase']!r}, not {phase!r}"
        time.sleep(0.3)
    return view


TAPS = {
    "roll": "#panel .mm-controls button.mm-die:text-is('3')",
    "name": "#panel .mm-controls button.mm-motif >> nth=0",
    "swaps": "#panel button:text-is('Make your guesses!')",
    "look": "#panel button:text-is('Look through the window')",
}
"""What the admin taps in each phase; the film itself moves the window card and the door.
The first turn has no guesses: the game is played on to the second."""


def _to_the_guesses(admin, base: str, timeout: float = 300) -> dict:
    deadline = time.monotonic() + timeout
    while (view := _view(base))["phase"] != "guess":
        told = admin.text_content("#panel .mm-message")
        assert time.monotonic() < deadline, f"stuck at {view['phase']!r}: {told}"
        if view["phase"] in TAPS and admin.locator(TAPS[view["phase"]]).count():
            admin.click(TAPS[view["phase"]])  # a call while a hand still moves: refused
        time.sleep(1.5)
    return view


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_each_hidden_guess_is_one_tap_on_the_guessers_own_phone(browser, tmp_path):
    port = free_port()
    argv = serve_argv(tmp_path / "data", port, "--game", "mirror-mansion")
    with run_server(argv, port, timeout=60, camera=FILM_ALONE) as server:
        errors: list[str] = []
        admin = browser.new_page(viewport=PHONE, device_scale_factor=1)
        admin.on("pageerror", lambda exc: errors.append(str(exc)))
        admin.goto(server.base + "/")
        admin.wait_for_selector("body[data-ready='1']", timeout=30000)
        new_game(admin, "mirror-mansion", "Ann, Bob, Cy")
        admin.wait_for_selector("#panel .mm-setup", timeout=30000)

        # the set-up, tapped in by pictures: each place but the window's, then its motif
        deadline = time.monotonic() + 60
        while not ((view := _view(server.base)).get("seen") or {}).get("window"):
            assert time.monotonic() < deadline, "the box was never read"
            time.sleep(0.5)
        places = [p for p in view["positions"] if p != view["seen"]["window"]]
        for place, motif in zip(places, view["motifs"], strict=True):
            admin.click(f".mm-board .mm-place[data-position='{place}']")
            admin.click(f".mm-palette button[data-motif='{motif}']")
        admin.click(".mm-setup > button")
        view = _to_the_guesses(admin, server.base)
        active = view["active"]
        first, second = [s for s in range(3) if s != active]

        # the first guesser's one tap, on their own phone
        phones = {}
        for seat in range(3):
            phones[seat] = browser.new_page(viewport=PHONE, device_scale_factor=1)
            phones[seat].on("pageerror", lambda exc: errors.append(str(exc)))
            phones[seat].goto(f"{server.base}/?seat={seat}")
            phones[seat].wait_for_selector("#panel .mm-board", timeout=30000)
        assert phones[active].locator("#panel button:text('Jubilant Victor')").count() == 0
        phones[first].click("#panel button:text-is('Disappointed Victor')")
        wait_until(
            phones[first],
            "document.querySelector('#panel').textContent.includes('Your guess: disappointed')",
            30000,
        )
        assert phones[first].locator("#panel button:text('Victor')").count() == 0
        for page in (admin, phones[active], phones[second]):
            wait_until(
                page, "document.querySelector('#panel').textContent.includes('1 of 2')", 30000
            )
        # nobody else learns it: not the page, not the view's JSON, not the history
        assert _view(server.base, first)["guesses"][first]["jubilant"] is False
        for seat in (None, active, second):
            entry = _view(server.base, seat)["guesses"][first]
            assert entry == {"seat": first, "placed": True}, (seat, entry)
            query = "" if seat is None else f"?seat={seat}"
            history = httpx.get(f"{server.base}/api/history{query}", timeout=5).json()
            assert "mm.guess" not in [e["kind"] for e in history]
        for page in (admin, phones[active], phones[second]):
            controls = page.text_content("#panel .mm-controls")
            assert "Your guess" not in controls and "disappointed" not in controls, controls

        # the second guesser's one tap ends the guesses
        phones[second].click("#panel button:text-is('Jubilant Victor')")
        _until_phase(server.base, "look")
        assert not errors, errors
        server.stop()
