"""The Looking Glass panel's pick history in real headless Chromium, from the view the real table
game makes of a round: a self-linked pair that left at once is named as a pair (which of its
two places was chosen was not seen), a pick seen step by step by the place of its card."""

from __future__ import annotations

import json

import pytest

from companion.config import Settings
from companion.games.looking_glass.table.live import make_table_game
from companion.live.conformance import Observe, play
from companion.live.table_game import Observation
from companion.store import Session
from tests.e2e.e2e_helpers import free_port, run_server, serve_argv
from tests.games.looking_glass_table.helpers import random_glass, synthetic_reading

SESSION = Session("s1", "looking-glass", {}, ["Ann", "Bo"], 0.0)

MOUNT = """async (view) => {
  const mod = await import('/static/games/looking-glass.js');
  const el = document.createElement('div');
  document.body.append(el);
  mod.mount(el, { seat: null, state: () => ({ view, role: 'viewer' }), onState: () => {},
                  get: async () => view, post: async () => ({}) });
  return [...el.querySelectorAll('.lg-history li')].map((li) => li.textContent);
}"""


def _round_view() -> dict:
    glass = random_glass(4)
    glass["B-r3-c5"] = glass["A-r3-c5"]  # self-linked
    gone: set[str] = set()
    steps = [Observe(Observation(synthetic_reading(glass), 0.9))] * 7
    for step in ({"A-r3-c5", "B-r3-c5"}, {"A-r3-c3"}, {"B-r3-c3"}):
        gone |= step
        steps += [Observe(Observation(synthetic_reading(glass, hidden=gone), 0.9))] * 7
    game, _ = play(make_table_game, Settings(), SESSION, steps)
    return json.loads(json.dumps(game.view(None)))


@pytest.mark.browser
def test_the_history_names_a_self_linked_pair_and_the_card_of_a_pick_seen(browser, tmp_path):
    view = _round_view()
    assert [p["order"] for p in view["picks"]] == ["self-linked", "first-gone"]
    port = free_port()
    with run_server(serve_argv(tmp_path / "data", port), port) as server:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.base + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=15000)
        # the platform's own marks on the live image have their legend entry, in their colour
        page.wait_for_selector("#overlay-legend li.sw-blue", timeout=15000)
        platform = page.text_content("#overlay-legend li.sw-blue")
        lines = page.evaluate(MOUNT, view)
    assert errors == []
    assert platform == "table outline and its markers"
    linked, seen = view["picks"]
    names = {
        c["card"]: c["name"].replace("The ", "the ", 1)
        for team in ("sun", "moon", "brawlers")
        for c in view["piles"][0][team]
    }
    linked_at = "row 4 of either half, 2nd from Ann's left"  # A-r3-c5 or B-r3-c5
    assert lines[0].startswith(f"Ann took {names[linked['card']]} ({linked_at}); Bo got")
    seen_at = "row 4 of Ann's half, 1st from Ann's left"  # A-r3-c3
    assert lines[1].startswith(f"Bo took {names[seen['card']]} ({seen_at}); Ann got")
    assert " or " not in lines[1]
