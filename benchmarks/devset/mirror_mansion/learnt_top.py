"""Mirror Mansion: the colour of a box's tops learnt from its mirrors read surely, against the
strips of the facings their own top left asked.

    .venv/bin/python benchmarks/devset/mirror_mansion/learnt_top.py --styles wide19,wide17,wide21

Every top of a box is one paint and lies flat (lit alike), so the strips of the mirrors whose
facing their own top named surely give the box's top colour (`perceive.learnt_top`). For
every mirror whose facing its top left asked (`side_from` "top_asked"), read with the rule
off (`perceive.TOP_LIKE` and `TOP_LIKE_NEAR` 0), one line: the half of the strip its dot
lies on seen from the camera, the strip's Lab distance from the learnt colour, how many tops
it was learnt from, and whether the facing that strip names is right (answer key). Then the
curve: per half and threshold, the asked facings named right and wrong (`TOP_LIKE`, far
halves, and `TOP_LIKE_NEAR`, near halves, are chosen from it).

Development seeds only (`sweep.DEV`, the same cache); the held-out painter is never read here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sweep import staged  # noqa: E402

from companion.games.mirror_mansion.rules.board import FACINGS, load_board  # noqa: E402
from companion.games.mirror_mansion.vision import perceive  # noqa: E402
from companion.games.mirror_mansion.vision.stickers import DEFAULT_STICKERS  # noqa: E402

THRESHOLDS = (2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 15.0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/mm_devset"))
    ap.add_argument("--styles", default="wide19,wide17,wide21")
    args = ap.parse_args()
    board = load_board()
    perceive.TOP_LIKE = perceive.TOP_LIKE_NEAR = 0.0  # read without the rule; the curve replays it
    rows: list[tuple[str, float, bool]] = []
    unlearnt: dict[str, int] = {"far": 0, "near": 0}
    print("board cell slot | half | distance | learnt from | named")
    for style, seed, _image, truth, _rect, cands, ident in staged(args.cache, board, args.styles):
        learnt = perceive.learnt_top(ident.pieces, cands.tops, DEFAULT_STICKERS)
        n_learnt = sum(
            1
            for p in ident.pieces
            if p.kind == "mirror"
            and p.side_from == "top"
            and p.slot_sure
            and p.confidence >= DEFAULT_STICKERS.min_confidence
        )
        for m in truth.mirrors:
            held = next((p for p in ident.pieces if p.cell == m.cell and p.kind == "mirror"), None)
            if held is None or held.dot is None or held.side_from != "top_asked":
                continue
            if held.slot != m.slot or not held.slot_sure:
                continue
            top = cands.tops.get((held.dot.centre_mm, m.slot))
            if top is None or top.colour is None or not top.near_side:
                continue
            _, fits = perceive._slot_fits(board, held.dot)
            on_top = fits[m.slot][1] - top.middle_mm
            half = "near" if top.near_side * on_top > 0 else "far"
            named = FACINGS[m.slot][1] if on_top > 0 else FACINGS[m.slot][0]
            right = named == m.facing
            if learnt is None:
                unlearnt[half] += 1
                continue
            d = float(np.linalg.norm(np.asarray(top.colour) - learnt))
            rows.append((half, d, right))
            print(
                f"{style} {seed[1]:3d} {m.cell} {m.slot} | {half} | {d:5.1f} | {n_learnt} | "
                f"{'right' if right else 'WRONG'}"
            )
    print()
    for half in ("far", "near"):
        mine = [(d, ok) for h, d, ok in rows if h == half]
        print(
            f"{half} half: {len(mine)} asked with a learnt colour (top right "
            f"{sum(ok for _, ok in mine)}), {unlearnt[half]} without"
        )
        for t in THRESHOLDS:
            r = sum(1 for d, ok in mine if d < t and ok)
            w = sum(1 for d, ok in mine if d < t and not ok)
            print(f"  below {t:4.1f}: named right {r:3d}, wrong {w:3d}")
        wrong = sorted(round(d, 1) for d, ok in mine if not ok)
        print(f"  wrong tops' distances: {wrong}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
