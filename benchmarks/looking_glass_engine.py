"""Benchmark of the Looking Glass engine, simulator and hint player.

Measures, on one core:
- the wall time of 20,000 rounds between random players (through the rules engine);
- the time of a hint at the start of a round (median and worst) and after 4 picks;
- the hint player's round win rate against greedy and against random players (Wilson 95%).

Run:  .venv/bin/python benchmarks/looking_glass_engine.py
      (--hint-rounds, --random-rounds, --latency-rounds, --hint-samples to change the sizes)
Writes benchmarks/results/looking_glass_engine.json.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core, before numpy is imported

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.base import CHANCE  # noqa: E402
from companion.games.looking_glass.hint import DEFAULT_SAMPLES, hint  # noqa: E402
from companion.games.looking_glass.rules.engine import ENGINE  # noqa: E402
from companion.games.looking_glass.simulate import simulate  # noqa: E402

RESULT = ROOT / "benchmarks" / "results" / "looking_glass_engine.json"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def latency(rounds: int, seed: int, samples: int) -> dict:
    rng = random.Random(seed)
    start, later, sizes = [], [], []
    for k in range(rounds):
        state = ENGINE.new_game(2, {"brawlers": k % 2 == 1, "target": 1})
        while ENGINE.current_player(state) == CHANCE:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
        seat = ENGINE.current_player(state)
        t = time.perf_counter()
        h = hint(state, seat, samples)
        start.append(time.perf_counter() - t)
        sizes.append(h.determinizations)
        for _ in range(4):
            state = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))
        t = time.perf_counter()
        hint(state, ENGINE.current_player(state), samples)
        later.append(time.perf_counter() - t)
    return {
        "positions": rounds,
        "samples": samples,
        "mean_determinizations_at_start": statistics.fmean(sizes),
        "start_median_s": statistics.median(start),
        "start_p90_s": sorted(start)[int(0.9 * len(start))],
        "start_worst_s": max(start),
        "after_4_picks_median_s": statistics.median(later),
        "after_4_picks_worst_s": max(later),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hint-rounds", type=int, default=2000)
    p.add_argument("--random-rounds", type=int, default=20000)
    p.add_argument("--latency-rounds", type=int, default=100)
    p.add_argument("--hint-samples", type=int, default=DEFAULT_SAMPLES)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    command = (
        ".venv/bin/python benchmarks/looking_glass_engine.py "
        f"--hint-rounds {args.hint_rounds} --random-rounds {args.random_rounds} "
        f"--latency-rounds {args.latency_rounds} --hint-samples {args.hint_samples} "
        f"--seed {args.seed}"
    )
    out: dict = {
        "command": command,
        "machine": platform.platform(),
        "python": platform.python_version(),
        "load_average_at_start": os.getloadavg()[0],
    }

    def save() -> None:
        RESULT.parent.mkdir(parents=True, exist_ok=True)
        RESULT.write_text(json.dumps(out, indent=2) + "\n")

    log(f"{args.random_rounds} random rounds ...")
    s = simulate(args.random_rounds, ("random", "random"), seed=args.seed).to_json()
    out["random_rounds"] = {
        "rounds": s["rounds"],
        "wall_s": s["seconds"],
        "absolute_score": s["absolute_score"],
        "self_linked_pairs": s["self_linked_pairs"],
        "first_player_win_rate": s["first_player_win_rate"],
    }
    b = simulate(args.random_rounds // 4, ("random", "random"), True, args.seed).to_json()
    out["random_rounds_brawlers"] = {
        "rounds": b["rounds"],
        "wall_s": b["seconds"],
        "brawlers_in_glass": b["brawlers_in_glass"],
    }
    log(f"  {s['seconds']:.1f} s")
    save()

    log(f"hint latency over {args.latency_rounds} round starts ...")
    out["hint_latency"] = latency(args.latency_rounds, args.seed, DEFAULT_SAMPLES)
    log(f"  {out['hint_latency']}")
    save()

    for opponent in ("greedy", "random"):
        log(f"hint vs {opponent}: {args.hint_rounds} rounds ...")
        t0 = time.perf_counter()

        def tick(done: int, t0: float = t0) -> None:
            log(f"  {done} rounds, {time.perf_counter() - t0:.0f} s")

        r = simulate(
            args.hint_rounds,
            ("hint", opponent),
            seed=args.seed,
            hint_samples=args.hint_samples,
            progress=tick,
        ).to_json()
        out[f"hint_vs_{opponent}"] = {
            "rounds": r["rounds"],
            "hint_samples": args.hint_samples,
            "wall_s": r["seconds"],
            "win_rate": r["win_rate"]["rate"],
            "ci95": r["win_rate"]["ci95"],
            "absolute_score": r["absolute_score"],
        }
        log(f"  {out[f'hint_vs_{opponent}']}")
        save()

    lat = out["hint_latency"]
    print(f"command: {command}")
    print(
        f"20,000-round target: {out['random_rounds']['rounds']} random rounds in "
        f"{out['random_rounds']['wall_s']:.1f} s"
    )
    print(
        f"hint at round start: median {lat['start_median_s'] * 1000:.0f} ms, "
        f"worst {lat['start_worst_s'] * 1000:.0f} ms (target < 1000 ms); after 4 picks "
        f"median {lat['after_4_picks_median_s'] * 1000:.0f} ms"
    )
    for opponent in ("greedy", "random"):
        r = out[f"hint_vs_{opponent}"]
        print(
            f"hint vs {opponent}: wins {r['win_rate']:.1%} of {r['rounds']} rounds "
            f"(95% CI {r['ci95'][0]:.1%}-{r['ci95'][1]:.1%})"
        )
    print(f"results: {RESULT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
