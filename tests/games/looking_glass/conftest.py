"""Helpers shared by the Looking Glass tests: states at the start of a round."""

from __future__ import annotations

import random

import pytest

from companion.games.base import CHANCE
from companion.games.looking_glass.rules import ENGINE


def dealt(seed: int, brawlers: bool = False, layout: str | None = None):
    """A match after its set-up and first deal (optionally forcing the first layout)."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {"brawlers": brawlers})
    setup = ENGINE.sample_chance(state, rng)
    if layout is not None:
        stack = (layout, *[x for x in setup.layouts if x != layout])
        setup = type(setup)(stack, setup.first_player)
    state = ENGINE.apply(state, setup)
    return ENGINE.apply(state, ENGINE.sample_chance(state, rng))


def finish_round(state, rng: random.Random):
    """Random picks until the round ends (hands known)."""
    while ENGINE.current_player(state) not in (CHANCE, None):
        state = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))
    return state


@pytest.fixture
def engine():
    return ENGINE
