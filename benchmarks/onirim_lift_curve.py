"""The curve of `read.LIFT_GAIN` (a deck's scores lifted by how far its `deck_level` lies under
`read.LEVEL_REF`), on a DEVELOPMENT set.

    PYTHONPATH=. python benchmarks/onirim_lift_curve.py --seeds A:B --tables 3 \
        [--styles random] [--gains 0,1,2,3] [--level-ref 0.95]

For each seed a deck is drawn and taught (as `onirim_vision.py` does) and its `deck_level`
printed; `--tables` tables are rendered once and read by a reader made at each gain (the same
library), and each gain's tally is printed: cards right, named wrong, asked, phantoms, and
every table's errors where a gain's reading differs from gain 0's. `--levels-only` prints the
decks' levels alone (teach only, no table: the distribution `LEVEL_REF` is chosen from).
Development seeds only; the held-out designs are never looked at.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.compare import compare  # noqa: E402
from companion.games.onirim.vision.layout import load_layout  # noqa: E402
from companion.games.onirim.vision.render import (  # noqa: E402
    deck_faces,
    deck_style,
    render_table,
    table_look,
)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--styles", default="random")
    ap.add_argument("--gains", default="0,1,2,3")
    ap.add_argument("--level-ref", type=float, default=R.LEVEL_REF)
    ap.add_argument("--levels-only", action="store_true")
    a = ap.parse_args()
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    gains = [float(v) for v in a.gains.split(",")]
    R.LEVEL_REF = a.level_ref
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        totals = {g: Counter() for g in gains}
        levels = []
        for seed in range(lo, hi):
            faces = deck_faces(deck_style(seed, style), layout)
            base, _ = teach_deck(faces, seed)
            levels.append(base.level)
            readers = {}
            for g in gains:
                R.LIFT_GAIN = g
                readers[g] = R.TableReader(base.lib, layout)
            lifts = " ".join(f"{readers[g].lift:.3f}" for g in gains)
            print(f"{style} seed {seed} level {base.level:.4f} lifts {lifts}", flush=True)
            if a.levels_only:
                continue
            for i in range(a.tables):
                photo = render_table(seed, i, faces, layout, look=table_look(seed, style))
                first = None
                for g in gains:
                    reading = readers[g].read(photo.image).asked()
                    t = compare(reading, photo.truth)
                    totals[g].update(
                        {
                            "cards": t.cards,
                            "right": t.right,
                            "wrong": t.wrong,
                            "null": t.null,
                            "phantom": t.phantom,
                        }
                    )
                    if first is None:
                        first = t.errors
                    elif t.errors != first:
                        print(f"  gain {g:g} seed {seed} table {i}: {t.errors}", flush=True)
        q = sorted(levels)
        print(f"{style} levels: n={len(q)} " + " ".join(f"{v:.3f}" for v in q))
        if a.levels_only:
            continue
        for g in gains:
            c = totals[g]
            print(
                f"{style} LIFT_GAIN {g:g} (LEVEL_REF {a.level_ref}): {c['right']} / {c['cards']} "
                f"right ({100 * c['right'] / max(1, c['cards']):.2f} %), wrong {c['wrong']}, "
                f"null {c['null']}, phantom {c['phantom']}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
