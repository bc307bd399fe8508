"""Reflecto engine: move generation against an independent brute force, and the hint's time.

    .venv/bin/python benchmarks/reflecto_engine.py [--positions 10000] [--seed S]
        [--hint-games 4] [--hint-seconds 1.0] [--hint-positions 80]

- moves: N random positions (board 4-9 x 4-9, 1 to 40 screens of random owners and kinds,
  random next letters, either seat to move); the engine's moves and removals are compared
  with the plain depth-first brute force in tests/games/reflecto/bruteforce.py, written
  apart from the engine. Every disagreement is counted and the first few printed. Median
  microseconds per position for each.
- hint: positions with a seat about to move, spread evenly over a few whole games between
  two greedy players (tests/games/reflecto/helpers.py), solved with the table's budget
  (states and seconds as in live play); how often the fewest moves are proven, how long
  those plans are, how often a way (not proven shortest) is found otherwise and how far it
  is above the proven bound, and the median and worst time. CPU time of the process, one core.
Writes benchmarks/results/reflecto_engine.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from companion.games.reflecto.position_json import position_from_json  # noqa: E402
from companion.games.reflecto.rules import ENGINE  # noqa: E402
from companion.games.reflecto.rules.actions import Step  # noqa: E402
from companion.games.reflecto.table.live import HINT_SECONDS, HINT_STATES  # noqa: E402
from tests.games.reflecto.bruteforce import brute_moves, random_position  # noqa: E402
from tests.games.reflecto.helpers import greedy, setup  # noqa: E402

WORDS = [
    ("PIANO", "LEMON"),
    ("PIZZA", "TIGER"),
    ("MOON", "ELEPHANT"),
    ("CLOUD", "RIVER"),
    ("APPLE", "HOUSE"),
    ("GLASS", "MAGIC"),
]
MIRRORS = [
    ((2, 4), (1, 5)),
    ((0, 6), (0, 6)),
    ((3, 5), (1, 2)),
    ((1, 6), (0, 3)),
    ((0, 1), (5, 6)),
    ((2, 3), (3, 4)),
]


def bench_moves(n: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    mine_us, brute_us, wrong = [], [], []
    moves = offs = removals = 0
    for i in range(n):
        data = random_position(rng)
        position = position_from_json(data)  # parsing is not timed
        t = time.process_time()
        mine = {(m.screen, "off" if m.to is None else m.to) for m in position.moves()}
        lifts = position.removals()
        mine_us.append((time.process_time() - t) * 1e6)
        t = time.process_time()
        brute, brute_lifts = brute_moves(data)
        brute_us.append((time.process_time() - t) * 1e6)
        moves += len(brute)
        offs += sum(1 for _, to in brute if to == "off")
        removals += len(brute_lifts)
        if mine != brute or lifts != brute_lifts:
            wrong.append(i)
            if len(wrong) <= 3:
                print(f"  position {i} differs: {sorted(map(str, mine ^ brute))[:6]}")
    return {
        "positions": n,
        "seed": seed,
        "disagreements": len(wrong),
        "moves_compared": moves,
        "jump_offs": offs,
        "removals": removals,
        "engine_us_median": round(statistics.median(mine_us), 1),
        "brute_us_median": round(statistics.median(brute_us), 1),
    }


def game_positions(games: int) -> list:
    """States where a seat is about to move, from whole games between greedy players."""
    found = []
    for g in range(games):
        (w0, w1), (m0, m1) = WORDS[g % len(WORDS)], MIRRORS[g % len(MIRRORS)]
        state = ENGINE.new_game(2)
        state = ENGINE.apply(ENGINE.apply(state, setup(0, w0, m0)), setup(1, w1, m1))
        for _ in range(400):
            if ENGINE.is_terminal(state):
                break
            action = greedy(state)
            if isinstance(action, Step) and not state.moved:
                found.append(state)
            state = ENGINE.apply(state, action)
    return found


def bench_hint(games: int, seconds: float, states: int, most: int) -> dict[str, object]:
    every = game_positions(games)
    step = max(1, len(every) // most)
    positions = every[::step][:most]  # spread evenly over the games, start to end
    times, solved_times, plans, ways, bounds = [], [], [], [], []
    for state in positions:
        t = time.process_time()
        found = ENGINE.hint(state, state.to_move, states, seconds)
        times.append(time.process_time() - t)
        if found.proven and found.moves is not None:
            solved_times.append(times[-1])
            plans.append(found.moves)
        else:
            bounds.append(found.at_least)
            if found.moves is not None:
                ways.append(found.moves - found.at_least)
    return {
        "games": games,
        "positions": len(positions),
        "positions_in_games": len(every),
        "budget_seconds": seconds,
        "budget_states": states,
        "proven_fewest": len(plans),
        "proven_share": round(len(plans) / max(1, len(positions)), 3),
        "proven_moves_max": max(plans, default=None),
        "proven_moves_median": statistics.median(plans) if plans else None,
        "unproven_at_least_median": statistics.median(bounds) if bounds else None,
        "unproven_with_a_way": len(ways),
        "unproven_way_minus_bound_median": statistics.median(ways) if ways else None,
        "seconds_median": round(statistics.median(times), 4),
        "seconds_solved_median": (
            round(statistics.median(solved_times), 4) if solved_times else None
        ),
        "seconds_max": round(max(times), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="random positions' seed (default: drawn, and printed)",
    )
    parser.add_argument("--hint-games", type=int, default=4)
    parser.add_argument("--hint-seconds", type=float, default=HINT_SECONDS)
    parser.add_argument("--hint-states", type=int, default=HINT_STATES)
    parser.add_argument(
        "--hint-positions",
        type=int,
        default=80,
        help="at most this many positions, spread evenly over the games",
    )
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    command = (
        f"{Path(sys.executable).name} benchmarks/reflecto_engine.py --positions "
        f"{args.positions} --seed {seed} --hint-games {args.hint_games} "
        f"--hint-seconds {args.hint_seconds} --hint-states {args.hint_states} "
        f"--hint-positions {args.hint_positions}"
    )
    print(f"reproduce: {command}")
    moves = bench_moves(args.positions, seed)
    print(f"moves: {moves}")
    hint = bench_hint(args.hint_games, args.hint_seconds, args.hint_states, args.hint_positions)
    print(f"hint: {hint}")
    out = {
        "command": command,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "moves": moves,
        "hint": hint,
    }
    path = REPO / "benchmarks" / "results" / "reflecto_engine.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path.relative_to(REPO)}")
    return 1 if moves["disagreements"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
