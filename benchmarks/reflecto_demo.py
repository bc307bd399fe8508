"""The Reflecto demo end to end: does the `sim` film play itself to its result?

    .venv/bin/python benchmarks/reflecto_demo.py --seeds 123456789 987654321

Each seed is the `sim` camera's demo (`vision/scene.table_film`: set-ups, a few moves, the
mover's winning guess, all through the engine) played through the live table at 4 film
frames a second (`table/demo_film.play_film`): every frame read by the real perceiver, the
film's taps played as phones would. Per seed: moves booked against the film's, breaches (the
film is legal: every breach is false), questions, taps played and dropped, and whether the
game reached the result, and whether it did so as filmed (every move booked, no breach, no
question: a guess tapped while the camera is behind can end a game whose board went wrong,
as a player's would). Frames are read one after the other, so the numbers do not depend
on the machine's speed. Use seeds never used in development.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.config import load_settings  # noqa: E402
from companion.games.reflecto.rules.state import OVER  # noqa: E402
from companion.games.reflecto.table.demo_film import play_film  # noqa: E402
from companion.games.reflecto.table.live import ACTION_KIND, BREACH_KIND  # noqa: E402
from companion.games.reflecto.vision.scene import (  # noqa: E402
    DEMO_MOVES,
    scripted_game,
    table_film,
)
from companion.live.table_game import QUESTION_KIND  # noqa: E402


def run_seed(seed: int, moves: int) -> dict[str, Any]:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as data:
        # A data directory as the server has: the screens' colours are kept once learnt.
        settings = load_settings(None, {"data_dir": data}, environ={})
        run = play_film(table_film(seed, settings, moves=moves), settings=settings)
    booked = [e.payload["action"] for e in run.events if e.kind == ACTION_KIND]
    filmed = scripted_game(seed, max_moves=moves).actions
    return {
        "seed": seed,
        "moves_filmed": len(filmed),
        "moves_right": sum(a == b for a, b in zip(booked, filmed, strict=False)),
        "breaches": sum(e.kind == BREACH_KIND for e in run.events),
        "questions": sum(e.kind == QUESTION_KIND for e in run.events),
        "taps_played": run.played,
        "taps_dropped": run.dropped,
        "result": run.game.state.phase == OVER,
        "as_filmed": run.game.state.phase == OVER
        and booked[:-1] == filmed
        and not any(e.kind in (BREACH_KIND, QUESTION_KIND) for e in run.events),
        "frames": run.frames,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", required=True)
    parser.add_argument("--moves", type=int, default=DEMO_MOVES)
    args = parser.parse_args()
    rows = []
    for seed in args.seeds:
        rows.append(run_seed(seed, args.moves))
        print(json.dumps(rows[-1]), flush=True)
    total = {
        "films": len(rows),
        "to_the_result": sum(r["result"] for r in rows),
        "as_filmed": sum(r["as_filmed"] for r in rows),
        "moves_right": sum(r["moves_right"] for r in rows),
        "moves_filmed": sum(r["moves_filmed"] for r in rows),
        "breaches": sum(r["breaches"] for r in rows),
        "questions": sum(r["questions"] for r in rows),
        "taps_dropped": sum(r["taps_dropped"] for r in rows),
    }
    print(json.dumps(total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
