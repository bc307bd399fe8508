"""A whole demo round per game in real headless Chromium, as a family would see it: the `sim`
camera, "New game" from the page, then only what the page shows (names, score, verdict) until
the round is scored. The sim's scripted players tap like phones; nothing reaches into the game.

Screenshots of each game's page at phone and laptop size go to artifacts/.
"""

from __future__ import annotations

import httpx
import pytest

from tests.e2e.demo_page import (
    DEMO_CAMERA,
    DEMO_PACE,
    PHONE,
    kinds,
    new_game,
    no_horizontal_scroll,
    screenshots,
)
from tests.e2e.e2e_helpers import SMALL_CAMERA, free_port, run_server, serve_argv, wait_until

ROUND_TIMEOUT_MS = 480_000
"""A Looking Glass round is ~90 s of film, a Mirror Mansion turn ~20 s. At `DEMO_PACE` the
film runs up to twice as fast, but never faster than perception reads its frames: 4 film
frames a second need 4 frames read a second (a loaded shared machine reads 1: a quarter
of real time)."""
START_TIMEOUT_MS = 180_000
"""A new Looking Glass game on `sim` builds the simulated deck before it answers."""


@pytest.mark.browser
@pytest.mark.timeout(780)  # the demo plays at perception's pace
def test_a_looking_glass_demo_round_from_new_game_to_the_score(browser, lg_data_dir):
    port = free_port()
    # The server already plays the Looking Glass, so the round starts without loading the deck
    # again (a Looking Glass started after another game: test_browser_every_panel_on_a_phone).
    argv = serve_argv(lg_data_dir, port, "--game", "looking-glass")
    with run_server(argv, port, timeout=180, camera=DEMO_CAMERA) as server:
        page = browser.new_page(viewport=PHONE, device_scale_factor=1)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=15000)
        new_game(page, "looking-glass", "Ann, Bob")
        page.wait_for_selector(".lg-wins:has-text('Ann')", timeout=START_TIMEOUT_MS)
        assert "Bob" in page.text_content(".lg-wins")

        # the glass, drawn from the sim deck's own pictures, with the legal picks marked
        page.wait_for_selector(".lg-glass .lg-card img", timeout=START_TIMEOUT_MS)
        wait_until(
            page,
            "[...document.querySelectorAll('.lg-glass .lg-card img')]"
            ".some(i => i.naturalWidth > 0)",
            timeout=15000,
        )
        assert page.locator(".lg-glass .lg-legal").count() >= 1
        assert page.locator(".lg-legend").count() == 1
        # a tap on a card names it in full (a free one: a covered card shows only its upper half)
        tile = page.locator(".lg-glass .lg-card.lg-legal[data-card]:not([data-card=''])").first
        tile.click()
        view = httpx.get(f"{server.base}/api/games/looking-glass/view", timeout=5).json()
        names = {
            c["card"]: c["name"] for t in ("sun", "moon", "brawlers") for c in view["piles"][0][t]
        }
        full_name = names[tile.get_attribute("data-card")]
        assert page.text_content(".lg-told").startswith(f"{full_name}: ")

        # the pictures are public and cacheable; a card the deck lacks is a 404 in words
        card = page.get_attribute(".lg-glass .lg-card[data-card]:not([data-card=''])", "data-card")
        pic = httpx.get(f"{server.base}/api/games/looking-glass/cards/{card}.png", timeout=5)
        assert pic.status_code == 200 and pic.headers["content-type"] == "image/png"
        assert pic.content[:4] == b"\x89PNG" and "public" in pic.headers["cache-control"]
        missing = httpx.get(f"{server.base}/api/games/looking-glass/cards/nobody.png", timeout=5)
        assert missing.status_code == 404 and "/" not in missing.json()["detail"]

        # the whole round, played by the film, until the page shows its result
        page.wait_for_selector(".lg-result", timeout=ROUND_TIMEOUT_MS)
        view = httpx.get(f"{server.base}/api/games/looking-glass/view", timeout=5).json()
        (result,) = view["results"]
        winner = ["Ann", "Bob"][result["winner"]]
        assert page.text_content(".lg-result") == (
            f"Round 1: Ann {result['totals'][0]}, Bob {result['totals'][1]}. "
            f"{winner} wins the round."
        )
        assert page.text_content(".lg-wins").replace(" ", "") in ("Ann1–0Bob", "Ann0–1Bob")
        assert page.locator(".lg-chart rect").count() == 2
        # every pick in players' words, none of them illegal in a film that plays by the rules
        picks = page.locator("#log li[data-kind='lg.pick'] .words").all_text_contents()
        assert len(picks) == len(view["picks"]) >= 8
        assert all(
            p.startswith(("Ann took ", "Bob took ")) and "(its reflection)" in p and "-" not in p
            for p in picks
        ), picks  # names, not card ids
        assert view["illegal"] == [] and page.locator(".lg-illegal").count() == 0
        assert not [k for k in kinds(server.base) if "breach" in k]
        # the frame of the scored round is one tap away, the raw event one more
        row = page.locator("#log li[data-kind='lg.round']")
        row.locator("summary").first.click()
        wait_until(
            page,
            "document.querySelector(\"#log li[data-kind='lg.round'] img.shot\").naturalWidth > 0",
            timeout=10000,
        )
        assert "lg.round" not in row.locator(".words").text_content()
        row.locator("details details summary").click()
        assert '"kind": "lg.round"' in row.locator("pre").text_content()
        assert no_horizontal_scroll(page)
        screenshots(browser, server.base, "looking-glass")
        assert not errors, errors
        server.stop()


@pytest.mark.browser
@pytest.mark.timeout(780)  # the demo plays at perception's pace
def test_a_mirror_mansion_demo_round_from_new_game_to_the_verdicts(browser, tmp_path):
    port = free_port()
    with run_server(
        serve_argv(tmp_path / "data", port), port, camera={**SMALL_CAMERA, **DEMO_PACE}
    ) as server:
        page = browser.new_page(viewport=PHONE, device_scale_factor=1)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=15000)
        new_game(page, "mirror-mansion", "Ann, Bob")
        page.wait_for_selector(".mm-board", timeout=START_TIMEOUT_MS)
        # the sim's players tap the motifs in; until then the set-up shows a second picture
        wait_until(page, "!document.querySelector('#panel .mm-setup')", timeout=START_TIMEOUT_MS)
        assert "Ann" in page.text_content(".mm-drops") and "Bob" in page.text_content(".mm-drops")
        # the box as a picture: twelve castle-card places, and once read, its four mirrors
        assert page.locator(".mm-board .mm-place").count() == 12
        wait_until(
            page,
            "document.querySelectorAll('.mm-board .mm-mirror').length === 4",
            timeout=START_TIMEOUT_MS,
        )
        assert page.locator("#overlay-legend li").count() >= 3

        # a round: each player's turn through to the look's verdict
        wait_until(
            page, "document.querySelectorAll('.mm-look').length >= 2", timeout=ROUND_TIMEOUT_MS
        )
        view = httpx.get(f"{server.base}/api/games/mirror-mansion/view", timeout=5).json()
        lines = page.locator(".mm-look").all_text_contents()
        for look in view["looks"][-2:]:
            seeker = ["Ann", "Bob"][look["seat"]]
            line = next(x for x in lines if x.startswith(f"{seeker} sought the "))
            mood = "jubilant" if look["found"] else "disappointed"
            assert f"Victor is {mood}" in line, line
        assert page.locator(".mm-board .mm-light").count() in (0, 1)
        drops = page.text_content(".mm-drops")
        assert all(f"{n} {d}" in drops for n, d in zip(["Ann", "Bob"], view["drops"], strict=True))
        # a film that plays by the rules: no breach anywhere
        assert "mm.breach" not in kinds(server.base)
        assert page.locator(".mm-breach").count() == 0
        words = page.locator("#log li .words").all_text_contents()
        assert any(w.startswith("The die shows ") for w in words)
        assert any(w == "Make your guesses!" for w in words)
        assert not any("{" in w for w in words), words  # words, not JSON
        assert no_horizontal_scroll(page)
        screenshots(browser, server.base, "mirror-mansion")
        assert not errors, errors
        server.stop()
