"""Fit the position estimate of models/onirim/hint.toml (companion/games/onirim/evaluate.py).

Plays greedy games in each configuration (base; Mirrors; Mirrors hard), records the features
of every position where a turn begins with the game's outcome, and fits a logistic regression
(Newton's method, a small ridge penalty). Seeds 0.. are used here: the engine benchmark uses
other seeds. Prints the log-loss and the calibration by decile, writes the weights.

Run:  PYTHONPATH=. python benchmarks/onirim_fit.py [--games 600] [--write]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.base import CHANCE  # noqa: E402
from companion.games.onirim.evaluate import FEATURES, features  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.strategy import greedy_action  # noqa: E402

CONFIGS = {"base": {"mirrors": False}, "mirrors": {}, "hard": {"hard": True}}


def positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for name, opts in CONFIGS.items():
        rng = random.Random(f"{seed}-{name}")
        for _ in range(games):
            state = ENGINE.new_game(1, opts)
            seen = []
            while not ENGINE.is_terminal(state):
                if ENGINE.current_player(state) == CHANCE:
                    action = ENGINE.sample_chance(state, rng)
                else:
                    if state.phase == "turn":
                        seen.append(features(state))
                    action = greedy_action(state)
                state = ENGINE.apply(state, action)
            won = 1.0 if state.outcome == "won" else 0.0
            xs += seen
            ys += [won] * len(seen)
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    xb = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(xb.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(xb @ w, -30, 30)))
        grad = xb.T @ (p - y) + ridge * w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=600, help="greedy games per configuration")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--write", action="store_true", help="write models/onirim/hint.toml")
    args = ap.parse_args()
    x, y = positions(args.games, args.seed)
    w = fit(x, y)
    xb = np.hstack([np.ones((len(x), 1)), x])
    p = 1 / (1 + np.exp(-np.clip(xb @ w, -30, 30)))
    eps = 1e-9
    loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
    base = y.mean()
    print(
        f"positions {len(y)}, won share {base:.3f}, log-loss {loss:.4f} "
        f"(constant: {-(base * np.log(base) + (1 - base) * np.log(1 - base)):.4f})"
    )
    order = np.argsort(p)
    for part in np.array_split(order, 10):
        print(f"  predicted {p[part].mean():.3f}  observed {y[part].mean():.3f}")
    lines = [f"{name} = {wi:.5f}" for name, wi in zip(FEATURES, w[1:], strict=True)]
    print(f"bias = {w[0]:.5f}\n" + "\n".join(lines))
    if args.write:
        text = (
            "# The position estimate behind the hint (companion/games/onirim/evaluate.py): an\n"
            "# estimated win probability sigmoid(bias + sum weight * feature), from what the\n"
            "# player can see. Fitted by a logistic regression on the turns of greedy games\n"
            f"# ({args.games} per configuration, seed {args.seed}, {len(y)} positions; log-loss\n"
            f"# {loss:.4f}). Refit: PYTHONPATH=. python benchmarks/onirim_fit.py --write\n"
            f"bias = {w[0]:.5f}\n\n[weights]\n" + "\n".join(lines) + "\n"
        )
        (ROOT / "models" / "onirim" / "hint.toml").write_text(text, encoding="utf-8")
        print("wrote models/onirim/hint.toml")


if __name__ == "__main__":
    main()
