"""The dashboard in real headless Chromium against the real server, phone-sized."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.e2e.e2e_helpers import (
    REPO,
    example_server_argv,
    free_port,
    run_server,
    serve_argv,
    wait_until,
)

SIGNATURE_JS = """img => {
  const c = document.createElement('canvas'); c.width = 64; c.height = 48;
  const ctx = c.getContext('2d'); ctx.drawImage(img, 0, 0, 64, 48);
  const d = ctx.getImageData(0, 0, 64, 48).data; let s = 0;
  for (let i = 0; i < d.length; i++) s = (s * 31 + d[i]) >>> 0;
  return [img.naturalWidth, s];
}"""


@pytest.mark.browser
def test_dashboard_shows_live_view_status_and_starts_a_game(browser, tmp_path):
    port = free_port()
    with run_server(serve_argv(tmp_path / "data", port), port) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=15000)

        # status bar filled from /api/health and SSE
        wait_until(page, "document.getElementById('st-camera').textContent === 'ok'", timeout=15000)
        wait_until(
            page,
            "document.getElementById('st-markers').textContent.startsWith('4/4')",
            timeout=15000,
        )
        # perception time and rate need one and two processed frames: they fill as frames come
        wait_until(
            page, "document.getElementById('st-ms').textContent.endsWith(' ms')", timeout=15000
        )
        wait_until(
            page, "parseFloat(document.getElementById('st-fps').textContent) > 0", timeout=15000
        )

        # the live image is decoded and changes (MJPEG, or stills after the fallback)
        img = page.locator("#live")
        wait_until(page, "document.getElementById('live').naturalWidth > 0", timeout=15000)
        first = img.evaluate(SIGNATURE_JS)
        # The Queen Alice film holds still between its moves (a still board for the reader):
        # the picture must change within a few seconds, not within one.
        for _ in range(15):
            page.wait_for_timeout(1000)
            second = img.evaluate(SIGNATURE_JS)
            if second[1] != first[1]:
                break
        assert first[0] == 640 and second[0] == 640
        assert first[1] != second[1], "the camera view did not change in 15 s"

        # the game picker starts a new game; the event log shows it from SSE
        page.select_option("#game-select", "queen-alice")
        page.fill("#seat-names", "Alice, Bob")
        page.click("#new-game button[type=submit]")
        page.wait_for_selector(
            "#log li:has-text('New Queen Alice game: Alice, Bob')", timeout=10000
        )
        wait_until(
            page,
            "document.getElementById('game-title').textContent === 'Queen Alice'",
            timeout=10000,
        )
        page.wait_for_selector("#panel .qa-board", timeout=10000)  # the game's own panel
        # portrait phone: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

        artifacts = REPO / "artifacts"
        artifacts.mkdir(exist_ok=True)
        page.screenshot(path=str(artifacts / "dashboard.png"), full_page=True)

        # browsers that show only an MJPEG stream's first frame get refreshed stills
        page.goto(server.base + "/?view=stills")
        wait_until(
            page, "document.getElementById('live').src.includes('/api/snapshot.jpg')", timeout=15000
        )
        src = page.get_attribute("#live", "src")
        wait_until(page, f"document.getElementById('live').src !== {src!r}", timeout=10000)
        assert page.text_content("#view-mode") == "stills"
        assert page.evaluate("document.getElementById('live').naturalWidth") == 640
        assert not errors, errors
        server.stop()


@pytest.mark.browser
def test_seat_links_show_each_player_only_their_own_secrets(browser, tmp_path):
    """On the LAN: the admin starts a game, each phone opens its seat link."""
    port = free_port()
    data = tmp_path / "data"
    with run_server(example_server_argv(data, port, host="0.0.0.0"), port) as server:
        assert httpx.get(f"{server.base}/api/state").json()["role"] == "spectator"
        admin_token = _admin_token(data)
        admin = browser.new_page(viewport={"width": 390, "height": 844})
        admin.goto(f"{server.base}/?token={admin_token}")
        admin.wait_for_selector("body[data-ready='1']")
        assert "token" not in admin.url  # the token leaves the address bar
        admin.fill("#seat-names", "Ann, Bob")
        admin.click("#new-game button[type=submit]")
        admin.wait_for_selector("#links li a")
        links = [a.get_attribute("href") for a in admin.query_selector_all("#links li a")]
        assert len(links) == 2 and all("token=" in link for link in links)

        ann = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        ann.goto(links[0])
        ann.wait_for_selector("body[data-ready='1']")
        assert ann.text_content("#who") == "Ann's phone"
        assert ann.is_hidden("#admin-card")  # a seat cannot start games
        ann.fill("#panel input", "the key is under the mat")
        ann.click("#panel button")
        ann.wait_for_selector("#panel li:has-text('the key is under the mat')")
        ann.wait_for_selector("#log li.private[data-kind='memo']:has-text('under the mat')")

        bob = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        bob.goto(links[1])
        bob.wait_for_selector("body[data-ready='1']")
        assert bob.text_content("#who") == "Bob's phone"
        spectator = browser.new_context().new_page()
        spectator.goto(server.base + "/")
        spectator.wait_for_selector("body[data-ready='1']")
        assert spectator.text_content("#who") == "watching"
        assert spectator.is_hidden("#admin-card")
        admin.wait_for_timeout(500)  # the admin page was open: live events had their chance
        for page in (bob, spectator, admin):  # the memo reached none of them
            assert page.locator("#log li").count() >= 1
            assert "under the mat" not in page.content()
        for page in (admin, ann, bob, spectator):
            page.close()
        server.stop()


def _admin_token(data_dir: Path) -> str:
    from companion.store import Store

    store = Store(data_dir)
    try:
        return store.admin_token()[0]
    finally:
        store.close()


@pytest.mark.browser
def test_the_game_an_admin_picks_stays_picked_while_events_arrive(browser, tmp_path):
    """The table's events re-read the state; they once put the dropdown back on the game
    being played between the admin's pick and their tap on "Start", so the old game restarted."""
    port = free_port()
    with run_server(example_server_argv(tmp_path / "data", port), port) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=15000)
        assert page.input_value("#game-select") == "example"
        reads: list[str] = []  # each event makes the page read /api/state again
        page.on("request", lambda r: reads.append(r.url) if "/api/state" in r.url else None)
        page.select_option("#game-select", "reflecto")
        for i in range(3):  # the table's events, here notes a player leaves
            note = {"note": f"note {i}"}
            assert httpx.post(f"{server.base}/api/corrections", json=note).status_code == 200
        for _ in range(100):
            if len(reads) >= 3:
                break
            page.wait_for_timeout(100)
        assert len(reads) >= 3, "the page did not read the state after the events"
        assert page.input_value("#game-select") == "reflecto"
        server.stop()
