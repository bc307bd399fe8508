"""Mirror Mansion: `perceive.FACE_REFLECTS` at each bar against off, guard on and off.

    .venv/bin/python benchmarks/devset/mirror_mansion/face_reflects.py --cache DIR \\
        --styles wide17,wide18 --bars 5.5,6,6.5,7,7.5,8

Each development board is taken through the reader's first stages once (the candidates), then
identified and fitted with the rule off (`FACE_REFLECTS` 0, the reader's default) and at each
bar, with its guard (`perceive.FACE_GUARD`: a facing the reflection named asked where another
view of the crossing names the other facing surely) on and off. Per bar and guard: every true
mirror's outcome against off (right / asked / wrong / missed), so the curve counts what
`asked.py`'s curve cannot see: a mirror right with the rule off (another view of its sticker
made it sure) that the rule names the other way. Phantoms and exact boards as well; with
`--list`, each mirror whose outcome changed (development boards only).

Development seeds only (`sweep.DEV`); the held-out painter is never read here.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sweep import photos  # noqa: E402

from companion.games.mirror_mansion.rules.board import load_board  # noqa: E402
from companion.games.mirror_mansion.vision import perceive  # noqa: E402
from companion.games.mirror_mansion.vision.scene import BoxState, MirrorSeen  # noqa: E402
from companion.vision.board_pose import estimate_pose  # noqa: E402

OUTCOMES = ("right", "asked", "wrong", "missed")


def outcome(mirror: MirrorSeen, got: BoxState) -> str:
    """What the reading made of one true mirror."""
    seen = got.mirror_at(mirror.cell)
    if seen is None:
        return "missed"
    if seen.facing is None or not seen.slot_sure:
        return "asked"
    return "right" if (seen.slot, seen.facing) == (mirror.slot, mirror.facing) else "wrong"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="wide17,wide18")
    ap.add_argument("--bars", default="5.5,6,6.5,7,7.5,8")
    ap.add_argument("--list", action="store_true", help="each mirror whose outcome changed")
    args = ap.parse_args()
    board = load_board()
    bars = [float(b) for b in args.bars.split(",")]
    runs = [(bar, guard) for bar in bars for guard in (True, False)]
    moves: dict[tuple[float, bool], Counter[str]] = {r: Counter() for r in runs}
    exact: Counter[object] = Counter()
    phantoms: Counter[object] = Counter()
    boards = 0
    for spec in args.styles.split(","):
        style, _, first = spec.partition(":")
        for seed, image, truth in photos(args.cache, board, style, int(first) if first else None):
            found = perceive.find_board_markers(image, board)
            pose = estimate_pose(found, board, (image.shape[1], image.shape[0]), None)
            boards += 1
            if pose is None:
                continue
            rect = perceive.rectify(image, board, pose)
            first_cands = perceive.find_candidates(rect, board)
            got: dict[object, BoxState] = {}
            for run in [None, *runs]:
                perceive.FACE_REFLECTS, perceive.FACE_GUARD = (0.0, True) if run is None else run
                cands, ident = perceive.rescued(rect, first_cands, board)
                got[run] = perceive.fit(ident, cands, board)
                exact[run] += got[run].layout_key() == truth.layout_key()
                cells = {m.cell for m in truth.mirrors}
                phantoms[run] += sum(1 for m in got[run].mirrors if m.cell not in cells)
            for run in runs:
                for m in truth.mirrors:
                    a, b = outcome(m, got[None]), outcome(m, got[run])
                    moves[run][f"{a}->{b}"] += 1
                    if args.list and a != b:
                        print(f"  {run} {style} {seed[1]} {m.cell} {a} -> {b}", flush=True)
    perceive.FACE_REFLECTS, perceive.FACE_GUARD = 0.0, True
    print(f"{boards} boards ({args.styles}); off: exact {exact[None]}, phantoms {phantoms[None]}")
    print("bar guard | asked->right  ->wrong (from right / asked)  right->asked | exact phantoms")
    for run in runs:
        mv = moves[run]
        to_wrong = {a: mv[f"{a}->wrong"] for a in OUTCOMES if a != "wrong"}
        print(
            f"{run[0]:5.2f} {'on ' if run[1] else 'off'} | {mv['asked->right']:4d}"
            f"  {sum(to_wrong.values()):3d} ({to_wrong['right']} / {to_wrong['asked']})"
            f"  {mv['right->asked']:3d} | {exact[run]} {phantoms[run]}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
