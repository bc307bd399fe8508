"""A whole film replayed through the live table game (issues 30, 31): no breach, the right
swap counts and verdicts, every tap taken, and a restart rebuilds the same game."""

from __future__ import annotations

from itertools import pairwise

import pytest

from companion.games.mirror_mansion.vision.film_script import script_game
from tests.games.mirror_mansion_table.film import Replay
from tests.games.mirror_mansion_table.helpers import BOARD


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
