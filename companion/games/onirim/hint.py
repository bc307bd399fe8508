"""The hint: each legal action's estimated win probability, by determinized search.

The state stores no deck order, only counts and the top cards the player was shown, so a
determinization is simply chance sampled from what is known. For each candidate action the
hint plays `samples` futures: the action, then chance's draws and the greedy player's
choices inside them (Doors, Nightmares, prophecies, Mirror effects) until `horizon` more
turns have begun (0: the next turn), and rates where it stopped with
`evaluate.win_estimate` (1 or 0 if the game ended). Futures are common to all actions
(sample k uses the same generator seed for each), so the actions are compared on the same
draws. Only `candidates` actions are searched: greedy's own choice and those rated best one
step ahead; the others keep
greedy's one-step rating and are marked as not searched. `horizon=-1` plays every future to
the end: an unbiased win probability under greedy play, and far slower.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any

from companion.games.base import CHANCE
from companion.games.onirim.evaluate import Model, load_model, win_estimate
from companion.games.onirim.players import greedy_player, rated_actions
from companion.games.onirim.rules import ENGINE
from companion.games.onirim.rules.state import OnirimState
from companion.games.onirim.strategy import greedy_action


@dataclass(frozen=True)
class HintSettings:
    samples: int = 4
    horizon: int = 0
    candidates: int = 3

    def __post_init__(self) -> None:
        if self.samples < 1 or self.candidates < 1 or self.horizon < -1:
            raise ValueError("samples and candidates must be >= 1, horizon >= -1")


DEFAULT = HintSettings()
"""The setting the benchmark's hint player uses (benchmarks/onirim_engine.py)."""
DEEP = HintSettings(samples=24, horizon=1, candidates=6)
"""The setting `companion solve onirim` uses: slower, within a second on one core."""


@dataclass(frozen=True)
class Rated:
    action: Any
    win: float  # estimated probability of winning after this action
    searched: bool  # False: greedy's one-step rating only
    spread: float  # standard deviation over the sampled futures (0 if not searched)


@dataclass(frozen=True)
class Hint:
    actions: tuple[Rated, ...]  # best first

    @property
    def best(self) -> Any:
        return self.actions[0].action


def future(state: OnirimState, rng: random.Random, horizon: int, model: Model) -> float:
    """Play chance and greedy from `state` until `horizon` more turns began; rate the end."""
    turns = 0
    while state.phase != "over":
        if ENGINE.current_player(state) == CHANCE:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
            continue
        if state.phase == "turn":
            if horizon != -1 and turns >= horizon:
                break
            turns += 1
        state = ENGINE.apply(state, greedy_player(state, rng))
    return win_estimate(state, model)


def hint(state: OnirimState, settings: HintSettings = DEFAULT, seed: int = 0) -> Hint:
    """Every legal action of the player to move, rated; raises ValueError if nobody is."""
    if ENGINE.current_player(state) != 0:
        raise ValueError(f"the player is not to move (phase {state.phase})")
    model = load_model()
    ranked = rated_actions(state, random.Random(seed), model)
    if len(ranked) == 1:
        a, v = ranked[0]
        return Hint((Rated(a, v, False, 0.0),))
    first = greedy_action(state)
    ranked.sort(key=lambda x: x[0] != first)  # greedy's own choice is always searched
    out = []
    for i, (action, quick) in enumerate(ranked):
        if i >= settings.candidates:
            out.append(Rated(action, quick, False, 0.0))
            continue
        after = ENGINE.apply(state, action)
        values = [
            future(after, random.Random(seed * 7919 + k), settings.horizon, model)
            for k in range(settings.samples)
        ]
        spread = statistics.pstdev(values) if len(values) > 1 else 0.0
        out.append(Rated(action, statistics.fmean(values), True, spread))
    searched = sorted((r for r in out if r.searched), key=lambda r: -r.win)
    rest = [r for r in out if not r.searched]
    return Hint((*searched, *rest))
