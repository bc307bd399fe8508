"""Properties of random rounds (hypothesis): cards, reflections, Brawlers, scores, secrecy."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import CHANCE
from companion.games.looking_glass.rules.deck import BRAWLERS
from companion.games.looking_glass.rules.engine import ENGINE
from tests.games.looking_glass.helpers import dealt, reshuffle_secrets


def view_json(state, seat) -> str:
    return json.dumps(ENGINE.view(state, seat), sort_keys=True)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), brawlers=st.booleans())
def test_random_rounds_keep_the_rules(seed: int, brawlers: bool) -> None:
    rng = random.Random(seed)
    state = dealt(seed, brawlers)
    lay = ENGINE.layout(state.round.layout)
    glass = {
        lay.name_of(h, c): state.round.cards[h][c] for h in (0, 1) for c in range(len(lay.cells))
    }
    while ENGINE.current_player(state) not in (CHANCE, None):
        seat = ENGINE.current_player(state)
        # a seat's view is the same whatever the other hand and the removed pile hold
        other = reshuffle_secrets(state, (1 - seat,), rng)
        assert view_json(other, seat) == view_json(state, seat)
        both = reshuffle_secrets(state, (0, 1), rng)
        assert view_json(both, None) == view_json(state, None)
        v = ENGINE.view(state, seat)
        assert v["round"]["hand"] == list(state.round.hands[seat])
        assert "removed" not in v["round"] and v["round"]["hands"] is None

        pick = rng.choice(ENGINE.legal_actions(state))
        after = ENGINE.apply(state, pick)
        assert after.round.piles[seat][-1] == glass[pick.position]
        assert after.round.piles[1 - seat][-1] == glass[lay.reflection(pick.position)]
        state = after
    r = state.round
    collections = [Counter(r.piles[s]) + Counter(r.hands[s]) for s in (0, 1)]
    assert [sum(c.values()) for c in collections] == [18, 18]
    assert not set(r.hands[0] + r.hands[1]) & set(BRAWLERS)
    totals = ENGINE.round_totals(r)
    shuffled = [list(p) for p in r.piles]
    for p in shuffled:
        rng.shuffle(p)
    again = replace(r, piles=(tuple(shuffled[0]), tuple(shuffled[1])))
    assert ENGINE.round_totals(again) == totals == state.results[-1].totals
    # once the round is over the hands are public: they joined the score piles
    assert ENGINE.view(state, None)["round"]["hands"] == [list(h) for h in r.hands]
