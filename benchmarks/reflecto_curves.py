"""Reflecto reader: the curves its thresholds are chosen from, on a DEVELOPMENT set.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py collect --seed DEVSEED \\
        --boards 150 --out /tmp/reflecto-dev.npz
    PYTHONPATH=$PWD .venv/bin/python benchmarks/reflecto_curves.py curves /tmp/reflecto-dev.npz

`collect` renders boards (seeds (DEVSEED, i), a development family: never one a benchmark
reports) with the colours learned from their set-up photograph, and stores per square the
truth (empty, seat 0, seat 1) and what the reader decides on: the best share of the strip in
each seat's colour at both colour floors (`read._shares`) and what lies beside the strip
across the row (`read.surrounds`), for the seat strongest at each floor. `curves` prints,
for each threshold, how many screens and empty squares fall on each side of each candidate
value: the curve a threshold is read off.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.reflecto.vision import read  # noqa: E402
from companion.games.reflecto.vision.geometry import BoardGeometry, Cell, load_geometry  # noqa: E402
from companion.games.reflecto.vision.render import render_photo  # noqa: E402

BINS = (4.0, 6.0, 8.0)
"""Colour bins (Lab) `read.print_share` is tried with."""


def _print_shares(
    rect: read.Rectified, geom: BoardGeometry, ev: read.Evidence, cell: Cell, seat: int
) -> list[float]:
    """`read.print_share` (board alone, then with the screen's sides) at each of `BINS`
    (-1: too little beside in view)."""
    out = []
    for size in BINS:
        shares = read.print_share(rect, geom, ev, cell, seat, 1, size, size)
        out += [-1.0 if v is None else v for v in (shares.board, shares.with_sides)]
    return out


def collect(seed: int, boards: int, out: Path) -> None:
    geom = load_geometry()
    rows = []
    floors = (read.FLOOR, read.FAINT_FLOOR)
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
        ev = read.evidence(rect, geom, colours, floors)
        shares, faint = read._shares(rect, geom, colours, ev=ev)
        for k, cell in enumerate(geom.cells):
            seat, faint_seat = int(np.argmax(shares[k])), int(np.argmax(faint[k]))
            rows.append(
                (
                    i,
                    *cell,
                    truth.get(cell, -1),
                    *shares[k],
                    *faint[k],
                    *_print_shares(rect, geom, ev, cell, seat),
                    *_print_shares(rect, geom, ev, cell, faint_seat),
                )
            )
        if (i + 1) % 10 == 0:
            print(f"{i + 1} boards", flush=True)
            np.save(out, np.array(rows, np.float64))
    np.save(out, np.array(rows, np.float64))


def curves(path: Path) -> None:
    d = np.load(path)
    truth, s, faint = d[:, 3].astype(int), d[:, 4:6], d[:, 6:8]
    nb = 2 * len(BINS)
    sides, faint_sides = d[:, 8 : 8 + nb], d[:, 8 + nb : 8 + 2 * nb]
    screen = truth >= 0
    best, other = s.max(axis=1), s.min(axis=1)
    print(
        f"{int(screen.sum())} screens, {int((~screen).sum())} empty squares, "
        f"{len(set(d[:, 0].astype(int)))} boards"
    )
    own = np.where(screen, s[np.arange(len(s)), np.maximum(truth, 0)], 0)
    print("share t | screens with own share < t | empty squares with best share >= t")
    for t in (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8):
        lo, hi = int((screen & (own < t)).sum()), int((~screen & (best >= t)).sum())
        print(f"  {t:4.2f}  | {lo:5d} | {hi:5d}")
    strong = (best >= read.SURE) & (other < read.NONE)
    print(
        f"squares strongly in one colour (SURE {read.SURE}, NONE {read.NONE}): "
        f"{int((strong & screen).sum())} screens, {int((strong & ~screen).sum())} empty"
    )
    print(
        "colours found beside, max(board, with sides) >= p (bin b): screens asked | "
        "empty squares read as screens"
    )
    for j, size in enumerate(BINS):
        either = sides[:, 2 * j : 2 * j + 2].max(axis=1)
        for t in (0.05, 0.1, 0.2, 0.3, 0.5):
            p = either >= t
            lost, phantoms = int((strong & screen & p).sum()), int((strong & ~screen & ~p).sum())
            print(f"  b {size:4.1f} p {t:4.2f} | {lost:4d} | {phantoms:4d}")
    print("found on the board alone >= e (bin b): screens called empty | empty squares asked")
    for j, size in enumerate(BINS):
        board = sides[:, 2 * j]
        for t in (0.5, 0.7, 0.8, 0.9, 0.95):
            p = board >= t
            lost, asked = int((strong & screen & p).sum()), int((strong & ~screen & ~p).sum())
            print(f"  b {size:4.1f} e {t:4.2f} | {lost:4d} | {asked:4d}")
    trace = faint.max(axis=1)
    weak = (best < read.NONE) & (trace >= read.FAINT)
    print(
        f"squares short of NONE with a faint trace over FAINT {read.FAINT}: "
        f"{int((weak & screen).sum())} screens, {int((weak & ~screen).sum())} empty"
    )
    print("found on the board alone >= p (bin b): screens called empty | empty squares asked")
    for j, size in enumerate(BINS):
        board = faint_sides[:, 2 * j]
        for t in (0.05, 0.1, 0.2, 0.3, 0.5):
            p = board >= t
            lost, asked = int((weak & screen & p).sum()), int((weak & ~screen & ~p).sum())
            print(f"  b {size:4.1f} p {t:4.2f} | {lost:4d} | {asked:4d}")


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
