"""The private panels in words: each player's hint, as the real panel module draws it from the
view its own phone receives, names letters, mirrors, squares and cards as the players do,
never a screen id ("A3"), a mirror's facing code ("SE") or a card kind's id ("red-sun");
Queen Alice's choices are buttons in words, not the action's JSON.

The views are the table games' own; where the start of a game has no plan to show (Reflecto's
and Mirror Mansion's searches find none there within their budget), the hint is one in the
shape the game writes (`Move.to_json`, Mirror Mansion's `[from, to, slot, facing]`)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.games.mirror_mansion.table.live import make_table_game as mirror_mansion
from companion.games.mirror_mansion.table.messages import EnterCards, EnterRoll
from companion.games.queen_alice.table.live import make_table_game as queen_alice
from companion.games.queen_alice.table.messages import PlayCard
from companion.games.reflecto.rules.position import Move
from companion.games.reflecto.table.live import make_table_game as reflecto
from companion.live.conformance import Correct, play
from tests.e2e.demo_page import codes_in
from tests.games.mirror_mansion_table.helpers import (
    CARDS,
    START,
    frames_of,
    new_session,
    with_moves,
)
from tests.games.onirim_table.helpers import API as ONIRIM_API
from tests.games.onirim_table.helpers import live_table
from tests.games.queen_alice_table.helpers import frames as qa_frames
from tests.games.queen_alice_table.helpers import moved
from tests.games.queen_alice_table.helpers import session as qa_session
from tests.games.queen_alice_table.helpers import start as qa_start
from tests.games.queen_alice_table.test_live import KNIGHT, to_play
from tests.games.reflecto.test_table import SETUP0, SETUP1, seen, session, start
from tests.web.web_helpers import served

MOUNT = """async ({ gid, seat, view }) => {
  // The game's own panel module, mounted as the dashboard mounts it, on one phone's view.
  const mod = await import(`/static/games/${gid}.js`);
  const el = document.createElement("div");
  document.body.append(el);
  const state = { view, seat, session: { seats: view.seats || [] } };
  const none = async () => ({});
  const api = { seat, state: () => state, get: none, post: none, correct: none };
  mod.mount(el, { ...api, onState: () => {} });
  return el.innerText;
}"""


def _json(view: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(view))


def reflecto_view() -> dict[str, Any]:
    """Ann's phone with a hint's plan: her first letter two squares on; her mirrors on."""
    steps = [Correct(SETUP0, 0), *seen(start()), Correct(SETUP1, 1), *seen(start())]
    game, _ = play(reflecto, None, session(), steps)
    view = _json(game.view(0))
    mine = [x for x in view["screens"] if x["owner"] == 0 and x["cell"]]
    letter = next(x for x in mine if x["kind"] == "letter" and x["text"])
    mirror = next(x for x in mine if x["kind"] == "mirror")
    (r, c) = letter["cell"]
    plan = [Move(letter["id"], (r + 1, c)), Move(letter["id"], (r + 2, c))]
    view["hint"] = {"moves": 2, "plan": [m.to_json() for m in plan], "proven": True}
    view["hint"] |= {"at_least": 2, "seconds": 0.1, "seat": 0}
    other = next(x for x in view["screens"] if x["owner"] == 1)
    view["sight"] = [{"mirror": mirror["id"], "screen": other["id"], "text": "L", "rank": None}]
    view["sight_on"] = True
    return view


def mirror_mansion_view() -> dict[str, Any]:
    """The active player's phone during the swaps, with a one-swap hint."""
    steps = [
        Correct(EnterCards(cards=CARDS)),
        *frames_of(START),
        *frames_of(with_moves(START, "W0")),
        Correct(EnterRoll(value=1), 0),
    ]
    game, _ = play(mirror_mansion, None, new_session(), steps)
    view = _json(game.view(0))
    assert view["phase"] == "swaps"
    view["hint"] = {"seat": 0, "swaps": 1, "reason": None, "moves": [[[0, 0], [1, 2], "/", "SE"]]}
    return view


def queen_alice_view() -> dict[str, Any]:
    """The mover's phone after her knight's move: the actions the square offers, as buttons."""
    after = moved(qa_start(), (0, 2), (2, 3))  # the white knight
    steps = [*to_play(), *qa_frames(after, hand_over=((0, 2), (2, 3)))]
    steps.append(Correct(PlayCard(card=KNIGHT), 0))
    game, _ = play(queen_alice, None, qa_session(), steps)
    return _json(game.view(0))


@pytest.mark.browser
def test_each_hint_reads_in_words_on_the_players_own_phone(browser, tmp_path) -> None:
    views = {"reflecto": reflecto_view(), "mirror-mansion": mirror_mansion_view()}
    views["queen-alice"] = queen_alice_view()
    with live_table(tmp_path, {"mirrors": True}) as (http, runtime):
        drew = ["red-sun", "blue-moon", "green-key", "brown-moon", "red-key"]
        assert http.post(f"{ONIRIM_API}/drew?seat=0", json={"cards": drew}).status_code == 200
        assert http.post(f"{ONIRIM_API}/hint?seat=0").status_code == 200
        views["onirim"] = http.get(f"{ONIRIM_API}/view?seat=0").json()
        assert views["onirim"]["hint"]["actions"]
        with served(http.app, runtime) as base:
            page = browser.new_page()
            # any page of the server's origin imports its modules (the dashboard's own would
            # keep loading the camera stream, which no camera feeds here)
            page.goto(base + "/api/health")
            said = {
                gid: page.evaluate(MOUNT, {"gid": gid, "seat": 0, "view": view})
                for gid, view in views.items()
            }
            page.close()
    for gid, text in said.items():
        assert not codes_in(text), (gid, codes_in(text), [x for x in text.splitlines() if "-" in x])
    # Reflecto: "the P at row 1, column 2 to row 2, column 2", not "A1→[1,1]"
    plan = next(line for line in said["reflecto"].splitlines() if "moves" in line)
    said_first = r"the [A-Z]+ at row (\d), column (\d) to row (\d), column \d, "
    said_second = r"the [A-Z]+ at row (\d), column \d to row \d, column \d"
    found = re.search(said_first + said_second, plan)
    assert found and found[3] == found[4] != found[1], plan  # where the first move left it
    assert "→" not in plan and "[" not in plan, plan
    assert re.search(r"the mirror at row \d, column \d shows L", said["reflecto"])
    # Mirror Mansion: squares and the reflective side's direction in words
    swaps = next(line for line in said["mirror-mansion"].splitlines() if "Fewest" in line)
    assert "the mirror at row 1, column 1 to row 2, column 3" in swaps, swaps
    assert "to the south-east" in swaps and not re.search(r"\b[NS][EW]\b", swaps), swaps
    # Queen Alice: a choice's button says the action and what it costs, not its JSON
    qa = said["queen-alice"]
    assert "The diamonds action (1, 0), paying 1 toast" in qa and "Pass" in qa, qa[-600:]
    assert "{" not in qa and '"' not in qa, qa[-600:]
    # Onirim: each move as an imperative with the card in words
    moves = [line for line in said["onirim"].splitlines() if "% to win" in line]
    assert moves and all(re.match(r"(Play|Discard|Choose|Pair) the ", m) for m in moves), moves
    # and its Mirrors by name: "The Sun Mirror", not "sun"
    assert "The Sun Mirror:" in said["onirim"] and "The red Mirror:" in said["onirim"]
    assert re.search(r"Mirrors still needed: (none|the \w+ Mirror)", said["onirim"])
