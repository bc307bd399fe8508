"""The hint and the players: every legal action rated, certain wins found, greedy's rules."""

from __future__ import annotations

import random

from companion.games.onirim.hint import HintSettings, hint
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.actions import Nightmare, OpenDoor, Play
from companion.games.onirim.simulate import simulate
from companion.games.onirim.strategy import greedy_action
from companion.games.playout import wilson

from .helpers import position

ALL_DOORS = [f"door-{c}" for c in ("red", "blue", "green", "brown") for _ in (0, 1)]


def last_door_position():
    return position(
        mirrors=False,
        hand=["brown-key", "blue-sun", "red-sun", "green-moon", "red-moon"],
        doors=ALL_DOORS[:-1],
        labyrinth=["brown-sun", "brown-moon"],
        run=2,
    )


def test_the_hint_rates_every_legal_action_and_finds_the_winning_play() -> None:
    state = last_door_position()
    h = hint(state, HintSettings(samples=3, horizon=0, candidates=3), seed=1)
    legal = ENGINE.legal_actions(state)
    assert sorted(map(repr, (r.action for r in h.actions))) == sorted(map(repr, legal))
    assert h.best == Play("brown-key")
    assert h.actions[0].win == 1.0 and h.actions[0].searched
    assert all(0.0 <= r.win <= 1.0 for r in h.actions)
    assert all(r.win < 1.0 for r in h.actions[1:])


def test_the_hint_with_rollouts_to_the_end_is_a_win_frequency() -> None:
    state = last_door_position()
    h = hint(state, HintSettings(samples=4, horizon=-1, candidates=2), seed=2)
    for r in h.actions:
        if r.searched:
            assert r.win * 4 == round(r.win * 4)  # a share of four finished games


def test_greedy_opens_doors_and_pays_a_nightmare_with_a_spare_key() -> None:
    state = position(
        hand=["red-key", "blue-sun", "blue-moon", "green-sun"],
        doors=["door-red", "door-red"],
        phase="nightmare",
        pending="nightmare",
    )
    assert greedy_action(state) == Nightmare("key", "red-key")  # both red Doors are in play
    door = position(
        hand=["blue-key", "red-sun", "green-sun", "green-moon"], phase="door", pending="door-blue"
    )
    assert greedy_action(door) == OpenDoor(True)


def test_greedy_completes_a_series() -> None:
    state = position(
        hand=["red-sun", "blue-sun", "blue-moon", "green-sun", "red-key"],
        labyrinth=["red-sun", "red-moon"],
        run=2,
    )
    assert greedy_action(state) == Play("red-sun")


def test_simulate_summarises_games() -> None:
    s = simulate(6, "greedy", {"mirrors": True}, seed=4).to_json()
    assert s["games"] == 6 and 0 <= s["win_rate"]["wins"] <= 6
    lo, hi = s["win_rate"]["ci95"]
    assert lo <= s["win_rate"]["rate"] <= hi
    losses = 6 - s["win_rate"]["wins"]
    assert round(sum(s["losses"].values()) * 6) == losses
    assert s["turns"]["mean"] > 5
    again = simulate(6, "greedy", {"mirrors": True}, seed=4).to_json()
    assert again["win_rate"] == s["win_rate"] and again["turns"] == s["turns"]


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    assert wilson(0, 10)[0] == 0.0


def test_players_only_play_legal_actions() -> None:
    from companion.games.onirim.players import make_player

    rng = random.Random(5)
    for kind in ("random", "greedy"):
        s = simulate(3, kind, {"hard": True}, seed=rng.randrange(1000))
        assert s.games == 3
    hint_player = make_player("hint", samples=2, horizon=0, candidates=2)
    state = last_door_position()
    assert hint_player(state, rng) in ENGINE.legal_actions(state)
