"""A golden playthrough: a seeded match must replay to the recorded log and results.

It pins the dealing procedure and the rules across refactors. After a deliberate change
(say, a new layout file), regenerate with:
    .venv/bin/python tests/games/looking_glass/test_golden.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

GOLDEN = Path(__file__).with_name("golden_match.json")


def play(seed: int = 2024) -> dict:
    from companion.games.base import CHANCE
    from companion.games.looking_glass.rules.engine import ENGINE

    rng = random.Random(seed)
    state = ENGINE.new_game(2, {"brawlers": True})
    log = []
    while not ENGINE.is_terminal(state):
        if ENGINE.current_player(state) == CHANCE:
            action = ENGINE.sample_chance(state, rng)
        else:
            action = rng.choice(ENGINE.legal_actions(state))
        log.append(ENGINE.action_to_json(action))
        state = ENGINE.apply(state, action)
    return {"seed": seed, "actions": log, "final": ENGINE.state_to_json(state)}


def test_the_seeded_match_replays_to_the_golden_file() -> None:
    from companion.games.looking_glass.rules.engine import ENGINE

    golden = json.loads(GOLDEN.read_text())
    assert play(golden["seed"]) == golden
    state = ENGINE.new_game(2, {"brawlers": True})
    for a in golden["actions"]:
        state = ENGINE.apply(state, ENGINE.action_from_json(a))
    assert ENGINE.state_to_json(state) == golden["final"]
    assert ENGINE.is_terminal(state)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    GOLDEN.write_text(json.dumps(play(), indent=1) + "\n")
    print(f"wrote {GOLDEN}")
