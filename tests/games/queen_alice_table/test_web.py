"""Queen Alice live through the real HTTP server and SQLite store: taps on the phones' routes,
the camera's readings through the runtime, a breach, "the table is right", a capture into
the mover's Jail, hands that stay on their own phones, and a restart that resumes the game.

The chessboard reader is built apart (vision/); until it lands, the game's perceiver is fed
the readings a camera would give (`BoardSeen`), and everything after it is the real thing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import pytest

from companion.camera.base import Frame
from companion.config import load_settings
from companion.games.queen_alice.table.observation import Occupancy
from companion.live.loop import Runtime
from companion.live.table_game import Observation
from companion.web.app import create_app
from tests.web.web_helpers import served

from .helpers import HANDS, TRAIN, WISHES, market_cards, moved, seen, start

API = "/api/games/queen-alice"
KNIGHT = "basic-3"


class Camera:
    """Frames for the runtime; the game's perceiver returns the board set here."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime, self.board, self.shots = runtime, start(), 0
        runtime.game.perceive = self.perceive  # type: ignore[method-assign]

    def perceive(self, frame: Any, registration: Any) -> Observation:
        return Observation(seen(self.board), 0.9)

    def show(self, board: Occupancy, frames: int = 4) -> None:
        self.board = board
        for _ in range(frames):
            self.shots += 1
            # Stamped as a 10 fps camera would: stillness is timed by frame time.
            t = 0.1 * self.shots
            self.runtime.process(Frame(np.zeros((120, 160, 3), np.uint8), t, self.shots))


@pytest.fixture
def live(tmp_path) -> Iterator[tuple[httpx.Client, Runtime]]:
    settings = load_settings(
        None,
        {
            "data_dir": str(tmp_path / "data"),
            "game": "queen-alice",
            "camera.width": 160,
            "camera.height": 120,
            # one client taps in a whole table's set-up and Train cards in a moment, faster
            # than a seat's rate of changes (the rate limit has its own tests)
            "web.actions_per_s": 1000.0,
        },
        environ={},
    )
    runtime = Runtime(settings)  # no camera thread: frames are given to `process`
    runtime.use_registrar()
    try:
        with (
            served(create_app(settings, runtime), runtime) as base,
            httpx.Client(base_url=base, timeout=30) as http,
        ):
            yield http, runtime
    finally:
        runtime.stop()


def ok(res: httpx.Response) -> Any:
    assert res.status_code == 200, res.text
    return res.json()


def set_up(http: httpx.Client) -> None:
    """A new game of Ann and Bob, the set-up, hands and market tapped in."""
    res = http.post("/api/session", json={"game": "queen-alice", "seats": ["Ann", "Bob"]})
    assert res.status_code == 201, res.text
    ok(http.post(f"{API}/setup", json={"tile": "A", "wishes": list(WISHES)}))
    for seat, hand in enumerate(HANDS):
        for card in hand:
            ok(http.post(f"{API}/drew?seat={seat}", json={"card": card}))
    for level, card in market_cards():
        ok(http.post(f"{API}/revealed", json={"level": level, "card": card}))


def test_train_cards_stay_on_their_own_phone_until_all_have_chosen(live) -> None:
    http, _ = live
    set_up(http)
    box = ok(http.get(f"{API}/train-cards"))
    assert len(box) == 16 and all(c["red"] and c["white"] for c in box)
    for seat in (0, 1):
        ok(http.post(f"{API}/train-dealt?seat={seat}", json={"cards": list(TRAIN[seat][0])}))
    bob = TRAIN[1][0]
    res = http.post(f"{API}/train?seat=1", json={"card": TRAIN[0][1], "side": "red"})
    assert res.status_code == 409 and "train cards" in res.text  # Ann's card, not Bob's
    mine = ok(http.post(f"{API}/train?seat=1", json={"card": TRAIN[1][1], "side": "white"}))
    assert [c["id"] for c in mine["my_train"]["dealt"]] == sorted(bob)
    assert mine["my_train"]["chosen"] == {"card": TRAIN[1][1], "side": "white"}

    # Ann's phone, the public view and their histories: who has chosen, nothing of Bob's.
    for who in ("?seat=0", ""):
        view = ok(http.get(f"{API}/view{who}"))
        assert view["train_chosen"] == [False, True]
        history = ok(http.get(f"/api/history{who}{'&' if who else '?'}limit=2000"))
        text = json.dumps([view, history])
        assert not [c for c in bob if c in text], who
        assert '"white"' not in json.dumps(view["people"][1])  # nor the side

    # Ann chooses: the cards are revealed together, and each side's rewards resolved.
    ok(http.post(f"{API}/train?seat=0", json={"card": TRAIN[0][1], "side": "red"}))
    view = ok(http.get(f"{API}/view"))
    assert [p["train"] for p in view["people"]] == [[TRAIN[0][1], "red"], [TRAIN[1][1], "white"]]
    assert "train_chosen" not in view and view["phase"] == "discard"


def test_a_turn_at_the_table_through_the_server(live, tmp_path) -> None:
    http, runtime = live
    set_up(http)
    camera = Camera(runtime)
    for seat in (0, 1):
        ok(http.post(f"{API}/train-dealt?seat={seat}", json={"cards": list(TRAIN[seat][0])}))
    for seat in (1, 0):
        ok(http.post(f"{API}/train?seat={seat}", json={"card": TRAIN[seat][1], "side": "red"}))
    assert http.post(f"{API}/drew?seat=0", json={"card": "gold-0"}).status_code == 409

    # A red pawn slid three squares: flagged at once, then the admin takes the table's board.
    drifted = moved(start(), (5, 4), (2, 3))
    camera.show(drifted)
    view = ok(http.get(f"{API}/view?seat=1"))
    assert [b["rule"] for b in view["breaches"]] == ["chess movement"]
    res = http.post("/api/corrections?seat=1", json={"table_is_right": True})
    assert res.status_code in (400, 403) and "admin link" in res.text  # not from a seat link
    [right] = ok(http.post("/api/table-is-right"))["events"]
    assert right["kind"] == "table.right"
    view = ok(http.get(f"{API}/view"))
    assert view["breaches"] == [] and not view["table_differs"]

    # Ann discards, plays her white knight card and captures the red pawn.
    res = http.post(f"{API}/discard?seat=1", json={"card": "basic-0"})
    assert res.status_code == 400 and res.json()["detail"] == "it is Ann's turn"  # no seat number
    ok(http.post(f"{API}/discard?seat=0", json={"card": "basic-1"}))
    res = http.post(f"{API}/play?seat=0", json={"card": "basic-0"})
    assert res.status_code == 409 and "not in your hand" in res.text
    ok(http.post(f"{API}/play?seat=0", json={"card": KNIGHT}))
    camera.show(moved(drifted, (0, 2), (2, 3)))
    view = ok(http.get(f"{API}/view?seat=1"))
    assert view["people"][0]["jail"] == [["red", "pawn"]]
    assert "into Ann's Jail" in view["log"][-1]["text"]
    assert "the row gives" in view["log"][-1]["text"]

    # Ann's hand is on Ann's phone only: not in Bob's view, the public one, or their events.
    mine = ok(http.get(f"{API}/view?seat=0"))
    secret = set(mine["people"][0]["hand"]) - set(HANDS[1])
    assert secret and mine["choices"]
    for who in ("?seat=1", ""):
        text = json.dumps(
            [
                ok(http.get(f"{API}/view{who}")),
                ok(http.get(f"/api/history{who}{'&' if who else '?'}limit=2000")),
            ]
        )
        assert not [c for c in secret if f'"{c}"' in text], who
        assert '"choices": []' in text

    # A restart replays the SQLite events into the same game.
    before = {s: ok(http.get(f"{API}/view{s}")) for s in ("", "?seat=0", "?seat=1")}
    again = Runtime(runtime.settings)
    try:
        for s, expected in before.items():
            seat = int(s[-1]) if s else None
            assert json.dumps(again.view(seat)) == json.dumps(expected)
    finally:
        again.stop()
