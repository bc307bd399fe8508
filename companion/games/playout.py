"""Playing games to their end through an engine, and the statistics of many such games.

Every game's simulator does the same two things: it lets the engine draw its own chance
actions while computer players choose the rest, and it reports rates with a Wilson
interval. They live here once; a simulator says only what it records of a game.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from companion.games.base import CHANCE

Z95 = 1.959964


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(successes: int, n: int) -> dict[str, Any]:
    """A simulation's rate as its summaries print it: the share, its 95% Wilson interval and
    the count behind it."""
    lo, hi = wilson(successes, n)
    return {"rate": successes / n, "ci95": [lo, hi], "wins": successes}


def distribution(values: Iterable[int], n: int) -> dict[str, float]:
    """The share of `n` runs that gave each count, in the counts' order (JSON keys)."""
    return {str(k): v / n for k, v in sorted(Counter(values).items())}


def play_out(
    engine: Any,
    state: Any,
    choose: Callable[[Any, int], Any],
    rng: random.Random,
    on_chance: Callable[[Any], None] | None = None,
) -> Any:
    """The final state of `state` played to its end: chance by `engine.sample_chance`
    (each such action shown to `on_chance`, e.g. to keep the deal), every seat by
    `choose(state, seat)`. One `rng` serves chance, so a seed fixes every draw."""
    while not engine.is_terminal(state):
        seat = engine.current_player(state)
        if seat == CHANCE:
            action = engine.sample_chance(state, rng)
            if on_chance is not None:
                on_chance(action)
        else:
            action = choose(state, seat)
        state = engine.apply(state, action)
    return state
