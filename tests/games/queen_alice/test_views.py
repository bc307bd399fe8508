"""What leaves the server: a seat sees its own hand only; decks are counts; JSON round trips."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from companion.games.base import CHANCE
from companion.games.queen_alice.rules import ENGINE as E
from tests.games.queen_alice.helpers import started


def test_views_hide_other_hands_and_every_deck_order() -> None:
    state = started(3, seed=5)
    secret = state.market_decks[2][0]  # a Gold card only seat 1 will hold
    state = state.with_player(1, replace(state.people[1], hand=(secret, "basic-0")))
    state = replace(
        state,
        market_decks=(
            *state.market_decks[:2],
            tuple(c for c in state.market_decks[2] if c != secret),
        ),
    )
    for seat in (None, 0, 1, 2):
        text = json.dumps(E.view(state, seat))
        view = json.loads(text)
        for i, p in enumerate(view["people"]):
            assert "deck" not in p and p["deck_count"] == len(state.people[i].deck)
            assert p["hand_count"] == len(state.people[i].hand)
            assert ("hand" in p) == (i == seat)
        assert view["market_decks"] == [len(d) for d in state.market_decks]
        assert (secret in text) == (seat == 1)  # only its owner ever sees that card


def test_state_and_actions_round_trip_through_json() -> None:
    rng, state = random.Random(2), E.new_game(4)
    for _ in range(150):
        if E.current_player(state) == CHANCE:
            action = E.sample_chance(state, rng)
        else:
            action = rng.choice(E.legal_actions(state))
        data = json.loads(json.dumps(E.action_to_json(action)))
        assert E.action_from_json(data) == action
        state = E.apply(state, action)
        again = E.state_from_json(json.loads(json.dumps(E.state_to_json(state))))
        assert again == state
