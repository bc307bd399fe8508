"""Helpers shared by the Looking Glass tests (a plain module: conftest names clash)."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.games.base import CHANCE
from companion.games.looking_glass.rules.deck import BRAWLERS
from companion.games.looking_glass.rules.engine import ENGINE


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


def reshuffle_secrets(state, seats: tuple[int, ...], rng: random.Random):
    """The same public position with different hands for `seats` (and removed pile)."""
    r = state.round
    hands = [list(h) for h in r.hands]
    pool = [c for s in seats for c in hands[s]] + list(r.removed)
    dealable = [c for c in pool if c not in BRAWLERS]
    rng.shuffle(dealable)
    for s in seats:
        hands[s], dealable = dealable[:4], dealable[4:]
    removed = dealable + [c for c in pool if c in BRAWLERS]
    new_hands = (tuple(sorted(hands[0])), tuple(sorted(hands[1])))
    return replace(state, round=replace(r, hands=new_hands, removed=tuple(sorted(removed))))
