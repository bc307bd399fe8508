"""Properties of random games (hypothesis): cards conserved, no Door twice, the symbol rule,
and views that never leak the hand to the table or the deck's order to anyone."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import CHANCE, IllegalAction
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.deck import symbol_of
from companion.games.onirim.rules.state import zones

from .helpers import FULL

CONFIGS = ({"mirrors": False}, {}, {"hard": True})


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), config=st.sampled_from(CONFIGS))
def test_random_games_keep_the_invariants(seed: int, config: dict) -> None:
    rng = random.Random(seed)
    state = ENGINE.new_game(1, config)
    mirrors_in_box = 9 - len(state.in_game)
    while not ENGINE.is_terminal(state):
        if ENGINE.current_player(state) == CHANCE:
            action = ENGINE.sample_chance(state, rng)
        else:
            legal = ENGINE.legal_actions(state)
            assert len(set(legal)) == len(legal)
            action = rng.choice(legal)
        state = ENGINE.apply(state, action)
        assert zones(state, ENGINE.deck) == +FULL  # 76 cards, each kind conserved
        assert len(state.in_game) + mirrors_in_box == 9
        assert all(n <= ENGINE.deck.copies[d] for d, n in Counter(state.doors).items())
        assert all(symbol_of(a) != symbol_of(b) for a, b in pairwise(state.labyrinth))
        assert len(state.hand) <= 5
    assert state.outcome in ("won", "lost")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_views_hide_the_hand_from_the_table_and_the_order_from_everyone(seed: int) -> None:
    rng = random.Random(seed)
    state = ENGINE.new_game(1)
    while not ENGINE.is_terminal(state):
        if ENGINE.current_player(state) == CHANCE:
            action = ENGINE.sample_chance(state, rng)
        else:
            table = ENGINE.view(state, None)
            mine = ENGINE.view(state, 0)
            assert table["hand"] is None and table["deck_by_kind"] is None
            assert table["deck_top"] is None and table["shown"] is None
            assert table["hand_size"] == len(state.hand)
            assert mine["hand"] == list(state.hand)
            assert mine["deck_top"] == list(state.top)
            # the table's view is the same whatever the hand holds
            other = json.dumps(ENGINE.view(state.__class__(**{**vars(state), "hand": ()}), None))
            assert json.dumps({**table, "hand_size": 0}) == other
            action = rng.choice(ENGINE.legal_actions(state))
        state = ENGINE.apply(state, action)


def test_actions_outside_legal_actions_are_refused() -> None:
    rng = random.Random(3)
    state = ENGINE.new_game(1)
    seen = []
    refused = 0
    while not ENGINE.is_terminal(state):
        if ENGINE.current_player(state) == CHANCE:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
            continue
        legal = ENGINE.legal_actions(state)
        for a in set(seen) - set(legal):
            try:
                ENGINE.apply(state, a)
            except IllegalAction as exc:
                assert exc.rule
                refused += 1
            else:
                raise AssertionError(f"{a} applied in phase {state.phase}")
        action = rng.choice(legal)
        seen.append(action)
        seen = seen[-12:]
        state = ENGINE.apply(state, action)
    assert refused > 50
