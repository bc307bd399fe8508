"""Queen Alice reader: `ARM_SPLIT`'s curve on DEVELOPMENT draws (issue 34).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/queen_alice_arm_split.py --seeds S1 S2 ... \\
        --boards 100 --cache DIR [--splits 12 16 20 ...]

Two arms side by side cross the loop round the grid as one run (`find_arms`); `split_run`
cuts such a run where its parts' colours lie at least `ARM_SPLIT` apart. Renders (or loads
from `--cache`, as `queen_alice_failures.py --cache` keeps them) boards (SEED, i) of each
development seed with up to two arms (the `random` set's mix) and reads each picture with
no split (`ARM_SPLIT` infinite: the reader before it) and at each value of `--splits`
(boards whose arms come out the same are not read again). Per value, against no split:
pieces an arm hides in the render that were read as empty and are now asked (caught),
pieces in view now asked, empty squares now asked (clear of arms in the render: a question
there costs the board), squares an arm hides that were asked and are now read (a piece read
empty is what the split is for, undone), and any answer now confidently wrong (a phantom, a
piece read as empty or as the other colour) that was asked or right before; boards whose
squares are all right (squares only: an arm's squares asked or right; no Crowns, no Alice).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import queen_alice_failures as failures  # noqa: E402
from companion.games.queen_alice.vision import read as reader  # noqa: E402
from companion.games.queen_alice.vision.geometry import load_geometry  # noqa: E402
from companion.games.queen_alice.vision.reading import BoardReading  # noqa: E402
from companion.games.queen_alice.vision.render import Photo  # noqa: E402


def answer(reading: BoardReading, cell: tuple[int, int]) -> str:
    """What the reading says of one square: a colour, "empty" or "asked"."""
    if cell in reading.unsure:
        return "asked"
    return reading.squares.get(cell, "empty")


def right(photo: Photo, reading: BoardReading) -> bool:
    """Every square the render shows read as it is, and nothing it hides named."""
    truth = photo.truth
    for cell in reading.squares.keys() | truth.squares.keys() | reading.unsure:
        if cell in truth.unsure:
            continue
        if answer(reading, cell) != truth.squares.get(cell, "empty"):
            return False
    return True


def compare(photo: Photo, base: BoardReading, new: BoardReading, count: dict[str, int]) -> None:
    """Adds to `count` what changed from `base` to `new` on one board (module docstring)."""
    truth = photo.truth
    for cell in photo.position.squares.keys() | base.unsure | new.unsure | base.squares.keys():
        want = photo.position.squares.get(cell, "empty")
        was, now = answer(base, cell), answer(new, cell)
        if was == now:
            continue
        hidden = cell in truth.unsure
        if now == "asked":
            if want != "empty" and hidden:
                count["hidden_caught" if was == "empty" else "hidden_other_asked"] += 1
            elif want != "empty":
                count["in_view_asked"] += 1
            elif cell in photo.near_arm:
                count["empty_near_arm_asked"] += 1
            else:
                count["empty_clear_asked"] += 1
        elif was == "asked":
            if hidden and want != "empty":
                count["hidden_piece_now_" + ("empty" if now == "empty" else "named")] += 1
                count["new_wrong_under_arm"] += now not in ("empty", want)
            elif hidden:
                count["hidden_empty_now_" + ("empty" if now == "empty" else "named")] += 1
            if now != want and not hidden:
                count["new_wrong"] += 1
        elif now != want and not hidden:
            count["new_wrong"] += 1
        elif now != want and hidden and now != "empty":
            count["new_wrong_under_arm"] += 1
    count["boards_right"] += right(photo, new)


def run(seeds: list[int], boards: int, splits: list[float]) -> dict[float, dict[str, int]]:
    geom = load_geometry()
    keys = (
        "hidden_caught",
        "hidden_other_asked",
        "hidden_piece_now_empty",
        "hidden_piece_now_named",
        "hidden_empty_now_empty",
        "hidden_empty_now_named",
        "in_view_asked",
        "empty_clear_asked",
        "empty_near_arm_asked",
        "new_wrong",
        "new_wrong_under_arm",
        "boards_right",
        "boards_changed",
    )
    out: dict[float, dict[str, int]] = {s: dict.fromkeys(keys, 0) for s in [math.inf, *splits]}
    for seed in seeds:
        for i in range(boards):
            photo = failures.cached_photo(geom, seed, i, failures.board_conditions(i, True))
            where = reader.locate(photo.image, geom)
            if where is None:
                continue
            reader.ARM_SPLIT = math.inf
            arms0 = reader.find_arms(photo.image, geom, where)
            base = reader.read_board(photo.image, geom=geom)
            out[math.inf]["boards_right"] += right(photo, base)
            for s in splits:
                reader.ARM_SPLIT = s
                arms = reader.find_arms(photo.image, geom, where)
                if len(arms.arms) == len(arms0.arms) and len(arms.lit) == len(arms0.lit):
                    out[s]["boards_right"] += right(photo, base)
                    continue
                out[s]["boards_changed"] += 1
                compare(photo, base, reader.read_board(photo.image, geom=geom), out[s])
            print(f"\r{seed} {i + 1}/{boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+")
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--splits", type=float, nargs="+", default=[12, 14, 16, 20, 25, 30])
    args = parser.parse_args()
    failures.CACHE = args.cache
    was = reader.ARM_SPLIT
    try:
        curve = run(args.seeds, args.boards, args.splits)
    finally:
        reader.ARM_SPLIT = was
    for s, row in curve.items():
        print(json.dumps({"arm_split": None if not np.isfinite(s) else s, **row}))


if __name__ == "__main__":
    main()
