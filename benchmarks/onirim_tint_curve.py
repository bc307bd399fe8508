"""The curve behind `TINT_WEIGHT` (vision/read.py) on a DEVELOPMENT set: how a card's lead
over every Location of another colour, and its own score, move with the weight of the tint.

    PYTHONPATH=. python benchmarks/onirim_tint_curve.py --seeds A:B --tables 2 [--styles random]

For each Location lying on a rendered table (the labyrinth and the fans), every Location type
is scored over the whole search window at full scale, as the closer look scores it
(`read.crop_scores` less `weight` x the tint distance, best shift), for each weight of a grid.
Printed per weight: the cards whose right type does not lead every other colour's by
`MARGIN` (asked, or named wrongly when the lead is negative), and the cards whose own score
falls below `END_SURE` (a row's last card would end the row). Development seeds only: the
held-out designs are refused.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.rules.deck import colour_of  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.layout import load_layout  # noqa: E402
from companion.games.onirim.vision.render import deck_faces, deck_style, render_table, table_look  # noqa: E402

WEIGHTS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=2)
    ap.add_argument("--styles", default="random")
    a = ap.parse_args()
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    order = list(ENGINE.deck.mirrors)
    leads: list[np.ndarray] = []  # per card: (weights,) lead of the right type
    owns: list[np.ndarray] = []
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        for seed in range(lo, hi):
            faces = deck_faces(deck_style(seed, style), layout)
            reader, _ = teach_deck(faces, seed)
            ids = reader.lib.ids
            locs = reader.zones["location"]
            templates = reader.fine[locs][None]
            tints = reader.tints[locs]
            for i in range(a.tables):
                photo = render_table(seed, i, faces, layout, look=table_look(seed, style))
                H = reader.locate(photo.image)
                if H is None:
                    continue
                truth = photo.truth
                cards = [
                    (p, c) for p, c in zip(layout.labyrinth_places, truth.labyrinth, strict=False)
                ]
                for m in truth.mirrors:
                    k = order.index(m.mirror)
                    cards += [(layout.under_place(k, j), c) for j, c in enumerate(m.under)]
                for place, card in cards:
                    if card is None:
                        continue
                    bgr = reader.corner_window(photo.image, H, place)
                    lab = cv2.GaussianBlur(
                        cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7
                    )
                    c = R.crop_scores(lab[None], templates)
                    dt = R.tint_distance(c.tints[:, :, None], tints[None, None])
                    right = locs.index(ids.index(card))
                    other = [j for j, t in enumerate(locs) if colour_of(ids[t]) != colour_of(card)]
                    lead, own = [], []
                    for w in WEIGHTS:
                        fine = (c.scores - w * dt).max(axis=1)[0]
                        own.append(fine[right])
                        lead.append(fine[right] - fine[other].max())
                    leads.append(np.array(lead))
                    owns.append(np.array(own))
            print(f"{style} seed {seed}: {len(leads)} cards so far", flush=True)
    lead_a, own_a = np.array(leads), np.array(owns)
    print(f"\n{len(lead_a)} Locations; per tint weight:")
    print("weight  lead<0  lead<MARGIN  own<END_SURE  lead 1st/5th pct")
    for k, w in enumerate(WEIGHTS):
        col = lead_a[:, k]
        p1, p5 = np.percentile(col, [1, 5])
        print(
            f"{w:5.1f}  {int((col < 0).sum()):6d}  {int((col < R.MARGIN).sum()):11d}  "
            f"{int((own_a[:, k] < R.END_SURE).sum()):12d}  {p1:.3f} / {p5:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
