"""The Looking Glass panel's "The table is right" in real headless Chromium (issue 30): shown
to the admin once the camera saw something the rules refuse (a glass they cannot deal, from
the real table game), and a tap posts to the real server, whose answer the panel says in
words and whose event the log names."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from companion.config import Settings
from companion.games.looking_glass.table.live import make_table_game
from companion.live.conformance import Observe, play
from companion.live.table_game import Observation
from companion.store import Session
from tests.e2e.demo_page import PHONE
from tests.e2e.e2e_helpers import free_port, run_server, serve_argv, wait_until
from tests.games.looking_glass_table.helpers import random_glass, synthetic_reading

SESSION = Session("s1", "looking-glass", {}, ["Ann", "Bo"], 0.0)
FILM_ALONE = {
    "COMPANION_CAMERA__WIDTH": "1280",
    "COMPANION_CAMERA__HEIGHT": "960",
    "COMPANION_CAMERA__SIM_PLAYERS": "false",
}
"""The film's size (its cards are drawn for it); its scripted players tap nothing."""

MOUNT = """async (view) => {
  // The panel as the admin's page mounts it, its taps posted to this very server.
  const mod = await import('/static/games/looking-glass.js');
  const el = document.createElement('div');
  el.id = 'probe';
  document.body.prepend(el);
  const post = async (path, body) => {
    const res = await fetch(path, { method: 'POST', body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' } });
    const answer = await res.json();
    if (!res.ok) throw new Error(answer.detail);
    return answer;
  };
  mod.mount(el, { seat: null, state: () => ({ view, role: 'local' }), onState: () => {},
                  get: async () => view, post });
  return el.querySelectorAll('.lg-fix button').length;
}"""


def _refused_deal_view() -> dict:
    glass = random_glass(23)
    glass["A-r3-c3"] = "lion"  # a Brawler in the top row: no deal the rules allow
    steps = [Observe(Observation(synthetic_reading(glass), 0.9))] * 20
    game, _ = play(make_table_game, Settings(), SESSION, steps)
    return json.loads(json.dumps(game.view(None)))


@pytest.mark.browser
@pytest.mark.timeout(420)
def test_the_table_is_right_is_offered_after_a_breach_and_posts_to_the_server(browser, lg_data_dir):
    view = _refused_deal_view()
    assert view["breaches"] and view["breaches"][0]["what"] == "deal"
    clean = json.loads(json.dumps(view))
    clean["breaches"] = []
    port = free_port()
    argv = serve_argv(lg_data_dir, port, "--game", "looking-glass")
    with run_server(argv, port, timeout=180, camera=FILM_ALONE) as server:
        page = browser.new_page(viewport=PHONE, device_scale_factor=1)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=30000)
        assert page.evaluate(MOUNT, clean) == 0  # nothing drifted: no button
        page.evaluate("document.getElementById('probe').remove()")
        assert page.evaluate(MOUNT, view) == 1
        fix = page.locator("#probe .lg-fix")
        assert "If the cards on the table are right" in fix.text_content()

        # the server's game, dealt by the film: the tap is taken once the camera holds still
        wait_until(
            page,
            "fetch('/api/games/looking-glass/view').then(r => r.json()).then(v => v.round >= 1)",
            timeout=240000,
        )
        told = page.locator("#probe .lg-told")
        deadline = time.monotonic() + 120
        while "table.right" not in [
            e["kind"] for e in httpx.get(f"{server.base}/api/history", timeout=5).json()
        ]:
            assert time.monotonic() < deadline, f"never taken: {told.text_content()}"
            fix.locator("button").click()
            time.sleep(2)
            refusal = told.text_content()
            assert "\n" not in refusal and "Traceback" not in refusal
        wait_until(
            page,
            "[...document.querySelectorAll(\"#log li[data-kind='table.right'] .words\")]"
            ".some(w => w.textContent.startsWith('The table is right'))",
            timeout=20000,
        )
        assert not errors, errors
        server.stop()
