"""Random games, any seed and player count: every state keeps the invariants, and ends."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import CHANCE, IllegalAction
from companion.games.queen_alice.rules import ENGINE as E
from companion.games.queen_alice.rules.actions import Pass
from companion.games.queen_alice.rules.invariants import box, broken

MAX_ACTIONS = 5_000


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    reading=st.sampled_from(["default", "other"]),
)
def test_random_games_keep_the_invariants_and_end(seed: int, players: int, reading: str) -> None:
    options = (
        None
        if reading == "default"
        else {
            "coronation": "throne_first",
            "component_counts": "components",
            "blank_diamond_milestones": "none",
            "small_supplies": "skip",
            "train_cards": "skip",
        }
    )
    rng, state = random.Random(seed), E.new_game(players, options)
    comp = E.comp(state)
    cards = box(comp, players)
    for _ in range(MAX_ACTIONS):
        if E.is_terminal(state):
            break
        if E.current_player(state) == CHANCE:
            state = E.apply(state, E.sample_chance(state, rng))
        else:
            legal = E.legal_actions(state)
            assert legal, f"seat {state.seat} has no legal action in {state.phase}"
            state = E.apply(state, rng.choice(legal))
        why = broken(state, comp, E.board, E.tally(state), cards)
        assert why is None, why
    assert E.is_terminal(state) and state.crowns_left == 0
    assert state.seat == players - 1  # the round was finished
    final = E.final(state)
    assert [float(p.total) for p in final.players] == E.scores(state)
    assert all(p.total >= p.track for p in final.players)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_action_outside_legal_actions_is_accepted(seed: int) -> None:
    rng, state = random.Random(seed), E.new_game(2)
    seen: list[object] = [Pass()]
    for _ in range(200):
        if E.is_terminal(state):
            break
        if E.current_player(state) == CHANCE:
            state = E.apply(state, E.sample_chance(state, rng))
            continue
        legal = E.legal_actions(state)
        for action in seen[-8:]:
            if action not in legal:
                try:
                    E.apply(state, action)
                except IllegalAction as exc:
                    assert exc.rule
                else:
                    raise AssertionError(f"{action} applied though not legal")
        action = rng.choice(legal)
        seen.append(action)
        state = E.apply(state, action)
