"""Benchmark of the Onirim engine, simulator and hint player, on one core.

Measures:
- 10,000 random games (base, Mirrors, Mirrors hard in turn) checked after every action: the
  cards add up to the 76 of the deck and the Mirror cards to 9, no Door is in play twice,
  the labyrinth keeps the symbol rule, and the engine never raises on a legal action;
- per configuration (base; base + Mirrors; Mirrors hard), the win rates of the random, greedy
  and hint players over `--games` games each (Wilson 95 % intervals), Doors opened, Mirrors
  explored, causes of loss, game length; the hint's time per decision (median and worst);
- the time of `companion solve onirim`'s deeper setting on positions from greedy games.

Run:  PYTHONPATH=. python benchmarks/onirim_engine.py [--games 2000] [--random-games 10000]
      [--only properties|rates|solve] [--players random,greedy,hint] [--jobs 1]
Every section writes its part of benchmarks/results/onirim_engine.json as soon as it ends.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.base import CHANCE  # noqa: E402
from companion.games.onirim.hint import DEEP, DEFAULT, hint  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.rules.deck import is_door, symbol_of  # noqa: E402
from companion.games.onirim.rules.state import zones  # noqa: E402
from companion.games.onirim.simulate import simulate  # noqa: E402
from companion.games.onirim.strategy import greedy_action  # noqa: E402

RESULT = ROOT / "benchmarks" / "results" / "onirim_engine.json"
CONFIGS = {
    "base": {"mirrors": False},
    "mirrors": {"mirrors": True},
    "hard": {"mirrors": True, "hard": True},
}
SEED_BASE = 33_000  # benchmark seeds; the position model was fitted on others


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def save(part: str, value: object, command: str) -> None:
    data = json.loads(RESULT.read_text()) if RESULT.exists() else {}
    data[part] = value
    data["machine"] = {"python": platform.python_version(), "machine": platform.machine()}
    data.setdefault("commands", {})[part] = command
    RESULT.parent.mkdir(parents=True, exist_ok=True)
    RESULT.write_text(json.dumps(data, indent=1) + "\n")


def broken(state) -> str | None:
    """The first invariant `state` breaks, or None."""
    full = +Counter(ENGINE.deck.copies)
    if zones(state, ENGINE.deck) != full:
        return "cards do not add up to the deck"
    if len(state.in_game) + (9 - len(state.in_game)) != 9 or len(state.in_game) > 9:
        return "Mirror cards"
    doors = Counter(state.doors)
    if any(n > ENGINE.deck.copies[d] for d, n in doors.items()) or not all(map(is_door, doors)):
        return "a Door in play twice"
    lab = state.labyrinth
    if any(symbol_of(a) == symbol_of(b) for a, b in itertools.pairwise(lab)):
        return "symbol rule"
    return None


def properties(games: int, seed: int) -> dict:
    rng = random.Random(seed)
    names = list(CONFIGS)
    start = time.perf_counter()
    actions = 0
    bad: Counter[str] = Counter()
    won = 0
    for g in range(games):
        state = ENGINE.new_game(1, CONFIGS[names[g % 3]])
        while not ENGINE.is_terminal(state):
            if ENGINE.current_player(state) == CHANCE:
                action = ENGINE.sample_chance(state, rng)
            else:
                action = rng.choice(ENGINE.legal_actions(state))
            state = ENGINE.apply(state, action)
            actions += 1
            why = broken(state)
            if why:
                bad[why] += 1
        won += state.outcome == "won"
        if (g + 1) % 2000 == 0:
            log(f"  properties: {g + 1} games")
    return {
        "games": games,
        "actions": actions,
        "illegal_states": sum(bad.values()),
        "broken": dict(bad),
        "random_wins": won,
        "seconds": round(time.perf_counter() - start, 1),
    }


def rates(games: int, players: list[str], seed: int, command: str) -> None:
    data = json.loads(RESULT.read_text()).get("rates", {}) if RESULT.exists() else {}
    for name, opts in CONFIGS.items():
        for k, player in enumerate(players):
            t = time.perf_counter()
            s = simulate(games, player, opts, seed + 10 * list(CONFIGS).index(name) + k)
            out = s.to_json()
            if player == "hint":
                out["hint"] = vars(DEFAULT)
            data.setdefault(name, {})[player] = out
            w = out["win_rate"]
            log(
                f"  {name:8s} {player:6s} {w['rate']:.3f} {w['ci95']} "
                f"({time.perf_counter() - t:.0f} s)"
            )
            save("rates", data, command)


def solve_latency(positions: int, seed: int) -> dict:
    """Hint time on positions from greedy games, for the simulator's and `solve`'s settings:
    wall time, and this process's CPU time (the machine is shared: CPU time is what one
    core of our own would take)."""
    rng = random.Random(seed)
    states = []
    names = list(CONFIGS)
    while len(states) < positions:
        state = ENGINE.new_game(1, CONFIGS[names[len(states) % 3]])
        steps = rng.randrange(5, 60)
        while not ENGINE.is_terminal(state):
            if ENGINE.current_player(state) == CHANCE:
                state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
                continue
            if steps == 0:
                break
            steps -= 1
            state = ENGINE.apply(state, greedy_action(state))
        if ENGINE.current_player(state) == 0:
            states.append(state)
    out = {}
    for name, setting in (("simulator_hint", DEFAULT), ("solve", DEEP)):
        wall, cpu = [], []
        for i, state in enumerate(states):
            t, c = time.perf_counter(), time.process_time()
            hint(state, setting, seed=i)
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        out[name] = {
            "settings": vars(setting),
            "positions": positions,
            "wall_ms": {
                "median": round(1e3 * statistics.median(wall), 1),
                "worst": round(1e3 * max(wall), 1),
            },
            "cpu_ms": {
                "median": round(1e3 * statistics.median(cpu), 1),
                "worst": round(1e3 * max(cpu), 1),
            },
        }
        log(f"  {name}: {out[name]}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000, help="games per player and config")
    ap.add_argument("--random-games", type=int, default=10_000)
    ap.add_argument("--solve-positions", type=int, default=300)
    ap.add_argument("--players", default="random,greedy,hint")
    ap.add_argument("--only", choices=("properties", "rates", "solve"))
    ap.add_argument(
        "--jobs", type=int, default=1, help="only 1 is supported: the machine is shared"
    )
    args = ap.parse_args()
    if args.jobs != 1:
        ap.error("--jobs: only 1 (one core) is supported")
    command = "PYTHONPATH=. python benchmarks/onirim_engine.py " + " ".join(sys.argv[1:])
    if args.only in (None, "properties"):
        log(f"properties over {args.random_games} random games")
        save("properties", properties(args.random_games, SEED_BASE), command)
    if args.only in (None, "solve"):
        log(f"solve latency on {args.solve_positions} positions")
        save("solve_latency", solve_latency(args.solve_positions, SEED_BASE + 1), command)
    if args.only in (None, "rates"):
        log(f"win rates, {args.games} games per player and config")
        rates(args.games, args.players.split(","), SEED_BASE + 100, command)
    print(f"wrote {RESULT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
