"""The curve of `read.MIRROR_SURE`, on a DEVELOPMENT set: every Mirror place (a Mirror card
there or the bare table) as the reader matches it, and what a lower bar for a Mirror place
would name.

    PYTHONPATH=. python benchmarks/onirim_mirror_floor_curve.py --seeds A:B --tables 3 \
        [--styles random] [--floors 0.50,0.55,0.60] [--rows]

A Mirror place is a place of its own, as the discard pile's is: no row's last card lies
before it, so what shows there without a Mirror is the bare table, never a card's body (what
`read.EMPTY` guards against). For each place under `EMPTY` whose sides' lead clears `MARGIN`
(`Match.held`, so from `read.HELD_SURE`: floors under it tally as it does) the tally at
each floor: right (the side there), wrong side, phantom (no Mirror there), with the side a
guess (`Match.side_guessed`) counted apart (the reader keeps a guessed side only when cards
lie under it). With `--rows`, one line a Mirror place: truth, best, score, margin, coarse,
light. Development seeds only; the held-out painter is refused.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.layout import load_layout  # noqa: E402
from companion.games.onirim.vision.render import deck_faces, deck_style, render_table, table_look  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--styles", default="random")
    ap.add_argument("--floors", default="0.50,0.52,0.55,0.58,0.60")
    ap.add_argument("--rows", action="store_true")
    a = ap.parse_args()
    layout = load_layout()
    floors = [float(v) for v in a.floors.split(",")]
    lo, hi = (int(v) for v in a.seeds.split(":"))
    order = list(ENGINE.deck.mirrors)
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        scores: dict[str, list[float]] = {"card": [], "bare": []}
        tally: dict[float, Counter[str]] = {f: Counter() for f in floors}
        for seed in range(lo, hi):
            faces = deck_faces(deck_style(seed, style), layout)
            reader, _ = teach_deck(faces, seed)
            for t in range(a.tables):
                photo = render_table(seed, t, faces, layout, look=table_look(seed, style))
                H = reader.locate(photo.image)
                if H is None:
                    continue
                present = {m.mirror: m for m in photo.truth.mirrors}
                ms = reader.match(
                    [reader.corner_window(photo.image, H, p) for p in layout.mirror_places],
                    [f"mirror-{mid}" for mid in order],
                )
                for mid, m in zip(order, ms, strict=False):
                    tm = present.get(mid)
                    side = (
                        None
                        if tm is None
                        else (f"mirror-{mid}-explored" if tm.explored else f"mirror-{mid}")
                    )
                    scores["bare" if side is None else "card"].append(m.score)
                    if a.rows:
                        under = 0 if tm is None else len(tm.under)
                        print(
                            f"{style} {seed} {t} {mid}: truth {side} under {under} best {m.best}"
                            f" named {m.card} score {m.score:.3f} margin {m.margin:.3f}"
                            f" coarse {m.coarse:.3f} light "
                            + ("-" if m.light is None else f"{m.light:.3f}"),
                            flush=True,
                        )
                    if not m.empty or m.held is None:
                        continue
                    guessed = dataclasses.replace(m, card=m.held).side_guessed
                    kind = "phantom" if side is None else ("right" if m.held == side else "wrong")
                    for f in floors:
                        if m.score >= f:
                            tally[f][kind + (" guessed" if guessed else "")] += 1
        for k, v in scores.items():
            q = np.percentile(v, [0, 1, 5, 50, 95, 99, 100]) if v else []
            print(
                f"{style} {k} places {len(v)}: "
                + " / ".join(f"{x:.3f}" for x in q)
                + " (least / 1st / 5th / median / 95th / 99th / most)"
            )
        print(
            f"{style}: Mirror places under EMPTY {R.EMPTY} named at each floor (side lead "
            f">= MARGIN {R.MARGIN}): right / wrong side / phantom (guessed sides apart)"
        )
        for f in floors:
            c = tally[f]
            print(
                f"  {f:.2f}: {c['right']} / {c['wrong']} / {c['phantom']}"
                f"  guessed {c['right guessed']} / {c['wrong guessed']} / {c['phantom guessed']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
