"""The Queen Alice panel in real headless Chromium against the real server: the admin enters
the set-up, a seat taps in the card it drew and its Train cards on its own phone, and the
other seat's phone never shows those cards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.e2e_helpers import SMALL_CAMERA, free_port, run_server, serve_argv, wait_until
from tests.games.queen_alice_table.helpers import HANDS, TRAIN, WISHES, market_cards

PANEL = "document.querySelector('#panel').textContent"
NOBODY_TAPS = {**SMALL_CAMERA, "COMPANION_CAMERA__SIM_PLAYERS": "false"}
"""The `sim` film's scripted players would enter the set-up themselves: here people do."""


@contextmanager
def ann_and_bob(browser, tmp_path: Path) -> Iterator[tuple[Any, Any, list[str]]]:
    """A Queen Alice session of Ann and Bob on a real server, and the admin's page showing its
    board; page errors are collected in the list yielded with them."""
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
        yield server, admin, errors
        server.stop()


@pytest.mark.browser
def test_the_set_up_and_a_card_drawn_stay_where_they_belong(browser, tmp_path: Path) -> None:
    with ann_and_bob(browser, tmp_path) as (server, admin, errors):
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


@pytest.mark.browser
def test_a_train_card_is_chosen_on_its_own_phone_and_stays_there(browser, tmp_path: Path) -> None:
    """Ann picks the Train cards dealt to her from the box's list and keeps one with a side;
    Bob's phone shows only that she has chosen."""
    port = free_port()
    with run_server(
        serve_argv(tmp_path / "data", port, "--fps", "4"), port, camera=NOBODY_TAPS
    ) as server:
        api = f"{server.base}/api/games/queen-alice"
        with httpx.Client(timeout=10) as http:
            res = http.post(
                f"{server.base}/api/session", json={"game": "queen-alice", "seats": ["Ann", "Bob"]}
            )
            assert res.status_code == 201, res.text
            steps = [("setup", None, {"tile": "A", "wishes": list(WISHES)})]
            steps += [("drew", s, {"card": c}) for s, hand in enumerate(HANDS) for c in hand]
            steps += [("revealed", None, {"level": lv, "card": c}) for lv, c in market_cards()]
            for path, seat, body in steps:
                query = "" if seat is None else f"?seat={seat}"
                assert http.post(f"{api}/{path}{query}", json=body).status_code == 200

        errors: list[str] = []
        pages = {}
        for seat in (0, 1):
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{server.base}/?seat={seat}")
            pages[seat] = page
        ann, bob = pages[0], pages[1]
        (first, second), kept = TRAIN[0]
        ann.wait_for_selector(
            f"#panel select.qa-train-dealt option[value='{second}']", state="attached"
        )
        selects = ann.locator("#panel select.qa-train-dealt")
        selects.nth(0).select_option(first)
        selects.nth(1).select_option(second)
        ann.click("#panel button:has-text('These were dealt to me')")
        res = httpx.post(f"{api}/train-dealt?seat=1", json={"cards": list(TRAIN[1][0])})
        assert res.status_code == 200, res.text
        ann.click(f"#panel button:has-text('Keep {kept}, red')", timeout=20000)
        wait_until(ann, f"{PANEL}.includes('Your Train card: {kept}, red side')", timeout=20000)

        wait_until(bob, f"{PANEL}.includes('Ann chosen, Bob still choosing')", timeout=20000)
        assert not [c for c in (first, second) if c in bob.content()]
        assert bob.locator("#panel button:has-text('Keep ')").count() == 2 * 2  # his own
        assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert not errors, errors
        server.stop()


@pytest.mark.browser
def test_a_card_id_half_typed_outlives_an_update_from_the_table(browser, tmp_path: Path) -> None:
    """Panels redraw on every state update; what Ann is typing on her phone when another
    update arrives (here a card drawn tapped in from elsewhere) stays typed and is sent."""
    with ann_and_bob(browser, tmp_path) as (server, admin, errors):
        admin.click("#panel button:has-text('Start')")
        wait_until(admin, f"{PANEL}.includes('Ann: tap the card you drew')", timeout=20000)

        ann = browser.new_page(viewport={"width": 390, "height": 844})
        ann.on("pageerror", lambda exc: errors.append(str(exc)))
        ann.goto(server.base + "/?seat=0")
        field = "#panel input[placeholder='card drawn (id)']"
        ann.wait_for_selector(field, timeout=30000)
        ann.fill(field, "basic-7")
        ann.focus(field)
        res = httpx.post(
            f"{server.base}/api/games/queen-alice/drew?seat=0", json={"card": "basic-3"}, timeout=10
        )
        assert res.status_code == 200, res.text
        wait_until(ann, f"{PANEL}.includes('Your hand: basic-3 (white knight)')", timeout=20000)
        assert ann.input_value(field) == "basic-7"
        assert ann.evaluate(f"document.activeElement === document.querySelector({field!r})")
        ann.click("#panel button:has-text('I drew it')")
        wait_until(ann, f"{PANEL}.includes('basic-7 (white rook)')", timeout=20000)
        assert ann.input_value(field) == ""
        assert not errors, errors
