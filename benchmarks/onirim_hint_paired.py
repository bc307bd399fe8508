"""Onirim: the hint player against greedy on the SAME deck orders (a paired benchmark).

Each game draws one stream of uniform numbers; the k-th card chance takes in a game (a draw
whose top card is not known, each card of a prophecy's or a Nightmare's reveal) is the one
the k-th number picks from the unknown part of the deck by its counts (kinds in a fixed
order, inverse CDF). Each draw is uniform given what is left, as in the real game, and while
the two players' decks hold the same cards they draw the same cards: common random numbers.
Both players play that game; their results differ only by their choices. Reported per
configuration (base; Mirrors; hard): both win rates (Wilson 95 %), the paired difference
hint - greedy with its 95 % interval (normal approximation of the mean of per-game
differences), the discordant games (hint won and greedy lost, and the reverse), and the
hint's CPU time per decision (median, worst) on one core.

    PYTHONPATH=. python benchmarks/onirim_hint_paired.py --games 2000 [--configs base,mirrors,hard]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.base import CHANCE  # noqa: E402
from companion.games.onirim.hint import DEFAULT, hint  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.rules.actions import Action, Draw, Reveal  # noqa: E402
from companion.games.onirim.rules.cards import unknown_counts  # noqa: E402
from companion.games.onirim.rules.state import OnirimState  # noqa: E402
from companion.games.onirim.strategy import greedy_action  # noqa: E402

CONFIGS = {
    "base": {"mirrors": False},
    "mirrors": {"mirrors": True},
    "hard": {"mirrors": True, "hard": True},
}
RESULT = ROOT / "benchmarks" / "results" / "onirim_hint_paired.json"

STREAM = 400
"""Uniform numbers per game: more than any game's chance draws (76 cards, reshuffles)."""


class Order:
    """One game's stream of uniforms, consumed one per card chance takes."""

    def __init__(self, rng: random.Random) -> None:
        self.u = [rng.random() for _ in range(STREAM)]
        self.k = 0

    def fresh(self) -> Order:
        copy = Order.__new__(Order)
        copy.u, copy.k = self.u, 0
        return copy

    def take(self, pool: dict[str, int]) -> str:
        u = self.u[self.k % STREAM]
        self.k += 1
        kinds = [k for k in ENGINE.deck.kinds if pool.get(k, 0) > 0]
        x = u * sum(pool[k] for k in kinds)
        for k in kinds:
            x -= pool[k]
            if x < 0:
                return k
        return kinds[-1]


def deck_order(rng: random.Random) -> Order:
    return Order(rng)


def ordered(pool: dict[str, int], order: Order, n: int) -> list[str]:
    """`n` cards drawn from `pool` without replacement by the stream's next numbers."""
    left, out = dict(pool), []
    for _ in range(n):
        card = order.take(left)
        left[card] -= 1
        out.append(card)
    return out


def chance(state: OnirimState, order: Order) -> Action:
    pool = unknown_counts(ENGINE.deck, state.deck, state.top)
    if state.phase in ("setup", "refill", "redraw"):
        return Draw(state.top[0]) if state.top else Draw(ordered(pool, order, 1)[0])
    action = ENGINE.sample_chance(state, random.Random(0))
    assert isinstance(action, Reveal)
    known = tuple(c for c in state.top[: len(action.cards)])
    return Reveal(known + tuple(ordered(pool, order, len(action.cards) - len(known))))


def play(
    options: dict[str, Any], order: Order, kind: str, rng: random.Random, times: list[float]
) -> bool:
    state = ENGINE.new_game(1, options)
    while not ENGINE.is_terminal(state):
        if ENGINE.current_player(state) == CHANCE:
            action = chance(state, order)
        elif kind == "greedy":
            action = greedy_action(state)
        else:
            legal = ENGINE.legal_actions(state)
            if len(legal) == 1:
                action = legal[0]
            else:
                t0 = time.process_time()
                action = hint(state, DEFAULT, seed=rng.randrange(2**31)).best
                times.append(time.process_time() - t0)
        state = ENGINE.apply(state, action)
    return state.outcome == "won"


def wilson(k: int, n: int) -> list[float]:
    if n == 0:
        return [0.0, 1.0]
    p, z = k / n, 1.96
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(c - h, 4), round(c + h, 4)]


def run(config: str, games: int, seed: int) -> dict[str, Any]:
    rng = random.Random(f"{seed}-{config}")
    options = CONFIGS[config]
    g, h, times = [], [], []
    for _ in range(games):
        order = deck_order(rng)
        g.append(play(options, order.fresh(), "greedy", rng, times))
        h.append(play(options, order.fresh(), "hint", rng, times))
    n = len(g)
    diffs = [int(b) - int(a) for a, b in zip(g, h, strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 1.0
    return {
        "games": n,
        "greedy": {"wins": sum(g), "rate": round(sum(g) / n, 4), "ci95": wilson(sum(g), n)},
        "hint": {"wins": sum(h), "rate": round(sum(h) / n, 4), "ci95": wilson(sum(h), n)},
        "difference": {
            "mean": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
        },
        "hint_only_won": sum(d == 1 for d in diffs),
        "greedy_only_won": sum(d == -1 for d in diffs),
        "hint_cpu_s": {
            "median": round(statistics.median(times), 4) if times else None,
            "worst": round(max(times), 4) if times else None,
            "decisions": len(times),
        },
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--configs", default="base,mirrors,hard")
    p.add_argument("--seed", type=int, default=33_300)
    p.add_argument("--out", default=str(RESULT))
    a = p.parse_args()
    configs = a.configs.split(",")
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown or a.games < 2:
        print(f"error: configs are {', '.join(CONFIGS)}; --games at least 2", file=sys.stderr)
        return 2
    out = Path(a.out)
    data = json.loads(out.read_text()) if out.exists() else {}
    for config in configs:
        result = run(config, a.games, a.seed)
        result["command"] = (
            f"PYTHONPATH=. python benchmarks/onirim_hint_paired.py --games {a.games} "
            f"--configs {config} --seed {a.seed}"
        )
        data[config] = result
        print(json.dumps({config: result}), flush=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
