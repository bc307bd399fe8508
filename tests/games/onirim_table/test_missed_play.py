"""A play the camera never sees (a hand rests on the new card through the whole play and
the draws after it): the draws tapped are refused while the game waits for the play, the
player is asked which play it was, and once they answer the draws tapped go in. Nothing is
refused for good, nothing booked wrong."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.onirim.rules.actions import Draw, Play, action_to_json
from companion.games.onirim.table.follow import follow, script_actions
from companion.games.onirim.vision.film import SIM_FPS, script_game
from tests.games.onirim_table.helpers import film_observer, seen


def _covered(seed: int, nth: int) -> tuple[Any, Any, int, Play]:
    """The film of `seed` read by a perfect camera, but for the `nth` Location played: from
    the hand laying it until just after the last draw of its turn is tapped, the camera reads
    the table as it lay before (the card under a resting hand)."""
    script = script_game(seed)
    observe, frames = film_observer(script)
    plays = [k for k, a in enumerate(script.actions) if isinstance(a, Play)]
    k = plays[nth]
    starts = [sum(s.frames for s in script.shots[:j]) for j in range(len(script.shots))]
    first = next(j for j, s in enumerate(script.shots) if s.needs == k and s.hand)
    before = script.shots[first - 1].table
    draws = next(n for n, a in enumerate(script.actions[k + 1 :]) if not isinstance(a, Draw))
    taps = sorted(t.t for t in script.taps if t.t * SIM_FPS >= starts[first])
    until = int(taps[draws - 1] * SIM_FPS) + 2

    def covered(game: Any, i: int) -> Any:
        return seen(before) if starts[first] <= i < until else observe(game, i)

    return script, covered, frames, script.actions[k]


@pytest.mark.parametrize("seed", [2, 5])
def test_a_play_the_camera_never_saw_is_asked_and_the_draws_after_it_go_in(seed: int) -> None:
    script, observe, frames, play = _covered(seed, 2)
    followed = follow(script, observe, frames)
    assert followed.booked() == script_actions(script)
    assert not followed.refused_taps and not followed.breaches
    asked = [q.payload for q in followed.questions]
    assert any(q["text"].startswith("The camera missed your play") for q in asked)
    by_answer = [
        e.payload["action"]
        for e in followed.events
        if e.kind == "onirim.action" and e.payload["by"] == "answer"
    ]
    assert action_to_json(play) in by_answer
