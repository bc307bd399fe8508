"""Benchmark of the Queen Alice rules engine, on one core: random games checked throughout.

Measures, over `--games` random games (player counts 2, 3, 4 in turn, the default readings
and the other readings alternately): games that end (none stuck), states breaking an
invariant of `rules/invariants.py` (checked after every action), game length (turns per
player, actions), winning scores and seats. Writes benchmarks/results/queen_alice_engine.json
every `--every` games, so a partial run still reports what it measured.

Run:  PYTHONPATH=. python benchmarks/queen_alice_engine.py [--games 10000] [--seed 34000]
      [--out FILE]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.queen_alice.simulate import play_one, summarise  # noqa: E402

RESULT = ROOT / "benchmarks" / "results" / "queen_alice_engine.json"
OTHER = {
    "coronation": "throne_first",
    "component_counts": "components",
    "blank_diamond_milestones": "none",
    "small_supplies": "skip",
    "train_cards": "skip",
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=34_000)
    ap.add_argument("--every", type=int, default=250, help="write results every N games")
    ap.add_argument("--out", type=Path, default=RESULT, help="the results file")
    args = ap.parse_args()
    result = args.out.resolve()
    command = "PYTHONPATH=. python benchmarks/queen_alice_engine.py " + " ".join(sys.argv[1:])
    print(command, file=sys.stderr)
    rng, records, start = random.Random(args.seed), [], time.perf_counter()
    cpu = time.process_time()
    for g in range(args.games):
        options = None if (g // 3) % 2 == 0 else OTHER
        records.append(play_one(2 + g % 3, rng, options, check=True))
        if (g + 1) % args.every == 0 or g + 1 == args.games:
            out = summarise(records, time.perf_counter() - start)
            out["cpu_seconds"] = round(time.process_time() - cpu, 1)
            out["complete"] = g + 1 == args.games
            out["readings"] = {
                "default": "models/queen-alice/scoring.toml",
                "other": OTHER,
                "alternation": "3 games default, 3 games other",
            }
            data = {
                "random_games": out,
                "command": command,
                "machine": {"python": platform.python_version(), "machine": platform.machine()},
            }
            result.parent.mkdir(parents=True, exist_ok=True)
            result.write_text(json.dumps(data, indent=1) + "\n")
            print(
                f"  {g + 1} games: {out['illegal_states']} broken, {out['stuck']} stuck, "
                f"{out['cpu_seconds']} s CPU",
                file=sys.stderr,
                flush=True,
            )
    print(f"wrote {result}")


if __name__ == "__main__":
    main()
