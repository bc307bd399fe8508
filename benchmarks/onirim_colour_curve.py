"""Can a Location's colour be told by its hue alone? A DEVELOPMENT curve, not yet a stage of
the reader (vision/read.py).

    PYTHONPATH=. python benchmarks/onirim_colour_curve.py --seeds A:B --tables 1

Why: the reader's descriptor is zero-mean and scaled per channel, so it is blind to how strong
a colour is; a red Sun and a brown Sun differ mostly there, and only the patch's mean `tint`
(`TINT_WEIGHT`) separates them. On random decks most cards the reader leaves null are red
or brown ones whose best other-colour type came within `MARGIN`.

What: for each pair of Locations of one symbol and two colours (taught corners), the pixels
where their tints differ (`COLOUR_SHARE` of the largest difference: the ink, or the whole
face when the colour covers it), and each corner's `ink` there: the direction of its chroma
less the paper's (a hue: a crop a pixel off mixes ink with paper and a dimmer lamp changes the
strength, neither the direction). For every Location lying on a rendered table, at the shift
where its own template fits best, its lead on its symbol in each other colour: 1 at its own
hue, -1 at the other's (cosine, so beyond 1 is possible). A stage that named a card on this
lead would need every lead below 0 (a card whose hue reads as another colour's) to stay
under its threshold. Printed: percentiles of the leads, those of the cards the reader would
need it for (another colour within `MARGIN`), and the worst cases with their designs.

Development seeds only: the held-out designs are refused.
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

from benchmarks.onirim_failures import design_of  # noqa: E402
from benchmarks.onirim_vision import teach_deck  # noqa: E402
from companion.games.onirim.rules import ENGINE  # noqa: E402
from companion.games.onirim.rules.deck import colour_of, symbol_of  # noqa: E402
from companion.games.onirim.vision import read as R  # noqa: E402
from companion.games.onirim.vision.layout import load_layout  # noqa: E402
from companion.games.onirim.vision.render import deck_faces, deck_style, render_table, table_look  # noqa: E402

COLOUR_SHARE = 0.5


def ink(lab: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Unit (2,): the `tint` of a corner (Lab) where `mask` holds, less the rest's when the
    rest is a real part of the corner (the paper round the ink)."""
    c = R.tint(lab[mask].mean(axis=0))
    if (~mask).sum() >= mask.size // 4:
        c = c - R.tint(lab[~mask].mean(axis=0))
    return c / max(1e-6, float(np.hypot(c[0], c[1])))


def colour_mask(patch_a: np.ndarray, patch_b: np.ndarray) -> np.ndarray:
    la, lb = (cv2.cvtColor(p, cv2.COLOR_BGR2LAB).astype(np.float32) for p in (patch_a, patch_b))
    d = R.tint_distance(R.tint(la), R.tint(lb))
    return d >= COLOUR_SHARE * d.max()


def lead(crop: np.ndarray, patch_a: np.ndarray, patch_b: np.ndarray) -> float:
    """The crop's hue lead for a over b (1 at a's, -1 at b's)."""
    mask = colour_mask(patch_a, patch_b)
    la, lb = (cv2.cvtColor(p, cv2.COLOR_BGR2LAB).astype(np.float32) for p in (patch_a, patch_b))
    a, b, c = ink(la, mask), ink(lb, mask), ink(crop, mask)
    return float(c @ a - c @ b) / max(1e-6, 1.0 - float(a @ b))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", required=True, help="A:B, development seeds")
    ap.add_argument("--tables", type=int, default=1)
    ap.add_argument("--styles", default="random")
    a = ap.parse_args()
    layout = load_layout()
    lo, hi = (int(v) for v in a.seeds.split(":"))
    order = list(ENGINE.deck.mirrors)
    leads: list[float] = []
    needed: list[float] = []
    worst: list[tuple[float, str]] = []
    for style in a.styles.split(","):
        if style not in ("house", "random"):
            raise SystemExit("--styles: house or random (the held-out designs are never looked at)")
        for seed in range(lo, hi):
            ds = deck_style(seed, style)
            faces = deck_faces(ds, layout)
            reader, _ = teach_deck(faces, seed)
            ids, patches = reader.lib.ids, reader.lib.patches
            locs = reader.zones["location"]
            for i in range(a.tables):
                photo = render_table(seed, i, faces, layout, look=table_look(seed, style))
                H = reader.locate(photo.image)
                if H is None:
                    continue
                t = photo.truth
                cards = list(zip(layout.labyrinth_places, t.labyrinth, strict=False))
                for m in t.mirrors:
                    k = order.index(m.mirror)
                    cards += [(layout.under_place(k, j), c) for j, c in enumerate(m.under)]
                for place, card in cards:
                    if card is None or card not in ids:
                        continue
                    bgr = reader.corner_window(photo.image, H, place)
                    lab = cv2.GaussianBlur(
                        cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0.7
                    )
                    c = R.crop_scores(lab[None], reader.fine[locs][None])
                    dt = R.tint_distance(c.tints[:, :, None], reader.tints[locs][None, None])
                    full = (c.scores - R.TINT_WEIGHT * dt)[0]  # (shifts, types)
                    right = locs.index(ids.index(card))
                    fine = full.max(axis=0)
                    close = any(
                        fine[right] - fine[j] < R.MARGIN
                        for j, ti in enumerate(locs)
                        if colour_of(ids[ti]) != colour_of(card)
                    )
                    nx = lab.shape[1] - R.PATCH_W + 1
                    y, x = divmod(int(full[:, right].argmax()), nx)
                    crop = lab[y : y + R.PATCH_H, x : x + R.PATCH_W]
                    for ti in locs:
                        other = ids[ti]
                        if colour_of(other) == colour_of(card) or symbol_of(other) != symbol_of(
                            card
                        ):
                            continue
                        v = lead(crop, patches[ids.index(card)], patches[ti])
                        leads.append(v)
                        if close:
                            needed.append(v)
                        where = f"{style} seed {seed} table {i}: {card} vs {other}"
                        worst.append((v, f"{where} | {' '.join(design_of(ds).values())}"))
            print(f"{style} seed {seed}: {len(leads)} leads so far", flush=True)
    q = (0, 1, 5, 50)
    for name, v in (("all", leads), ("needed", needed)):
        if v:
            p = np.percentile(v, q)
            print(
                f"{name:6} n={len(v):5} "
                + " ".join(f"p{k} {x:.3f}" for k, x in zip(q, p, strict=True))
            )
    for v, where in sorted(worst)[:5]:
        print(f"  {v:.3f} {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
