"""A whole film replayed through the live table game (issues 30, 31): no breach, the right
swap counts and verdicts, every tap taken, and a restart rebuilds the same game."""

from __future__ import annotations

import time
from itertools import pairwise
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.camera import Frame
from companion.games.mirror_mansion.table.live import MirrorMansionTable
from companion.games.mirror_mansion.vision.film_script import script_game
from tests.games.mirror_mansion_table.film import Replay
from tests.games.mirror_mansion_table.helpers import BOARD, new_session


def swaps_per_turn(replay: Replay) -> list[int]:
    counts, n = [], 0
    for p in replay.kinds("mm.action"):
        kind = p["action"]["type"]
        if kind == "swap":
            n += 1
        elif kind == "end_swaps":
            counts.append(n)
            n = 0
    return counts


@pytest.mark.parametrize(
    ("seed", "players", "options"), [(0, 3, {}), (1, 2, {"door": True}), (4, 4, {})]
)
def test_a_film_plays_live_without_breach_and_with_the_engines_verdicts(
    seed: int, players: int, options: dict
) -> None:
    script = script_game(BOARD, seed, players=players, options=options, turns=7)
    replay = Replay(script).run()
    assert replay.kinds("mm.breach") == []
    assert replay.players.dropped == 0 and len(replay.players) == 0
    assert swaps_per_turn(replay) == [len(r.swaps) for r in script.turns]
    looks = replay.game.looks
    assert len(looks) == len(script.turns)
    for look, record in zip(looks, script.turns, strict=True):
        assert (look["turn"], look["seat"], look["seen"]) == (record.turn, record.seat, record.seen)
        assert look["found"] == record.found and look["drops"] == list(record.drops)
    assert replay.game.state.drops == script.state.drops
    assert replay.game.state.turn == script.state.turn
    # A restart replays the events into the same game.
    again = Replay(script)
    for event in replay.events[1:]:
        again.game.apply_event(event)
    assert again.game.view(None) == replay.game.view(None)


def test_swaps_so_far_follow_the_stable_states_only() -> None:
    script = script_game(BOARD, 2, players=2, turns=3)
    replay = Replay(script).run()
    verdicts = replay.kinds("mm.swaps")
    # One verdict per change of the stable state, never a repeat of the one shown.
    assert all(a != b for a, b in pairwise(verdicts))
    assert len(verdicts) <= sum(len(r.swaps) for r in script.turns) + len(script.turns)
    shown_at_call, last = [], None
    for e in replay.events:
        if e.kind == "mm.swaps":
            last = e.payload
        elif e.kind == "mm.action" and e.payload["action"]["type"] == "end_swaps":
            assert last is not None and last["breach"] is None and last["pending"] is None
            shown_at_call.append(last["count"])
    assert shown_at_call == [len(r.swaps) for r in script.turns]


def _yellow(image: np.ndarray) -> int:
    """Pixels in the legend's light-path yellow."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    return int(((hsv[..., 0] >= 22) & (hsv[..., 0] <= 38) & (hsv[..., 2] > 0)).sum())


def test_after_a_look_its_light_path_is_in_the_view_and_over_the_live_image() -> None:
    """Issue 30: after the look the light path is drawn on the board picture (the panel draws
    the view's `path_mm`) and over the live image (`annotate`, in the legend's yellow); before
    any look, neither shows one."""
    script = script_game(BOARD, 3, players=2, turns=1)
    replay = Replay(script).run()
    game = replay.game
    path = game.looks[-1]["path_mm"]
    assert len(path) >= 2
    assert game.view(None)["looks"][-1]["path_mm"] == path
    fresh = MirrorMansionTable(None, new_session(seats=2))
    assert fresh.view(None).get("looks", []) == []
    image, truth = fresh.sim_scene(3).frame(1.0)
    frame = Frame(image=image, timestamp=time.monotonic(), index=0, truth=truth)
    registration = SimpleNamespace(camera_matrix=None, dist_coeffs=None, markers={})
    obs = fresh.perceive(frame, registration)
    assert _yellow(fresh.annotate(np.zeros_like(image), registration, obs)) == 0
    drawn = game.annotate(np.zeros_like(image), registration, obs)
    assert _yellow(drawn) > 50 * (len(path) - 1)
