"""A Looking Glass hand is tapped in as card pictures on the player's own phone (issue 30): the
picker offers every character a hand can hold (not the Brawlers, which the rulebook never
deals to a hand), the server takes the four tapped, and only that phone shows them. Real
headless Chromium against the real server on the `sim` camera."""

from __future__ import annotations

import httpx
import pytest

from companion.games.looking_glass.rules.deck import BRAWLERS, load_deck
from tests.e2e.e2e_helpers import free_port, run_server, serve_argv, wait_until

PHONE = {"width": 390, "height": 844}
NOBODY_TAPS = {
    "COMPANION_CAMERA__WIDTH": "1280",
    "COMPANION_CAMERA__HEIGHT": "960",
    "COMPANION_CAMERA__SIM_PLAYERS": "false",
}
"""The film's size (its cards are drawn for it); its scripted players do not tap hands in."""
VIEW = "/api/games/looking-glass/view"


def _piles_are_the_rulebooks_grid(page, view_url: str) -> None:
    """Each player's score pile: the sun characters in one row of five, the moon's in the next,
    each with its picture and its count (a Brawler only once one is in the pile)."""
    page.wait_for_selector(".lg-pile-grid .lg-pile-cell img", timeout=20000)
    wait_until(
        page,
        "[...document.querySelectorAll('.lg-pile-grid img')]"
        ".every(i => i.complete && i.naturalWidth > 0)",
        timeout=30000,
    )
    while True:  # the film may book a pick meanwhile: compare a page and view of one moment
        view = httpx.get(view_url, timeout=5).json()
        page.wait_for_timeout(1500)  # the page has had every event up to that view
        cells = page.eval_on_selector_all(
            ".lg-pile",
            """ps => ps.map(p => [...p.querySelectorAll('.lg-pile-cell')].map(c => {
                const r = c.getBoundingClientRect();
                return [c.dataset.card, c.querySelector('b').textContent, Math.round(r.top),
                        Math.round(r.left)];
            }))""",
        )
        if httpx.get(view_url, timeout=5).json()["piles"] == view["piles"]:
            break
    assert len(cells) == 2
    for pile, grid in zip(view["piles"], cells, strict=True):
        expected = [
            (c["card"], f"×{c['count']}" if c["count"] else "0")
            for team in ("sun", "moon", "brawlers")
            for c in pile[team]
            if team != "brawlers" or c["count"]
        ]
        assert [(card, count) for card, count, _, _ in grid] == expected
        tops = [top for _, _, top, _ in grid]
        assert len(set(tops[:5])) == 1 and len(set(tops[5:10])) == 1 and tops[5] > tops[0]
        assert [left for _, _, _, left in grid[:5]] == [left for _, _, _, left in grid[5:10]]


@pytest.mark.browser
@pytest.mark.timeout(420)
def test_a_hand_is_tapped_in_as_pictures_on_the_players_own_phone(browser, lg_data_dir):
    port = free_port()
    argv = serve_argv(lg_data_dir, port, "--game", "looking-glass")
    with run_server(argv, port, timeout=180, camera=NOBODY_TAPS) as server:
        errors: list[str] = []
        ann = browser.new_page(viewport=PHONE, device_scale_factor=1)
        ann.on("pageerror", lambda exc: errors.append(str(exc)))
        ann.goto(server.base + "/?seat=0")
        ann.wait_for_selector(".lg-hand-choices .lg-choice", timeout=60000)
        offered = ann.eval_on_selector_all(
            ".lg-hand-choices .lg-choice", "bs => bs.map(b => b.dataset.card)"
        )
        hand_cards = [c for c in load_deck().ids if c not in BRAWLERS]
        assert sorted(offered) == sorted(hand_cards) and len(offered) == 10
        assert ann.locator(".lg-hand-choices .lg-choice .lg-pic").count() == 10

        # once the film's glass is dealt (a hand is refused before), four taps and one more
        wait_until(
            ann,
            f"fetch('{VIEW}?seat=0').then(r => r.json()).then(v => v.round >= 1)",
            timeout=240000,
        )
        wait_until(  # the pictures are the sim deck's own, once the game knows it
            ann,
            "[...document.querySelectorAll('.lg-hand-choices img')]"
            ".every(i => i.complete && i.naturalWidth > 0)",
            timeout=30000,
        )
        _piles_are_the_rulebooks_grid(ann, f"{server.base}{VIEW}")
        hand = [hand_cards[0], hand_cards[0], hand_cards[5], hand_cards[9]]
        piles = httpx.get(f"{server.base}{VIEW}?seat=0", timeout=5).json()["piles"][0]
        view_cards = [c for team in ("sun", "moon") for c in piles[team]]
        send = ann.locator(".lg-hand > button")
        assert send.is_disabled() and send.text_content() == "0 of 4 chosen"
        for card in hand:
            ann.click(f".lg-hand-choices .lg-choice[data-card='{card}']")
        assert send.text_content() == "Tap in my hand"
        send.click()
        shown = ".lg-hand-mine > .lg-hand-picked img"  # the hand as booked, not the picker's
        ann.wait_for_selector(shown, timeout=20000)
        assert ann.locator(shown).count() == 4 and ann.locator(".lg-hand").count() == 0
        assert sorted(ann.eval_on_selector_all(shown, "is => is.map(i => i.alt)")) == sorted(
            next(c["name"] for c in view_cards if c["card"] == card) for card in hand
        )
        mine = httpx.get(f"{server.base}{VIEW}?seat=0", timeout=5).json()
        assert mine["my_hand"] == sorted(hand)

        # the other seat's phone and the table's page never see it
        bob = browser.new_page(viewport=PHONE, device_scale_factor=1)
        bob.on("pageerror", lambda exc: errors.append(str(exc)))
        bob.goto(server.base + "/?seat=1")
        bob.wait_for_selector(".lg-hand-choices .lg-choice", timeout=30000)
        theirs = httpx.get(f"{server.base}{VIEW}?seat=1", timeout=5).json()
        public = httpx.get(f"{server.base}{VIEW}", timeout=5).json()
        assert theirs["my_hand"] is None and "my_hand" not in public
        assert bob.locator(".lg-hand-mine > .lg-hand-picked img").count() == 0
        assert ann.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert not errors, errors
        server.stop()
