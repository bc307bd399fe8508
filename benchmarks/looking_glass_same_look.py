"""The curve `incremental.SAME_LOOK` is chosen from: does a card still lie where it lay?

Live play with the staged reader reads a frame in full only when most of the glass changed;
otherwise each card the picture changed over is compared with its own look at the last
reference (`incremental._look`, zero-mean normalised correlation). Films of whole rounds
(`render.RoundFilm`, the sim camera's: deal, picks with hands, cards lifted and put back,
bumps, blurred frames) on DEVELOPMENT seeds: the first frame is read in full with the staged
reader, and every card it named right is compared in every later frame with its first look.
Truth labels each comparison: "there" (the card lies as it lay, nothing over its upper half),
"taken" (no longer there), "hand" (a hand over part of its upper half: it is there, but may
not be seen) or "moved" (bumped a few mm). Per threshold: the cards of each label kept; a
"taken" card kept is a card read where none lies (must be 0).

    .venv/bin/python benchmarks/looking_glass_same_look.py --seeds 101 202
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)


def film_looks(seed: int, every: int) -> list[tuple[float, str]]:
    """(correlation, label) of every right first-read card in every `every`-th frame."""
    from companion.games.looking_glass.table.live import FilmScene
    from companion.games.looking_glass.vision.incremental import _look, _ncc
    from companion.games.looking_glass.vision.reader import StagedReader

    scene = FilmScene(seed)
    film = scene.film(0)
    reader = StagedReader(scene.library)
    img, truth = film.render(0)
    reading = reader.read(img)
    h_mm = scene.library.shape.height_mm
    refs = []
    for c in reading.cards:
        w = float(np.linalg.norm(c.quad[1] - c.quad[0]))
        for g in truth["cards"]:
            if g["card"] == c.card and np.hypot(*(c.center - g["center"])) < 0.3 * w:
                refs.append((c, g["position"], np.array(g["center"]), _look(img, c, h_mm)))
                break
    out = []
    for i in range(1, len(film), every):
        img, truth = film.render(i)
        by_pos = {g["position"]: g for g in truth["cards"]}
        for c, pos, centre, look in refs:
            g = by_pos.get(pos)
            if g is None or g["card"] != c.card:
                label = "taken"
            elif g["occluded"]:
                label = "hand"
            elif np.hypot(*(np.array(g["center"]) - centre)) > 2.0:
                label = "moved"
            else:
                label = "there"
            out.append((_ncc(_look(img, c, h_mm), look), label))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", required=True, help="development films")
    ap.add_argument("--every", type=int, default=2, help="every n-th frame (default 2)")
    a = ap.parse_args(argv)
    if a.every < 1 or any(s < 0 or s >= 1_000_000 for s in a.seeds):
        print(
            "error: --every must be >= 1 and seeds development seeds (< 1,000,000)", file=sys.stderr
        )
        return 2
    cv2.setNumThreads(1)
    looks: list[tuple[float, str]] = []
    for seed in a.seeds:
        got = film_looks(seed, a.every)
        looks += got
        print(f"  film {seed}: {len(got)} comparisons", file=sys.stderr, flush=True)
    labels = ("there", "taken", "hand", "moved")
    rows = []
    for t in THRESHOLDS:
        kept = {k: sum(1 for v, lab in looks if lab == k and v >= t) for k in labels}
        rows.append({"same_look": t, **{f"{k}_kept": kept[k] for k in labels}})
    totals = {k: sum(1 for _, lab in looks if lab == k) for k in labels}
    gone = sorted(v for v, lab in looks if lab == "taken")
    print(
        json.dumps(
            {
                "seeds": a.seeds,
                "totals": totals,
                "taken_highest": [round(v, 3) for v in gone[-5:]],
                "there_lowest": [
                    round(v, 3) for v in sorted(v for v, lab in looks if lab == "there")[:5]
                ],
                "curve": rows,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
