""" "The table is right" for Reflecto (issue 31, item 3), through the real HTTP server.

Rendered photographs go through the runtime's own registration, the camera reader and the
tracker; the admin then posts `/api/table-is-right` to a uvicorn server, and the engine's
board becomes what the camera sees.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import uvicorn

from companion.camera.base import Frame
from companion.config import load_settings
from companion.errors import UserError
from companion.games.base import IllegalAction
from companion.games.reflecto.rules.arrangement import with_table
from companion.games.reflecto.vision.geometry import load_geometry
from companion.games.reflecto.vision.reading import BoardReading, ScreenSeen
from companion.games.reflecto.vision.render import (
    Conditions,
    board_picture,
    random_colours,
    shoot,
    start_position,
)
from companion.live.loop import Runtime
from companion.sim.camera import VirtualCamera
from companion.web.app import create_app

from .helpers import ENGINE, letter, mirror, placed

GEOM = load_geometry()
SETUP0 = {"word": "PIANO", "columns": [1, 3, 5, 2, 4], "mirrors": [0, 6]}
SETUP1 = {"word": "LEMON", "columns": [2, 3, 4, 5, 6], "mirrors": [0, 1]}


@contextmanager
def served(runtime: Runtime) -> Iterator[str]:
    app = create_app(runtime.settings, runtime)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def call(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url,
        data=data,
        method="GET" if body is None else "POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return res.status, json.loads(res.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


class Table:
    """One board under one camera: photographs of any arrangement of screens."""

    def __init__(self) -> None:
        w, h = GEOM.size_mm
        self.cam = VirtualCamera.looking_at(
            (w / 2, h / 2), 520, tilt_deg=10, yaw_deg=15, width=960, height=720
        )
        rng = np.random.default_rng(8)
        self.colours = random_colours(rng)
        self.base = board_picture(GEOM, self.cam, rng)
        self.shots = 0

    def frame(self, cells: dict[tuple[int, int], int]) -> Frame:
        self.shots += 1
        position = BoardReading(tuple(ScreenSeen(c, o) for c, o in sorted(cells.items())))
        image = shoot(
            self.base,
            GEOM,
            position,
            self.colours,
            self.cam,
            np.random.default_rng([8, self.shots]),
            hands=0,
            conditions=Conditions(glare=False),
        )
        return Frame(image, time.monotonic(), self.shots)


def test_the_admin_makes_the_camera_s_board_the_engine_s(tmp_path) -> None:
    settings = load_settings(
        None,
        {
            "data_dir": str(tmp_path / "data"),
            "game": "reflecto",
            "camera.width": 960,
            "camera.height": 720,
        },
        environ={},
    )
    runtime = Runtime(settings)  # no camera thread: frames are given to `process`
    runtime.use_registrar()  # what `start` does, without the thread
    table = Table()
    start = {(r, c): o for (r, c), o in start_position(GEOM).layout_key()}
    try:
        with served(runtime) as base:
            assert (
                call(f"{base}/api/session", {"game": "reflecto", "seats": ["Ann", "Bob"]})[0] == 201
            )
            for seat, body in ((0, SETUP0), (1, SETUP1)):
                status, _ = call(f"{base}/api/games/reflecto/setup?seat={seat}", body)
                assert status == 200
            for _ in range(3):
                runtime.process(table.frame(start))
            # Nothing drifted yet, but a steady reading exists: taking it changes nothing.
            status, out = call(f"{base}/api/table-is-right", {})
            assert status == 200
            [event] = out["events"]
            assert event["kind"] == "table.right"
            # Seat 1's screen nudged from (6, 3) to (5, 2) on seat 0's turn: a breach.
            drifted = {k: v for k, v in start.items() if k != (6, 3)} | {(5, 2): 1}
            for _ in range(3):
                runtime.process(table.frame(drifted))
            view = call(f"{base}/api/games/reflecto/view")[1]
            assert view["breaches"] and view["camera"] == sorted(
                [r, c, o] for (r, c), o in drifted.items()
            )
            # in the players' names, in the view and in the log alike
            said = "a screen of Bob's moved during Ann's turn"
            assert [b["detail"] for b in view["breaches"]] == [said]
            history = call(f"{base}/api/history")[1]
            assert said in json.dumps(history) and "seat 1" not in json.dumps([view, history])
            # the engine's refusal of a tap names the player too; its rule stays as it is
            move = {"kind": "action", "action": {"type": "move", "screen": "B3", "to": [5, 2]}}
            status, out = call(f"{base}/api/corrections", move)
            assert status == 409 and out["detail"].endswith("B3 is not a screen of Ann"), out
            assert out["rule"] == "move one of your own screens"
            with pytest.raises(UserError, match="admin"):  # a seat link cannot
                runtime.game.correct({"table_is_right": True}, 1)
            status, out = call(f"{base}/api/table-is-right", {})
            assert status == 200
            [event] = out["events"]
            assert event["kind"] == "table.right"
            assert event["payload"]["board"]["cells"]["B3"] == [5, 2]
            view = call(f"{base}/api/games/reflecto/view")[1]
            cells = {s["id"]: s["cell"] for s in view["screens"]}
            assert cells["B3"] == [5, 2] and view["breaches"] == []
            assert view["to_move"] == 0 and not view["moved"]  # the turn is untouched
            assert "LEMON" not in json.dumps(out) and "PIANO" not in json.dumps(view)
            # The game goes on from the table's board: seat 0 steps A1 from (0, 1) to (1, 1).
            after = {k: v for k, v in drifted.items() if k != (0, 1)} | {(1, 1): 0}
            for _ in range(3):
                runtime.process(table.frame(after))
            view = call(f"{base}/api/games/reflecto/view")[1]
            assert view["to_move"] == 1 and view["breaches"] == []
            assert {s["id"]: s["cell"] for s in view["screens"]}["A1"] == [1, 1]
    finally:
        runtime.stop()


def test_screens_keep_their_identity_and_the_moved_ones_move_least() -> None:
    state = placed(
        letter("A0", 0, (0, 0)),
        letter("A1", 1, (0, 1)),
        mirror("A6", (0, 6)),
        letter("B0", 0, (6, 0)),
        letter("B1", 1, (6, 6)),
    )
    seen = [((0, 0), 0), ((1, 1), 0), ((2, 6), 0), ((6, 0), 1), ((6, 6), 1)]
    after = with_table(state, seen)
    cells = {s.id: s.cell for s in after.screens}
    # A0 stayed; A1 (0, 1) and A6 (0, 6) went to (1, 1) and (2, 6): the nearer each.
    assert cells == {"A0": (0, 0), "A1": (1, 1), "A6": (2, 6), "B0": (6, 0), "B1": (6, 6)}
    assert after.words == state.words and after.to_move == state.to_move
    assert ENGINE.legal_actions(after)  # a playable state


@pytest.mark.parametrize(
    ("seen", "why"),
    [
        ([((0, 0), 0), ((6, 0), 1), ((6, 6), 1)], "camera sees 1 of seat 0"),
        ([((0, 0), 0), ((0, 1), 0), ((0, 1), 1), ((6, 6), 1)], "two screens"),
        ([((0, 0), 0), ((0, 9), 0), ((6, 0), 1), ((6, 6), 1)], "off the board"),
    ],
)
def test_an_arrangement_that_cannot_be_the_board_is_refused(seen: Any, why: str) -> None:
    state = placed(
        letter("A0", 0, (0, 0)),
        letter("A1", 1, (0, 1)),
        letter("B0", 0, (6, 0)),
        letter("B1", 1, (6, 6)),
    )
    with pytest.raises(IllegalAction, match=why):
        with_table(state, seen)
