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


def test_a_missed_play_answered_none_of_these_by_mistake_is_asked_once_more() -> None:
    """The player answers "none of these" to the missed-play question by mistake: their next
    tap is refused too, so they are asked once more, and their answer then lets the draw in
    (without the second question every tap of the game would be refused for good). A third
    refused tap in the same turn is not asked about again."""
    from companion.games.base import IllegalAction
    from companion.games.onirim.rules import ENGINE
    from companion.games.onirim.rules.state import evolve
    from companion.games.onirim.table.live import PLAYER, PUT_BACK, OnirimTable
    from companion.live.table_game import Observation
    from companion.store import Event, Session

    start = ENGINE.new_game(1, {"mirrors": True})
    hand = ("blue-moon", "brown-moon", "green-key", "red-key", "red-sun")
    game = OnirimTable(None, Session("1", "onirim", {}, ["player"], 0.0))
    game.state = evolve(start, hand=hand, phase="turn")
    table = seen(game.state).data
    events: list[Any] = []

    def commit(drafts: list[Any]) -> list[Any]:
        for d in drafts:
            events.append(Event("1", len(events) + 1, 0.0, d.kind, d.payload, d.visibility))
            game.apply_event(events[-1])
        return drafts

    def refused_then_asked(i: int) -> list[dict[str, Any]]:
        with pytest.raises(IllegalAction):
            game.correct({"kind": "drew", "cards": ["red-moon"]}, PLAYER)
        drafts = commit(game.update(Observation(table, 1.0), i))
        return [d.payload for d in drafts if d.kind == "question"]

    for i in range(4):  # the played card lies under a resting hand: the game's own table
        commit(game.update(Observation(table, 1.0), i))
    (first,) = refused_then_asked(4)
    commit(game.correct({"question": first["id"], "answer": PUT_BACK}, PLAYER))
    (again,) = refused_then_asked(5)
    assert again["text"].startswith("The camera missed your play")
    play = {"type": "play", "card": "blue-moon"}
    commit(game.correct({"question": again["id"], "answer": play}, PLAYER))
    commit(game.correct({"kind": "drew", "cards": ["red-moon"]}, PLAYER))
    assert game.state.labyrinth == ("blue-moon",) and "red-moon" in game.state.hand
    assert game.state.phase == "turn"  # the hand is full: the next turn, its own questions
    (third,) = refused_then_asked(6)
    commit(game.correct({"question": third["id"], "answer": PUT_BACK}, PLAYER))
    (fourth,) = refused_then_asked(7)
    commit(game.correct({"question": fourth["id"], "answer": PUT_BACK}, PLAYER))
    assert refused_then_asked(8) == []
