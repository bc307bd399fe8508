"""Mirror Mansion: does a change leave every reading (and every candidate) as it was?

    .venv/bin/python benchmarks/devset/mirror_mansion/same_readings.py DIR --save before.json
    .venv/bin/python benchmarks/devset/mirror_mansion/same_readings.py DIR --against before.json

DIR is any folder of cached boards (`*.png`, as `mirror_mansion_vision.py --cache` and
`sweep.py --cache` write them), of any style, the held-out painter's included: a speed-up
must read its boards the same too, and this only compares, it tunes nothing. For each board
it keeps the reading (`BoxState.to_json`, confidences included) and a hash of the candidates
and their identification (every dot with its measures, every top-edge score, the crossings'
middles), so a change that moves a dot's measure without moving a reading is seen as well.
Run it from the worktree whose reader is to be checked (`PYTHONPATH=$PWD`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from companion.games.mirror_mansion.rules.board import load_board  # noqa: E402
from companion.games.mirror_mansion.vision import perceive  # noqa: E402
from companion.vision.board_pose import estimate_pose  # noqa: E402


def candidates_hash(image, board) -> str | None:
    """A hash of the candidates, after the rescue, and of their identification."""
    found = perceive.find_board_markers(image, board)
    pose = estimate_pose(found, board, (image.shape[1], image.shape[0]), None)
    if pose is None:
        return None
    rect = perceive.rectify(image, board, pose)
    cands, ident = perceive.rescued(rect, perceive.find_candidates(rect, board), board)
    middles = [
        (
            cell,
            m.points_mm.tobytes(),
            m.lab.tobytes(),
            sorted((s, v.tobytes()) for s, v in m.lines.items()),
        )
        for cell, m in sorted(cands.middles.items())
    ]
    seen = (
        cands.green,
        cands.orange,
        sorted(cands.magenta.items()),
        sorted(cands.mirror_bars.items()),
        sorted(cands.door_bars.items()),
        middles,
        ident,
    )
    return hashlib.sha1(repr(seen).encode()).hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--save", type=Path, help="write each board's reading and hash here")
    ap.add_argument("--against", type=Path, help="list the boards read otherwise than here")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    board = load_board()
    got: dict[str, dict] = {}
    t0 = time.process_time()
    for png in sorted(args.folder.glob("*.png")):
        image = cv2.imread(str(png))
        got[png.stem] = {
            "reading": perceive.read_box(image, board).to_json(),
            "candidates": candidates_hash(image, board),
        }
    print(f"{len(got)} boards read ({time.process_time() - t0:.1f} s CPU)")
    if args.save:
        args.save.write_text(json.dumps(got))
    if args.against:
        old = json.loads(args.against.read_text())
        both = [k for k in got if k in old]
        readings = [k for k in both if old[k]["reading"] != got[k]["reading"]]
        cands = [k for k in both if old[k]["candidates"] != got[k]["candidates"]]
        print(f"{len(both)} compared: {len(readings)} readings changed {readings[:20]}")
        print(f"{len(cands)} candidates changed {cands[:20]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
