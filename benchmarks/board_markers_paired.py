"""The board markers' finder (`companion/vision/board_markers.py`) against a git commit's, on
the pictures whose half-size search finds two markers (the only ones where their paths part).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/board_markers_paired.py --game queen_alice \\
        --set random --seed S --boards 60 --against REF

Sets as the games' vision benchmarks draw them (`house`, `random`, Queen Alice's `heldout`
painter) and `speed`: the speed benchmarks' 1280x960 frames.

For each picture of a set it counts the markers the half-size search finds; where it finds
two, both finders are run (best of three each, one core), their markers compared (ids, largest
corner difference) and the game's reader run with each one's markers: readings that differ in
anything (`to_json`) are counted. Every other picture goes down the same code in both.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.vision import board_markers as here
from companion.vision.markers import markers_at_half_size, to_gray


def finder_at(ref: str) -> ModuleType:
    """`board_markers.py` as it stands at git commit `ref` (on this tree's `markers.py`,
    whose `find_markers` answers as before)."""
    source = subprocess.run(
        ["git", "show", f"{ref}:companion/vision/board_markers.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spec = importlib.util.spec_from_loader(f"board_markers_{ref}", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, f"{ref}:board_markers.py", "exec"), module.__dict__)
    return module


def _best_ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(3):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return 1000 * best, out


def scenes(game: str, which: str, seed: int, boards: int) -> tuple[Any, Any, bool, Any]:
    """(geometry, picture maker, full_size_corners, reader) for a game's set."""
    if game == "queen_alice":
        from benchmarks.heldout.queen_alice import paint
        from companion.games.queen_alice.vision import read as qa
        from companion.games.queen_alice.vision.geometry import load_geometry
        from companion.games.queen_alice.vision.render import Conditions, render_photo

        geom = load_geometry()
        cond = {"house": Conditions(hands=0), "speed": Conditions(sizes=((1280, 960),))}.get(
            which, Conditions()
        )

        def picture(i: int) -> np.ndarray:
            if which == "heldout":
                return paint(geom, (seed, i)).image
            return render_photo(geom, (seed, i), cond).image

        def read(image: np.ndarray, markers: Any) -> Any:
            return qa.read_board(image, geom=geom, markers=markers).to_json()

        return geom, picture, True, read
    from companion.games.reflecto.vision import read as rf
    from companion.games.reflecto.vision.geometry import load_geometry as rf_geometry
    from companion.games.reflecto.vision.render import Conditions as RfConditions
    from companion.games.reflecto.vision.render import render_photo as rf_photo

    geom = rf_geometry()
    rcond = {"house": RfConditions(hands=0), "speed": RfConditions(sizes=((1280, 960),))}.get(
        which, RfConditions()
    )

    def rf_picture(i: int) -> np.ndarray:
        return rf_photo(geom, (seed, i), rcond).image

    def rf_read(image: np.ndarray, markers: Any) -> Any:
        return rf.read_board(image, geom, None, markers=markers)[0].to_json()

    return geom, rf_picture, False, rf_read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=["queen_alice", "reflecto"], required=True)
    parser.add_argument("--set", choices=["house", "random", "heldout", "speed"], default="random")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--boards", type=int, default=60)
    parser.add_argument("--against", required=True)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    other = finder_at(args.against)
    geom, picture, full_size, read = scenes(args.game, args.set, args.seed, args.boards)
    wanted = [m.id for m in geom.markers]
    half: collections.Counter[str] = collections.Counter()
    rows = []
    for i in range(args.boards):
        image = picture(i)
        found = markers_at_half_size(to_gray(image), wanted)
        half["full size only" if found is None else str(len(found))] += 1
        if found is None or len(found) != here.PLACED_BY:
            continue
        t_ref, ref = _best_ms(
            lambda im=image: other.board_markers(im, geom, full_size_corners=full_size)
        )
        t_here, new = _best_ms(
            lambda im=image: here.board_markers(im, geom, full_size_corners=full_size)
        )
        ref = {k: v for k, v in ref.items() if k in wanted}
        both = sorted(set(ref) & set(new))
        rows.append(
            {
                "board": i,
                "ids_same": sorted(ref) == sorted(new),
                "corner_diff_px": max(
                    (float(np.abs(ref[k].corners - new[k].corners).max()) for k in both),
                    default=0.0,
                ),
                "reading_same": read(image, ref) == read(image, new),
                "ms_against": round(t_ref, 2),
                "ms": round(t_here, 2),
            }
        )
    print(
        json.dumps(
            {
                "game": args.game,
                "set": args.set,
                "seed": args.seed,
                "boards": args.boards,
                "against": args.against,
                "half_size_found": dict(sorted(half.items())),
                "two_at_half_size": rows,
                "readings_differ": sum(not r["reading_same"] for r in rows),
                "ids_differ": sum(not r["ids_same"] for r in rows),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
