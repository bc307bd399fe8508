"""Computer players for simulations: `random`, `greedy` and `hint`.

A player is a function (state, rng) -> action, called when the solo player is to move.
The state holds no order of the deck (see rules/state.py), so a player handed the whole state
still knows only what a person at the table knows.

Greedy plays rules of thumb (strategy.py). `rated_actions` rates every action one step
ahead with `evaluate.win_estimate`, playing out once the chance whose cost shows only later
(a Nightmare's reveal, a new hand, a prophecy); the hint uses it to choose what to search.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.games.base import CHANCE
from companion.games.onirim.evaluate import Model, load_model, win_estimate
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.state import OnirimState
from companion.games.onirim.strategy import greedy_action

Player = Callable[[OnirimState, random.Random], Any]

RESOLVED_BEFORE_RATING = frozenset({"prophecy-look", "prophecy", "nightmare-look", "redraw"})
"""Phases a greedy rating plays through: their cost is invisible until chance has acted."""


def random_player(state: OnirimState, rng: random.Random) -> Any:
    return rng.choice(ENGINE.legal_actions(state))


def rate(state: OnirimState, rng: random.Random, model: Model) -> float:
    """The model's estimate once the chance an action set going has been played out once."""
    while state.phase in RESOLVED_BEFORE_RATING:
        if ENGINE.current_player(state) == CHANCE:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
        else:
            state = ENGINE.apply(state, greedy_action(state))
    return win_estimate(state, model)


def rated_actions(
    state: OnirimState, rng: random.Random, model: Model | None = None
) -> list[tuple[Any, float]]:
    """Every legal action with its one-step rating, best first (ties in a random order)."""
    m = model or load_model()
    legal = ENGINE.legal_actions(state)
    rng.shuffle(legal)
    rated = [(a, rate(ENGINE.apply(state, a), rng, m)) for a in legal]
    rated.sort(key=lambda x: -x[1])
    return rated


def greedy_player(state: OnirimState, rng: random.Random) -> Any:
    """Rules of thumb (strategy.py); deterministic, `rng` unused."""
    return greedy_action(state)


def hint_player(samples: int, horizon: int, candidates: int) -> Player:
    from companion.games.onirim.hint import HintSettings, hint

    settings = HintSettings(samples=samples, horizon=horizon, candidates=candidates)

    def play(state: OnirimState, rng: random.Random) -> Any:
        legal = ENGINE.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        return hint(state, settings, seed=rng.randrange(2**31)).best

    return play


KINDS = ("random", "greedy", "hint")


def make_player(kind: str, samples: int = 8, horizon: int = 0, candidates: int = 4) -> Player:
    if kind == "random":
        return random_player
    if kind == "greedy":
        return greedy_player
    if kind == "hint":
        return hint_player(samples, horizon, candidates)
    raise ValueError(f"unknown player kind {kind!r} ({', '.join(KINDS)})")
