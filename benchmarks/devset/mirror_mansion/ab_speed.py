"""Mirror Mansion: two worktrees' readers timed in one process, frame by frame, on the same frames.

    taskset -c 0 .venv/bin/python benchmarks/devset/mirror_mansion/ab_speed.py \\
        --before /work/wt/x-main --after /work/wt/x 'DIR/*.png' --rounds 3

Runs of the speed part from two worktrees minutes apart move by ±10 % on a shared machine
(other jobs, caches), more than most speed-ups; here each frame is read by both readers one
after the other (the order alternating), with the bare `detectMarkers` on it, and the CPU time
of each summed and compared. The frames are any cached boards (`same_readings.py`'s folders, a
benchmark's `--cache`, or `mirror_mansion_vision.py --part speed`'s frames written out). Each
reader is imported from its own worktree (its `companion` package loaded apart); it only
times, it tunes nothing.
"""

from __future__ import annotations

import argparse
import glob
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import cv2


def load_reader(root: str) -> tuple[Callable[..., Any], Any]:
    """`read_box` and the board of the `companion` package in the worktree `root`."""
    for name in [k for k in sys.modules if k == "companion" or k.startswith("companion.")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        from companion.games.mirror_mansion.rules.board import load_board
        from companion.games.mirror_mansion.vision import perceive
    finally:
        sys.path.remove(root)
    if not str(perceive.__file__).startswith(root):
        raise SystemExit(f"{root}: imported {perceive.__file__} instead")
    return perceive.read_box, load_board()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("frames", help="a glob of cached boards (PNG)")
    ap.add_argument("--before", required=True, help="worktree of the reader compared against")
    ap.add_argument("--after", required=True, help="worktree of the reader measured")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    readers = {"before": load_reader(args.before), "after": load_reader(args.after)}
    from companion.vision.markers import detector, to_gray

    images = [im for p in sorted(glob.glob(args.frames)) if (im := cv2.imread(p)) is not None]
    det = detector()
    for image in images[:3]:
        for read, board in readers.values():
            read(image, board)
    cpu: dict[str, list[float]] = {"before": [], "after": [], "detect": []}
    for r in range(args.rounds):
        for i, image in enumerate(images):
            gray = to_gray(image)
            t = time.process_time()
            det.detectMarkers(gray)
            cpu["detect"].append(time.process_time() - t)
            for which in ("before", "after") if (i + r) % 2 == 0 else ("after", "before"):
                read, board = readers[which]
                t = time.process_time()
                read(image, board)
                cpu[which].append(time.process_time() - t)
    b, a, d = cpu["before"], cpu["after"], cpu["detect"]
    ms = {k: 1e3 * statistics.median(v) for k, v in cpu.items()}
    ratios = statistics.median([x / y for x, y in zip(a, b, strict=True)])
    over_b = statistics.median([x / y for x, y in zip(b, d, strict=True)])
    over_a = statistics.median([x / y for x, y in zip(a, d, strict=True)])
    print(
        f"{len(images)} frames x {args.rounds}: CPU read median before {ms['before']:.2f} ms, "
        f"after {ms['after']:.2f} ms, detect {ms['detect']:.2f} ms; after / before summed "
        f"{sum(a) / sum(b):.4f}, median of ratios {ratios:.4f}; read / detect median "
        f"before {over_b:.3f}, after {over_a:.3f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
