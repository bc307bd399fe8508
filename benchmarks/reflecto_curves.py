"""Reflecto reader: the curves its thresholds are chosen from, on a DEVELOPMENT set.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py collect --seed DEVSEED \\
        --boards 150 --out /tmp/reflecto-dev.npz
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py curves /tmp/reflecto-dev.npz

`collect` renders boards (seeds (DEVSEED, i), a development family: never one a benchmark
reports) with the colours learned from their set-up photograph, and stores per square the
truth (empty, seat 0, seat 1) and what the reader decides on: the best share of the strip in
each seat's colour (`read._shares`) and the share of the strip washed out to near white
(`washed_shares`). `curves` prints, for each threshold, how many screens and empty
squares fall on each side of each candidate value: the curve a threshold is read off.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.reflecto.vision import read  # noqa: E402
from companion.games.reflecto.vision.geometry import BoardGeometry, load_geometry  # noqa: E402
from companion.games.reflecto.vision.render import render_photo  # noqa: E402

WASHED = 200
"""Every channel at least this: a pixel burnt out to near white (glare)."""
FAINT = (0.1, 0.2, 0.3)
"""Lower colour floors (share of the learned colour's strength) the faint curves try."""


def washed_shares(rect: read.Rectified, geom: BoardGeometry) -> np.ndarray:
    """(cells,): per square, the share of its centre strip burnt out to near white (every
    channel at least `WASHED`, 200): a lamp's glare on a glossy top, where no colour is left to
    judge by."""
    hx, hy = read._strip(geom)
    white = (rect.top.min(axis=-1) >= WASHED).astype(np.uint8)
    ii = cv2.integral(white, sdepth=cv2.CV_32S)
    h, w = white.shape
    out = []
    for cell in geom.cells:
        cx, cy = (round(v) for v in rect.px(geom.cell_mm(cell)))
        x0, x1 = max(cx - hx, 0), min(cx + hx + 1, w)
        y0, y1 = max(cy - hy, 0), min(cy + hy + 1, h)
        n = max((x1 - x0) * (y1 - y0), 1)
        out.append(float(ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]) / n)
    return np.array(out)


def collect(seed: int, boards: int, out: Path) -> None:
    geom = load_geometry()
    rows = []
    for i in range(boards):
        photo = render_photo(geom, (seed, i), setup=True)
        truth = dict(photo.truth.layout_key())
        rect_setup = read.rectify(photo.setup, geom)
        rect = read.rectify(photo.image, geom)
        if rect_setup is None or rect is None:
            continue
        colours = read.learn_at_setup(rect_setup, geom)
        if colours.problems():
            continue
        washed = washed_shares(rect, geom)
        shares, *faint = read._shares(rect, geom, colours, (read.FLOOR, *FAINT))
        for k, cell in enumerate(geom.cells):
            rows.append(
                (
                    i,
                    *cell,
                    truth.get(cell, -1),
                    shares[k, 0],
                    shares[k, 1],
                    washed[k],
                    *(v for f in faint for v in f[k]),
                )
            )
        if (i + 1) % 10 == 0:
            print(f"{i + 1} boards", flush=True)
            np.save(out, np.array(rows, np.float64))
    np.save(out, np.array(rows, np.float64))


def curves(path: Path) -> None:
    d = np.load(path)
    truth, s0, s1, washed = d[:, 3].astype(int), d[:, 4], d[:, 5], d[:, 6]
    s = np.stack([s0, s1], axis=1)
    screen = truth >= 0
    own = np.where(screen, s[np.arange(len(s)), np.maximum(truth, 0)], 0)
    best = s.max(axis=1)
    print(
        f"{int(screen.sum())} screens, {int((~screen).sum())} empty squares, "
        f"{len(set(d[:, 0].astype(int)))} boards"
    )
    print("share t | screens with own share < t | empty squares with best share >= t")
    for t in (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8):
        lo, hi = int((screen & (own < t)).sum()), int((~screen & (best >= t)).sum())
        print(f"  {t:4.2f}  | {lo:5d} | {hi:5d}")
    print("burnt-out share w among squares called empty: screens | empty squares over w")
    for t in (0.05, 0.1, 0.2, 0.3, 0.5):
        lo = int((screen & (best < read.NONE) & (washed >= t)).sum())
        hi = int((~screen & (best < read.NONE) & (washed >= t)).sum())
        print(f"   {t:4.2f} | {lo:4d} | {hi:4d}")
    called_empty = best < read.NONE
    print(
        f"faint shares, among squares called empty today (best share < NONE = {read.NONE}): "
        "screens there are misses, which a faint share over t turns into questions; "
        "empty squares over t are questions asked for nothing"
    )
    for j, f in enumerate(FAINT):
        fs = d[:, 7 + 2 * j : 9 + 2 * j]
        fown = np.where(screen, fs[np.arange(len(fs)), np.maximum(truth, 0)], 0)
        fbest = fs.max(axis=1)
        print(f"floor {f}: t | misses still called empty | empty squares made unclear")
        for t in (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5):
            lo = int((screen & called_empty & (fown < t)).sum())
            hi = int((~screen & called_empty & (fbest >= t)).sum())
            print(f"   {t:4.2f} | {lo:4d} | {hi:4d}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--boards", type=int, default=150)
    c.add_argument("--out", type=Path, required=True)
    v = sub.add_parser("curves")
    v.add_argument("path", type=Path)
    a = p.parse_args()
    if a.cmd == "collect":
        collect(a.seed, a.boards, a.out)
    else:
        curves(a.path)


if __name__ == "__main__":
    main()
