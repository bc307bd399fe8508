"""Computer players for simulations: `random`, `greedy` and `hint`.

A player is a function (state, seat, rng) -> Pick. Greedy and hint players look only at
`ENGINE.view(state, seat)`, so they play with the information a person at that seat has.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from companion.games.looking_glass.hint import DEFAULT_SAMPLES, hint_from_view
from companion.games.looking_glass.rules.actions import Pick
from companion.games.looking_glass.rules.engine import ENGINE
from companion.games.looking_glass.rules.scoring import score

Player = Callable[[Any, int, random.Random], Pick]


def random_player(state: Any, seat: int, rng: random.Random) -> Pick:
    return rng.choice(ENGINE.legal_actions(state))


def greedy_player(state: Any, seat: int, rng: random.Random) -> Pick:
    """The pick that most improves |own| - |other| right now (own hand counted, the other's
    hand unknown and left out); ties broken at random."""
    view = ENGINE.view(state, seat)
    rv = view["round"]
    glass = rv["glass"]
    own = Counter(rv["piles"][seat]) + Counter(rv["hand"] or [])
    other = Counter(rv["piles"][1 - seat])
    lay = ENGINE.layout(rv["layout"])
    best: list[str] = []
    best_v = None
    for pos in rv["free"]:
        mine, theirs = glass[pos], glass[lay.reflection(pos)]
        v = abs(score(own + Counter([mine])).total) - abs(score(other + Counter([theirs])).total)
        if best_v is None or v > best_v:
            best, best_v = [pos], v
        elif v == best_v:
            best.append(pos)
    return Pick(seat, rng.choice(best))


def hint_player(samples: int = DEFAULT_SAMPLES) -> Player:
    def play(state: Any, seat: int, rng: random.Random) -> Pick:
        return Pick(seat, hint_from_view(ENGINE.view(state, seat), samples).best)

    return play


def make_player(kind: str, hint_samples: int = DEFAULT_SAMPLES) -> Player:
    if kind == "random":
        return random_player
    if kind == "greedy":
        return greedy_player
    if kind == "hint":
        return hint_player(hint_samples)
    raise ValueError(f"unknown player kind {kind!r} (random, greedy, hint)")


KINDS = ("random", "greedy", "hint")
