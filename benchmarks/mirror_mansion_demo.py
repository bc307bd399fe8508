"""The Mirror Mansion demo end to end: does live play follow the film, turn after turn?

    .venv/bin/python benchmarks/mirror_mansion_demo.py --seeds 7301 7302 7303 --seconds 150

Each seed is a `sim` film (`render.table_film`, a game played through the engine) shown to
a real `Runtime` frame by frame at 4 fps: every frame rendered, registered and read by the
perceiver, the tracker and the engine deciding, the film's players tapping through
`Runtime.correct` as phones do. Per seed: turns completed, `mm.breach` events (the film is
legal, so every breach is false), taps dropped, and per turn whether the swaps committed
and the verdict (what the window saw, found, drops) equal the film's. Frames are processed
one after the other (no frame is dropped), so the numbers do not depend on the machine's
speed; the wall time is reported too. Use seeds never used in development.

Numbers go to benchmarks/results/mirror_mansion_demo.json, one section per configuration
(players, door).
"""

from __future__ import annotations

import argparse
import collections
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.camera import Frame  # noqa: E402
from companion.config import load_settings  # noqa: E402
from companion.live.loop import Runtime  # noqa: E402

FPS = 4.0


def run_seed(seed: int, seconds: float, players: int, options: dict[str, Any]) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="mm-demo-")
    settings = load_settings(
        None,
        {
            "data_dir": tmp,
            "game": "mirror-mansion",
            "camera.source": "sim",
            "camera.seed": seed,
            "camera.width": 960,
            "camera.height": 720,
            "camera.fps": FPS,
        },
        environ={},
    )
    rt = Runtime(settings)
    rt.start_session("mirror-mansion", options, [f"P{i + 1}" for i in range(players)])
    rt.use_registrar()  # what start() sets up, without the camera thread
    scene = rt.sim_scene()
    kinds: collections.Counter[str] = collections.Counter()
    breaches, swaps, n = [], [], 0
    t0 = time.time()
    for i in range(int(seconds * FPS)):
        image, truth = scene.frame(i / FPS)
        for e in rt.process(Frame(image=image, timestamp=time.monotonic(), index=i, truth=truth)):
            kinds[e.kind] += 1
            if e.kind == "mm.breach":
                breaches.append({"t": i / FPS, **e.payload})
            if e.kind == "mm.action" and e.payload["action"]["type"] == "swap":
                n += 1
            if e.kind == "mm.action" and e.payload["action"]["type"] == "end_swaps":
                swaps.append(n)
                n = 0
    wall = time.time() - t0
    game: Any = rt.game
    records = scene.script.turns
    looks = game.looks
    verdicts_right = sum(
        (look["turn"], look["seen"], look["found"], look["drops"])
        == (r.turn, r.seen, r.found, list(r.drops))
        for look, r in zip(looks, records, strict=False)
    )
    swaps_right = sum(a == len(r.swaps) for a, r in zip(swaps, records, strict=False))
    players_ = rt._players[1] if rt._players else None
    return {
        "seed": seed,
        "players": players,
        "options": options,
        "film_seconds": seconds,
        "frames": int(seconds * FPS),
        "turns_completed": len(looks),
        "verdicts_right": verdicts_right,
        "swap_counts_right": swaps_right,
        "breaches": breaches,
        "taps_played": None if players_ is None else players_.played,
        "taps_dropped": None if players_ is None else players_.dropped,
        "events": dict(kinds),
        "wall_seconds": round(wall, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", required=True)
    ap.add_argument("--seconds", type=float, default=150.0)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--door", action="store_true")
    args = ap.parse_args()
    command = "benchmarks/mirror_mansion_demo.py " + " ".join(sys.argv[1:])
    print(f"reproduce: .venv/bin/python {command}", flush=True)
    options = {"door": True} if args.door else {}
    runs = []
    for seed in args.seeds:
        r = run_seed(seed, args.seconds, args.players, options)
        runs.append(r)
        print(
            f"seed {seed}: {r['turns_completed']} turns, verdicts right "
            f"{r['verdicts_right']}, swap counts right {r['swap_counts_right']}, "
            f"breaches {len(r['breaches'])}, taps dropped {r['taps_dropped']}, "
            f"{r['wall_seconds']} s",
            flush=True,
        )
    total = {
        k: sum(r[k] for r in runs)
        for k in ("turns_completed", "verdicts_right", "swap_counts_right")
    }
    total["breaches"] = sum(len(r["breaches"]) for r in runs)
    total["taps_dropped"] = sum(r["taps_dropped"] or 0 for r in runs)
    print("total", total)
    out = ROOT / "benchmarks" / "results" / "mirror_mansion_demo.json"
    results = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    if "runs" in results:  # the single-configuration layout of the first run
        results = {"players=3": results}
    key = f"players={args.players}" + (",door" if args.door else "")
    results[key] = {"command": command, "machine": platform.machine(), "total": total, "runs": runs}
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
